"""Playing from a pack through the session: /sg/pack/load with the organiser's topic choice (G3, AU1, G9, P1)."""
from pathlib import Path

import pytest

from scoreboard.engine import Refused, make
from scoreboard.session import Session, replay_snapshot

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = str(ROOT / "assets" / "packs" / "sample.toml")


def test_pack_load_with_chosen_topics_fills_the_board_and_the_host_view(tmp_path):
    # GIVEN the sample pack and the organiser's list of topics WHEN loaded before the start
    s = Session(tmp_path / "g.sqlite")
    s.submit(make(0, "/sg/game/new", "novosibirsk-2007", "1/9"))
    s.submit(make(0, "/sg/pack/load", SAMPLE))
    s.submit(make(0, "/sg/game/start"))
    default_names = [t["name"] for t in s.snapshot()["round"]["topics"]]
    s.close()
    s = Session(tmp_path / "h.sqlite")
    s.submit(make(0, "/sg/game/new", "novosibirsk-2007", "1/9"))
    chosen = list(reversed(default_names))
    s.submit(make(0, "/sg/pack/load", SAMPLE, *chosen, "2.1", "2.2", "2.3", "2.4"))
    s.submit(make(0, "/sg/game/start"))
    s.submit(make(0, "/sg/chooser", 1))
    # THEN the board has the chosen topics in the chosen order
    assert [t["name"] for t in s.snapshot()["round"]["topics"]] == chosen
    s.submit(make(1, "/sg/select", 1, 1))
    host = s.host_question()
    assert host["text"] and host["answer"] and host["topic_name"] == chosen[0]
    # AND the audience snapshot never carries the text or the answer
    assert host["answer"] not in str(s.snapshot())
    # AND the plan is journaled: replay needs no pack file
    live = s.snapshot()
    s.close()
    assert replay_snapshot(tmp_path / "h.sqlite") == live


def test_pack_load_refused_with_reason_and_nothing_changes(tmp_path):
    """GIVEN a game in setup WHEN a missing pack or an unknown topic is loaded THEN refused with the reason and the
    game is unchanged."""
    s = Session(None)
    s.submit(make(0, "/sg/game/new", "novosibirsk-2007", "1/9"))
    before = s.snapshot()
    with pytest.raises(Refused) as error:
        s.submit(make(1, "/sg/pack/load", str(tmp_path / "missing.toml")))
    assert "missing.toml" in str(error.value)
    with pytest.raises(Refused):
        s.submit(make(1, "/sg/pack/load", SAMPLE, "Нет такой темы"))
    assert s.snapshot() == before


def test_g3_pack_with_too_few_topics_for_the_stage_is_refused():
    # GIVEN a novosibirsk 1/9 game (4 + 4 topics) WHEN the organiser chooses only two topics THEN the load is refused
    s = Session(None)
    s.submit(make(0, "/sg/game/new", "novosibirsk-2007", "1/9"))
    before = s.snapshot()
    with pytest.raises(Refused, match="plays 2"):
        s.submit(make(0, "/sg/pack/load", SAMPLE, "Реки", "Химия"))
    # AND a championship final (6 + 6 topics) cannot be played from the 4 + 4 sample pack
    f = Session(None)
    f.submit(make(0, "/sg/game/new", "novosibirsk-2007", "final"))
    with pytest.raises(Refused, match=r"round 1 has 4 topic\(s\); a final game needs 6 \(G3\)"):
        f.submit(make(0, "/sg/pack/load", SAMPLE))
    assert s.snapshot() == before


def test_p2_pack_warnings_reach_the_operator(tmp_path):
    # GIVEN a pack whose image is missing WHEN loaded THEN the session keeps the warning for the board's console
    import shutil
    folder = tmp_path / "p"
    shutil.copytree(Path(SAMPLE).parent, folder)
    (folder / "sample_media" / "flag.png").unlink()
    s = Session(None)
    s.submit(make(0, "/sg/game/new", "novosibirsk-2007", "1/9"))
    s.submit(make(0, "/sg/pack/load", str(folder / "sample.toml")))
    assert any("flag.png" in n for n in s.notices), s.notices


def _pack_with_an_empty_cell(tmp_path) -> str:
    """The sample pack with its first topic's second question made an empty cell (SIGame price −1)."""
    text = Path(SAMPLE).read_text(encoding="utf-8")
    second = 'text = "На этой реке стоит Новосибирск."\nanswer = "Обь"\nsource = "Новосибирск: энциклопедия. 2003"'
    assert second in text
    path = tmp_path / "empty-cell.toml"
    path.write_text(text.replace(second, "empty = true"), encoding="utf-8")
    return str(path)


def test_g7_an_empty_cell_of_the_pack_is_never_played_and_the_round_ends_without_it(tmp_path):
    """Issue 10 item 1 («empty cells (price −1) are empty cells»), G7: GIVEN a pack whose topic 1 question 2 is an
    empty cell WHEN the round starts THEN that cell is empty (played, never selectable, marked `empty`) from the start,
    the pack may still be reloaded while nothing was played, and the round ends once the other cells are played."""
    s = Session(None)
    s.submit(make(0, "/sg/game/new", "novosibirsk-2007", "1/9"))
    s.submit(make(0, "/sg/pack/load", _pack_with_an_empty_cell(tmp_path)))
    s.submit(make(0, "/sg/game/start"))
    cell = s.snapshot()["round"]["topics"][0]["cells"][1]
    assert cell["empty"] and cell["played"]
    s.submit(make(0, "/sg/pack/load", _pack_with_an_empty_cell(tmp_path)))   # the board is still full
    s.submit(make(0, "/sg/chooser", 1))
    with pytest.raises(Refused, match="empty cell"):
        s.submit(make(1, "/sg/select", 1, 2))
    at = 1.0
    cells = [(t, q) for t, topic in enumerate(s.snapshot()["round"]["topics"], 1)
             for q, c in enumerate(topic["cells"], 1) if not c["played"]]
    assert len(cells) == 4 * 5 - 1
    for topic, question in cells:
        assert s.snapshot()["round"]["index"] == 0
        s.submit(make(at, "/sg/select", topic, question))
        while s.snapshot()["phase"] not in ("reveal",):
            phase = s.snapshot()["phase"]
            at += 1.0
            if phase == "auction":
                s.submit(make(at, "/sg/auction/pass", s.snapshot()["auction"]["turn"]))
            elif phase == "reading":
                s.submit(make(at, "/sg/reading/done"))
            elif phase == "auction_answer":
                s.submit(make(at, "/sg/judge/wrong"))
            else:
                at += 60
                s.advance(at)
        at += 1.0
        s.submit(make(at, "/sg/next"))
    assert s.snapshot()["round"]["index"] == 1          # the round ended without the empty cell (G7)


def test_g4_sequential_play_skips_an_empty_cell(tmp_path):
    """Issue 10 item 1, G4: GIVEN america (topics in order) and a pack whose topic 1 question 2 is empty WHEN the
    host goes on after question 1 THEN question 3 opens: the empty cell is skipped."""
    s = Session(None)
    import tomli_w
    topics = [{"name": f"Тема {k}", "questions": [
        {"empty": True} if (k, n) == (1, 2) else {"text": f"Вопрос {k}.{n}", "answer": f"Ответ {k}.{n}"}
        for n in range(1, 6)]} for k in range(1, 9)]
    pack = tmp_path / "eight.toml"
    pack.write_text(tomli_w.dumps({"pack": {"format": "svoya-pack", "version": 1, "title": "Восемь тем"},
                                   "rounds": [{"name": "Раунд", "topics": topics}]}), encoding="utf-8")
    s.submit(make(0, "/sg/game/new", "america-2005", "selection"))
    s.submit(make(0, "/sg/pack/load", str(pack)))
    s.submit(make(0, "/sg/game/start"))
    s.submit(make(1, "/sg/next"))           # the first topic's intro
    s.submit(make(2, "/sg/next"))           # its question 1
    assert s.snapshot()["question"]["index"] == 1
    s.submit(make(3, "/sg/reading/done"))
    at = 3.0
    while s.snapshot()["phase"] != "reveal":
        at += 60
        s.advance(at)
    s.submit(make(at + 1, "/sg/next"))
    assert s.snapshot()["question"]["index"] == 3
