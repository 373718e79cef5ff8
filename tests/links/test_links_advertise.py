"""Announcing the board on the LAN (`_osc._udp`, for the remote's board list) where zeroconf is installed.

This machine's venv has no zeroconf (an optional package), so the wiring is checked against a recording
stand-in module with zeroconf's calls; the real library (0.154.0) was checked by hand against
host_remote.discovery (docs/LINKS.md says how)."""
import socket
import sys
import types

from linkhelp import wait_until
from scoreboard.links import Inbox, Links


def recording_zeroconf():
    calls = []

    class ServiceInfo:
        def __init__(self, type_, name, port, addresses, properties):
            self.type, self.name, self.port, self.addresses, self.properties = type_, name, port, addresses, properties

    class Zeroconf:
        def register_service(self, info):
            calls.append(("register", info))

        def unregister_service(self, info):
            calls.append(("unregister", info))

        def close(self):
            calls.append(("close", None))

    module = types.ModuleType("zeroconf")
    module.ServiceInfo, module.Zeroconf = ServiceInfo, Zeroconf
    return module, calls


def test_proto2_board_announced_with_name_port_and_address_never_the_passcode(monkeypatch):
    """GIVEN zeroconf installed and osc.name "hall-a" bound to 127.0.0.1 WHEN links start and stop
    THEN the board is registered as hall-a._osc._udp.local. on its real port and address, without the
    passcode, and unregistered and closed on stop."""
    module, calls = recording_zeroconf()
    monkeypatch.setitem(sys.modules, "zeroconf", module)
    links = Links({"osc": {"bind": "127.0.0.1", "port": 0, "passcode": "secret", "name": "hall-a"}},
                  Inbox(), lambda: 0.0)
    links.start()
    try:
        assert wait_until(lambda: links.status().get("osc_advertised"))
        (kind, info), = calls
        assert (kind, info.type, info.name) == ("register", "_osc._udp.local.", "hall-a._osc._udp.local.")
        assert info.port == links.osc.address[1] and info.addresses == [socket.inet_aton("127.0.0.1")]
        assert "secret" not in repr(info.properties)
    finally:
        links.stop()
    assert [kind for kind, _ in calls] == ["register", "unregister", "close"]


def test_proto2_no_zeroconf_package_no_announcement_board_still_serves(monkeypatch):
    """GIVEN the zeroconf package missing WHEN links start THEN nothing is announced, the status says why,
    and the OSC server runs."""
    monkeypatch.setitem(sys.modules, "zeroconf", None)     # import fails as if not installed
    links = Links({"osc": {"bind": "127.0.0.1", "port": 0, "passcode": "p"}}, Inbox(), lambda: 0.0)
    links.start()
    try:
        status = links.status()
        assert status["osc_advertised"] is False and "not installed" in status["osc_advertise_error"]
        assert status["osc"]["packets"] == 0 and links.osc.address[1] > 0
    finally:
        links.stop()
