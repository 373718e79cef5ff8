"""The protocol as one self-contained HTML file that prints on A4.

Inline CSS, no script, no font, image or link to fetch (it prints the same from a USB stick). Every text from the
journal is escaped: player names, topics and reasons come from packs and remotes. Each round starts a page; a
question's rows are kept together (a `tbody` that does not break); the table's head — the game in one line and the
column names — is repeated at the top of every printed page.
"""
from __future__ import annotations

from html import escape

from scoreboard.protocol.words import (KINDS, LABELS, ROUND_KINDS, clock, how_decided, points, say, seat_name)

CSS = """
@page { size: A4; margin: 12mm 11mm 14mm 11mm;
        @bottom-right { content: counter(page) " / " counter(pages); font-size: 8pt; color: #555; } }
* { box-sizing: border-box; }
body { font-family: "DejaVu Sans", "Liberation Sans", Arial, sans-serif; font-size: 9.5pt; color: #111; margin: 0; }
h1 { font-size: 16pt; margin: 0 0 1mm 0; }
h2 { font-size: 12pt; margin: 0 0 2mm 0; }
p.sub { margin: 0 0 3mm 0; color: #333; }
dl.head { display: grid; grid-template-columns: max-content 1fr; gap: 0.6mm 4mm; margin: 0 0 3mm 0; }
dl.head dt { color: #555; } dl.head dd { margin: 0; }
table { border-collapse: collapse; width: 100%; margin: 0 0 3mm 0; }
th, td { border-bottom: 0.4pt solid #ccc; padding: 0.7mm 1.5mm; text-align: left; vertical-align: top; }
thead th { background: #eee; border-bottom: 0.8pt solid #777; }
thead tr.running th { background: #fff; font-weight: normal; color: #555; font-size: 8pt; border-bottom: none; }
td.t, td.ms, td.pts, td.num { white-space: nowrap; font-variant-numeric: tabular-nums; }
td.ms, td.pts, td.num { text-align: right; }
td.who { overflow-wrap: anywhere; }
col.t { width: 15mm; } col.ms { width: 13mm; } col.who { width: 54mm; } col.pts { width: 16mm; }
tbody.q { break-inside: avoid; page-break-inside: avoid; }
tr.qhead td { background: #f3f3f3; border-top: 0.8pt solid #777; font-weight: bold; padding-top: 1.2mm; }
tr.qhead .kind { font-weight: normal; font-style: italic; }
tr.after td { color: #333; font-size: 8.5pt; border-bottom: 0.8pt solid #777; }
tr.undone td.what, tr.undone td.pts { text-decoration: line-through; color: #777; }
tr.ignored td { color: #666; font-size: 8.5pt; }
tr.early td.what { color: #a40000; }
tr.press td.what { font-weight: bold; }
section.round { break-before: page; page-break-before: always; }
section.result + section.round { break-before: auto; page-break-before: auto; margin-top: 5mm; }
section.result { break-inside: avoid; page-break-inside: avoid; }
section.result table { width: auto; min-width: 60%; }
p.legend, p.journal { font-size: 8pt; color: #555; margin: 1mm 0; }
.winner { font-weight: bold; }
"""


def _e(value) -> str:
    return escape("" if value is None else str(value), quote=True)


def render(model: dict) -> str:
    header, result = model["header"], model["result"]
    names = {p["seat"]: p["name"] for p in model["players"]}
    running = " · ".join(x for x in (LABELS["title"], header.get("tournament"), header.get("game"),
                                      header.get("stage") and f"{LABELS['stage']} {header['stage']}",
                                      ", ".join(p["name"] for p in model["players"]), header.get("date")) if x)
    parts = ["<!doctype html>", '<html lang="ru"><head><meta charset="utf-8">',
             '<meta name="viewport" content="width=device-width, initial-scale=1">',
             f"<title>{_e(running)}</title><style>{CSS}</style></head><body>",
             _head(model, names), _result(model, names, result)]
    for title, blocks in _rounds(model["questions"]):
        parts.append(f'<section class="round"><h2>{_e(title)}</h2>')
        parts.append(_table(blocks, names, running))
        parts.append("</section>")
    parts.append("</body></html>")
    return "\n".join(parts)


def _head(model: dict, names: dict[int, str]) -> str:
    h, j = model["header"], model["journal"]
    pack = h.get("pack") or {}
    rows = [(LABELS["tournament"], " · ".join(x for x in (h.get("tournament"), h.get("game")) if x)),
            (LABELS["stage"], h.get("stage")),
            (LABELS["regulation"], " — ".join(x for x in (h.get("regulation"), h.get("title")) if x)),
            (LABELS["players"], ", ".join(seat_name(names, p["seat"]) for p in h["players"])),
            (LABELS["pack"], pack.get("title") or pack.get("path")),
            (LABELS["date"], h.get("date")), (LABELS["host"], h.get("host"))]
    out = [f"<header><h1>{_e(LABELS['title'])}</h1>", '<dl class="head">']
    out += [f"<dt>{_e(k)}</dt><dd>{_e(v)}</dd>" for k, v in rows if v]
    out.append("</dl>")
    if model["setup"]:
        lines = "; ".join(f"{clock(x['at'])} {say(x, names)}" for x in model["setup"] if x["what"] not in ("name",))
        out.append(f'<p class="legend">{_e(LABELS["before"])}: {_e(lines)}</p>')
    out.append(f'<p class="legend">{_e(LABELS["legend"])}</p>')
    out.append(f'<p class="journal">{_e(LABELS["journal"])}: {_e(j["file"])} · {_e(LABELS["events"])} {j["events"]} · '
               f'{_e(LABELS["digest"])} {_e(j["digest"][:16])}</p></header>')
    return "\n".join(out)


def _rounds(blocks: list[dict]) -> list[tuple[str, list[dict]]]:
    """The questions grouped by round (a tie-break and the final are rounds of their own), in play order."""
    groups: list[tuple[tuple, str, list[dict]]] = []
    for block in blocks:
        kind = block["round_kind"]
        key = (block["round"], kind)
        if not groups or groups[-1][0] != key:
            title = ROUND_KINDS.get(kind, kind).capitalize() if kind == "final" else \
                f"{LABELS['round']} {block['round']} · {ROUND_KINDS.get(kind, kind)}"
            if kind == "final" and block["kind"] == "super":
                title = KINDS["super"].capitalize()
            groups.append((key, title, []))
        groups[-1][2].append(block)
    return [(title, items) for _, title, items in groups]


def _table(blocks: list[dict], names: dict[int, str], running: str) -> str:
    out = ['<table class="log"><colgroup><col class="t"><col class="ms"><col class="who"><col class="what">'
           '<col class="pts"></colgroup><thead>',
           f'<tr class="running"><th colspan="5">{_e(running)}</th></tr>',
           "<tr>" + "".join(f"<th>{_e(LABELS[k])}</th>" for k in ("time", "ms", "player", "event", "points"))
           + "</tr></thead>"]
    for block in blocks:
        out.append(_block(block, names))
    out.append("</table>")
    return "\n".join(out)


def _block(block: dict, names: dict[int, str]) -> str:
    kind = KINDS.get(block["kind"], block["kind"])
    title = [f"{LABELS['question']} {block['n']}" if block["n"] is not None else LABELS["round_start"]]
    if block["topic"]:
        title.append(f"{LABELS['topic']} «{block['topic']}»")
    if block["value"] is not None:
        title.append(str(block["value"]))
    undone = " · " + LABELS["undone"] if block.get("undone_by") else ""
    out = ['<tbody class="q">',
           f'<tr class="qhead"><td class="t">{_e(clock(block["opened_at"]))}</td><td colspan="4">'
           f'{_e(" · ".join(title))}{" · " if kind else ""}<span class="kind">{_e(kind)}</span>{_e(undone)}</td></tr>']
    for line in block["lines"]:
        out.append(_line(line, names))
    scores = " · ".join(f"{names.get(i + 1, i + 1)} {s}" for i, s in enumerate(block["scores"] or []))
    if block["round_kind"] == "tiebreak" and block.get("tiebreak_scores"):
        scores += f" ({LABELS['tiebreak_scores']}: " + " · ".join(map(str, block["tiebreak_scores"])) + ")"
    out.append(f'<tr class="after"><td></td><td colspan="4">{_e(LABELS["after"])}: {_e(scores)}</td></tr></tbody>')
    return "\n".join(out)


def _line(line: dict, names: dict[int, str]) -> str:
    classes = [line["what"]]
    if line["what"] in ("false_start",):
        classes.append("early")
    if line.get("undone_by"):
        classes.append("undone")
    ms = "" if line.get("ms") is None else f"{line['ms']:+d}" if line["what"] == "false_start" else str(line["ms"])
    pts = points(line.get("deltas"), line.get("seat"))
    if line.get("tiebreak_deltas"):
        pts = (pts + " " if pts else "") + "(" + points(line["tiebreak_deltas"], line.get("seat")) + ")"
    text = say(line, names)
    if line.get("undone_by"):
        text += f" — {LABELS['undone']}"
    seat = line.get("seat") if line["what"] not in ("lot", "name", "game_over") else None
    return (f'<tr class="{" ".join(classes)}"><td class="t">{_e(clock(line["at"]))}</td><td class="ms">{_e(ms)}</td>'
            f'<td class="who">{_e(seat_name(names, seat))}</td><td class="what">{_e(text)}</td>'
            f'<td class="pts">{_e(pts)}</td></tr>')


def _result(model: dict, names: dict[int, str], result: dict) -> str:
    players = sorted(model["players"], key=lambda p: (-p["score"], -p["tiebreak_score"], p["seat"]))
    out = ['<section class="result">', f"<h2>{_e(LABELS['result'])}</h2>",
           "<table><thead><tr>" + "".join(f"<th>{_e(LABELS[k])}</th>" for k in ("player", "score", "rights"))
           + "</tr></thead><tbody>"]
    for p in players:
        cls = ' class="winner"' if p["seat"] == result.get("winner") else ""
        tb = f" ({p['tiebreak_score']:+d})" if result.get("tiebreaks") else ""
        out.append(f"<tr{cls}><td>{_e(seat_name(names, p['seat']))}</td><td class=\"num\">{_e(p['score'])}{_e(tb)}</td>"
                   f"<td class=\"num\">{_e(p['rights'])}</td></tr>")
    out.append("</tbody></table>")
    out.append(f"<p><b>{_e(LABELS['how'])}:</b> {_e(how_decided(result, names))}</p>")
    if result.get("adjustments"):
        items = "; ".join(f"{clock(a.get('time'))} {seat_name(names, a.get('seat'))} {a.get('delta'):+d}"
                          + (f" ({a['reason']})" if a.get("reason") else "") for a in result["adjustments"])
        out.append(f"<p><b>{_e(LABELS['corrections'])}:</b> {_e(items)}</p>")
    out.append(f'<p class="journal">{_e(LABELS["ignored"])}: {_e(model["journal"]["ignored"])}</p></section>')
    return "\n".join(out)
