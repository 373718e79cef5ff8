"""`[watch]` in the board's config: the relay that serves the hall's phones (/watch) and the stream's overlay
(/overlay) — docs/STREAMING.md. `check(section)` returns every problem as "watch.key: reason" and changes nothing."""
from __future__ import annotations

import ipaddress
import re
import secrets
from typing import Any

WATCH_DEFAULTS: dict[str, Any] = {
    "enabled": False,         # true: `scoreboard run` starts the relay beside itself (a process of its own)
    "bind": "0.0.0.0",        # where the relay listens
    "port": 8090,
    "key": "",                # the view key the QR and the overlay's link carry; empty: a new one each run
    "max_viewers": 500,       # WebSockets of viewers in all
    "per_address": 16,        # connections from one address (a phone needs 2–3)
    "send_timeout": 10.0,     # seconds a viewer's socket may take to accept a message before it is closed
    "names": [],              # names the relay is reached by beyond its addresses (guard.origin_allowed)
}
KEY = re.compile(r"[A-Za-z0-9_-]{16,64}")


def new_view_key() -> str:
    """128 random bits, URL-safe: what the QR's link carries after `#k=`."""
    return secrets.token_urlsafe(16)


def check(section: dict) -> list[str]:
    errors: list[str] = []

    def bad(key: str, reason: str) -> None:
        errors.append(f"watch.{key}: {reason}")

    for key in section:
        if key not in WATCH_DEFAULTS:
            bad(key, f"unknown key (known: {', '.join(WATCH_DEFAULTS)})")
    if not isinstance(section.get("enabled", False), bool):
        bad("enabled", f"expected true or false, got {section['enabled']!r}")
    if "bind" in section:
        try:
            ipaddress.ip_address(section["bind"])
        except (ValueError, TypeError):
            bad("bind", f"expected an IP address such as 0.0.0.0, got {section['bind']!r}")
    for key, low, high in (("port", 0, 65535), ("max_viewers", 1, 10_000), ("per_address", 1, 1000)):
        value = section.get(key, WATCH_DEFAULTS[key])
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            bad(key, f"expected an integer {low}..{high}, got {value!r}")
    timeout = section.get("send_timeout", 10.0)
    if not isinstance(timeout, (int, float)) or isinstance(timeout, bool) or not 0.1 <= timeout <= 120:
        bad("send_timeout", f"expected seconds 0.1..120, got {timeout!r}")
    key = section.get("key", "")
    if not isinstance(key, str) or (key and not KEY.fullmatch(key)):
        bad("key", "expected 16–64 letters, digits, '-' or '_' (empty: a new one each run)")
    names = section.get("names", [])
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        bad("names", "expected a list of host names")
    return errors


def resolve(section: dict | None) -> dict:
    return {**WATCH_DEFAULTS, **(section or {})}
