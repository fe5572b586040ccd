"""Answers remembered per object being read (a summary's tokens, a study's number index).

Several rules ask the same question of the same clause: the reader asks each outcome claim
of a clause for the groups' values in it, and the number checks ask the study index for the
entries near each written number, which repeat ("HR 0.87" in many outcomes of a long
table). Reading one summary with hundreds of outcomes then costs the product of the two
unless the answer is kept.

A :class:`Memo` keys answers by the *identity* of the object they were computed from (token
lists and indexes are not hashable, and their contents are never changed after they are
built) and holds a reference to that object, so its id cannot be reused while the answers
are kept. Only the few most recent objects are kept; a forgotten answer is computed again,
never served for another object. Safe to share between threads: a lookup that races
another computes the same answer twice.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Memo(Generic[K, V]):
    """Answers computed from an object, per object identity and key."""

    def __init__(self, owners: int = 8, per_owner: int = 65536) -> None:
        self._owners = owners
        self._per_owner = per_owner
        self._tables: OrderedDict[int, tuple[object, dict[K, V]]] = OrderedDict()
        self._lock = threading.Lock()

    def _table(self, owner: object) -> dict[K, V]:
        with self._lock:
            hit = self._tables.get(id(owner))
            if hit is not None and hit[0] is owner:
                self._tables.move_to_end(id(owner))
                return hit[1]
            table: dict[K, V] = {}
            self._tables[id(owner)] = (owner, table)
            self._tables.move_to_end(id(owner))
            while len(self._tables) > self._owners:
                self._tables.popitem(last=False)
            return table

    def get(self, owner: object, key: K, compute: Callable[[], V]) -> V:
        """The answer for ``key`` about ``owner``, computed by ``compute`` the first time."""
        table = self._table(owner)
        try:
            return table[key]
        except KeyError:
            pass
        value = compute()
        if len(table) >= self._per_owner:
            table.clear()
        table[key] = value
        return value

    def owners(self) -> int:
        """How many objects have answers kept (for tests)."""
        return len(self._tables)
