"""`export --format html`: one self-contained printable document, a page per view (issue 12 item 5).

The pages are the format's own views (`VIEWS` of its module, through the registry): the bracket, every round table
(america's selection with its wild cards, each samara cup round), the standings of the whole field with what ordered
each tie, the Super Nine cross-table, and any page the format adds (`PUBLISH_EXTRA`, e.g. samara's season table once
the Super Nine hides it on screen). Nothing here names a format.

Self-contained: inline CSS, no script, no font, image or link to fetch, so it prints the same from a USB stick in a
venue with no network. Every text from the file (names, teams, topic names) is escaped: names are typed by people.
"""
from __future__ import annotations

import html
from datetime import datetime, timezone

from scoreboard.tournament import corrections
from scoreboard.tournament.errors import TournamentError
from scoreboard.labels import column_name, say, stage_name, text_for

WORDS = {
    "ru": {"ex_printed": "Напечатано {at} · формат {format} · зерно жеребьёвки {seed}", "ex_page": "{n} из {of}",
           "ex_wild_card": "уайлд-кард", "ex_advanced": "проходят дальше", "ex_to_play": "не сыграна",
           "ex_game": "Игра", "ex_vs": "соперник", "ex_nothing": "Нечего публиковать: жеребьёвки ещё не было",
           "ex_tie": "Равенство", "ex_place_in_table": "место", "ex_number": "№",
           "ex_legend_shared": "«4–5» — место поделено",
           "ex_corrections": "Исправления и решения ведущего", "ex_when": "Когда", "ex_what": "Что",
           "ex_reason": "Причина", "ex_effect": "Последствия", "ex_correction": "исправлен результат {subject}",
           "ex_reopen": "этап {subject} открыт заново", "ex_walkover": "неявка: {subject}",
           "ex_forced": "{subject}: решение ведущего вне пределов правил", "ex_protocol": "протокол"},
    "en": {"ex_printed": "Printed {at} · format {format} · draw seed {seed}", "ex_page": "{n} of {of}",
           "ex_wild_card": "wild card", "ex_advanced": "go on", "ex_to_play": "to play",
           "ex_game": "Game", "ex_vs": "opponent", "ex_nothing": "Nothing to publish: nothing drawn yet",
           "ex_tie": "Tie", "ex_place_in_table": "place", "ex_number": "#",
           "ex_legend_shared": "«4–5»: a shared place",
           "ex_corrections": "Corrections and host's rulings", "ex_when": "When", "ex_what": "What",
           "ex_reason": "Reason", "ex_effect": "What followed", "ex_correction": "result of {subject} corrected",
           "ex_reopen": "stage {subject} reopened", "ex_walkover": "walkover: {subject}",
           "ex_forced": "{subject}: host's ruling beyond the rules", "ex_protocol": "protocol"},
}

CSS = """
@page { size: A4; margin: 14mm 12mm; }
* { box-sizing: border-box; }
body { font-family: "DejaVu Sans", "Liberation Sans", Arial, sans-serif; font-size: 10.5pt; color: #111; margin: 0; }
section.page { break-after: page; page-break-after: always; padding: 0 0 6mm 0; }
section.page:last-child { break-after: auto; page-break-after: auto; }
h1 { font-size: 17pt; margin: 0 0 2mm 0; }
h2 { font-size: 13pt; margin: 0 0 4mm 0; color: #333; font-weight: normal; }
p.meta { font-size: 8pt; color: #555; margin: 0 0 4mm 0; }
table { border-collapse: collapse; margin: 0 0 4mm 0; }
th, td { border: 0.6pt solid #999; padding: 1.2mm 2mm; text-align: left; vertical-align: top; }
th { background: #eee; font-weight: bold; }
th, td { white-space: nowrap; }
td.tie, .why { white-space: normal; }
@page wide { size: A4 landscape; margin: 12mm; }
section.page[data-view="cross"] { page: wide; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
tr.top td { background: #fff4c2; }
tr { break-inside: avoid; page-break-inside: avoid; }
.won { font-weight: bold; }
.wild { background: #d8ecff; }
.why, .tie { font-size: 8.5pt; color: #444; }
.columns { display: flex; gap: 5mm; align-items: flex-start; }
.column { flex: 1; }
.game { border: 0.6pt solid #999; margin: 0 0 3mm 0; break-inside: avoid; page-break-inside: avoid; }
.game h3 { font-size: 10pt; margin: 0; padding: 1mm 2mm; background: #eee; }
.game h3 a { font-weight: normal; font-size: 8.5pt; color: #124; }
.game table { width: 100%; margin: 0; }
.game td { border: none; border-top: 0.4pt solid #ddd; }
.games { display: grid; grid-template-columns: repeat(3, 1fr); gap: 3mm; }
p.note, p.legend { font-size: 9pt; margin: 1mm 0; }
table.cross td, table.cross th { text-align: center; padding: 1mm 1.2mm; font-size: 9pt; }
td.self { background: #ccc; }
table.cross td.ahead { background: #fff4c2; font-weight: bold; }
table.cross td.name { text-align: left; }
.columns td, .columns h3 { padding: 0.5mm 1.5mm; font-size: 9pt; }
.columns .game { margin-bottom: 2mm; }
"""


def _pages(t) -> list[tuple[str, str | None]]:
    """(kind, stage) of every page: each view of the format; a round view once per round it can show."""
    pages = []
    for kind in t.flow.VIEWS:
        if kind == "round":
            pages += [(kind, s["id"]) for s in t.store.stages()]
        else:
            pages.append((kind, None))
    pages += list(getattr(t.flow, "PUBLISH_EXTRA", ()))
    return pages


def views(t) -> list[dict]:
    """Every view that exists for the tournament as it stands (a view not drawn yet is left out)."""
    out = []
    for kind, stage in _pages(t):
        try:
            view = t.flow.VIEWS[kind](t, stage)
        except TournamentError:
            continue            # not drawn yet, or not that kind of round
        if view not in out:     # e.g. samara's season table before the Super Nine is its standings too
            out.append(view)
    return out


def _e(value, text) -> str:
    return html.escape(say(value, text))


def _num(value) -> bool:
    return isinstance(value, (int, float)) or (isinstance(value, str) and value.lstrip("-").replace(".", "").isdigit())


def _player_line(p: dict, text, wild: set) -> str:
    named = isinstance(p["name"], str)       # a placeholder («winner of 1/3-1») is a label, never a wild card
    classes = (["won"] if p.get("won") else []) + (["wild"] if named and p["name"] in wild else [])
    score = "" if p.get("score") is None else _e(p["score"], text)
    tie = f' <span class="tie">({_e(p["tie"], text)})</span>' if p.get("tie") else ""
    marks = " ✓" if p.get("advanced") else ""
    why = f'<br><span class="why">{_e(p["why"], text)}</span>' if p.get("why") else ""
    return (f'<tr><td class="{" ".join(classes)}">{_e(p["name"], text)}{marks}{why}</td>'
            f'<td class="num">{score}{tie}</td></tr>')


def _game_box(game: dict, text, wild: set, title: str | None = None, links: dict | None = None) -> str:
    rows = "".join(_player_line(p, text, wild) for p in game["players"])
    state = "" if game.get("done") else f' · {html.escape(text("ex_to_play"))}'
    link = (links or {}).get(game.get("id"))
    protocol = f' · <a href="{html.escape(link)}">{html.escape(text("ex_protocol"))}</a>' if link else ""
    return (f'<div class="game"><h3>{html.escape(title or game["id"])}{state}{protocol}</h3>'
            f'<table>{rows}</table></div>')


def _bracket(view: dict, text, links: dict | None = None) -> str:
    cols = []
    for col in view["columns"]:
        boxes = "".join(_game_box(g, text, set(), links=links) for g in col["games"])
        cols.append(f'<div class="column"><h2>{html.escape(stage_name(col["title"], text))}</h2>{boxes}</div>')
    champion = view.get("champion")
    line = ""
    if champion:
        names = ", ".join(champion) if isinstance(champion, list) else champion
        line = f'<p class="note"><b>{html.escape(text("tn_champion"))}:</b> {html.escape(names)}</p>'
    return f'<div class="columns">{"".join(cols)}</div>{line}'


def _round(view: dict, text, links: dict | None = None) -> str:
    wild = set(view.get("wild_cards") or [])
    boxes = "".join(_game_box(g, text, wild, f'{text("ex_game")} {g["number"] or g["id"]} · {g["id"]}', links)
                    for g in view["games"])
    parts = [f'<div class="games">{boxes}</div>']
    if view.get("advanced"):
        items = ", ".join(f'<span class="{"wild" if a["name"] in wild else ""}">{html.escape(a["name"])}</span>'
                          + (f' <span class="why">({_e(a["why"], text)})</span>' if a.get("why") else "")
                          for a in view["advanced"])
        parts.append(f'<p class="note"><b>{html.escape(text("ex_advanced"))}:</b> {items}</p>')
    if view.get("note"):
        parts.append(f'<p class="note">{_e(view["note"], text)}</p>')
    if wild:
        parts.append(f'<p class="legend"><span class="wild">&nbsp;{html.escape(text("ex_wild_card"))}&nbsp;</span>'
                     f' — {html.escape(", ".join(sorted(wild)))}</p>')
    if view.get("legend"):
        parts.append(f'<p class="legend">{_e(view["legend"], text)}</p>')
    return "".join(parts)


def _standings(view: dict, text) -> str:
    heads = [column_name(c, text) for c in view["columns"]] + [text("ex_tie")]
    head = "".join(f"<th>{html.escape(h)}</th>" for h in heads)
    rows = []
    for i, (row, tie) in enumerate(zip(view["rows"], view["ties"])):
        cells = "".join(f'<td class="{"num" if k != 1 and _num(v) else ""}">{_e(v, text)}</td>'
                        for k, v in enumerate(row))
        cells += f'<td class="tie">{_e(tie, text) if tie else ""}</td>'
        rows.append(f'<tr class="{"top" if i < (view.get("highlight") or 0) else ""}">{cells}</tr>')
    legend = [text("tn_legend_ties"), text("ex_legend_shared")]
    if view.get("legend"):
        legend.insert(0, say(view["legend"], text))
    return (f'<table><thead><tr>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table>'
            f'<p class="legend">{html.escape(" · ".join(legend))}</p>')


def _cross(view: dict, text) -> str:
    players = view["players"]
    head = (f'<th>{html.escape(text("ex_number"))}</th><th>{html.escape(text("tn_col_player"))}</th>'
            + "".join(f"<th>{p['number']}</th>" for p in players)
            + f'<th>{html.escape(text("tn_cross_points"))}</th><th>{html.escape(text("tn_cross_place"))}</th>')
    rows = []
    for p, cells in zip(players, view["cells"]):
        tds = "".join('<td class="self"></td>' if c is None else
                      f'<td class="{"ahead" if _ahead(c) else ""}">{html.escape(c)}</td>' for c in cells)
        rows.append(f"<tr><td>{p['number']}</td><td class=\"name\">{html.escape(p['name'])}</td>{tds}"
                    f'<td class="num">{_e(p["points"], text)}</td><td class="num">{_e(p["place"], text)}</td></tr>')
    return (f'<table class="cross"><thead><tr>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table>'
            f'<p class="legend">{html.escape(text("tn_cross_legend"))}</p>')


def _ahead(cell: str) -> bool:
    """«470:380»: the row player scored more than the column player in their game (finished above them)."""
    mine, _, theirs = cell.partition(":")
    try:
        return float(mine) > float(theirs)
    except ValueError:
        return False


def corrections_page(t, text) -> str:
    """Issue 12 item 3: every correction after the fact, reopen, walkover and forced result, with its reason."""
    rows = corrections.log(t)
    if not rows:
        return ""
    head = "".join(f"<th>{html.escape(text(k))}</th>" for k in ("ex_when", "ex_what", "ex_reason", "ex_effect"))
    body = "".join(f'<tr><td>{html.escape(r["at"][:16].replace("T", " "))} UTC</td>'
                   f'<td>{html.escape(text("ex_" + r["kind"], subject=r["subject"]))}</td>'
                   f'<td class="why">{html.escape(r["reason"] or "")}</td><td class="why">'
                   f'{"<br>".join(html.escape(x) for x in r["lines"])}</td></tr>' for r in rows)
    return f"<table><tr>{head}</tr>{body}</table>"


DRAW = {"bracket": _bracket, "round": _round, "standings": _standings, "cross": _cross}


def document(t, language: str = "ru", at: datetime | None = None, links: dict[str, str] | None = None) -> str:
    """The whole publication as one HTML string; `links`: game id → its protocol's page (protocols.write_beside)."""
    base = text_for(language)
    words = {**WORDS["ru"], **WORDS.get(language, {})}

    def text(key, **fields):
        return words[key].format(**fields) if key in words else base(key, **fields)

    title = text(t.flow.TITLE)
    stamp = (at or datetime.now(timezone.utc)).strftime("%Y-%m-%d %H:%M UTC")
    meta = html.escape(text("ex_printed", at=stamp, format=t.format, seed=t.seed))
    pages = views(t)
    sections = []
    for n, view in enumerate(pages, start=1):
        body = DRAW[view["kind"]](view, text, links) if view["kind"] in ("bracket", "round") else \
            DRAW[view["kind"]](view, text)
        sections.append(f'<section class="page" data-view="{view["kind"]}"><h1>{html.escape(title)}</h1>'
                        f'<h2>{_e(view["title"], text)} · {html.escape(text("ex_page", n=n, of=len(pages)))}</h2>'
                        f'<p class="meta">{meta}</p>{body}</section>')
    changed = corrections_page(t, text)
    if changed:
        sections.append(f'<section class="page" data-view="corrections"><h1>{html.escape(title)}</h1>'
                        f'<h2>{html.escape(text("ex_corrections"))}</h2><p class="meta">{meta}</p>{changed}</section>')
    if not sections:
        sections.append(f'<section class="page"><h1>{html.escape(title)}</h1>'
                        f'<p>{html.escape(text("ex_nothing"))}</p></section>')
    return (f'<!DOCTYPE html>\n<html lang="{html.escape(language)}"><head><meta charset="utf-8">'
            f'<title>{html.escape(title)}</title><style>{CSS}</style></head>'
            f'<body>{"".join(sections)}</body></html>\n')
