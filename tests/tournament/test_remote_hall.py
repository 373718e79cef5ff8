"""Issue 24 item 7 ("Hall-proof"): `scoreboard tournament serve` tried as a stranger on the venue's network would —
no key, a laptop, a few scripts — over real TCP on loopback, with a real tournament SQLite file. One test per fault:
a relay answering a board's request with a stranger's refusal, strangers writing to the file, a board naming
itself, bodies never sent, a MAC of any bytes. Every wait is on a condition, bounded; one server for the module
(each test speaks from its own loopback address, so the console's once-a-minute lines are its own)."""
from __future__ import annotations

import json
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from scoreboard.tournament.remote import client, keys
from scoreboard.tournament.remote.door import Limits
from scoreboard.tournament.remote.server import Server, boards
from scoreboard.tournament.service import Tournament

from .helpers import names, register

LIMITS = Limits(deadline=0.5, read_timeout=5.0, connections=64, per_address=8)     # the deadline acts first
BOUND = 10.0        # only bounds a hang: every wait returns as soon as its condition holds


def wait_for(condition, what: str):
    end = time.monotonic() + BOUND
    while time.monotonic() < end:
        value = condition()
        if value:
            return value
        time.sleep(0.01)        # polling a condition, not waiting out a duration
    raise AssertionError(f"not within {BOUND} s: {what}")


@pytest.fixture(scope="module")
def hall(tmp_path_factory):
    """A samara winter cup, round 1 drawn, boards A and B with their keys, `serve` on loopback with short limits."""
    path = tmp_path_factory.mktemp("hall") / "t.sqlite"
    t = Tournament.create(path, "samara-2003", seed=4)
    register(t, names(9), cups=["winter"])
    t.draw()
    tid = keys.tournament_id(t.store)
    board_keys = {name: keys.add_board(t.store, name) for name in ("A", "B")}
    games = [g["id"] for g in t.store.games()]
    t.close()
    lines: list[str] = []
    server = Server(path, "127.0.0.1", 0, out=lines.append, limits=LIMITS).start()
    yield {"path": path, "tid": tid, "keys": board_keys, "games": games, "server": server, "lines": lines,
           "address": f"127.0.0.1:{server.address[1]}"}
    server.stop()


def exchange(hall, data: bytes, source: str) -> tuple[int, dict, bytes]:
    """One raw HTTP request from `source` (a loopback address): (status, headers in lower case, body)."""
    with socket.create_connection(("127.0.0.1", hall["server"].address[1]), timeout=BOUND,
                                  source_address=(source, 0)) as s:
        s.sendall(data)
        got = b""
        while chunk := s.recv(65536):
            got += chunk
    head, _, body = got.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = dict((k.strip().lower(), v.strip()) for k, _, v in (line.partition(":") for line in lines[1:]))
    return int(lines[0].split()[1]), headers, body


def request(kind: str, body: bytes, extra: bytes = b"") -> bytes:
    return (f"POST /v1/{kind} HTTP/1.1\r\nHost: organiser\r\nContent-Length: {len(body)}\r\n".encode()
            + extra + b"\r\n" + body)


def file_writes(hall) -> tuple[list, list, list]:
    """What the server wrote about the network: the log, the nonces, the games' holders."""
    t = Tournament(hall["path"])
    try:
        nonces = [dict(r) for r in t.store.db.execute("SELECT * FROM remote_nonces")]
    finally:
        t.close()
    seen = boards(hall["path"])
    return seen["log"], nonces, seen["boards"]


class _Relay(BaseHTTPRequestHandler):
    """A man in the middle: takes the board's real request, sends the server a request of its own carrying the
    board's nonce (no key: it has none), and hands the server's answer back to the board as if it were the answer."""
    target: str

    def do_POST(self):      # noqa: N802 (http.server's name)
        nonce = json.loads(self.rfile.read(int(self.headers["Content-Length"])))["nonce"]
        own = json.dumps({"v": 2, "kind": "bogus", "nonce": nonce}).encode()
        host, port = self.target.split(":")
        with socket.create_connection((host, int(port)), timeout=BOUND) as s:
            s.sendall(request("bogus", own))
            got = b""
            while chunk := s.recv(65536):
                got += chunk
        self.wfile.write(got)          # status line, headers (with any X-SG-MAC) and body, untouched
        self.close_connection = True

    def log_message(self, format, *args):
        pass


def test_item7_a_relay_cannot_answer_a_boards_request_with_a_strangers_refusal(hall, tmp_path):
    """GIVEN board B's result pending in its outbox, sent through a relay that answers each of B's requests with the
    server's answer to the relay's own request carrying B's nonce (issue 24: the server signed its 400 answers to
    unauthenticated requests and echoed their nonce, so B marked its result refused for good) WHEN B sends THEN the
    server's answer to the relay is unsigned and echoes no nonce, B counts no answer it got as the server's: the
    result stays pending, retried, with the reason; and the server wrote nothing."""
    before = file_writes(hall)
    relay = ThreadingHTTPServer(("127.0.0.1", 0), type("Relay", (_Relay,), {"target": hall["address"]}))
    threading.Thread(target=relay.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    try:
        outbox = tmp_path / "b.sqlite.result.json"
        client.write_outbox(outbox, {"server": f"127.0.0.1:{relay.server_address[1]}", "tournament": hall["tid"],
                                     "game": hall["games"][0], "board": "B", "state": "pending", "attempts": 0,
                                     "error": None, "answer": None, "snapshot": {"players": []}})
        sender = client.ResultSender(outbox, hall["keys"]["B"], out=lambda *_: None, first=0.02, cap=0.02).start()
        wait_for(lambda: (client.read_outbox(outbox) or {}).get("attempts", 0) >= 2, "two attempts through the relay")
        sender.stop()
    finally:
        relay.shutdown()
        relay.server_close()
    box = client.read_outbox(outbox)
    assert box["state"] == "pending" and box["answer"] is None
    assert "not signed with this board's key" in box["error"]
    status, headers, body = exchange(hall, request("bogus", json.dumps({"nonce": "ab" * 16}).encode()), "127.0.0.5")
    assert status == 404 and keys.HEADER.lower() not in headers and b"ab" * 16 not in body
    assert file_writes(hall) == before


def test_item7_strangers_write_nothing_and_are_said_once_a_minute(hall):
    """GIVEN `serve` WHEN a stranger sends 30 requests that prove no board's key — none, another tournament's kind
    of header (the gone shared passcode), a key no board has, board A's key id with a MAC of another secret, a
    garbage body, a path that is no request THEN each is refused (401/404) unsigned, the tournament file gets no log
    row, no nonce, no claimed game, and the console says it once for that address (a count follows a minute on)."""
    key_id = keys.split_key(hall["keys"]["A"])[0]
    body = json.dumps({"v": 2, "kind": "setup", "nonce": keys.new_nonce(), "tournament": None,
                       "game": hall["games"][2], "board": "rogue"}).encode()
    tries = [request("setup", body),
             request("setup", body, f"{keys.HEADER}: {keys.request_mac('k7fq-2mzp-x9ad-3hne', body)}\r\n".encode()),
             request("setup", body, f"{keys.KEY_HEADER}: 0badc0de\r\n{keys.HEADER}: {'0' * 64}\r\n".encode()),
             request("setup", body, f"{keys.KEY_HEADER}: {key_id}\r\n{keys.HEADER}: "
                                    f"{keys.request_mac('not-a-secret', body)}\r\n".encode()),
             request("result", b"\x00{[" * 300, f"{keys.KEY_HEADER}: {key_id}\r\n".encode()),
             request("../../etc/passwd", body)]
    before, written = len(hall["lines"]), file_writes(hall)
    for n in range(30):
        status, headers, answer = exchange(hall, tries[n % len(tries)], "127.0.0.3")
        assert status in (401, 404) and keys.HEADER.lower() not in headers
        assert json.loads(answer)["ok"] is False
    assert file_writes(hall) == written
    said = [line for line in hall["lines"][before:] if "127.0.0.3" in line]
    assert len(said) == 1 and "nothing written" in said[0]


def test_item7_a_board_is_who_its_key_says(hall):
    """GIVEN boards A and B, each with its key, and board A holding game G1 WHEN a stranger calling itself `rogue`
    (no key) asks for G2's setup, B signs a request naming itself A for G1, and B asks for G1 naming no one THEN the
    stranger gets nothing and claims nothing, B naming A is refused (its key is B's), B is refused G1 (A's); B's own
    request for G2 holds G2 for B — so the games' holders are exactly A's G1 and B's G2."""
    g1, g2 = hall["games"][1], hall["games"][2]
    assert client.fetch_setup(hall["address"], hall["keys"]["A"], None, g1)["board"] == "A"
    rogue = json.dumps({"v": 2, "kind": "setup", "nonce": keys.new_nonce(), "tournament": None, "game": g2,
                        "board": "rogue"}).encode()
    status, headers, _ = exchange(hall, request("setup", rogue), "127.0.0.4")
    assert status == 401 and keys.HEADER.lower() not in headers
    with pytest.raises(Exception, match="signed with board 'B'.s key but names board 'A'"):
        client.fetch_setup(hall["address"], hall["keys"]["B"], "A", g1)
    with pytest.raises(Exception, match="held by board 'A', not 'B'"):
        client.fetch_setup(hall["address"], hall["keys"]["B"], None, g1)
    assert client.fetch_setup(hall["address"], hall["keys"]["B"], "B", g2)["board"] == "B"
    held = {b["game"]: b["board"] for b in boards(hall["path"])["boards"]}
    assert {g: held.get(g) for g in (g1, g2)} == {g1: "A", g2: "B"} and "rogue" not in held.values()


def test_item7_bodies_never_sent_do_not_hold_the_server(hall):
    """GIVEN `serve` (a request must arrive whole within 0.5 s here, 30 s shipped; 8 connections an address) WHEN a
    stranger opens 3 connections that stop mid-header and 12 that send a request's headers and never its body THEN
    those over the address's cap are closed at once, the others when their deadline passes (every one within 2 s),
    their threads end, and board A is served while they are held."""
    threads = threading.active_count()
    held = []
    for n in range(15):
        s = socket.create_connection(("127.0.0.1", hall["server"].address[1]), timeout=BOUND,
                                     source_address=("127.0.0.6", 0))
        s.sendall(b"POST /v1/res" if n < 3 else b"POST /v1/result HTTP/1.1\r\nContent-Length: 1000\r\n\r\n")
        held.append(s)
    started = time.monotonic()
    got = client.fetch_setup(hall["address"], hall["keys"]["A"], "A", hall["games"][1])
    assert got["board"] == "A"
    for s in held:
        try:
            assert s.recv(1) == b""          # the server closed it (EOF) …
        except ConnectionResetError:
            pass                             # … or reset it
        s.close()
    assert time.monotonic() - started < 2.0, time.monotonic() - started
    wait_for(lambda: threading.active_count() <= threads, "the held connections' threads ended")
    said = [line for line in hall["lines"] if "127.0.0.6" in line]
    assert len(said) == 1 and "too many open at once" in said[0]     # then counted: said once a minute


def test_item7_a_bad_mac_of_any_bytes_is_a_401_never_a_traceback(hall, capfd):
    """GIVEN board A's key id WHEN requests carry an X-SG-MAC (or X-SG-Key) of bytes that are not ASCII — Latin-1,
    broken UTF-8, control bytes — THEN each is answered 401, unsigned, and nothing is printed as a traceback (issue
    24: a non-ASCII MAC raised TypeError in the comparison, a traceback per request and no answer)."""
    key_id = keys.split_key(hall["keys"]["A"])[0].encode()
    body = json.dumps({"v": 2, "kind": "setup", "nonce": keys.new_nonce(), "game": hall["games"][0]}).encode()
    for mac in (b"\xe9" * 64, b"\xff\xfe" * 32, b"\xd0\x9f\xd1" * 20, b"\x01\x02\x7f" * 21):
        status, headers, _ = exchange(hall, request("setup", body, b"X-SG-Key: " + key_id + b"\r\nX-SG-MAC: " + mac
                                                    + b"\r\n"), "127.0.0.7")
        assert status == 401 and keys.HEADER.lower() not in headers
    status, _, _ = exchange(hall, request("setup", body, b"X-SG-Key: \xe9\xe9\r\nX-SG-MAC: \xe9\r\n"), "127.0.0.7")
    assert status == 401
    assert "Traceback" not in capfd.readouterr().err
