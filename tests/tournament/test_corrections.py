"""Issue 12 item 3: corrections after the fact through the CLI on a real file — `result GAME --replace --reason R`
after its stage advanced recomputes what follows (T-N1 tree, T-A3/T-A4 wild cards), refuses naming a later game
already played with other players, `reopen STAGE --reason R` is the explicit path; every correction is in the
audit log, the JSON export and the HTML export."""
from __future__ import annotations

import json
import random

from scoreboard.cli import main
from scoreboard.tournament.service import Tournament

from .helpers import names, play_stage, register


def cli(path, *argv):
    return main(["tournament", *argv, "--file", str(path)])


def _nsk(path):
    """Novosibirsk, 1/9 played (the winner of each game on seat 1), advanced, the 1/3 final drawn."""
    t = Tournament.create(path, "novosibirsk-2007", seed=12)
    register(t, names(27))
    t.draw()
    play_stage(t, random.Random(0), scores=lambda g: [200, 120, 40])
    t.advance()
    t.draw()
    t.close()
    return path


def test_item3_tn1_correction_after_advance_redraws_the_unplayed_1_3_game(path, capsys):
    """GIVEN the 1/3 final drawn from a 1/9 where 1/9-4's score sheet swapped seats 1 and 2, and 1/3-1 already
    played WHEN `result 1/9-4 --replace` runs without a reason THEN it is refused (a correction after the fact is
    logged with its reason); WHEN with --reason (options in any order) THEN 1/9-4's winner changes, 1/3-2 (fed by
    1/9-4) is drawn again with the right winner, 1/3-1 keeps its result, the output lists what changed, and
    `draw --verify` passes."""
    _nsk(path)
    t = Tournament(path)
    seat1, seat2, _ = t.store.game("1/9-4")["players"]
    t.record_typed("1/3-1", {"1": 150, "2": 90, "3": 20})
    played = t.store.game("1/3-1")
    t.close()
    assert cli(path, "result", "1/9-4", "--scores", "1=120,2=200,3=40", "--replace") == 2
    assert "needs --reason" in capsys.readouterr().err
    assert cli(path, "result", "--replace", "1/9-4", "--reason", "перепутаны строки протокола",
               "--scores", "1=120,2=200,3=40") == 0
    out = capsys.readouterr().out
    assert f"qualified: +{seat2} −{seat1}" in out and "1/3 drawn again: 1/3-2:" in out
    t = Tournament(path)
    assert seat2 in t.store.game("1/3-2")["players"] and seat1 not in t.store.game("1/3-2")["players"]
    assert t.store.game("1/3-1") == played
    assert t.verify() == []


def test_item3_a_played_downstream_game_is_named_and_reopen_is_the_explicit_path(path, capsys):
    """GIVEN 1/3-2 already played by 1/9-4's typed winner WHEN 1/9-4 is corrected to another winner THEN refused,
    naming 1/3-2 with who played it and who would, and the file is unchanged; WHEN `reopen 1/9 --reason` THEN the
    1/3 stage is discarded (its results kept in the audit log), the correction goes through, and advance + draw
    make the 1/3 final from the right winners; the export carries both entries."""
    _nsk(path)
    t = Tournament(path)
    seat1, seat2, _ = t.store.game("1/9-4")["players"]
    t.record_typed("1/3-2", {"1": 150, "2": 90, "3": 20})
    before = t.export()
    t.close()
    assert cli(path, "result", "1/9-4", "--scores", "1=120,2=200,3=40", "--replace", "--reason", "опечатка") == 2
    err = capsys.readouterr().err
    assert "1/3-2 (played by" in err and seat1 in err and seat2 in err and "reopen 1/9 --reason" in err
    assert Tournament(path).export()["games"] == before["games"]
    assert cli(path, "reopen", "1/9") == 2                      # the reason is required
    assert "reopen needs --reason" in capsys.readouterr().err
    assert cli(path, "reopen", "--reason", "опечатка в 1/9-4 после сыгранной 1/3-2", "1/9") == 0
    assert "discarded 1/3 (1 result(s), kept in the audit log)" in capsys.readouterr().out
    t = Tournament(path)
    assert t.store.stage("1/3") is None and t.store.stage("1/9")["state"] == "drawn"
    t.close()
    assert cli(path, "result", "1/9-4", "--scores", "1=120,2=200,3=40", "--replace") == 0
    assert cli(path, "advance") == 0 and cli(path, "draw") == 0
    t = Tournament(path)
    assert seat2 in t.store.game("1/3-2")["players"]
    assert t.verify() == []
    log = t.export()["corrections"]
    reopened = next(a for a in log if a["what"] == "reopen")["detail"]
    assert reopened["removed"][0]["games"]["1/3-2"]["result"]["winner"]          # the discarded result is kept
    capsys.readouterr()
    assert cli(path, "export", "--format", "html", "--out", str(path.with_suffix(".html"))) == 0
    page = path.with_suffix(".html").read_text(encoding="utf-8")
    assert "Исправления и решения ведущего" in page and "этап 1/9 открыт заново" in page
    assert "опечатка в 1/9-4 после сыгранной 1/3-2" in page


def test_item3_ta3_ta4_wild_card_changes_after_a_corrected_second_place(path, capsys):
    """GIVEN an america selection of 7 games (21 players: 2 wild cards) advanced and the 1/3 finals drawn, where a
    second place was typed 100 too low WHEN corrected with --replace --reason THEN the wild cards are recomputed
    (the corrected player takes one), the 1/3 finals are drawn again from the new nine, as a from-scratch run with
    the right score draws them; the JSON export's corrections has the entry with the wild cards' change."""
    seconds = {"S1": 100, "S2": 80, "S3": 90}

    def run(where, low):
        t = Tournament.create(where, "america-2005", seed=5)
        register(t, names(21))
        t.draw()
        play_stage(t, random.Random(0), scores=lambda g: [300, seconds.get(g["id"], 60) - (low if g["id"] == "S3"
                                                                                         else 0), 20])
        t.advance()
        t.draw()
        return t
    right = run(path.with_name("right.sqlite"), 0)
    wrong = run(path, 100)
    second = wrong.store.game("S3")["players"][1]
    assert second in right.store.stage("selection")["advancement"]["wild_cards"]
    assert second not in wrong.store.stage("selection")["advancement"]["wild_cards"]
    seats = "1=300,2=90,3=20"
    wrong.close()
    assert cli(path, "result", "S3", "--scores", seats, "--replace", "--reason", "второе место: 100, не 0") == 0
    assert "wild_cards: +" + second in capsys.readouterr().out
    t = Tournament(path)
    assert t.store.stage("selection")["advancement"] == right.store.stage("selection")["advancement"]
    assert t.store.games("1/3") == right.store.games("1/3")
    assert t.verify() == []
    capsys.readouterr()
    assert cli(path, "export") == 0
    exported = json.loads(capsys.readouterr().out)
    assert exported["corrections"][-1]["detail"]["reason"] == "второе место: 100, не 0"
