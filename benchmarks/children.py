"""A benchmark child process that reports in stages, one JSON line each, each stage with a
time limit of its own (benchmarks.catchup, benchmarks.clubs).

A stage that outruns its limit is a measurement, not a failure — issue 23's "today 40–100 s"
cases are reported as "over 120 s": the child (started here, and only it) is killed and the
lines read so far are returned.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from benchmarks.start import child_env


@dataclass
class Staged:
    """What a staged child reported: a JSON object per stage finished, and the stage that ran
    out of time (its index), if one did."""

    lines: list[dict[str, Any]] = field(default_factory=list)
    timed_out: int | None = None


async def staged(
    module: str,
    arguments: Sequence[str],
    timeouts_s: Sequence[float],
    *,
    stdin: bytes | None = None,
) -> Staged:
    """Run ``python3 -m module arguments…`` and read one JSON line for each limit of
    ``timeouts_s`` (each counted from the line before; the first from the start).

    Raises:
        RuntimeError: the child failed or ended early (with its error output).
    """
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        module,
        *arguments,
        stdin=asyncio.subprocess.PIPE if stdin is not None else asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env=child_env(),
    )
    assert process.stdout is not None and process.stderr is not None
    errors = asyncio.ensure_future(process.stderr.read())  # drained: a full pipe blocks it
    found = Staged()
    try:
        if stdin is not None:
            assert process.stdin is not None
            process.stdin.write(stdin)
            await process.stdin.drain()
            process.stdin.close()
        for stage, limit in enumerate(timeouts_s):
            try:
                line = await asyncio.wait_for(process.stdout.readline(), limit)
            except TimeoutError:
                found.timed_out = stage
                return found
            if not line:
                await process.wait()
                text = (await errors).decode(errors="replace")
                raise RuntimeError(
                    f"{module} ended at stage {stage + 1} ({process.returncode}): {text}"
                )
            found.lines.append(json.loads(line))
        await process.wait()
        return found
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
        if not errors.done():
            errors.cancel()
        with contextlib.suppress(asyncio.CancelledError, OSError):  # cancelled, or closed
            await errors
