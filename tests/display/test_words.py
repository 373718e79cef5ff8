"""The audience hears the board in its own language: stage codes, "no winner" reasons and how a tie for first was
decided come from the theme's strings (ru and en), never from the engine's English sentences or raw codes."""
import dataclasses

import pygame
import pytest

from scoreboard.display import compose
from scoreboard.demo.game import play
from scoreboard.demo.simulated import Director
from scoreboard.display.theme.load import load_theme
from scoreboard.session import Session

SIZE = (1280, 720)
STAGES = {"cup": "Кубок", "final": "Финал", "selection": "Отбор", "super9": "Супердевятка", "1/9": "1/9 финала",
          "1/3": "1/3 финала"}


class Gloomy(Director):
    """The demo's players and host, but every answer is judged wrong: nobody ends with a positive score."""

    def decide(self, snap):
        step = super().decide(snap)
        if step is not None and step.address == "/sg/judge/right":
            step = dataclasses.replace(step, address="/sg/judge/wrong")
        if step is not None and step.address == "/sg/final/judge":
            step = dataclasses.replace(step, args=(step.args[0], "wrong"))
        return step


def draw(snapshot, role="audience", theme=None, hq=None):
    theme = theme or load_theme("classic")
    return compose.draw(pygame.Surface(SIZE), snapshot, theme, float(snapshot.get("time") or 0), role,
                       host_question=hq, record=True, animate=False)


def all_text(canvas) -> str:
    return "\n".join(d.text for d in canvas.texts())


@pytest.fixture(scope="module")
def gloomy_samara():
    return play(Session(), Gloomy("samara-2003"))


def test_tb5_samara_no_positive_score_is_said_in_russian(gloomy_samara):
    """GIVEN a real samara game where every answer was wrong (TB5: no positive score, engine code `no_positive`)
    WHEN the winner screen and the host screen are drawn THEN they say "Победителя нет" with the Russian reason,
    and the engine's English sentence appears nowhere."""
    snap = gloomy_samara
    assert snap["game_over"] and snap["winner"] is None and snap["no_winner"] == "no_positive"
    audience = draw(dict(snap, screen="winner"))
    assert audience.texts("winner:none")[0].text == "Победителя нет"
    assert audience.texts("winner:reason")[0].text == "ни у кого нет положительной суммы"
    host = draw(snap, "host")
    for canvas in (audience, host):
        assert snap["no_winner_reason"] not in all_text(canvas) and "TB5" not in all_text(canvas)
    assert "ни у кого нет положительной суммы" in host.texts("host:winner")[0].text


def test_ts7_shared_first_names_the_seats_and_english_theme_says_it_in_english(gloomy_samara):
    """GIVEN a finished Super Nine game with first place shared (T-S7: `no_winner` = shared_first, seats 1 and 3)
    WHEN drawn with the Russian and the English theme THEN the reason names both players in that language."""
    snap = dict(gloomy_samara, stage="super9", no_winner="shared_first", shared_first=[1, 3], screen="winner",
                no_winner_reason="shared first place (T-S7): 1, 3")
    names = [p["name"] for p in snap["players"]]
    ru = draw(snap).texts("winner:reason")[0].text
    assert ru == f"первое место делят: {names[0]}, {names[2]}"
    english = load_theme("classic")
    english.values["meta"]["language"] = "en"
    en = draw(snap, theme=english)
    assert en.texts("winner:reason")[0].text == f"shared first place: {names[0]}, {names[2]}"
    assert draw(dict(snap, no_winner="still_tied")).texts("winner:reason")[0].text == "ничья и после перестрелки"


@pytest.mark.parametrize("code, shown", sorted(STAGES.items()) + [("осенний-кубок", "осенний-кубок")])
def test_g3_stage_codes_are_shown_in_the_audiences_words(gloomy_samara, code, shown):
    """GIVEN a snapshot of stage `code` (G3) WHEN the board grid, the winner screen and the host screen are drawn
    THEN their headers show the theme's words for it; a club preset's own stage is shown as it is."""
    snap = dict(gloomy_samara, stage=code)
    assert draw(dict(snap, screen="winner")).texts("header:right")[0].text == shown
    assert draw(dict(snap, phase="choosing", screen="board", game_over=False)).texts("header:right")[0].text == shown
    assert draw(snap, "host").texts("host:stage")[0].text == shown


def test_host_at_game_over_says_game_over_not_the_round_and_raw_stage(games):
    """GIVEN the last snapshot of the novosibirsk demo (game over after the red round and a tie-break) WHEN the
    host screen is drawn THEN its header says "Игра окончена" and the stage in words, not a round name and a code."""
    snap, hq, _ = games["novosibirsk-2007"][-1]
    host = draw(snap, "host", hq=hq)
    assert host.texts("host:round")[0].text == "Игра окончена"
    assert host.texts("host:stage")[0].text == "1/9 финала"


def test_tb1_winner_after_a_tiebreak_shows_its_points_and_why(games):
    """GIVEN the novosibirsk demo's end: two players level on points, the tie-break won by one (TB1) WHEN the
    winner screen is drawn THEN it shows the winner's tie-break points and says the tie-break decided it."""
    snap, _, _ = games["novosibirsk-2007"][-1]
    winner = next(p for p in snap["players"] if p["seat"] == snap["winner"])
    assert sum(p["score"] == winner["score"] for p in snap["players"]) >= 2, "the demo ends level on points"
    canvas = draw(dict(snap, screen="winner"))
    assert canvas.texts("winner:score")[0].text == f"{winner['score']} · перестрелка: {winner['tiebreak_score']}"
    assert canvas.texts("winner:decided")[0].text == "победа в перестрелке"


def test_tb4_winner_by_lot_says_the_lot_decided(games):
    """GIVEN a game whose tie-break also ended level, the winner drawn by lot (TB4: the last `lots` entry names the
    winner) WHEN the winner screen is drawn THEN it says the lot decided; a game won outright says neither."""
    snap, _, _ = games["novosibirsk-2007"][-1]
    level = [dict(p, tiebreak_score=20) for p in snap["players"]]
    lot = {"what": "winner (tie after the tie-break)", "seed": 0, "number": 9, "among": [1, 2],
           "result": snap["winner"]}
    by_lot = dict(snap, players=level, lots=[*snap["lots"], lot], screen="winner")
    assert draw(by_lot).texts("winner:decided")[0].text == "ничья и в перестрелке — победитель по жребию"
    outright = dict(snap, round=dict(snap["round"], tiebreak=False), screen="winner")
    canvas = draw(outright)
    assert not canvas.texts("winner:decided") and "перестрелка" not in canvas.texts("winner:score")[0].text


def test_au2_holder_who_declined_to_raise_is_never_shown_as_passed(games):
    """GIVEN the novosibirsk demo's auctions, where the engine lists the chooser who declined to raise among
    `passed` while they keep the nominal and lead (AU2) WHEN each bidding snapshot is drawn THEN the holder is shown
    as leading, never in the "пас" line nor with a "пас" mark; the others who passed are listed."""
    checked = 0
    for snap, _, at in games["novosibirsk-2007"]:
        auction = snap.get("auction")
        if snap["phase"] != "auction" or not auction or auction["holder"] not in auction["passed"]:
            continue
        canvas = draw(snap)
        holder = next(p["name"] for p in snap["players"] if p["seat"] == auction["holder"])
        others = [p["name"] for p in snap["players"] if p["seat"] in auction["passed"] and p["seat"] != auction["holder"]]
        assert canvas.texts("auction:holder")[0].text == holder
        passed_line = " ".join(d.text for d in canvas.texts("auction:passed"))
        assert holder not in passed_line and all(name in passed_line for name in others)
        assert not canvas.tagged(f"mark:passed:{auction['holder']}")
        assert canvas.texts(f"status:{auction['holder']}")[0].text == "ведёт"
        checked += 1
    assert checked


def test_unchecked_fields_with_hostile_values_never_break_a_frame(games):
    """GIVEN a follower's snapshot whose fields the shared checker does not know carry nonsense (`shared_first` a
    number, `lots` of strings, a media path with a NUL byte, a duration that is text, a huge no-winner code list)
    WHEN the winner and question screens are drawn THEN nothing raises and the screens still say what they can."""
    over, _, _ = games["novosibirsk-2007"][-1]
    hostile = dict(over, screen="winner", lots=["x", 5], shared_first=7)
    assert draw(hostile).texts("winner:name")
    none = dict(over, winner=None, no_winner="shared_first", shared_first=list(range(10**4)), screen="winner")
    assert draw(none).texts("winner:none")
    assert draw(dict(none, shared_first="1,2")).texts("winner:none")
    reading, _, at = next(x for x in games["novosibirsk-2007"] if x[0]["phase"] == "buzz_window")
    odd = dict(reading, question=dict(reading["question"], duration="5", media=[{"kind": "image", "path": "a\0b"}]))
    canvas = compose.draw(pygame.Surface(SIZE), odd, load_theme("classic"), at, record=True)
    assert canvas.texts("media:missing") and canvas.texts("timer:left")
