"""Playing from a pack through the lead's session: `/sg/pack/load` fills the board, the auction cell comes from the
pack, the host sees text/answer/comment/media, `/sg/question/replace` plays the reserve (issue 5 §6)."""
from pathlib import Path

import pytest

from scoreboard.engine.commands import Refused, make
from scoreboard.session import Session
from siqbuild import topic, write_siq

SAMPLE = str(Path(__file__).resolve().parents[2] / "assets" / "packs" / "sample.toml")


class Board:
    def __init__(self):
        self.session, self.t = Session(), 0.0

    def __call__(self, *command):
        self.t += 1
        return self.session.submit(make(self.t, *command))


def _start(board, pack):
    board("/sg/game/new", "novosibirsk-2007", "1/9", "3")
    board("/sg/pack/load", pack)
    for seat, name in enumerate(["Анна", "Борис", "Вера"], 1):
        board("/sg/player/name", str(seat), name)
    board("/sg/game/start")
    board("/sg/chooser", "1")
    return board("/sg/next")


def test_p1_pack_fills_the_board_and_the_host_sees_the_question_and_its_image(pack_cache):
    """GIVEN the sample pack loaded for a novosibirsk 1/9 game WHEN the image question is chosen THEN the board has
    the pack's topics, the host view has text, answer and accepted answers, and the image path is in the cache."""
    board = Board()
    snap = _start(board, SAMPLE)
    assert [t["name"] for t in snap["round"]["topics"]] == ["Реки", "Флаги", "Химия", "Литература"]
    board("/sg/select", "2", "1")
    host = board.session.host_question()
    assert (host["text"], host["answer"], host["accepts"]) == ("Флаг какой страны на экране?", "Россия",
                                                               ["Российская Федерация"])
    assert host["media"][0]["kind"] == "image" and Path(host["media"][0]["path"]).is_relative_to(pack_cache)


def test_au1_the_pack_sets_the_auction_cell_and_g9_replace_plays_the_reserve():
    """GIVEN the sample pack (Флаги question 5 is the auction) WHEN the host tries to mark another cell as auction,
    then opens Реки 1 and replaces it THEN marking is refused and the reserve's text is read."""
    board = Board()
    _start(board, SAMPLE)
    with pytest.raises(Refused, match="pack sets the auction"):
        board("/sg/select", "1", "2", "auction")
    board("/sg/select", "1", "1")
    board("/sg/question/replace")
    assert board.session.host_question()["text"] == "Река, на которой стоит Самара."


def test_a_broken_pack_is_refused_and_changes_nothing(tmp_path):
    """GIVEN a .siq whose topic lacks an answer WHEN `/sg/pack/load` is sent choosing that topic THEN the command is
    refused with the place named and the game is unchanged."""
    path = str(write_siq(tmp_path / "p.siq", 5, [("Р", [topic("Реки", extra={2: {"answers": []}})])]))
    board = Board()
    before = board("/sg/game/new", "novosibirsk-2007", "1/9", "3")
    with pytest.raises(Refused, match="topic 1 «Реки», question 2: the question has no answer"):
        board("/sg/pack/load", path, "Реки")
    assert board.session.snapshot()["rev"] == before["rev"]
