"""The `[osc]` and `[buttons]` sections of the board's config (scoreboard.toml): defaults, checking, resolving.

`validate(config)` returns every problem as "section.key: reason" and changes nothing; `resolve(config)`
returns the sections with defaults filled in (call it only on a config that validated). docs/LINKS.md lists
the keys. The passcode lives here (the board's config), never in a pack or theme.
"""
from __future__ import annotations

import ipaddress
from typing import Any

from scoreboard.links.osc.auth import parse_key

OSC_DEFAULTS: dict[str, Any] = {
    "enabled": True,
    "bind": "0.0.0.0",        # address the UDP server listens on
    "port": 9000,
    "passcode": "",           # empty: every /sg/connect is denied (no remote control until one is set)
    "view_passcode": "",      # optional second passcode that only opens `view` sessions
    "key": "",                # the board's key (osc/auth.py; the QR code's link carries it); empty: one per run
    "allow": [],              # IPs or networks ("192.168.1.0/24"); empty: any address may try to connect
    "idle_timeout": 30.0,     # seconds without a packet before a session expires
    "state_interval": 1.0,    # seconds between unprompted state re-sends
    "max_sessions": 16,
    "tcp": False,             # also accept OSC over TCP (SLIP framing) on the same port
    "advertise": True,        # announce the board as _osc._udp on the LAN (needs the zeroconf package)
    "name": "",               # the announced name; empty: this machine's host name
    "require_auth": False,    # true: a host session must connect by the authenticated mode (osc/auth.py)
}

BUTTONS_DEFAULTS: dict[str, Any] = {
    "port": "",               # serial URL for serial_for_url; empty: no box
    "baud": 115200,
    "mode": "events",         # "events" (PROTOCOL.md §5 lines) or "digits" (one ASCII digit per press)
    "players": 0,             # highest seat accepted from the box; 0: as the box's HELLO says (digits: 9)
    "reopen_interval": 0.5,   # seconds between attempts to reopen an unplugged box (<= 1)
    "ping_interval": 1.0,     # seconds between PINGs (liveness and clock mapping)
    "offline_after": 3.5,     # seconds without any line from an event box before it counts as gone
    "grace": 0.03,            # seconds the board should let deadlines lag so late-delivered presses count
    "keys": {},               # keyboard keys standing in for seats: {"1" = 1, "q" = 2}
    "gamepad": {},            # gamepad buttons standing in for seats: {"pad0:0" = 1, "pad:3" = 2}
}

# The host's remote in a browser (links/web/server.py): the board serves its page and OSC over WebSocket.
WEB_DEFAULTS: dict[str, Any] = {
    "enabled": True,
    "bind": "0.0.0.0",        # address the page's HTTP server listens on
    "port": 8080,
    "connect_within": 5.0,    # seconds a WebSocket may stay open without an OSC session
    "names": [],              # names the board is reached by beyond its addresses and host name (a club's DNS):
                              # a page loaded under one may open the WebSocket (web/guard.py origin_allowed)
}

SECTIONS = {"osc": OSC_DEFAULTS, "buttons": BUTTONS_DEFAULTS, "remote_web": WEB_DEFAULTS}


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _check_osc(section: dict, errors: list[str]) -> None:
    def bad(key: str, reason: str) -> None:
        errors.append(f"osc.{key}: {reason}")

    for key in ("enabled", "advertise", "tcp", "require_auth"):
        if key in section and not isinstance(section[key], bool):
            bad(key, f"expected true or false, got {section[key]!r}")
    if "bind" in section:
        try:
            ipaddress.ip_address(section["bind"])
        except (ValueError, TypeError):
            bad("bind", f"expected an IP address such as 0.0.0.0, got {section['bind']!r}")
    if "port" in section:
        port = section["port"]
        if not isinstance(port, int) or isinstance(port, bool) or not 0 <= port <= 65535:
            bad("port", f"expected a UDP port 0..65535 (0: any free port), got {port!r}")
    if "name" in section and (not isinstance(section["name"], str) or len(section["name"]) > 60
                              or "." in section["name"]):
        bad("name", f"expected a name of at most 60 characters without dots, got {section['name']!r}")
    for key in ("passcode", "view_passcode", "key"):
        if key in section and not isinstance(section[key], str):
            bad(key, f"expected a string, got {type(section[key]).__name__}")
    if isinstance(section.get("key"), str) and section["key"]:
        try:
            parse_key(section["key"])
        except ValueError as error:
            bad("key", f"{error} (`scoreboard config init` writes a new one)")
    if "allow" in section:
        allow = section["allow"]
        if not isinstance(allow, list):
            bad("allow", "expected a list of IP addresses or networks")
        else:
            for entry in allow:
                try:
                    ipaddress.ip_network(entry, strict=False)
                except (ValueError, TypeError):
                    bad("allow", f"not an IP address or network: {entry!r}")
    for key, low in (("idle_timeout", 1.0), ("state_interval", 0.05)):
        if key in section and (not _is_number(section[key]) or section[key] < low):
            bad(key, f"expected a number of seconds >= {low}, got {section[key]!r}")
    if "max_sessions" in section:
        value = section["max_sessions"]
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 1000:
            bad("max_sessions", f"expected an integer 1..1000, got {value!r}")


def _check_buttons(section: dict, errors: list[str]) -> None:
    def bad(key: str, reason: str) -> None:
        errors.append(f"buttons.{key}: {reason}")

    if "port" in section and not isinstance(section["port"], str):
        bad("port", f"expected a serial port or URL string such as /dev/ttyUSB0 or COM3, got {section['port']!r}")
    if "baud" in section:
        baud = section["baud"]
        if not isinstance(baud, int) or isinstance(baud, bool) or not 300 <= baud <= 4_000_000:
            bad("baud", f"expected a baud rate 300..4000000, got {baud!r}")
    if "mode" in section and section["mode"] not in ("events", "digits"):
        bad("mode", f"expected \"events\" or \"digits\", got {section['mode']!r}")
    if "players" in section:
        players = section["players"]
        if not isinstance(players, int) or isinstance(players, bool) or not 0 <= players <= 99:
            bad("players", f"expected an integer 0..99, got {players!r}")
    for key, low, high in (("reopen_interval", 0.05, 1.0), ("ping_interval", 0.1, 10.0),
                           ("offline_after", 0.5, 60.0), ("grace", 0.0, 0.2)):
        if key in section and (not _is_number(section[key]) or not low <= section[key] <= high):
            bad(key, f"expected seconds between {low} and {high}, got {section[key]!r}")
    for key in ("keys", "gamepad"):
        if key not in section:
            continue
        table = section[key]
        if not isinstance(table, dict):
            bad(key, "expected a table of name = seat")
            continue
        for name, seat in table.items():
            if not isinstance(seat, int) or isinstance(seat, bool) or not 1 <= seat <= 99:
                bad(f"{key}.{name}", f"expected a seat 1..99, got {seat!r}")
            if key == "gamepad" and not _gamepad_name_ok(name):
                bad(f"{key}.{name}", "expected \"padN:B\" (pad N, button B) or \"pad:B\" (any pad)")


def _gamepad_name_ok(name: str) -> bool:
    pad, sep, button = name.partition(":")
    return bool(sep) and pad.startswith("pad") and (pad[3:] == "" or pad[3:].isdigit()) and button.isdigit()


def validate(config: dict) -> list[str]:
    """Every error in the [osc], [buttons] and [remote_web] sections as "section.key: reason" (empty: fine)."""
    errors: list[str] = []
    if not isinstance(config, dict):
        return ["config: expected a table with [osc] and [buttons] sections"]
    for name, defaults in SECTIONS.items():
        section = config.get(name, {})
        if not isinstance(section, dict):
            errors.append(f"{name}: expected a table")
            continue
        for key in section:
            if key not in defaults:
                errors.append(f"{name}.{key}: unknown key (known: {', '.join(defaults)})")
        CHECKS[name](section, errors)
    return errors


def _check_web(section: dict, errors: list[str]) -> None:
    if "enabled" in section and not isinstance(section["enabled"], bool):
        errors.append("remote_web.enabled: expected true or false")
    if "bind" in section and not isinstance(section["bind"], str):
        errors.append('remote_web.bind: expected an address such as "0.0.0.0"')
    port = section.get("port", 8080)
    if not isinstance(port, int) or isinstance(port, bool) or not 0 <= port <= 65535:
        errors.append("remote_web.port: expected an integer from 0 to 65535")
    within = section.get("connect_within", 5.0)
    if not _is_number(within) or not 0 < within <= 600:
        errors.append("remote_web.connect_within: expected seconds, above 0 and at most 600")
    names = section.get("names", [])
    if not isinstance(names, list) or not all(isinstance(n, str) and n and len(n) <= 253 for n in names):
        errors.append('remote_web.names: expected a list of host names, e.g. ["board.club.lan"]')


CHECKS = {"osc": _check_osc, "buttons": _check_buttons, "remote_web": _check_web}


def resolve(config: dict) -> dict:
    """The sections with every default filled in."""
    return {name: {**defaults, **(config.get(name) or {})} for name, defaults in SECTIONS.items()}
