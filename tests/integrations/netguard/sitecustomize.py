"""A network guard loaded at interpreter start (put this folder on PYTHONPATH).

Every socket connection to a non-loopback address, and every name lookup of a host that is
not local, is refused (OSError) and appended as one line to the file named by
``RWE_NETGUARD_LOG``. Loaded before any test code, so it also sees what a package does at
import time (telemetry, update checks). Without ``RWE_NETGUARD_LOG`` it does nothing.
"""

from __future__ import annotations

import ipaddress
import os
import socket
import traceback
from typing import Any

_LOG = os.environ.get("RWE_NETGUARD_LOG")
_LOCAL_NAMES = {"localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback"}


def _is_local(host: object) -> bool:
    if host is None:
        return True  # getaddrinfo(None, port): the local wildcard address
    if isinstance(host, bytes):
        host = host.decode("ascii", "replace")
    text = str(host).strip("[]").lower()
    if text in _LOCAL_NAMES or text == "":
        return True
    try:
        address = ipaddress.ip_address(text.split("%", 1)[0])
    except ValueError:
        return False  # a host name that is not local
    return address.is_loopback or address.is_unspecified


def _record(what: str) -> None:
    # the innermost frames outside this file say who tried
    frames = [f for f in traceback.extract_stack()[:-2] if f.filename != __file__][-4:]
    where = " <- ".join(f"{os.path.basename(f.filename)}:{f.lineno}" for f in reversed(frames))
    with open(_LOG or os.devnull, "a", encoding="utf-8") as handle:
        handle.write(f"{what} [{where}]\n")


def _install() -> None:
    real_connect = socket.socket.connect
    real_connect_ex = socket.socket.connect_ex
    real_getaddrinfo = socket.getaddrinfo

    def _check(sock: socket.socket, address: Any) -> None:
        if sock.family in (socket.AF_INET, socket.AF_INET6) and not _is_local(address[0]):
            _record(f"connect {address!r}")
            raise OSError(f"netguard: network access refused: connect to {address!r}")

    def connect(self: socket.socket, address: Any) -> None:
        _check(self, address)
        return real_connect(self, address)

    def connect_ex(self: socket.socket, address: Any) -> int:
        _check(self, address)
        return real_connect_ex(self, address)

    def getaddrinfo(host: Any, *args: Any, **kwargs: Any) -> Any:
        if not _is_local(host):
            _record(f"getaddrinfo {host!r}")
            raise socket.gaierror(socket.EAI_NONAME, f"netguard: lookup of {host!r} refused")
        return real_getaddrinfo(host, *args, **kwargs)

    socket.socket.connect = connect  # type: ignore[method-assign,assignment]
    socket.socket.connect_ex = connect_ex  # type: ignore[method-assign,assignment]
    socket.getaddrinfo = getaddrinfo


if _LOG:
    _install()
