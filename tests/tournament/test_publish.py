"""Issue 12 item 5 (publishing): `export --format html` printed by a real headless Chromium to PDF and read back with
pdftotext; `export --format csv` one row per player. Real tournament files, the real CLI."""
from __future__ import annotations

import csv
import io
import random
import re
import shutil
import subprocess

from scoreboard.cli import main
from scoreboard.demo import tournament as demo
from scoreboard.tournament.service import Tournament
from tests.conftest import need
from tests.tournament.helpers import play_stage

NASTY = '<b>Ёж</b> & "Ко" \u2019й'     # an untrusted name: markup, an ampersand, quotes, Cyrillic


def print_pdf(html_path, tmp_path) -> list[str]:
    """Chromium prints the page (no network, a fresh profile); pdftotext gives the text of each PDF page."""
    need("chromium", "poppler-utils")
    pdf = tmp_path / "out.pdf"
    subprocess.run([shutil.which("chromium") or "/usr/bin/chromium", "--headless", "--no-sandbox", "--disable-gpu",
                    "--disable-background-networking", "--disable-component-update", "--no-first-run",
                    "--disable-sync", f"--user-data-dir={tmp_path / 'profile'}", "--no-pdf-header-footer",
                    f"--print-to-pdf={pdf}", html_path.resolve().as_uri()],
                   check=True, capture_output=True, timeout=120)     # the timeout only bounds a hang
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], check=True, capture_output=True,
                          timeout=60).stdout.decode("utf-8")
    return [page for page in text.split("\f") if page.strip()]


def export(path, tmp_path, *options) -> str:
    out = tmp_path / "export.out"
    assert main(["tournament", "export", "--file", str(path), *options, "--out", str(out)]) == 0
    return out.read_text(encoding="utf-8")


def novosibirsk_with_ties(path) -> Tournament:
    """27 players (one with a hostile name); a 1/9 game tied for 2nd; the final tied for first, settled by the extra
    round (TB1)."""
    t = Tournament.create(path, "novosibirsk-2007", seed=7)
    for name in [f"Игрок {k:02d}" for k in range(1, 27)] + [NASTY]:
        t.add_player(name)
    rnd = random.Random(3)
    t.draw()
    play_stage(t, rnd, positive=True)
    t.advance()
    t.draw()
    play_stage(t, rnd, positive=True)
    t.advance()
    t.draw()
    t.record_typed("final", {"1": 300, "2": 300, "3": 120}, tiebreak={"2": 50})
    t.advance()
    return t


def assert_self_contained(text: str) -> None:
    lowered = text.lower()
    for outside in ("http:", "https:", "//", "src=", "<link", "@import", "url(", "<script"):
        assert outside not in lowered.replace("<!doctype html>", ""), outside


def pages_of_views(pages: list[str]) -> dict[int, str]:
    """Text of each view keyed by its number: «3 из 5» under the title starts a view's page; a page without it
    continues the view before (a long table)."""
    out, last = {}, None
    for page in pages:
        found = re.search(r"(\d+) из (\d+)", page)
        if found and int(found.group(1)) not in out:
            last = int(found.group(1))
            out[last] = page
        elif last is not None:
            out[last] += "\n" + page
    return out


def test_item5_novosibirsk_html_prints_every_place_and_the_tie_rules(path, tmp_path):
    """GIVEN a finished novosibirsk championship with a hostile player name and a final tied 300/300 settled by the
    extra round WHEN `export --format html` is printed to PDF by headless Chromium THEN the page is self-contained,
    the name is escaped (printed literally, never markup), every one of the 27 players has a place in the standings
    page, the bracket page names every game, each view starts its own page, and «доп. раунд» explains the tie."""
    t = novosibirsk_with_ties(path)
    field = t.standings()["field"]
    t.close()
    html_text = export(path, tmp_path, "--format", "html")
    assert_self_contained(html_text)
    assert "<b>Ёж</b>" not in html_text and "&lt;b&gt;Ёж&lt;/b&gt; &amp; &quot;Ко&quot;" in html_text
    page_file = tmp_path / "standings.html"
    page_file.write_text(html_text, encoding="utf-8")
    pages = pages_of_views(print_pdf(page_file, tmp_path))
    assert sorted(pages) == [1, 2], pages.keys()          # bracket, standings: one page each, in order
    bracket, standings = pages[1], pages[2]
    for gid in [f"1/9-{k}" for k in range(1, 10)] + ["1/3-1", "1/3-2", "1/3-3", "final"]:
        assert gid in bracket
    flat = " ".join(standings.split())
    assert len(field) == 27
    for p in field:
        assert re.search(rf"(^|\s){re.escape(p['place'])}\s+{re.escape(' '.join(p['name'].split()))}\s", flat), p
    assert "<b>Ёж</b> & \"Ко\"" in flat
    assert "доп. раунд" in flat and "Равенство" in flat


def test_item5_samara_html_has_cup_rounds_season_super_nine_and_cross(tmp_path, season_file):
    """GIVEN a samara season played to the Super Nine's end WHEN exported as HTML and printed THEN there is a page for
    every cup round (with who went on by the cup sum and the line's lot or sum), the Super Nine table with its
    head-to-head tie rule, the cross-table, the season table and the whole field (places 1 to the last player), in
    Russian, each view on its own page."""
    path = tmp_path / "s.sqlite"
    shutil.copy(season_file, path)
    t = Tournament(path)
    rnd = random.Random(5)
    t.draw()
    play_stage(t, rnd, positive=True)
    t.advance()
    rounds = [s["id"] for s in t.store.stages() if s["kind"] == "cup"]
    players = [p["name"] for p in t.store.players()]
    t.close()
    page_file = tmp_path / "season.html"
    page_file.write_text(export(path, tmp_path, "--format", "html"), encoding="utf-8")
    pages = pages_of_views(print_pdf(page_file, tmp_path))
    total = len(rounds) + 4                                # rounds, Super Nine, cross, season, field
    assert sorted(pages) == list(range(1, total + 1))
    text = "\n".join(pages.values())
    for stage in rounds:
        assert f"{stage}-1" in text
    assert "Зимний кубок · 1-й тур" in text and "Летний кубок · финал" in text
    assert "по сумме кубка" in text and "Супердевятка" in text
    field = " ".join(pages[total].split())
    assert "все места" in field
    for name in players:
        assert name in field
    assert re.search(rf"\s{len(players)}\s", field)         # the last place is there


def test_item5_america_html_marks_wild_cards_in_the_selection(tmp_path):
    """GIVEN a finished america tournament WHEN exported as HTML THEN the selection page names every wild card in
    the wild-card legend, and says who got in at the line and on what; printing keeps those words."""
    path = tmp_path / "a.sqlite"
    t = demo.build(path, "america-2005")
    wild = t.store.stage("selection")["advancement"]["wild_cards"]
    t.close()
    html_text = export(path, tmp_path, "--format", "html")
    assert wild and all(f'<span class="wild">{w}</span>' in html_text for w in wild)
    page_file = tmp_path / "a.html"
    page_file.write_text(html_text, encoding="utf-8")
    text = " ".join(" ".join(print_pdf(page_file, tmp_path)).split())
    assert "уайлд-кард — " + ", ".join(sorted(wild)) in text
    assert "выше, чем" in text


def test_item5_csv_standings_one_row_per_player(path, tmp_path):
    """GIVEN the novosibirsk championship WHEN `export --format csv` THEN one row per player, in place order, with
    place, points (the sum of their scores), wins, questions right (empty: typed results lack it), and each stage's
    score; the legacy per-seat CSV stays as `--format games-csv`."""
    t = novosibirsk_with_ties(path)
    games = t.store.games()
    t.close()
    rows = list(csv.DictReader(io.StringIO(export(path, tmp_path, "--format", "csv"))))
    assert len(rows) == 27 and len({r["player"] for r in rows}) == 27
    assert rows[0]["place"] == "1" and rows[-1]["place"].startswith(("2", "1"))
    for r in rows:
        mine = [(g["stage"], s) for g in games for s in g["result"]["seats"] if s["name"] == r["player"]]
        assert float(r["points"]) == sum(s["score"] for _, s in mine)
        assert int(r["wins"]) == sum(1 for g in games for s in g["result"]["seats"]
                                     if s["name"] == r["player"] and g["result"]["winner"] == s["name"])
        assert r["right"] == ""
        for stage, s in mine:
            assert float(r[f"score:{stage}"]) == s["score"]
    champion = rows[0]
    assert int(champion["wins"]) == 3
    seats = export(path, tmp_path, "--format", "games-csv").strip().splitlines()
    assert len(seats) == 1 + sum(len(g["players"]) for g in games)


def test_item5_samara_csv_covers_the_whole_field(tmp_path, season_file):
    """GIVEN a samara season before the Super Nine WHEN exported as CSV THEN every player who played has one row, with
    the T-S5 columns (conditional points, summer, wins, weighted), the tie rule in words, and a score per cup round."""
    rows = list(csv.DictReader(io.StringIO(export(season_file, tmp_path, "--csv"))))
    t = Tournament(season_file)
    played = {s["name"] for g in t.store.games() for s in (g["result"] or {}).get("seats", [])}
    t.close()
    assert {r["player"] for r in rows} >= played and len(rows) == len({r["player"] for r in rows})
    assert [int(r["place"]) for r in rows] == list(range(1, len(rows) + 1))
    assert {"points", "summer", "wins", "weighted", "tie", "score:winter-1"} <= set(rows[0])
    assert any(r["tie"] for r in rows)
