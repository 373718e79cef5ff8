"""Issue 12 item 3 on whole seasons: a result mistyped, advanced on, then corrected with `--replace --reason` leaves the
file exactly as a from-scratch run with the right result would (advancement, cup sums, conditional points, wild
cards T-A3/T-A4, the 1/3 tree T-N1, later cups' spread groups T-S2, the Super Nine selection T-S5) — or, when a
later game was already played with other players, is refused naming exactly those games.

Scores come from a function of (game, its players), so two runs that seat the same players in a game record the
same result there. Every run is on a real SQLite file (on /dev/shm when there is one: hundreds of commits);
`draw --verify` must find the corrected file consistent."""
from __future__ import annotations

import random

import pytest

from scoreboard.demo.tournament import top
from scoreboard.tournament.errors import TournamentError
from scoreboard.tournament.service import Tournament

from .helpers import names


@pytest.fixture
def tmp_path(tmp_path):
    """Whole seasons commit hundreds of transactions: on a RAM disk when there is one (still a real SQLite file,
    WAL and all; only the fsync is free)."""
    import shutil
    import tempfile
    from pathlib import Path
    if not Path("/dev/shm").is_dir():
        yield tmp_path
        return
    where = Path(tempfile.mkdtemp(prefix="tcorrect-", dir="/dev/shm"))
    yield where
    shutil.rmtree(where, ignore_errors=True)


def _scores(t, game) -> list[int]:
    rnd = random.Random(f"{game['id']}/{','.join(game['players'])}")
    low = -60 if t.flow.WINNER != "top_positive" else 10
    return rnd.sample(range(low, top(t, game, 400), 10), len(game["players"]))


def _mistyped(t, game, how: int) -> list[int]:
    """The right scores with a typo: two seats swapped (a different winner) or a loser's score off by 10–60."""
    right = _scores(t, game)
    wrong = list(right)
    if how % 2 == 0 and len(wrong) > 1:
        wrong[0], wrong[1] = wrong[1], wrong[0]
    else:
        loser = min(range(len(wrong)), key=lambda i: wrong[i])
        wrong[loser] = max(wrong[loser] - 10 * (1 + how % 6), 10 if t.flow.WINNER == "top_positive" else -200)
        if wrong.count(wrong[loser]) > 1:
            wrong[loser] = right[loser]
    if wrong == right:                    # no room to lower it: swap instead
        wrong[0], wrong[1] = wrong[1], wrong[0]
    return wrong


def _play(t, stage_id, typo: tuple[str, list[int]] | None, only: int | None = None):
    for k, g in enumerate(t.store.games(stage_id)):
        if g["result"] or only is not None and k >= only:
            continue
        values = typo[1] if typo and typo[0] == g["id"] else _scores(t, g)
        t.record_typed(g["id"], **_typed(t, values))


def _typed(t, values) -> dict:
    """Scores by seat, and (america) questions answered right, which settle a wild-card tie (T-A4)."""
    right = {str(i + 1): max(0, v) // 50 for i, v in enumerate(values)} if "right" in t.flow.OPTIONS else None
    return {"scores": {str(i + 1): v for i, v in enumerate(values)}, "right": right}


def _run(path, fmt, players, seed, stop, played, typo=None):
    """Draw, play and advance `stop` stages (or all there are), then draw the next and play its first `played`."""
    t = Tournament.create(path, fmt, seed=seed)
    for i, name in enumerate(names(players)):
        t.add_player(name, team="Т" if i % 5 == 0 else None, seeded=i % 4 == 0)
    for n in range(stop + 1):
        try:
            stage = t.draw()["stage"]
        except TournamentError:        # the season is over
            break
        _play(t, stage, typo, only=None if n < stop else played)
        if n < stop:
            t.advance()
    return t


def _state(t) -> dict:
    return {"stages": [(s["id"], s["state"], {k: v for k, v in s["draw"].items() if k != "topic_pool"},
                        s["advancement"]) for s in t.store.stages()],
            "games": [(g["id"], g["players"], g["result"]) for g in t.store.games()],
            "standings": t.standings()}


CASES = {"novosibirsk-2007": (27, 2), "america-2005": (23, 2), "samara-2003": (13, 12)}


def _one(tmp_path, fmt, seed, pick):
    """One example: which stage holds the typo, which game, what typo, how far the season went before the fix."""
    players, stages = CASES[fmt]
    rnd = random.Random(f"{fmt}/{seed}/{pick}")
    full = _run(tmp_path / f"full-{seed}-{pick}.sqlite", fmt, players, seed, 99, 0)
    ids = [s["id"] for s in full.store.stages()][:stages + 1]
    k = rnd.randrange(len(ids) - 1)
    target = rnd.choice([g for g in full.store.games(ids[k]) if len(g["players"]) > 1])
    wrong_scores = _mistyped(full, target, rnd.randrange(12))
    stop = rnd.randrange(k + 1, len(ids) + 1)           # stages played and advanced: the typo's among them
    played = rnd.randrange(4)                            # games of the next stage played before the fix
    right = _run(tmp_path / f"r-{seed}-{pick}.sqlite", fmt, players, seed, stop, played)
    wrong = _run(tmp_path / f"w-{seed}-{pick}.sqlite", fmt, players, seed, stop, played, (target["id"], wrong_scores))
    fixed = _typed(wrong, _scores(wrong, target))
    before = _state(wrong)
    try:
        out = wrong.record_typed(target["id"], **fixed, replace=True, reason="a typo in the score sheet")
    except TournamentError as error:
        # THEN the refusal names every game played with other players than the right run seats there, and only
        # games already played; it changes nothing
        assert "reopen" in str(error) and _state(wrong) == before
        played_ids = {g["id"] for g in wrong.store.games() if g["result"] and len(g["players"]) > 1}
        named = {gid for gid in played_ids if f"{gid} (played by" in str(error)}
        differ = {gid for gid in played_ids
                  if (right.store.game(gid) or {}).get("players") != wrong.store.game(gid)["players"]}
        assert named and differ <= named, (named, differ, str(error))
        # THEN `reopen` is the explicit path: it discards what follows, and the same correction goes through
        wrong.reopen(ids[k], "typo found after later games")
        wrong.record_typed(target["id"], **fixed, replace=True)
        assert wrong.verify() == []
        return "refused"
    assert wrong.verify() == []
    assert _state(wrong) == _state(right), out["changes"]
    assert [a for a in wrong.store.audit_log() if a["what"] == "correction"][-1]["detail"]["reason"]
    return "redrawn" if any("drawn again" in c for c in out["changes"]) else "same"


@pytest.mark.parametrize("fmt", list(CASES))
def test_item3_correction_after_advance_equals_a_run_with_the_right_result(tmp_path, fmt):
    """Issue 12 item 3, T-N1/T-A3/T-A4/T-S3/T-S4/T-S5 — GIVEN a season where one result was mistyped, its stage
    advanced and later stages drawn and partly played WHEN the result is replaced with the right one (--replace
    --reason) THEN the file equals a from-scratch run with the right result (draws, seats, results, advancements,
    standings) and `draw --verify` passes; or, where a later game was already played with other players, the
    correction is refused naming those games, changes nothing, and `reopen` lets it through."""
    seen = [_one(tmp_path, fmt, seed, pick) for seed in (1, 2) for pick in range(4)]
    assert {"redrawn", "same"} & set(seen), seen


def cli(path, *argv):
    from scoreboard.cli import main
    return main(["tournament", *argv, "--file", str(path)])


def test_item3_ts5_summer_final_typo_corrected_after_the_super_nine_draw_reselects_it(tmp_path, capsys):
    """Issue 12 item 3, T-S4/T-S5/T-S6 — GIVEN a samara season whose summer cup final was typed with two seats'
    scores swapped (so its conditional points put P10 into the Super Nine instead of P03), and the Super Nine drawn
    on it WHEN the organiser replaces the result through the CLI (options in any order) THEN the Super Nine is
    drawn again exactly as a from-scratch run with the right result draws it, the output says so, the correction
    is in the audit log and in the JSON export's corrections, and `draw --verify` passes."""
    right = _run(tmp_path / "right.sqlite", "samara-2003", 13, 5, 9, 0)
    game = right.store.game("summer-3-1")
    scores = _scores(right, game)
    typo = [scores[2], scores[1], scores[0]]
    wrong = _run(tmp_path / "wrong.sqlite", "samara-2003", 13, 5, 9, 0, ("summer-3-1", typo))
    chosen = lambda t: sorted(t.store.stage("super9")["draw"]["input"])
    assert set(chosen(wrong)) ^ set(chosen(right)) == {"P03", "P10"}
    path = tmp_path / "wrong.sqlite"
    was = wrong.store.stage("super9")["draw"]["input"]
    wrong.close()
    seats = ",".join(f"{i + 1}={v}" for i, v in enumerate(scores))
    assert cli(path, "result", "--reason", "протокол: перепутаны места 1 и 3", "summer-3-1", "--scores", seats,
               "--replace") == 0
    out = capsys.readouterr().out
    assert "super9 drawn again" in out and "summer-3: " in out
    fixed = Tournament(path)
    assert _state(fixed) == _state(right)
    entry = fixed.export()["corrections"][-1]
    assert entry["what"] == "correction" and entry["detail"]["game"] == "summer-3-1"
    assert entry["detail"]["reason"] == "протокол: перепутаны места 1 и 3"
    assert entry["detail"]["was"]["draws"]["super9"]["draw"]["input"] == was
    assert cli(path, "draw", "--verify") == 0
