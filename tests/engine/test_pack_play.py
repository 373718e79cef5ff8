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
