"""Results straight from a board's journal: winner from the snapshot, extra-topic points kept out of sums (T-S3),
idempotent recording, and two rooms writing into one file at once (T-A6)."""
from __future__ import annotations

import multiprocessing

import pytest

from scoreboard.tournament.service import record_from_journal
from scoreboard.tournament.errors import TournamentError
from scoreboard.tournament.formats.samara.flow import cup_sums
from scoreboard.tournament.service import Tournament

from .helpers import names, register
from .journals import play_samara_game


@pytest.fixture
def cup(path):
    t = Tournament.create(path, "samara-2003", seed=11)
    register(t, names(18), cups=["winter"])
    t.draw()
    return t


def test_ts3_extra_topic_decides_the_winner_but_not_the_sum(cup, path, tmp_path):
    """GIVEN a journal where seats 1 and 2 tie on 150 and seat 2 wins the extra topic with 150 more
    WHEN the game is recorded from the journal
    THEN seat 2 is the winner, and its cup sum is 150 (not 300)."""
    game = cup.store.games()[0]
    snap = play_samara_game(tmp_path / "j.sqlite", game["players"], {1: 1, 2: 2}, extra_topic_seat=2)
    assert snap["game_over"] and snap["players"][1]["tiebreak_score"] == 150
    out = record_from_journal(path, game["id"], tmp_path / "j.sqlite")
    assert out == {"game": game["id"], "recorded": True, "winner": game["players"][1]}
    assert cup_sums(Tournament(path), "winter")[game["players"][1]] == 150


def test_journal_seats_in_another_order_are_matched_by_name(cup, path, tmp_path):
    """GIVEN a board journal whose seats are in the reverse of the drawn order WHEN the game is recorded from it
    THEN the winner, scores and right answers go to the right players, matched by name."""
    game = cup.store.games()[1]
    seated = list(reversed(game["players"]))
    play_samara_game(tmp_path / "j.sqlite", seated, {1: 1, 2: 1, 3: 2})
    record_from_journal(path, game["id"], tmp_path / "j.sqlite")
    stored = Tournament(path).store.game(game["id"])["result"]
    assert stored["winner"] == seated[0]
    assert {s["name"]: s["score"] for s in stored["seats"]}[seated[0]] == 300
    assert {s["name"]: s["right"] for s in stored["seats"]}[seated[1]] == 5


def test_unfinished_or_foreign_journal_is_refused_and_changes_nothing(cup, path, tmp_path):
    """GIVEN a journal of an unfinished game, one of other players, and an unknown game id WHEN each is recorded
    THEN each is refused with its reason and no game gets a result."""
    game = cup.store.games()[0]
    play_samara_game(tmp_path / "open.sqlite", game["players"], {1: 1}, finish=False)
    with pytest.raises(TournamentError, match="not over"):
        record_from_journal(path, game["id"], tmp_path / "open.sqlite")
    play_samara_game(tmp_path / "other.sqlite", ["X", "Y", "Z"], {1: 1})
    with pytest.raises(TournamentError, match="are not the game's players"):
        record_from_journal(path, game["id"], tmp_path / "other.sqlite")
    with pytest.raises(TournamentError, match="no game"):
        record_from_journal(path, "winter-9-9", tmp_path / "other.sqlite")
    assert all(g["result"] is None for g in Tournament(path).store.games())


def test_same_journal_twice_records_once(cup, path, tmp_path):
    """GIVEN a finished game's journal WHEN it is recorded twice THEN the first call records, the second records
    nothing, and the audit log holds one result."""
    game = cup.store.games()[0]
    play_samara_game(tmp_path / "j.sqlite", game["players"], {1: 3})
    assert record_from_journal(path, game["id"], tmp_path / "j.sqlite")["recorded"] is True
    assert record_from_journal(path, game["id"], tmp_path / "j.sqlite")["recorded"] is False
    assert sum(1 for a in Tournament(path).store.audit_log() if a["what"] == "result") == 1


def _room(args):
    path, jobs = args
    return [(gid, record_from_journal(path, gid, journal)["recorded"]) for gid, journal in jobs]


def test_ta6_two_rooms_record_at_once_without_losing_or_doubling(cup, path, tmp_path):
    """GIVEN six round-1 games played on boards, each journal handed to BOTH rooms' processes
    WHEN the two processes record every game at the same time into one tournament file
    THEN every game has exactly one result, recorded by exactly one of them, and the round advances."""
    jobs = []
    for k, game in enumerate(cup.store.games()):
        journal = tmp_path / f"{game['id']}.sqlite"
        play_samara_game(journal, game["players"], {1: (k % 3) + 1, 2: 1}, extra_topic_seat=1)
        jobs.append((game["id"], str(journal)))
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        rooms = pool.map(_room, [(str(path), jobs), (str(path), list(reversed(jobs)))])
    recorded = {}
    for room in rooms:
        for gid, did in room:
            recorded[gid] = recorded.get(gid, 0) + did
    assert recorded == {gid: 1 for gid, _ in jobs}
    t = Tournament(path)
    assert sum(1 for a in t.store.audit_log() if a["what"] == "result") == len(jobs)
    assert len(t.advance()["qualified"]) == 9


def test_snapshot_piped_from_another_machine_is_recorded(cup, path, tmp_path, monkeypatch, capsys):
    """GIVEN a board's final snapshot as JSON on stdin (`… --json | ssh host scoreboard tournament result G
    --snapshot -`) THEN it is recorded like a journal; broken JSON is refused and changes nothing."""
    import io
    import json

    from scoreboard.cli import main
    game = cup.store.games()[2]
    snap = play_samara_game(tmp_path / "j.sqlite", game["players"], {1: 2, 3: 2})
    monkeypatch.setattr("sys.stdin", io.StringIO("{not json"))
    assert main(["tournament", "result", game["id"], "--snapshot", "-", "--file", str(path)]) == 2
    assert "cannot read a JSON snapshot" in capsys.readouterr().err
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(snap)))
    assert main(["tournament", "result", game["id"], "--snapshot", "-", "--file", str(path)]) == 0
    assert Tournament(path).store.game(game["id"])["result"]["winner"] == game["players"][1]


def test_snapshot_command_prints_the_journal_final_snapshot(cup, tmp_path, capsys):
    """GIVEN a finished game's journal WHEN `tournament snapshot` is run on it THEN it prints the final snapshot as
    JSON (game over, winner seat 1); a missing journal exits 2."""
    from scoreboard.cli import main
    game = cup.store.games()[0]
    play_samara_game(tmp_path / "j.sqlite", game["players"], {1: 1})
    assert main(["tournament", "snapshot", str(tmp_path / "j.sqlite")]) == 0
    import json
    snap = json.loads(capsys.readouterr().out)
    assert snap["game_over"] and snap["winner"] == 1
    assert main(["tournament", "snapshot", str(tmp_path / "missing.sqlite")]) == 2


def test_ta4_questions_right_counted_from_history_when_snapshot_has_no_rights():
    """GIVEN a final snapshot without players[].rights THEN a score going up on a resolution counts as a right
    answer (manual corrections are not in history)."""
    from scoreboard.tournament.results import from_snapshot
    snap = {"game_over": True, "winner": 2,
            "players": [{"seat": 1, "name": "А", "score": 10}, {"seat": 2, "name": "Б", "score": 70},
                        {"seat": 3, "name": "В", "score": -20}],
            "history": [[10, 0, 0], [10, 20, 0], [10, 20, -20], [10, 70, -20], [-20, 70, -20], [10, 70, -20]]}
    r = from_snapshot(snap, ["В", "Б", "А"])
    assert (r.right("А"), r.right("Б"), r.right("В")) == (2, 2, 0) and r.winner == "Б"


def test_ta6_conflicting_results_from_two_threads_one_wins(cup, path):
    """GIVEN two operators typing different results for the same game at the same moment (threads, one file)
    THEN exactly one is recorded and the other is refused as 'a different result'; nothing is half-written."""
    import threading
    game = cup.store.games()[0]
    outcomes, barrier = [], threading.Barrier(2)

    def operator(scores):
        t = Tournament(path)
        barrier.wait()
        try:
            outcomes.append(t.record_typed(game["id"], scores)["recorded"])
        except TournamentError as error:
            outcomes.append(str(error))
        finally:
            t.close()

    threads = [threading.Thread(target=operator, args=(s,)) for s in ({"1": 90, "2": 10, "3": 0},
                                                                      {"1": 10, "2": 90, "3": 0})]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert sum(o is True for o in outcomes) == 1
    assert any(isinstance(o, str) and "already has a different result" in o for o in outcomes)
    assert sum(1 for a in Tournament(path).store.audit_log() if a["what"] == "result") == 1


def test_ts7_super_nine_game_from_the_engine_journal(tmp_path):
    """GIVEN a season played to the Super Nine draw WHEN game S9-1 is played on the engine (stage super9) and
    recorded from its journal THEN the Super Nine table counts it: 3 points for the winner, 1 for a positive second;
    a cup-stage journal is refused for it."""
    from scoreboard.demo import tournament as demo
    from scoreboard.tournament.views import game_setup
    t = demo.build(tmp_path / "s.sqlite", "samara-2003", "summer-4")
    assert t.draw()["stage"] == "super9"
    setup = game_setup(t, "S9-1")
    assert setup["stage"] == "super9"
    names_ = [p["name"] for p in setup["players"]]
    play_samara_game(tmp_path / "cup.sqlite", names_, {1: 1, 2: 2}, extra_topic_seat=1)
    with pytest.raises(TournamentError, match="is a cup game"):
        record_from_journal(tmp_path / "s.sqlite", "S9-1", tmp_path / "cup.sqlite")
    play_samara_game(tmp_path / "s9.sqlite", names_, {1: 1, 2: 1, 3: 2}, stage="super9")
    assert record_from_journal(tmp_path / "s.sqlite", "S9-1", tmp_path / "s9.sqlite")["winner"] == names_[0]
    lines = {x["name"]: x for x in Tournament(tmp_path / "s.sqlite").standings()["super9"]["lines"]}
    assert (lines[names_[0]]["points"], lines[names_[1]]["points"], lines[names_[2]]["points"]) == (3, 1, 0)


@pytest.mark.parametrize("snap, reason", [
    ({"game_over": True}, "no players list"),
    ({"game_over": True, "players": [{"seat": "x", "name": "А", "score": 1}]}, "integer seat"),
    ({"game_over": True, "players": [{"seat": 1, "name": "А", "score": "100"}]}, "numeric score"),
    ({"game_over": True, "winner": [1], "players": [{"seat": 1, "name": "А", "score": 1},
                                                    {"seat": 2, "name": "Б", "score": 0}]}, "winner must be"),
])
def test_malformed_snapshot_is_refused_with_the_reason(snap, reason):
    """GIVEN a snapshot with no players list, a non-integer seat, a non-numeric score or a list as winner
    WHEN it is read THEN it is refused naming that reason."""
    from scoreboard.tournament.results import from_snapshot
    with pytest.raises(TournamentError, match=reason):
        from_snapshot(snap, ["А", "Б"])


def test_tb5_snapshot_with_a_winner_the_rules_do_not_give_is_refused(cup, path):
    """GIVEN a samara cup game WHEN a hand-made snapshot names as winner a player on −10 (nobody positive), or a
    player who is not on the top score THEN it is refused with the reason and nothing is recorded (nothing from
    outside is trusted); the same game with no winner is recorded."""
    from scoreboard.tournament.service import record_snapshot
    players = cup.store.game("winter-1-1")["players"]
    seats = [{"seat": k + 1, "name": n, "score": s} for k, (n, s) in enumerate(zip(players, (-10, -20, -30)))]
    snap = {"game_over": True, "regulation": "samara-2003", "stage": "cup", "players": seats, "winner": 1}
    with pytest.raises(TournamentError, match="nobody positive"):
        record_snapshot(path, "winter-1-1", snap)
    with pytest.raises(TournamentError, match="not the top score"):
        record_snapshot(path, "winter-1-1", dict(snap, winner=2))
    assert Tournament(path).store.game("winter-1-1")["result"] is None
    assert record_snapshot(path, "winter-1-1", dict(snap, winner=None))["winner"] is None
