"""The console adapter: the bot on a terminal, no token needed (``hoshi console``).

Interactive on a terminal; when standard input is not a terminal it reads one command per
line and prints each reply, so a whole club session can be scripted::

    hoshi console --db club.sqlite < session.txt

The console user is the club's organiser. Pictures and files are written to the charts
directory and their paths printed. A pasted table follows its command as a block::

    /tournament import <<END
    ; EV[Spring Cup]
    ...
    END

At a terminal the prompt edits the line and keeps a history per database (prompt_toolkit;
the up arrow recalls earlier lines, also those of past sessions), and a table pasted right after
its command (``/tournament import``, then the paste, then Enter) is that command's block.

Every command starts with a slash: a line without one (``undo``) is refused with a hint, never
run. Lines starting with ``#`` are comments. ``/as NAME /command …`` runs a command as another
member of the chat (not an organiser), e.g. to report a game and confirm it from one terminal.

At the prompt Ctrl-C clears the line (as a shell does) and drops a half-pasted block; a second
Ctrl-C with no line entered in between, or Ctrl-D, quits.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import re
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any, TextIO

from platformdirs import user_data_dir
from prompt_toolkit import PromptSession
from prompt_toolkit.history import FileHistory, InMemoryHistory
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.keys import Keys
from prompt_toolkit.output import Output

from bot.clock import FakeClock
from bot.config import Config, GivenOptions
from bot.core import facade
from bot.core.app import Core
from bot.core.command_table import lookup
from bot.core.facade import (
    Club,
    Database,
    StorageError,
    chat_language,
    is_url,
    open_db,
    without_password,
)
from bot.core.invocation import Caller, Invocation
from bot.core.replies import Notice, Reply
from bot.core.scheduler import Scheduler
from bot.i18n import N_, _, _n, language_name, terminal_language, translated, using
from bot.i18n.catalogues import SOURCE
from bot.web.urls import WebLinks

Reader = Callable[[str], str]  # input(): a line, EOFError at the end, KeyboardInterrupt on ^C

PROMPT = "hoshi> "
MORE = "... "
QUIT_HINT = N_("(Ctrl-C again on an empty line, or Ctrl-D, quits.)")
PLATFORM = "console"
CALLER = Caller(PLATFORM, "local", "console", chat_admin=True)
"""The console user as the log names them (the club's organiser)."""


AS_PREFIX = "as:"
"""The accounts of the people ``/as NAME`` plays: ``console:as:Kovács_Anna``, apart from the
operator's ``console:local`` whatever the name (issue 26: ``/as local`` acted as the organiser)."""


def console_caller() -> Caller:
    """The console user, in the language of their locale (``LC_ALL``/``LC_MESSAGES``/``LANG``)
    when hoshi has a catalogue for it."""
    language = terminal_language()
    return CALLER if language is None else replace(CALLER, language=language)


_HEREDOC = re.compile(r"\s*<<\s*([A-Za-z_]+)\s*$")


def chat_id(club: Club) -> str:
    """The console's chat for a club: each club of the database has its own."""
    return f"club-{club.id}"


def invocation(line: str, chat: str, attachment: bytes | None = None) -> Invocation:
    """A console line as an invocation (the leading ``/`` is optional here:
    :meth:`Console.run_line` refuses a line without one before it gets this far).

    ``/as NAME /command …`` runs the command as another person in the club's chat — an
    ordinary member, not an organiser (console only: to try players' reports and
    confirmations, or permissions, from one terminal). The operator's own lines are a private
    conversation: answered in the terminal's language (:func:`console_caller`).
    """
    text = line.strip().lstrip("/")
    caller = console_caller()
    operator = True
    if text.startswith("as ") and " /" in text:
        who, _sep, text = text[3:].partition(" /")
        who = who.strip()
        # an account of its own kind: never the operator's (``/as local`` is not ``local``)
        caller = Caller(PLATFORM, AS_PREFIX + who.replace(" ", "_"), who, chat_admin=False)
        operator = False
    name, _sep, rest = text.partition(" ")
    attachment_name = "pasted.txt" if attachment is not None else None
    if attachment is None:
        rest, attachment, attachment_name = sgf_from_disk(rest)
    return Invocation(
        command=name,
        text=rest.strip(),
        caller=caller,
        chat_id=chat,
        # the operator talks with the bot one to one: answered in the terminal's language
        # when hoshi has it (else the club's); a member played with /as is in the club's chat
        private=operator,
        attachment=attachment,
        attachment_name=attachment_name,
    )


def sgf_from_disk(text: str) -> tuple[str, bytes | None, str | None]:
    """``/result path/to/game.sgf``: the console's way of attaching a game's file — the first
    word naming an ``.sgf`` file on disk is read and sent as the attachment (the words left,
    the file's bytes, its name); a line without one is left as it is."""
    words = text.split(" ")
    for index, word in enumerate(words):
        path = Path(word.strip().strip('"')).expanduser()
        if path.suffix.lower() == ".sgf" and path.is_file():
            rest = " ".join(words[:index] + words[index + 1 :])
            return rest, path.read_bytes(), path.name
    return text, None, None


def commands(lines: Iterator[str]) -> Iterator[tuple[str, bytes | None]]:
    """Command lines with their pasted blocks; comments and blank lines skipped."""
    for raw in lines:
        line = raw.rstrip("\n")
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        match = _HEREDOC.search(line)
        if match is None:
            yield line, None
            continue
        end = match.group(1)
        block: list[str] = []
        for body in lines:
            if body.rstrip("\n").strip() == end:
                break
            block.append(body.rstrip("\n"))
        yield line[: match.start()], ("\n".join(block) + "\n").encode("utf-8")


MAX_SHOWN = 60
"""A line longer than this is shown by its first word in the hint for a missing slash."""


def slashless(line: str, attachment: bytes | None = None) -> str | None:
    """Why ``line`` is not run, when it does not start with a slash (``undo`` must not undo a
    game): a hint in the current language naming the command it may have meant; ``None`` for
    a command. A block with no command before it is a table pasted on its own."""
    text = line.strip()
    if text.startswith("/"):
        return None
    if attachment is not None:
        return _(
            "That looks like a table pasted without its command: type the command first "
            "(e.g. {example}), paste the table right after it, then press Enter.",
            example="/tournament import",
        )
    word = text.split(maxsplit=1)[0]
    if lookup(word) is None:
        return _(
            "{line} is not a command: commands start with a slash. Type {help} for the list.",
            line=repr(text if len(text) <= MAX_SHOWN else text[:MAX_SHOWN] + "…"),
            help="/help",
        )
    meant = "/" + (text if len(text) <= MAX_SHOWN else word + " …")
    return _(
        "Commands start with a slash: {command}. Type {help} for the list.",
        command=meant,
        help="/help",
    )


def entered(text: str) -> list[tuple[str, bytes | None]]:
    """What was entered at the terminal's prompt in one go, as commands with their blocks.

    A paste of several commands (every line starting with ``/``, or with ``<<END`` blocks) is
    those commands; a command followed by other lines (a results table pasted after
    ``/tournament import``) is that command with the lines as its block, as a pasted table
    below the command is in a Telegram message. Comments and blank lines are skipped.
    """
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    meaningful = [n for n, line in enumerate(lines) if line.strip() and not _comment(line)]
    if not meaningful:
        return []
    if any(_HEREDOC.search(line) for line in lines) or all(
        lines[n].lstrip().startswith("/") for n in meaningful
    ):
        return list(commands(iter(lines)))
    first = meaningful[0]
    block = "\n".join(lines[first + 1 :]).strip("\n")
    if not block.strip():
        return [(lines[first], None)]
    return [(lines[first], (block + "\n").encode("utf-8"))]


def _comment(line: str) -> bool:
    return line.lstrip().startswith("#")


class Console:
    """Renders replies as plain text; pictures and documents go to ``out_dir``."""

    def __init__(self, core: Core, club: Club, out: TextIO, out_dir: Path) -> None:
        self.core = core
        self.chat = chat_id(club)
        self.out = out
        self.out_dir = out_dir
        self._pending: asyncio.Future[str] | None = None  # a read a Ctrl-C did not end
        self._interrupted = asyncio.Event()

    async def language(self) -> str:
        """The language of the console's own words beside a reply: the club's."""
        return await chat_language(self.core.db, PLATFORM, self.chat)

    async def user_language(self) -> str:
        """The language of the prompt's hints: the console user's locale, else the club's."""
        return terminal_language() or await self.language()

    async def show_notice(self, notice: Notice) -> None:
        """What the bot posts by itself (a summary, a finalisation) to the club's chats, shown
        to the operator in the operator's language (one language in what the console prints,
        as in a reply), naming the language the chats got it in when that is another."""
        posted_in, reader = await self.language(), await self.user_language()
        with using(reader):
            posted = (
                _n(
                    "[sent privately to {n} member]",
                    "[sent privately to {n} members]",
                    len(notice.accounts),
                )
                if notice.accounts
                else _("[posted to the chats of the club]")
                if posted_in == reader
                else _(
                    "[posted to the chats of the club, in {language}]",
                    language=language_name(posted_in),
                )
            )
            self.out.write(f"{posted}\n{self.render(notice.reply.in_language(reader))}\n\n")
        self.out.flush()

    async def run_line(self, line: str, attachment: bytes | None = None) -> Reply:
        """Run one command (with its pasted block) and print the reply; a line without a
        slash is refused with a hint (:func:`slashless`), never run."""
        with using(await self.user_language()):
            hint = slashless(line, attachment)
            if hint is not None:
                refused = Reply.text(hint, error=True, private=True)
                self.out.write(self.render(refused) + "\n")
                self.out.flush()
                return refused
        inv = invocation(line, self.chat, attachment)
        reply = await self.core.handle(inv)
        # the words beside the reply in the reply's own language (the operator's or the club's)
        with using(await (self.user_language() if inv.private else self.language())):
            self.out.write(self.render(reply) + "\n")
        self.out.flush()
        return reply

    def render(self, reply: Reply) -> str:
        """The reply as plain text, in the current language; pictures and files are written
        to the charts directory and their paths shown."""
        parts = [reply.as_text()] if reply.blocks else []
        if reply.picture is not None:
            path = self._write(reply.picture.filename, reply.picture.png)
            parts.append(_("[picture written to {path}]", path=str(path)))
        if reply.document is not None:
            path = self._write(reply.document.filename, reply.document.data)
            parts.append(_("[file written to {path}]", path=str(path)))
        parts.extend(
            _("[button: {label}] → {command}", label=b.label, command=b.command)
            for b in reply.buttons
        )
        return "\n".join(parts)

    def _write(self, filename: str, data: bytes) -> Path:
        self.out_dir.mkdir(parents=True, exist_ok=True)
        path = _free_path(self.out_dir / bounded_file_name(filename))
        path.write_bytes(data)
        return path

    async def script(self, source: TextIO, echo: bool = True) -> int:
        """Run every command of ``source``; returns how many replies were errors."""
        errors = 0
        for line, attachment in commands(iter(source)):
            if echo:
                self.out.write(f"> {line.strip()}\n")
            reply = await self.run_line(line, attachment)
            errors += reply.error
            if echo:
                self.out.write("\n")
        return errors

    async def interactive(
        self, read: Reader | None = None, *, prompter: TerminalPrompter | None = None
    ) -> None:
        """Prompt for commands until Ctrl-D, or Ctrl-C twice with no line between.

        With ``prompter`` (a :class:`TerminalPrompter`) lines are edited and read on the event
        loop, and what is entered in one go may be several lines (a paste, :func:`entered`).
        Otherwise ``read`` (default ``input``) is called in a daemon thread (the scheduler keeps
        running meanwhile); a real Ctrl-C reaches the event loop as SIGINT: the terminal has
        dropped what was typed and the read goes on, so only the prompt is shown again. A
        ``read`` that raises KeyboardInterrupt itself (the tests' fake input) is treated the
        same way.
        """
        with using(await self.user_language()):
            welcome = _(
                "hoshi console — you are the club's organiser. /help lists the commands; "
                "Ctrl-C clears the line, Ctrl-D quits."
            )
            hint = _(QUIT_HINT)
        self.out.write(f"{welcome}\n")
        loop = asyncio.get_running_loop()
        catching = _catch_sigint(loop, self._interrupted.set)
        quitting = False
        try:
            while True:
                try:
                    entries = await self._read_command(prompter or read or input)
                except KeyboardInterrupt:
                    if quitting:
                        self.out.write("\n")
                        return
                    quitting = True
                    self.out.write(f"\n{hint}\n")
                    if self._pending is not None:  # the read goes on: show its prompt again
                        self.out.write(PROMPT)
                    self.out.flush()
                    continue
                except EOFError:
                    self.out.write("\n")
                    return
                if entries:  # a blank line leaves a pending Ctrl-C pending
                    quitting = False
                for command in entries:
                    await self.run_line(*command)
        finally:
            if catching:
                loop.remove_signal_handler(signal.SIGINT)

    async def _read_command(
        self, read: Reader | TerminalPrompter
    ) -> list[tuple[str, bytes | None]]:
        """What was entered at one prompt: a command and its pasted block, or the commands of
        a paste (none for a blank line).

        Raises:
            EOFError: Ctrl-D at the prompt. KeyboardInterrupt: Ctrl-C (the line, or the
                half-pasted block, is dropped).
        """
        line = await self._ask(read, PROMPT)
        if not line.strip():
            return []
        if "\n" in line or "\r" in line:  # a paste at the terminal, taken whole
            return entered(line)
        match = _HEREDOC.search(line)
        if match is None:
            return [(line, None)]
        block = []
        while True:
            try:
                body = await self._ask(read, MORE)
            except EOFError:
                break
            if body.strip() == match.group(1):
                break
            block.append(body)
        return [(line[: match.start()], ("\n".join(block) + "\n").encode("utf-8"))]

    async def _ask(self, read: Reader | TerminalPrompter, prompt: str) -> str:
        """A line from ``read`` (a :class:`TerminalPrompter` on the loop, any other reader in a
        daemon thread), or KeyboardInterrupt on Ctrl-C."""
        if isinstance(read, TerminalPrompter):
            self._interrupted.clear()  # a Ctrl-C while a command ran has nothing to drop
            return await read(prompt)  # Ctrl-C, Ctrl-D: KeyboardInterrupt, EOFError
        loop = asyncio.get_running_loop()
        if self._pending is None:
            self._pending = _read_in_thread(loop, read, prompt)
        interrupt: asyncio.Future[Any] = asyncio.ensure_future(self._interrupted.wait())
        waiting: set[asyncio.Future[Any]] = {self._pending, interrupt}
        try:
            await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
        finally:
            interrupt.cancel()
        if self._pending.done():
            done, self._pending = self._pending, None
            self._interrupted.clear()
            return done.result()  # or its EOFError / KeyboardInterrupt
        self._interrupted.clear()
        raise KeyboardInterrupt


class TerminalPrompter:
    """The prompt at a terminal (prompt_toolkit): line editing, the commands' history kept in
    ``history`` across sessions (the lines of a ``<<END`` block are not kept), and a paste
    taken whole (:func:`pasting`).

    Called with a prompt, returns what was entered; raises KeyboardInterrupt on Ctrl-C and
    EOFError on Ctrl-D at an empty prompt. ``input`` and ``output`` default to the terminal.
    """

    def __init__(
        self, history: Path | None, *, input: Input | None = None, output: Output | None = None
    ) -> None:
        bindings = pasting()
        kept = InMemoryHistory() if history is None else FileHistory(str(history))
        self.commands: PromptSession[str] = PromptSession(
            history=kept, key_bindings=bindings, input=input, output=output
        )
        self.block: PromptSession[str] = PromptSession(
            history=InMemoryHistory(), key_bindings=bindings, input=input, output=output
        )

    async def __call__(self, prompt: str) -> str:
        session = self.commands if prompt == PROMPT else self.block
        # Ctrl-C at the prompt is a key (the terminal is raw); the console keeps SIGINT
        return await session.prompt_async(
            prompt,
            handle_sigint=False,
            set_exception_handler=False,
            pre_run=lambda: self.started(session),
        )

    def started(self, session: PromptSession[str]) -> None:
        """The prompt is up: its history loads before the first key is read (prompt_toolkit
        would load it at the first drawing, after keys typed at once with the prompt)."""
        session.default_buffer.load_history_if_not_yet_loaded()


def pasting() -> KeyBindings:
    """A bracketed paste inserted as it is, line breaks and all (Enter then runs it whole); a
    paste of several lines after a typed command starts on the line below it, so that
    ``/tournament import`` followed by a pasted table is the command and its block."""
    bindings = KeyBindings()

    @bindings.add(Keys.BracketedPaste)
    def _paste(event: KeyPressEvent) -> None:
        data = event.data.replace("\r\n", "\n").replace("\r", "\n").rstrip("\n")
        buffer = event.current_buffer
        before = buffer.document.text_before_cursor
        if "\n" in data and before.strip() and not before.endswith("\n"):
            data = "\n" + data
        buffer.insert_text(data)

    return bindings


def terminal_prompter(history: Path | None) -> TerminalPrompter:
    """The prompt on this process's terminal (the tests give one on a pipe instead)."""
    return TerminalPrompter(history)


def history_file(target: str | Path) -> Path | None:
    """Where the console keeps the lines typed for a database: beside a SQLite file
    (``club.sqlite.history``); for a PostgreSQL URL, in the user data directory, named after a
    hash of the URL without its password. ``None`` where no file can be written (the history
    then lasts one session)."""
    text = str(target)
    if is_url(text):
        digest = hashlib.sha256(without_password(text).encode("utf-8")).hexdigest()[:16]
        path = Path(user_data_dir("hoshi", appauthor=False)) / f"console-{digest}.history"
    elif text == ":memory:":
        return None
    else:
        path = Path(target).expanduser()
        path = path.with_name(path.name + ".history")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.touch()
    except OSError:
        return None
    return path


@contextlib.contextmanager
def _above_the_prompt(console: Console) -> Iterator[None]:
    """Replies and notices printed while a prompt is shown go above it, not into it."""
    if console.out is not sys.stdout:
        yield
        return
    from prompt_toolkit.patch_stdout import patch_stdout

    out = console.out
    with patch_stdout(raw=True):
        console.out = sys.stdout
        try:
            yield
        finally:
            console.out = out


def _read_in_thread(
    loop: asyncio.AbstractEventLoop, read: Reader, prompt: str
) -> asyncio.Future[str]:
    """Call ``read(prompt)`` in a daemon thread (one that never holds the exit up while it
    waits for a line); its line, or what it raised, settles the returned future."""
    future: asyncio.Future[str] = loop.create_future()

    def settle(line: str | None, error: BaseException | None) -> None:
        if future.done():
            return
        if error is not None:
            future.set_exception(error)
        else:
            assert line is not None
            future.set_result(line)

    def work() -> None:
        try:
            line = read(prompt)
        except BaseException as exc:  # EOFError, KeyboardInterrupt: the caller's to handle
            result: tuple[str | None, BaseException | None] = (None, exc)
        else:
            result = (line, None)
        with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
            loop.call_soon_threadsafe(settle, *result)

    threading.Thread(target=work, name="hoshi-console-input", daemon=True).start()
    return future


def _catch_sigint(loop: asyncio.AbstractEventLoop, handler: Callable[[], None]) -> bool:
    """Route Ctrl-C to ``handler`` instead of stopping the program (where signals allow)."""
    if threading.current_thread() is not threading.main_thread():
        return False
    try:
        loop.add_signal_handler(signal.SIGINT, handler)
    except (NotImplementedError, RuntimeError, ValueError):  # not on this platform
        return False
    return True


FILE_NAME_BYTES = 120
"""The longest file name the console writes, in UTF-8 bytes (file systems take 255)."""


def bounded_file_name(name: str) -> str:
    """``name`` with its stem cut to :data:`FILE_NAME_BYTES` (whole characters), the suffix
    kept: a reply's file of any name can be written (issue 26: "File name too long")."""
    path = Path(name)
    stem, suffix = path.stem, path.suffix
    while len((stem + suffix).encode()) > FILE_NAME_BYTES and stem:
        stem = stem[:-1]
    return (stem or "file") + suffix


def _free_path(path: Path) -> Path:
    """``path``, or ``name-2.png``, ``name-3.png`` … if it exists."""
    if not path.exists():
        return path
    for n in range(2, 10_000):
        candidate = path.with_name(f"{path.stem}-{n}{path.suffix}")
        if not candidate.exists():
            return candidate
    raise OSError(f"too many files named like {path}")


def stdin_is_terminal() -> bool:
    return sys.stdin.isatty()


async def run_console(
    config: Config,
    *,
    db_path: str | Path | None = None,
    club: str | None = None,
    system: str | None = None,
    new_club: bool = False,
    echo: bool = True,
    source: TextIO | None = None,
    out: TextIO | None = None,
    clock: FakeClock | None = None,
) -> int:
    """Open the club and run the console until the input ends; returns the exit status.

    ``club`` names the club (refused when the database holds others but not it); with
    ``new_club`` (``--new-club``) it is made. With ``clock`` (``--clock``) time stands still
    until ``/tick`` moves it, and the scheduler runs only then; otherwise the scheduler runs
    on the real clock as ``hoshi run``'s does.
    """
    path = db_path or config.database
    if isinstance(path, Path):
        path = path.expanduser()
        path.parent.mkdir(parents=True, exist_ok=True)
    out = out or sys.stdout
    db = await open_db(path, clock=clock) if clock else await open_db(path)
    scheduler: Scheduler | None = None
    try:
        try:
            the_club = await console_club(
                db,
                club,
                system or config.system,
                config.club,
                config.timezone,
                new=new_club,
                given=config.given,
            )
        except StorageError as exc:
            with using(terminal_language() or SOURCE):
                message = translated(exc.args[0]) if exc.args else str(exc)
            out.write(f"hoshi: {message}\n")
            return 2
        core = Core(db, config, links=WebLinks(config.web.base_url))
        console = Console(core, the_club, out, config.charts_dir)
        core.deliver = console.show_notice
        scheduler = core.scheduler = Scheduler(core, core.deliver, timers=clock is None)
        await scheduler.start()
        if source is None and stdin_is_terminal():
            with using(await console.user_language()):
                header = _(
                    "Club: {club} ({system}) · database: {path}",
                    club=the_club.name,
                    system=the_club.system,
                    path=str(path),
                )
            out.write(f"{header}\n")
            prompter = terminal_prompter(history_file(path))
            with _above_the_prompt(console):
                await console.interactive(prompter=prompter)
            return 0
        errors = await console.script(source or sys.stdin, echo=echo)
        return 1 if errors and not echo else 0
    finally:
        if scheduler is not None:
            await scheduler.stop()
        await db.close()


async def console_club(
    db: Database,
    name: str | None,
    system: str,
    default: str,
    timezone: str = "UTC",
    *,
    new: bool = False,
    given: GivenOptions | None = None,
) -> Club:
    """The console's club — named, or the only one — bound to the console chat
    (:func:`bot.core.facade.bound_club`: a name that is none of the clubs of a database that
    has some is refused unless ``new``, ``--new-club NAME``, asks for that club to be made).

    Raises:
        Refused: an unknown ``name`` where there are clubs, a ``new`` club whose name is
            taken, or several clubs and no name.
    """
    return await facade.bound_club(
        db,
        name,
        system,
        default,
        timezone,
        new=new,
        platform=PLATFORM,
        chat_of=chat_id,
        actor=CALLER.identity,
        new_club=lambda club: (given or GivenOptions()).command(
            "console", "--new-club", club, club=False
        ),
    )
