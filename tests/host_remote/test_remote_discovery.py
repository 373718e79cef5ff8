"""Boards on the LAN via zeroconf `_osc._udp` (optional: the `zeroconf` package is not a dependency)."""
import socket
import time

import pytest

from host_remote.discovery import Discovery


def test_without_zeroconf_discovery_is_simply_unavailable(monkeypatch):
    """GIVEN no zeroconf package WHEN discovery starts THEN it says unavailable and lists nothing (typing works)."""
    import host_remote.discovery as discovery
    monkeypatch.setattr(discovery, "Zeroconf", None)
    finder = discovery.Discovery()
    finder.start()
    assert finder.available is False and finder.boards() == []
    finder.stop()


def test_a_board_advertised_on_loopback_is_listed():
    """GIVEN a service `Табло зал 1._osc._udp.local.` on 127.0.0.1:9000 WHEN discovery runs THEN it lists it.
    Runs only where zeroconf is installed (e.g. PYTHONPATH with `pip install --target DIR zeroconf`)."""
    zeroconf = pytest.importorskip("zeroconf")
    server = zeroconf.Zeroconf(interfaces=["127.0.0.1"])
    info = zeroconf.ServiceInfo("_osc._udp.local.", "Табло зал 1._osc._udp.local.",
                                addresses=[socket.inet_aton("127.0.0.1")], port=9000, server="board1.local.")
    server.register_service(info)
    finder = Discovery()
    try:
        finder.start()
        deadline = time.monotonic() + 60             # only bounds a hang
        while not finder.boards() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert finder.boards() == [("Табло зал 1", "127.0.0.1", 9000)]
    finally:
        finder.stop()
        server.unregister_service(info)
        server.close()
