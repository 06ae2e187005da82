"""What the web server keeps until a club's data moves on (issue 14: ranking pages; issue 26:
downloads): one bounded store, the oldest entry dropped first."""

from __future__ import annotations

from typing import Generic, TypeVar

__all__ = ["Kept"]

T = TypeVar("T")


class Kept(Generic[T]):
    """Values under keys that name the club's data version (a new log entry, a rebuilt
    projection, a new day make a new key), at most ``size`` of them: the oldest kept goes
    first."""

    __slots__ = ("size", "values")

    def __init__(self, size: int) -> None:
        self.size = size
        self.values: dict[tuple[object, ...], T] = {}

    def get(self, key: tuple[object, ...]) -> T | None:
        """The value kept under ``key``, if any."""
        return self.values.get(key)

    def keep(self, key: tuple[object, ...], value: T) -> T:
        """Keep ``value`` under ``key`` (dropping the oldest when full); ``value`` itself."""
        if len(self.values) >= self.size:
            del self.values[next(iter(self.values))]
        self.values[key] = value
        return value
