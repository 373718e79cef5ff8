"""Announce the board's OSC server on the LAN with zeroconf (`_osc._udp.local.`), where the optional
`zeroconf` package is installed: the host remote lists the boards it finds, so nobody types an address.

Only the address, port and a name are announced — never the passcode. Without the package (or without
multicast on the network) this does nothing and says so in the log; typing the address always works.
"""
from __future__ import annotations

import logging
import socket
import threading
from typing import Optional

log = logging.getLogger("scoreboard.links.advertise")

SERVICE = "_osc._udp.local."


def lan_address(bind: str) -> str:
    """The IPv4 address remotes should use: the bind address, or the one the default route leaves by."""
    if bind not in ("0.0.0.0", ""):
        return bind
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.255.255.255", 1))      # UDP connect sends nothing; it only picks the route
        return probe.getsockname()[0]
    except OSError:
        return "127.0.0.1"
    finally:
        probe.close()


class Advertiser:
    """Registers the service on a background thread (zeroconf probes the network for a second or two)."""

    def __init__(self, name: str, bind: str, port: int):
        self.name = (name or socket.gethostname() or "scoreboard").replace(".", "-")[:60]
        self.address, self.port = lan_address(bind), port
        self._zeroconf = None
        self._info = None
        self._thread: Optional[threading.Thread] = None
        self.error: Optional[str] = None
        self.announced = False                  # registered on the network
        self._lock = threading.Lock()
        self._stopping = False

    def start(self) -> bool:
        """False (and nothing started) when the zeroconf package is missing."""
        try:
            from zeroconf import ServiceInfo, Zeroconf  # lazy: optional dependency (the [lan] extra)
        except ImportError:
            self.error = "the zeroconf package is not installed"
            log.info("not announcing the board on the LAN: %s", self.error)
            return False
        self._info = ServiceInfo(SERVICE, f"{self.name}.{SERVICE}", port=self.port,
                                 addresses=[socket.inet_aton(self.address)],
                                 properties={"app": "svoya-scoreboard", "protocol": "1"})
        self._thread = threading.Thread(target=self._register, args=(Zeroconf,), name="zeroconf", daemon=True)
        self._thread.start()
        return True

    def _register(self, zeroconf_class) -> None:
        try:
            zc = zeroconf_class()
            with self._lock:
                self._zeroconf = zc
            zc.register_service(self._info)     # probes the network: about a second
            with self._lock:
                self.announced = not self._stopping
            if self._stopping:                  # stop() came while we were probing: clean up here
                self._withdraw()
            else:
                log.info("board announced as %r at %s:%d", self.name, self.address, self.port)
        except Exception as error:              # no multicast, a name clash: the address can still be typed
            self.error = f"{type(error).__name__}: {error}"
            log.warning("could not announce the board on the LAN: %s", self.error)

    def stop(self) -> None:
        """Withdraw the announcement; never waits for a registration still probing (it withdraws itself)."""
        with self._lock:
            self._stopping = True
            probing = self._thread is not None and self._thread.is_alive()
        if not probing:
            self._withdraw()

    def _withdraw(self) -> None:
        with self._lock:
            zc, self._zeroconf = self._zeroconf, None
            self.announced = False
        if zc is not None:
            try:
                zc.unregister_service(self._info)
            except Exception:                   # already gone with the network: closing is what matters
                pass
            zc.close()
