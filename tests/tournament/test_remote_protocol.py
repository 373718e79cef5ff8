"""Issue 27 follow-up item 2: a result sent through `scoreboard tournament serve` carries the game's protocol and the
journal's digest; the organiser's side checks it as a stranger's text and keeps it in the `protocols` table as a
local board's result keeps its own. Real TCP on loopback, a real tournament SQLite file, real journals."""
from __future__ import annotations

import copy
import json
import socket

from scoreboard.protocol import build
from scoreboard.session import replay_snapshot
from scoreboard.tournament import protocols
from scoreboard.tournament.remote import client, keys, sent_protocol
from scoreboard.tournament.remote.server import MAX_BODY
from scoreboard.tournament.service import Tournament

from .journals import play_samara_game
from .test_remote import addr, cup, raw_post, result_row, server, wait_for  # noqa: F401 (fixtures)


def kept(path) -> dict:
    t = Tournament(path)
    try:
        return protocols.kept(t.store)
    finally:
        t.close()


def test_the_boards_result_brings_its_protocol_into_the_file(path, cup, server, tmp_path, capsys):
    """GIVEN board B set up from `serve`, its game played to the end on a real journal that names its host WHEN the
    board's sender sends the result (outbox, signed request) THEN the result is recorded and the protocol kept with
    it: the journal's digest, the host, the header naming this file's tournament and game; `tournament protocol
    GAME` prints it; the same result sent again keeps the first protocol ("kept before")."""
    from scoreboard.cli import main
    tid, board_keys, game = cup
    got = client.fetch_setup(addr(server), board_keys["B"], "B", game["id"])
    journal = tmp_path / "b.sqlite"
    play_samara_game(journal, game["players"], {1: 1})
    client.open_outbox(journal, addr(server), got["tournament"], game["id"], "B")
    lines = []
    sender = client.send_result(journal, {"key": board_keys["B"]}, lines.append)
    wait_for(sender.done.is_set, "the sender finished")
    box = client.read_outbox(sender.path)
    assert box["state"] == "sent" and box["answer"]["protocol"] == "kept", box
    model = kept(path)[game["id"]]
    assert model["journal"]["digest"] == build(journal)["journal"]["digest"] == box["journal_digest"]
    assert model["header"]["game"] == game["id"] and model["header"]["tournament"]
    assert [p["name"] for p in model["players"]] == game["players"]
    assert main(["tournament", "protocol", game["id"], "--file", str(path), "--format", "csv"]) == 0
    assert game["players"][0] in capsys.readouterr().out
    again = client.post(addr(server), board_keys["B"], "result",
                        {"tournament": tid, "game": game["id"], "board": "B", "snapshot": box["snapshot"],
                         "protocol": box["protocol"], "journal_digest": box["journal_digest"]})
    assert (again["outcome"], again["protocol"]) == ("already recorded", "kept before")


def test_a_bad_protocol_refuses_the_result_and_writes_nothing(path, cup, server, tmp_path):
    """GIVEN a proven board (its own key) sending its result with a protocol that is not one, of another game,
    with another digest, with markup where the page prints numbers, too big, or a request over the body's cap, and
    a stranger sending a good one with a forged MAC WHEN each reaches `serve` THEN each is refused (400 'bad request'
    naming the field and why; 413 over the cap; 401 forged) and the file has no result and no protocol; then the
    genuine request is recorded with its protocol."""
    tid, board_keys, game = cup
    journal, other = tmp_path / "g.sqlite", tmp_path / "other.sqlite"
    play_samara_game(journal, game["players"], {1: 1})
    play_samara_game(other, game["players"], {1: 2})
    snapshot, good = replay_snapshot(journal), sent_protocol.for_outbox(journal)
    foreign = sent_protocol.for_outbox(other)
    marked = copy.deepcopy(good)
    marked["protocol"]["players"][0]["score"] = "<script>alert(1)</script>"
    huge = copy.deepcopy(good)
    huge["protocol"]["setup"].append({"what": "other", "at": 0.0, "seq": 1, "text": "x" * sent_protocol.MAX_BYTES})
    cases = [({"protocol": "not a protocol", "journal_digest": good["journal_digest"]}, "protocol: the game's"),
             ({"protocol": good["protocol"]}, "journal_digest"),
             ({"protocol": dict(good["protocol"], version=9), "journal_digest": good["journal_digest"]}, "version 9"),
             (foreign, "the protocol of another game"),
             ({"protocol": good["protocol"], "journal_digest": foreign["journal_digest"]}, "journal.digest"),
             (marked, "players[0].score: a whole number"),
             (huge, f"more than {sent_protocol.MAX_BYTES} bytes")]
    payload = {"tournament": tid, "game": game["id"], "board": "B", "snapshot": snapshot}
    for extra, why in cases:
        answer = client.post(addr(server), board_keys["B"], "result", {**payload, **extra})
        assert (answer["outcome"], answer["ok"]) == ("bad request", False) and why in answer["reason"], (why, answer)
    secret_a, secret_b = (keys.split_key(board_keys[b])[1] for b in "AB")
    body = json.dumps({"v": 2, "kind": "result", "nonce": keys.new_nonce(), **payload, **good}).encode()
    assert raw_post(server, "result", body, board_keys["B"], keys.request_mac(secret_a, body))[0] == 401
    with socket.create_connection(server.address, timeout=30) as link:   # announced over the cap: never read
        link.sendall(f"POST /v1/result HTTP/1.1\r\nHost: t\r\nContent-Length: {MAX_BODY + 1}\r\n\r\n".encode())
        assert link.makefile("rb").readline().split()[1] == b"413"
    assert result_row(path, game["id"]) == (None, []) and kept(path) == {}
    status, answer = raw_post(server, "result", body, board_keys["B"], keys.request_mac(secret_b, body))
    assert (status, answer["outcome"], answer["protocol"]) == (200, "recorded", "kept")
    assert kept(path)[game["id"]]["journal"]["digest"] == good["journal_digest"]
