"""Tournament screens for the audience display: bracket, cup round, standings, Super Nine cross-table.

`draw(surface, kind, view, style)` draws a view from `views.py` and changes nothing else. Every text is fitted to its
box: the font shrinks until it fits, never below 3 % of the screen height (then the text is cut with an ellipsis).
Words come from the theme: a view's labels (`{"key": …, fields}`), stage ids and column codes become the theme's UI
strings through `style["text"]` (the board passes its theme's `text`; `theme_style(theme)` builds the whole style),
otherwise through the default theme.
"""
from __future__ import annotations

import pygame

DEFAULT_STYLE = {"font_path": None, "fg": (240, 240, 240), "bg": (12, 20, 60), "accent": (255, 200, 40),
                 "muted": (130, 140, 170)}
MIN_TEXT = 0.03
STAGES = {"1/9": "tn_stage_1_9", "1/3": "tn_stage_1_3", "final": "tn_stage_final", "selection": "tn_stage_selection"}
_fonts: dict = {}
_default: list = []


def default_text():
    """The default theme's `text(key, **fields)`, loaded once (the board passes its own theme's instead)."""
    if not _default:
        from scoreboard.display.theme import load_theme
        _default.append(load_theme().text)
    return _default[0]


def theme_style(theme) -> dict:
    """The style the board draws these screens with: its theme's font, colours and language."""
    return {"font_path": theme.font("main"), "fg": theme.color("text"), "bg": theme.color("background"),
            "accent": theme.color("accent"), "muted": theme.color("muted"), "text": theme.text}


def say(value, text) -> str:
    """A view's value in words: a label `{"key": k, field: …}` through the theme (fields may be labels too),
    a number without a trailing .0, anything else (a name, a game id) as it is."""
    if isinstance(value, dict) and isinstance(value.get("key"), str):
        return text(value["key"], **{k: say(v, text) for k, v in value.items() if k != "key"})
    if isinstance(value, float):
        return f"{value:g}"
    return "" if value is None else str(value)


def column_name(code: str, text) -> str:
    return text(f"tn_col_{code}")


def stage_name(stage_id: str, text) -> str:
    return text(STAGES[stage_id]) if stage_id in STAGES else str(stage_id)


def _font(path, size):
    key = (path, size)
    if key not in _fonts:
        if path is None:
            path = pygame.font.match_font("dejavusans,freesans,liberationsans,arial")
        _fonts[key] = pygame.font.Font(path, size)
    return _fonts[key]


def _width(font, text: str, bold: bool) -> int:
    font.set_bold(bold)
    try:
        return font.size(text)[0]
    finally:
        font.set_bold(False)


def fitting_size(surface, texts, width, height, style, bold=False) -> int:
    """One font size that fits every text of a column or grid (so a table reads evenly)."""
    floor = max(8, int(surface.get_height() * MIN_TEXT))
    size = max(floor, int(height * 0.78))
    while size > floor and any(_width(_font(style.get("font_path"), size), str(t), bold) > width for t in texts):
        size = max(floor, int(size * 0.9))
    return size


def short_name(name: str) -> str:
    """'Максим Орлов' → 'М. Орлов': what a person name becomes when the full one cannot fit."""
    words = str(name).split()
    return f"{words[0][0]}. {' '.join(words[1:])}" if len(words) > 1 else str(name)


def fit(surface, text, rect, color, style, align="left", bold=False, size=None, alt=None):
    """Draw `text` in `rect`, as large as fits (at most the rect's height), never below the minimum size;
    then the shorter `alt` if given, and only then cut with an ellipsis."""
    text = str(text)
    floor = max(8, int(surface.get_height() * MIN_TEXT))
    size = max(floor, min(size or rect.height, int(rect.height * 0.78)))
    font = _font(style.get("font_path"), size)
    while size > floor and _width(font, text, bold) > rect.width:
        size = max(floor, int(size * 0.9))
        font = _font(style.get("font_path"), size)
    if alt and _width(font, text, bold) > rect.width:
        text = str(alt)
    while len(text) > 1 and _width(font, text, bold) > rect.width:
        text = text[:-2] + "…"
    font.set_bold(bold)
    image = font.render(text, True, color)
    font.set_bold(False)
    x = {"left": rect.left, "right": rect.right - image.get_width(),
         "center": rect.centerx - image.get_width() // 2}[align]
    return surface.blit(image, (x, rect.centery - image.get_height() // 2))


def draw(surface, kind: str, view: dict, style: dict | None = None) -> None:
    if kind not in ("bracket", "round", "standings", "cross"):
        raise ValueError(f"no tournament screen kind {kind!r} (bracket, round, standings, cross)")
    style = {**DEFAULT_STYLE, **(style or {})}
    if not callable(style.get("text")):
        style["text"] = default_text()
    surface.fill(style["bg"])
    w, h = surface.get_size()
    fit(surface, say(view.get("title", ""), style["text"]), pygame.Rect(w * 0.03, h * 0.015, w * 0.94, h * 0.08), style["accent"], style,
        "center", bold=True)
    body = pygame.Rect(w * 0.02, h * 0.11, w * 0.96, h * 0.86)
    {"bracket": _bracket, "round": _round, "standings": _standings, "cross": _cross}[kind](surface, view, body, style)


def _game_box(surface, game, rect, style, size):
    pygame.draw.rect(surface, style["muted"], rect, width=2, border_radius=6)
    n = max(len(game["players"]), 1)
    line_h = rect.height / n
    pad = rect.width * 0.04
    font = _font(style.get("font_path"), size)
    scores = [f"{p['score']:g}" for p in game["players"] if p.get("score") is not None]
    score_w = max((_width(font, x, True) for x in scores), default=0) + pad if scores else 0
    for i, p in enumerate(game["players"]):
        line = pygame.Rect(rect.left + pad, rect.top + i * line_h, rect.width - 2 * pad, line_h)
        color = style["accent"] if p.get("won") else style["muted"] if p.get("placeholder") else style["fg"]
        name = say(p["name"], style["text"])
        fit(surface, name, pygame.Rect(line.left, line.top, line.width - score_w, line.height), color,
            style, bold=p.get("won", False), size=size, alt=None if p.get("placeholder") else short_name(name))
        if p.get("score") is not None:
            fit(surface, f"{p['score']:g}", pygame.Rect(line.right - score_w, line.top, score_w, line.height), color,
                style, "right", bold=p.get("won", False), size=size)


def _bracket(surface, view, body, style):
    """Columns of games joined by the tree. When the first column cannot hold all its games at the minimum text
    size (27 names of a 1/9 final), each group of games that feeds one game is laid out in a row before it."""
    columns = view["columns"]
    h = surface.get_height()
    line = _font(style.get("font_path"), max(8, int(h * MIN_TEXT))).get_linesize()
    area_top, area_h = body.top + body.height * 0.06, body.height * 0.94
    first_lines = sum(max(len(g["players"]), 3) for g in columns[0]["games"])
    grouped = len(columns) > 1 and first_lines * line * 1.1 > area_h and len(columns[0]["games"]) > len(columns[1]["games"])
    per = len(columns[0]["games"]) // max(len(columns[1]["games"]), 1) if grouped else 1
    units = per + len(columns) - 1 if grouped else len(columns)
    unit = body.width / units
    boxes = []
    for c, column in enumerate(columns):
        games = column["games"]
        rows = max([len(g["players"]) for g in games] + [3])
        if grouped and c == 0:
            slot = area_h / max(len(columns[1]["games"]), 1)
            rects = [pygame.Rect(body.left + (i % per) * unit, area_top + (i // per) * slot, unit * 0.9,
                                 min(slot * 0.75, rows * h * 0.065)) for i in range(len(games))]
            title = pygame.Rect(body.left, body.top, unit * per * 0.97, body.height * 0.05)
        else:
            x = body.left + ((per - 1 + c) if grouped else c) * unit
            slot = area_h / len(games)
            box_h = min(slot * 0.9, rows * h * 0.065)
            top = (lambda i: area_top + i * slot) if grouped and c == 1 else \
                (lambda i: area_top + i * slot + (slot - box_h) / 2)
            wide = 0.95 if c == len(columns) - 1 else 0.8      # nothing to the right of the last column
            rects = [pygame.Rect(x, top(i), unit * wide, box_h) for i in range(len(games))]
            title = pygame.Rect(x, body.top, unit * 0.8, body.height * 0.05)
        fit(surface, stage_name(column["title"], style["text"]), title, style["muted"], style, "center")
        names = [say(p["name"], style["text"]) for g in games for p in g["players"]]
        size = fitting_size(surface, names, rects[0].width * 0.76, rects[0].height / rows, style, bold=True)
        for game, rect in zip(games, rects):
            _game_box(surface, game, rect, style, size)
        boxes.append(rects)
    for c, (left, right) in enumerate(zip(boxes, boxes[1:])):   # each game joins the game its winner goes to
        step = max(len(left) // max(len(right), 1), 1)
        for i, rect in enumerate(left):
            target = right[min(i // step, len(right) - 1)]
            if grouped and c == 0:      # down from each game onto a bus that runs to the game they feed
                bus = rect.bottom + (area_h / len(right) - rect.height) * 0.25
                pygame.draw.lines(surface, style["muted"], False,
                                  [rect.midbottom, (rect.centerx, bus), (target.left - unit * 0.05, bus),
                                   (target.left - unit * 0.05, target.centery), target.midleft], 2)
                continue
            mid_x = (rect.right + target.left) // 2
            pygame.draw.lines(surface, style["muted"], False,
                              [rect.midright, (mid_x, rect.centery), (mid_x, target.centery), target.midleft], 2)
    if view.get("champion"):
        last = boxes[-1][0]
        champion = view["champion"]
        champion = ", ".join(champion) if isinstance(champion, list) else champion
        width = body.right - last.left
        fit(surface, style["text"]("tn_champion"), pygame.Rect(last.left, last.bottom + body.height * 0.02, width, body.height * 0.06),
            style["muted"], style, "left")
        fit(surface, champion, pygame.Rect(last.left, last.bottom + body.height * 0.08, width, body.height * 0.08),
            style["accent"], style, "left", True, alt=short_name(champion))


def _round(surface, view, body, style):
    """Every game of the round as a card: ✓ and gold for who went on, Σ by cup sum, WC a wild card."""
    games = view["games"]
    cols = 3 if len(games) <= 9 else 4 if len(games) <= 12 else 5     # as wide as the names need
    cols = min(cols, max(1, len(games)))
    rows = -(-len(games) // cols)
    foot_h = body.height * 0.07
    cell_w = min(body.width / cols, body.width / 3)
    left = body.left + (body.width - cell_w * cols) / 2
    cell_h = (body.height - 2 * foot_h) / max(rows, 1)
    lines = 1 + max((len(g["players"]) for g in games), default=3)
    lh = min((cell_h - 12) / lines, surface.get_height() * 0.075)
    texts = [("✓ " if p.get("advanced") else "") + p["name"] for g in games for p in g["players"]]
    tags = [_tag(p, style["text"]) for g in games for p in g["players"]]
    size = min(fitting_size(surface, texts, cell_w * 0.55 - 8, lh, style, bold=True),
               fitting_size(surface, [t for t in tags if t] or ["0"], cell_w * 0.45 - 16, lh, style))
    for i, game in enumerate(games):
        r, c = divmod(i, cols)
        cell = pygame.Rect(left + c * cell_w + 4, body.top + r * cell_h + 4, cell_w - 8, lh * lines + 4)
        pygame.draw.rect(surface, style["muted"], cell, width=2, border_radius=6)
        caption = style["text"]("tn_game_n", n=game["number"]) if game.get("number") else game["id"]
        fit(surface, caption, pygame.Rect(cell.left + 8, cell.top, cell.width - 16, lh), style["muted"], style,
            size=size)
        for j, p in enumerate(game["players"]):
            y = cell.top + (j + 1) * lh
            gone_on = p.get("advanced") or p.get("won")
            color = style["accent"] if gone_on else style["fg"]
            mark = "✓ " if p.get("advanced") else ""
            fit(surface, mark + p["name"], pygame.Rect(cell.left + 8, y, cell.width * 0.55 - 8, lh), color, style,
                bold=bool(gone_on), size=size, alt=mark + short_name(p["name"]))
            fit(surface, _tag(p, style["text"]), pygame.Rect(cell.left + cell.width * 0.55, y, cell.width * 0.45 - 12, lh), color,
                style, "right", size=size)
    if view.get("note"):
        fit(surface, say(view["note"], style["text"]), pygame.Rect(body.left, body.bottom - 2 * foot_h, body.width,
                                                                   foot_h), style["fg"], style, "center")
    fit(surface, say(view.get("legend", ""), style["text"]), pygame.Rect(
        body.left, body.bottom - foot_h, body.width, foot_h), style["muted"], style, "center")


def _tag(p, text) -> str:
    """The score, then Σ for a place taken by the cup sum or WC for a wild card (the legend explains them)."""
    tag = "" if p["score"] is None else f"{p['score']:g}"
    why = (p.get("why") or {}).get("key") if isinstance(p.get("why"), dict) else None
    if why == "tn_why_cup_sum":
        tag += " " + text("tn_tag_sum")
    elif why == "tn_why_wild_card":
        tag += " " + text("tn_tag_wild")
    return tag


def _standings(surface, view, body, style):
    rows = view["rows"]
    heads = [column_name(c, style["text"]) for c in view["columns"]]
    floor = surface.get_height() * MIN_TEXT * 1.15
    per_col = max(1, int((body.height - floor) // floor))
    per_col = min(per_col, max(len(rows), 1), 20)
    blocks = max(1, -(-len(rows) // per_col))
    blocks = min(blocks, 2)
    shown = rows[: per_col * blocks]
    block_w = body.width / blocks
    # Each number column gets room in proportion to its header or widest value at the smallest size, so a longer
    # header (another language) widens its column instead of being cut.
    small = _font(style.get("font_path"), max(8, int(surface.get_height() * MIN_TEXT)))
    numeric = [max([_width(small, heads[k], False)] + [_width(small, str(row[k]), False) for row in rows]) + 12
               for k in range(2, len(heads))]
    weights = [0.07, 0.37] + [0.56 * n / max(sum(numeric), 1) for n in numeric]
    row_h = min(body.height / (per_col + 1), surface.get_height() * 0.07)
    for b in range(blocks):
        x0 = body.left + b * block_w
        xs = [x0]
        for wgt in weights:
            xs.append(xs[-1] + wgt * block_w * 0.96)
        head = min(fitting_size(surface, [name], xs[k + 1] - xs[k] - 6, row_h, style)
                   for k, name in enumerate(heads) if k != 0)      # the place header may fall back to '#'

        cells = fitting_size(surface, [str(v) for row in shown for v in row[1:2]], xs[2] - xs[1] - 6, row_h, style)
        gap = block_w * 0.015
        shown_heads = list(heads)
        if _width(_font(style.get("font_path"), head), heads[0], False) > xs[1] - xs[0] - 6:
            shown_heads[0] = "#"        # 'Место' in a narrow place column: the sign, at the headers' size
        for k, name in enumerate(shown_heads):
            fit(surface, name, pygame.Rect(xs[k] + gap * (k == 1), body.top, xs[k + 1] - xs[k] - 6, row_h),
                style["muted"], style, "left" if k == 1 else "right", size=head)
        for r, row in enumerate(shown[b * per_col:(b + 1) * per_col]):
            index = b * per_col + r
            y = body.top + (r + 1) * row_h
            color = style["accent"] if index < view.get("highlight", 0) else style["fg"]
            for k, value in enumerate(row):
                fit(surface, value, pygame.Rect(xs[k] + gap * (k == 1), y, xs[k + 1] - xs[k] - 6, row_h), color,
                    style, "left" if k == 1 else "right", size=cells, alt=short_name(value) if k == 1 else None)
    if len(rows) > len(shown):
        fit(surface, style["text"]("tn_more", n=len(rows) - len(shown)), pygame.Rect(body.left, body.bottom - row_h, body.width, row_h),
            style["muted"], style, "right")


def _cross(surface, view, body, style):
    """Rows and columns by Super Nine number; a cell is the row player's score in the game with the column player,
    gold when the row player finished ahead of that opponent."""
    players = view["players"]
    n = len(players)
    name_w, tail_w = body.width * 0.24, body.width * 0.14
    cell_w = (body.width - name_w - tail_w) / n
    legend_h = body.height * 0.06
    row_h = (body.height - legend_h) / (n + 1)
    mine = [[(c.split(":")[0] if c else c) for c in row] for row in view["cells"]]
    size = fitting_size(surface, [c for row in mine for c in row if c], cell_w - 6, row_h, style)
    name_size = fitting_size(surface, [f"{p['number']}. {p['name']}" for p in players], name_w - 6, row_h, style)
    for j, p in enumerate(players):
        fit(surface, str(p["number"]), pygame.Rect(body.left + name_w + j * cell_w, body.top, cell_w, row_h),
            style["muted"], style, "center", size=size)
    for k, key in enumerate(("tn_cross_points", "tn_cross_place")):     # two columns: points, place
        fit(surface, style["text"](key), pygame.Rect(body.right - tail_w + k * tail_w / 2, body.top, tail_w / 2 - 4,
                                                     row_h), style["muted"], style, "right")
    for i, p in enumerate(players):
        y = body.top + (i + 1) * row_h
        color = style["accent"] if p["place"] <= 3 and p["points"] > 0 else style["fg"]
        fit(surface, f"{p['number']}. {p['name']}", pygame.Rect(body.left, y, name_w - 6, row_h), color, style,
            size=name_size, alt=f"{p['number']}. {short_name(p['name'])}")
        for j, cell in enumerate(view["cells"][i]):
            rect = pygame.Rect(body.left + name_w + j * cell_w, y, cell_w, row_h)
            if cell is None:
                pygame.draw.rect(surface, style["muted"], rect.inflate(-6, -6))
            elif cell:
                a, b = (float(x) for x in cell.split(":"))
                fit(surface, mine[i][j], rect.inflate(-6, 0), style["accent"] if a > b else style["fg"], style,
                    "center", size=size)
        for k, value in enumerate((f"{p['points']:g}", str(p["place"]))):
            fit(surface, value, pygame.Rect(body.right - tail_w + k * tail_w / 2, y, tail_w / 2 - 4, row_h), color,
                style, "right", size=name_size)
        pygame.draw.line(surface, style["muted"], (body.left, y), (body.right, y), 1)
    fit(surface, style["text"]("tn_cross_legend"), pygame.Rect(body.left, body.bottom - legend_h, body.width, legend_h), style["muted"], style, "center")


def offscreen(size=(1280, 720)) -> pygame.Surface:
    """A surface to draw tournament screens on without a display (`render`, benches)."""
    pygame.font.init()
    return pygame.Surface(size)


def render_png(t, kind: str, out: str, size=(1280, 720), style: dict | None = None, stage: str | None = None) -> None:
    """`scoreboard tournament render`: one tournament screen to a PNG, headless."""
    from scoreboard.tournament.views import build, round_view
    surface = offscreen(size)
    view = round_view(t, stage) if kind == "round" and stage else build(t, kind)
    if style is None:           # as the board draws it: the default theme's font, colours and language
        from scoreboard.display.theme import load_theme
        style = theme_style(load_theme())
    draw(surface, kind, view, style)
    pygame.image.save(surface, out)
