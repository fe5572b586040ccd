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
    from pytest_rwe.store.response_store import (
        RECORD_MODES,
        CallKind,
        CallLabel,
        Deferral,
        DeferredCallFailed,
        RecordMode,
        RequestInfo,
        Reservation,
        ResponseStore,
        StoreMissError,
        StoreStats,
        StoreWarning,
        prompt_sha256,
        request_key,
        store_key,
    )

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
        __name__, {"Claim": "Reservation"},
        lazy_attributes(__name__, dict.fromkeys(__all__, f"{__name__}.response_store")))
