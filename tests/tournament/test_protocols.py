"""Issue 27 item 1: each game's protocol kept with its result in the tournament file — it survives the file copied to
another laptop without the boards' journals — and the HTML export links each game to its protocol's page."""
from __future__ import annotations

import shutil

from scoreboard.cli import main
from scoreboard.protocol import build, render
from scoreboard.tournament import protocols
from scoreboard.tournament.service import Tournament, record_from_journal
from tests.protocol import disputed

from .helpers import names, register


def test_item1_protocol_kept_with_the_result_and_linked_from_the_export(path, tmp_path, capsys):
    """GIVEN a novosibirsk tournament whose 1/9 game is played on a board (the disputed game, its journal) and another
    game typed by hand WHEN the first is recorded from its journal THEN its protocol is kept in the file with the
    tournament, the game and the stage in its header; a copy of the file alone (the journal deleted) still gives it
    through `tournament protocol`; `export --format html --out` writes it beside the export and the game links to it,
    the typed game has no link."""
    t = Tournament.create(path, "novosibirsk-2007", seed=5)
    register(t, names(27))
    t.draw()
    played, typed = t.store.games()[:2]
    t.record_typed(typed["id"], {"1": 300, "2": 100, "3": 50})
    t.close()
    journal = disputed.on_session(tmp_path / "board" / "game.sqlite", names=tuple(played["players"]))
    out = record_from_journal(path, played["id"], journal)
    assert out["recorded"] and "protocol" not in out
    expected = build(journal)
    laptop = tmp_path / "laptop" / "t.sqlite"
    laptop.parent.mkdir()
    shutil.copy(path, laptop)
    shutil.rmtree(journal.parent)
    t = Tournament(laptop)
    kept = protocols.get(t.store, played["id"])
    assert protocols.get(t.store, typed["id"]) is None
    t.close()
    assert kept["header"]["game"] == played["id"] and kept["header"]["stage"] == played["stage"]
    assert "Новосибирск" in kept["header"]["tournament"]
    assert kept["questions"] == expected["questions"] and kept["journal"]["digest"] == expected["journal"]["digest"]
    assert main(["tournament", "protocol", played["id"], "--file", str(laptop), "--format", "csv"]) == 0
    assert capsys.readouterr().out == render(kept, "csv")
    assert main(["tournament", "protocol", typed["id"], "--file", str(laptop)]) == 2
    assert "no protocol" in capsys.readouterr().err
    export = tmp_path / "laptop" / "export.html"
    assert main(["tournament", "export", "--file", str(laptop), "--format", "html", "--out", str(export)]) == 0
    page = export.read_text(encoding="utf-8")
    link = f'export-protocols/{protocols.file_name(played["id"])}'
    assert page.count(f'<a href="{link}">протокол</a>') >= 1 and page.count("export-protocols/") == page.count(link)
    assert (export.parent / link).read_text(encoding="utf-8") == render(kept, "html")
