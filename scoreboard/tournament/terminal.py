"""The tournament in a terminal: tables aligned by display width — a wide (East Asian) character takes two columns,
a combining mark none, so Cyrillic names with «й» typed as и + ◌̆ and a CJK name line up with the rest — and the
standings said in words (`scoreboard tournament standings`, no display loaded)."""
from __future__ import annotations

import unicodedata

from scoreboard.labels import column_name, say, text_for


def display_width(text: str) -> int:
    width = 0
    for ch in str(text):
        if unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me", "Cf"):
            continue
        width += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return width


def pad(text: str, width: int, right: bool = False) -> str:
    gap = " " * max(0, width - display_width(text))
    return gap + text if right else text + gap


def render_table(heads: list[str], rows: list[list[str]], gap: str = "  ", left=(1,)) -> str:
    """Columns as wide as their widest cell; the columns `left` (the player's) left-aligned, numbers right-aligned."""
    cols = len(heads)
    widths = [max([display_width(heads[k])] + [display_width(r[k]) for r in rows if k < len(r)]) for k in range(cols)]

    def line(cells):
        return gap.join(pad(str(c), widths[k], right=k not in left) for k, c in enumerate(cells)).rstrip()
    return "\n".join([line(heads)] + [line(r) for r in rows])


def standings_text(t, text=None) -> str:
    """The standings as an aligned terminal table, in Russian (or `text(key, **fields)`)."""
    text = text or text_for("ru")
    view = t.flow.VIEWS["standings"](t, None)
    heads = [column_name(c, text) for c in view["columns"]]
    rows = [[say(v, text) for v in row] + [say(tie, text) if tie else ""]
            for row, tie in zip(view["rows"], view["ties"])]
    lines = [say(view["title"], text), render_table(heads + [""], rows, left=(1, len(heads)))]
    champion = t.standings().get("champion")
    if champion:
        lines.append(f"{text('tn_champion')}: {', '.join(champion) if isinstance(champion, list) else champion}")
    return "\n".join(lines)
