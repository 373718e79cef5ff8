"""The watch relay's parts in the app (issue 27 item 4): the pre-show check of its port, and the tournament's views
said in words for a page that has no catalogue."""
from __future__ import annotations

import json
import socket

from scoreboard.app import doctor
from scoreboard.app.config import default_config
from scoreboard.app.watch_relay import in_words


def test_issue27_4_doctor_checks_the_watch_relays_port():
    """GIVEN [watch] enabled on a port another program holds WHEN the doctor checks the ports THEN the relay's port is
    a FAIL naming `[watch] port`; with [watch] off it is not checked at all."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        config = default_config()
        config["osc"].update(bind="127.0.0.1", port=0, passcode="pass1234")
        config["remote_web"].update(bind="127.0.0.1", port=0)
        config["watch"].update(enabled=True, bind="127.0.0.1", port=taken.getsockname()[1])
        lines = [line for line in doctor.check_ports(config) if line.what == "watch relay port"]
        assert [line.verdict for line in lines] == [doctor.FAIL] and "[watch] port" in lines[0].fix
        config["watch"]["enabled"] = False
        assert not [line for line in doctor.check_ports(config) if "watch" in line.what]


def test_issue27_4_the_tournaments_views_reach_the_page_in_words(tmp_path):
    """GIVEN a samara season's standings and an america selection round (views as data: labels, column codes)
    WHEN said for the watch page THEN no label object and no `tn_` key is left, and the columns are words."""
    from scoreboard.demo import tournament as demo
    from scoreboard.tournament.board_link import load_screen
    for fmt, until in (("samara-2003", "winter-1"), ("america-2005", "selection")):
        demo.build(tmp_path / f"{fmt}.sqlite", fmt, until).close()
        for scene in ("bracket", "standings"):
            kind, view = load_screen(tmp_path / f"{fmt}.sqlite", scene)
            said = in_words(view)
            text = json.dumps(said, ensure_ascii=False)
            assert '"key"' not in text and "tn_" not in text, (fmt, scene, text[:300])
            if kind == "standings":
                assert said["columns"][0] == "Место" and all(isinstance(c, str) for c in said["columns"])
