"""The response store: every model call kept as one small JSON file, shared by processes.

- :mod:`~pytest_rwe.store.response_store`: :class:`ResponseStore` (replay, record, single
  flight across processes);
- :mod:`~pytest_rwe.store.keys`: the key of a call; :mod:`~pytest_rwe.store.layout`: where
  each call is filed (one file per logical call); :mod:`~pytest_rwe.store.entry`: one stored
  call (an *entry*) as JSON and the store's errors; :mod:`~pytest_rwe.store.changes`: what
  changed when a stored key does not match; :mod:`~pytest_rwe.store.maintenance`: prune and
  migrate;
- :mod:`~pytest_rwe.store.reservation`, :mod:`~pytest_rwe.store.locks`,
  :mod:`~pytest_rwe.store.lock_files`, :mod:`~pytest_rwe.store.wait`: making a call once
  across processes;
- :mod:`~pytest_rwe.store.budget`: one budget per provider across processes;
- :mod:`~pytest_rwe.store.leader`: the one xdist worker that calls the models.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pytest_rwe import lazy_attributes, renamed_attributes

if TYPE_CHECKING:
    from pytest_rwe.store.entry import RequestInfo, StoreMissError, StoreStats, StoreWarning
    from pytest_rwe.store.keys import prompt_sha256, request_key, store_key
    from pytest_rwe.store.layout import CallKind, CallLabel
    from pytest_rwe.store.leader import Deferral, DeferredCallFailed
    from pytest_rwe.store.reservation import Reservation
    from pytest_rwe.store.response_store import RECORD_MODES, RecordMode, ResponseStore

#: the store's public names, each from the module that defines it (the one list of them)
_HOMES = {
    **dict.fromkeys(["RequestInfo", "StoreMissError", "StoreStats", "StoreWarning"],
                    f"{__name__}.entry"),
    **dict.fromkeys(["prompt_sha256", "request_key", "store_key"], f"{__name__}.keys"),
    **dict.fromkeys(["CallKind", "CallLabel"], f"{__name__}.layout"),
    **dict.fromkeys(["Deferral", "DeferredCallFailed"], f"{__name__}.leader"),
    "Reservation": f"{__name__}.reservation",
    **dict.fromkeys(["RECORD_MODES", "RecordMode", "ResponseStore"],
                    f"{__name__}.response_store"),
}

__all__ = [
    "RECORD_MODES",
    "CallKind",
    "CallLabel",
    "Deferral",
    "DeferredCallFailed",
    "RecordMode",
    "RequestInfo",
    "Reservation",
    "ResponseStore",
    "StoreMissError",
    "StoreStats",
    "StoreWarning",
    "prompt_sha256",
    "request_key",
    "store_key",
]

if not TYPE_CHECKING:  # imported on first use: the leader's notes need none of the store
    __getattr__ = renamed_attributes(  # Claim: the old name of Reservation, for one release
        __name__, {"Claim": "Reservation"}, lazy_attributes(__name__, _HOMES))
