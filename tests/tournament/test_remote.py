"""Issue 12 item 7 (with issue 24 item 7's key per board): board B in another room sends its result to `scoreboard
tournament serve` over real TCP on loopback, with a real tournament SQLite file and real journals: HMAC with the
board's own key, idempotent, refusing forged, replayed, other-tournament and other-board requests (the proven ones
logged in the file, the others on the console only); an outbox that outlives a server that is down and a board that
restarts. The attacks of issue 24 are in test_remote_hall.py."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pygame
import pytest

from scoreboard.app.board import Board
from scoreboard.app.start import open_session
from scoreboard.app.config import default_config
from scoreboard.display.screens import Screen, ScreenSpec
from scoreboard.display.theme.load import load_theme
from scoreboard.protocol import build
from scoreboard.session import Session, replay_snapshot
from scoreboard.tournament import protocols
from scoreboard.tournament.remote import client, keys
from scoreboard.tournament.remote.server import Server, assign, boards
from scoreboard.tournament.service import Tournament
from scoreboard.bench.real_board import free_port

from .helpers import names, play_to_the_end, register
from .journals import play_samara_game

DEADLINE = 60.0     # only bounds a hang: every wait returns as soon as its condition holds


def wait_for(condition, what: str):
    end = time.monotonic() + DEADLINE
    while time.monotonic() < end:
        value = condition()
        if value:
            return value
        time.sleep(0.02)        # polling a condition, not waiting out a duration
    raise AssertionError(f"not within {DEADLINE} s: {what}")


@pytest.fixture
def cup(path):
    """A samara winter cup with round 1 drawn and boards A and B added: (tournament id, {board: key}, the first
    game)."""
    t = Tournament.create(path, "samara-2003", seed=4)
    register(t, names(9), cups=["winter"])
    t.draw()
    tid = keys.tournament_id(t.store)
    board_keys = {name: keys.add_board(t.store, name) for name in ("A", "B")}
    game = t.store.games()[0]
    t.close()
    return tid, board_keys, game


@pytest.fixture
def server(path, cup):
    lines = []
    s = Server(path, "127.0.0.1", 0, out=lines.append).start()
    s.lines = lines
    yield s
    s.stop()


def addr(server) -> str:
    return f"{server.address[0]}:{server.address[1]}"


def journal_of(tmp_path, game, winner_seat=1) -> tuple:
    journal = tmp_path / f"{game['id']}.sqlite"
    play_samara_game(journal, game["players"], {1: winner_seat})
    return journal, replay_snapshot(journal)


def raw_post(server, kind: str, body: bytes, key: str, mac: str) -> tuple[int, dict]:
    request = urllib.request.Request(f"http://{addr(server)}/v1/{kind}", data=body, method="POST",
                                     headers={keys.KEY_HEADER: keys.split_key(key)[0], keys.HEADER: mac})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def result_row(path, game_id):
    t = Tournament(path)
    try:
        return t.store.game(game_id)["result"], [a for a in t.store.audit_log()
                                                 if a["what"] == "result" and a["detail"]["game"] == game_id]
    finally:
        t.close()


def test_item7_each_board_gets_its_own_key(path, cup, capsys):
    """GIVEN a tournament WHEN `tournament board add C` runs THEN it prints C's key and the [tournament] lines for
    the board, audited without the secret; `board add C` again is refused, `board key C` makes a new key (the old
    one then proves nothing), `board remove C` takes it away, `boards` lists the boards' key ids, and the gone
    `tournament passcode` says what to do instead."""
    from scoreboard.cli import main
    tid, _, _ = cup
    assert main(["tournament", "board", "add", "C", "--file", str(path), "--json"]) == 0
    first = json.loads(capsys.readouterr().out)
    assert first["tournament"] == tid and first["board"] == "C" and keys.split_key(first["key"])
    assert main(["tournament", "board", "add", "C", "--file", str(path)]) == 2
    assert "already has a key" in capsys.readouterr().err
    assert main(["tournament", "board", "key", "C", "--file", str(path)]) == 0
    out = capsys.readouterr().out
    second = out.split('key = "')[1].split('"')[0]
    assert second != first["key"] and "board 'C'" in out and 'server = "' in out
    t = Tournament(path)
    assert keys.board_of(t.store.db, keys.split_key(first["key"])[0]) is None
    assert keys.board_of(t.store.db, keys.split_key(second)[0])[0] == "C"
    log = [a for a in t.store.audit_log() if a["what"] == "board key"]
    t.close()
    assert len(log) == 4 and first["key"].split(".")[1] not in json.dumps(log)      # A, B, C, C again
    assert main(["tournament", "boards", "--file", str(path)]) == 0
    assert keys.split_key(second)[0] in capsys.readouterr().out
    assert main(["tournament", "board", "remove", "C", "--file", str(path)]) == 0
    capsys.readouterr()
    assert main(["tournament", "passcode", "--file", str(path)]) == 2
    assert "board add NAME" in capsys.readouterr().err


def test_item7_result_recorded_once_duplicate_gets_the_same_answer(path, cup, server, tmp_path):
    """GIVEN `serve` on loopback and board B that fetched game G's setup WHEN B posts G's final snapshot, then posts it
    again (an answer lost on the way) THEN the first is recorded, the second is 'already recorded' with the same
    winner and digest, the file holds one result and one audit entry, and the log has both."""
    tid, board_keys, game = cup
    got = client.fetch_setup(addr(server), board_keys["B"], None, game["id"])
    assert got["tournament"] == tid and got["board"] == "B"
    assert [p["name"] for p in got["setup"]["players"]] == game["players"]
    _, snapshot = journal_of(tmp_path, game)
    payload = {"tournament": tid, "game": game["id"], "board": "B", "snapshot": snapshot}
    first = client.post(addr(server), board_keys["B"], "result", payload)
    second = client.post(addr(server), board_keys["B"], "result", payload)
    assert first["ok"] and first["outcome"] == "recorded" and first["winner"] == game["players"][0]
    assert second["ok"] and second["outcome"] == "already recorded"
    assert (second["winner"], second["digest"]) == (first["winner"], first["digest"])
    result, audits = result_row(path, game["id"])
    assert result["winner"] == game["players"][0] and len(audits) == 1
    outcomes = [e["outcome"] for e in boards(path)["log"]]
    assert outcomes == ["setup", "recorded", "already recorded"]


def test_item7_forged_altered_and_replayed_requests_are_refused(path, cup, server, tmp_path):
    """GIVEN a valid signed result request WHEN it is sent with a MAC of another board's key, altered after signing
    (another game named), and the genuine one twice THEN the forged and altered ones are refused (401 'forged', said
    on the console, nothing written — not even a log row), the genuine one is recorded once and its replay refused
    (409 'replayed', signed, written nowhere: a sniffed request can be sent a thousand times); the log has one."""
    tid, board_keys, game = cup
    _, snapshot = journal_of(tmp_path, game)
    body = json.dumps({"v": 2, "kind": "result", "nonce": keys.new_nonce(), "tournament": tid, "game": game["id"],
                       "board": None, "snapshot": snapshot}).encode()
    secret_a, secret_b = (keys.split_key(board_keys[b])[1] for b in "AB")
    status, answer = raw_post(server, "result", body, board_keys["B"], keys.request_mac(secret_a, body))
    assert (status, answer["outcome"]) == (401, "forged")
    altered = body.replace(game["id"].encode(), b"winter-1-2", 1)
    assert altered != body
    status, answer = raw_post(server, "result", altered, board_keys["B"], keys.request_mac(secret_b, body))
    assert (status, answer["outcome"]) == (401, "forged")
    assert result_row(path, game["id"]) == (None, []) and boards(path)["log"] == []
    status, answer = raw_post(server, "result", body, board_keys["B"], keys.request_mac(secret_b, body))
    assert (status, answer["outcome"]) == (200, "recorded")
    status, answer = raw_post(server, "result", body, board_keys["B"], keys.request_mac(secret_b, body))
    assert (status, answer["outcome"]) == (409, "replayed") and "replayed" in answer["reason"]
    assert len(result_row(path, game["id"])[1]) == 1
    log = boards(path)["log"]
    assert [e["outcome"] for e in log] == ["recorded"]
    assert all(e["peer"].startswith("127.0.0.1:") and e["game"] == game["id"] and e["board"] == "B" for e in log)
    assert any("forged" in line for line in server.lines)


def test_item7_other_tournament_and_other_board_are_refused(path, cup, server, tmp_path):
    """GIVEN game G set up by board A WHEN board B sends G's result, and a result names another tournament's id
    THEN both are refused naming why (G is A's; the tournament is not this one), nothing is recorded; after
    `tournament assign G B` B's result is recorded."""
    tid, board_keys, game = cup
    client.fetch_setup(addr(server), board_keys["A"], "A", game["id"])
    _, snapshot = journal_of(tmp_path, game)
    b = client.post(addr(server), board_keys["B"], "result", {"tournament": tid, "game": game["id"], "board": "B",
                                                              "snapshot": snapshot})
    assert not b["ok"] and b["outcome"] == "refused" and "board 'A'" in b["reason"]
    other = client.post(addr(server), board_keys["A"], "result", {"tournament": "0123456789abcdef",
                                                                  "game": game["id"], "board": "A",
                                                                  "snapshot": snapshot})
    assert not other["ok"] and other["outcome"] == "refused" and "0123456789abcdef" in other["reason"]
    assert result_row(path, game["id"]) == (None, [])
    assign(path, game["id"], "B")
    again = client.post(addr(server), board_keys["B"], "result", {"tournament": tid, "game": game["id"],
                                                                  "board": "B", "snapshot": snapshot})
    assert again["outcome"] == "recorded"
    assert [e["outcome"] for e in boards(path)["log"]] == ["setup", "refused", "refused", "recorded"]


def test_item7_a_wrong_key_on_the_board_never_counts_as_sent(path, cup, server, tmp_path):
    """GIVEN a board whose [tournament] key is not one the tournament gave WHEN it asks for a setup THEN it is
    refused with the reason (the answer is not signed with its key), and nothing was written on the server."""
    from scoreboard.tournament.errors import TournamentError
    _, _, game = cup
    with pytest.raises(TournamentError, match="not signed with this board's key"):
        client.fetch_setup(addr(server), "0badc0de." + "x" * 32, None, game["id"])
    assert boards(path)["log"] == [] and boards(path)["boards"] == []


def make_board(config, session, journal, lines):
    theme = load_theme("classic")
    return Board(config, session, 0.0, [Screen(ScreenSpec("audience", size=(320, 180)), theme, window=False)],
                 theme, out=lines.append, clock=lambda: session.time, journal_path=journal)


def test_item7_board_sends_through_a_dropped_link_and_a_restart(path, cup, tmp_path):
    """GIVEN board B configured with [tournament] server/passcode/board/game, set up from `serve` WHEN the server goes
    down before game over, the board keeps failing to send (the host's status says so), the board is closed and
    started again on its journal, and only then `scoreboard tournament serve` comes up on the same port THEN the
    restarted board sends the result from its outbox, it is recorded once, and the status says it is recorded."""
    pygame.init()
    tid, board_keys, game = cup
    port = free_port()
    first = Server(path, "127.0.0.1", port, out=lambda *_: None).start()
    config = default_config()
    config["board"].update(journal=str(tmp_path / "b.sqlite"), sounds=False)
    config["tournament"].update(server=f"127.0.0.1:{port}", key=board_keys["B"], board="B", game=game["id"])
    lines = []
    session, journal, _ = open_session(config["board"], lines.append, config["tournament"])
    assert [p["name"] for p in session.snapshot()["players"]] == game["players"]
    first.stop()                                             # the link drops
    board = make_board(config, session, journal, lines)
    play_to_the_end(session, board)
    sender = board.result_sender
    assert sender is not None
    wait_for(lambda: (client.read_outbox(sender.path) or {}).get("attempts", 0) >= 2, "two failed attempts")
    state = sender.status()
    assert state["state"] == "retrying" and game["id"] in state["detail"]
    board.running = False
    board.run()                                              # closes: the sender stops, the outbox stays pending
    assert client.read_outbox(sender.path)["state"] == "pending"
    assert result_row(path, game["id"]) == (None, [])
    session = Session.recover(journal, live_seed=True)       # the board starts again on its journal
    restarted = make_board(config, session, journal, lines)
    assert restarted.result_sender is not None
    serve = subprocess.Popen([sys.executable, "-m", "scoreboard", "tournament", "serve", "--file", str(path),
                              "--bind", "127.0.0.1", "--port", str(port)], stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        wait_for(lambda: client.read_outbox(sender.path)["state"] == "sent", "the result acknowledged")
        result, audits = result_row(path, game["id"])
        assert result["winner"] == game["players"][0] and len(audits) == 1
        t = Tournament(path)
        try:      # the protocol came with it, built by the restarted board's sender (issue 27 follow-up item 2)
            kept = protocols.kept(t.store)[game["id"]]
        finally:
            t.close()
        assert kept["journal"]["digest"] == build(journal)["journal"]["digest"]
        assert restarted.result_sender.status()["state"] == "ok"
        assert any(f"game {game['id']} recorded" in line for line in lines), lines
    finally:
        serve.terminate()
        out, _ = serve.communicate(timeout=30)
        restarted.running = False
        restarted.run()
    assert "recorded" in out and "serve: stopped" in out


def test_item7_board_config_needs_a_host_port_and_a_key(tmp_path):
    """GIVEN a board config with [tournament] server but a malformed address and no key, one with a malformed key,
    and an old one with the shared passcode WHEN checked THEN each problem names its key and why (the passcode's says
    what to do: `tournament board add NAME` and [tournament] key); a server with its key and a game needs no
    tournament file."""
    from scoreboard.app.config import check_config
    _, problems = check_config({"tournament": {"server": "organiser", "game": "S4"}}, "b.toml")
    said = {(p.key, p.reason.split(":")[0]) for p in problems}
    assert ("tournament.server", "expected \"host") in said
    assert any(p.key == "tournament.key" for p in problems)
    assert not any(p.key == "tournament.game" for p in problems)
    _, problems = check_config({"tournament": {"server": "organiser:9010", "key": "k7fq-2mzp", "game": "S4"}}, "b")
    problems = [p for p in problems if p.key.startswith("tournament.")]
    assert [p.key for p in problems] == ["tournament.key"] and "board add" in problems[0].reason
    _, problems = check_config({"tournament": {"server": "organiser:9010", "passcode": "k7fq-2mzp-x9ad-3hne",
                                               "game": "S4"}}, "b.toml")
    problems = [p for p in problems if p.key.startswith("tournament.")]
    assert [p.key for p in problems] == ["tournament.passcode"]
    assert "board add NAME" in problems[0].reason and "key = " in problems[0].reason
    _, problems = check_config({"tournament": {"server": "organiser:9010", "key": "0123abcd." + "k" * 32,
                                               "game": "S4"}}, "b.toml")
    assert not [p for p in problems if p.key.startswith("tournament.")]
