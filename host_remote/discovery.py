"""Boards on the LAN via zeroconf (`_osc._udp.local.`), only where the optional `zeroconf` package is installed.

Discovery is a convenience: the host can always type the address. Without the package, `Discovery.available` is
False and `boards()` stays empty; nothing else in the remote depends on it.
"""
from __future__ import annotations

import threading

try:  # optional dependency
    from zeroconf import ServiceBrowser, Zeroconf
except ImportError:  # pragma: no cover - depends on the machine
    ServiceBrowser = Zeroconf = None

SERVICE = "_osc._udp.local."


class Discovery:
    def __init__(self) -> None:
        self.available = Zeroconf is not None
        self._found: dict[str, tuple[str, str, int]] = {}
        self._lock = threading.Lock()
        self._zeroconf = None
        self._browser = None

    def start(self) -> None:
        if not self.available or self._zeroconf is not None:
            return
        try:
            self._zeroconf = Zeroconf()
            self._browser = ServiceBrowser(self._zeroconf, SERVICE, handlers=[self._on_change])
        except OSError:
            self.available = False   # no multicast on this network: typing the address still works

    def _on_change(self, zeroconf, service_type, name, state_change) -> None:
        # Runs on zeroconf's own thread, which must not block: resolving the address waits on the network, so it
        # gets a thread of its own. Only the dict is shared; the UI reads it with boards().
        if getattr(state_change, "name", "") == "Removed":
            with self._lock:
                self._found.pop(name, None)
            return
        threading.Thread(target=self._resolve, args=(zeroconf, service_type, name), daemon=True).start()

    def _resolve(self, zeroconf, service_type, name) -> None:
        try:
            info = zeroconf.get_service_info(service_type, name, timeout=1000)
        except Exception:   # a board that vanished mid-lookup, or a closed Zeroconf: it simply is not listed
            return
        if info is None:
            return
        addresses = info.parsed_addresses() if hasattr(info, "parsed_addresses") else []
        ipv4 = [a for a in addresses if ":" not in a]
        if ipv4:
            label = name.removesuffix("." + SERVICE)
            with self._lock:
                self._found[name] = (label, ipv4[0], int(info.port))

    def boards(self) -> list[tuple[str, str, int]]:
        """(label, address, port) of every board seen, sorted by label."""
        with self._lock:
            return sorted(self._found.values())

    def stop(self) -> None:
        if self._zeroconf is not None:
            self._zeroconf.close()
            self._zeroconf = None
