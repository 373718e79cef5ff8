"""Tournament screens for the audience display: bracket, cup round, standings, Super Nine cross-table.

`draw(canvas, kind, view)` draws a view from the tournament package (`scoreboard.tournament.views`, plain data) through
the one text system, `Canvas`, and changes nothing else: every text is fitted to its box by the canvas, never below
its minimum size; a person's name that does not fit whole becomes «И. Фамилия» first. Words come from the theme
(`theme.text`): a view's labels (`{"key": …, fields}`), stage ids and column codes. Colours: winners in the accent
colour, wild cards in `wild_card` with a legend, the rest in `text`/`muted`.
"""
from __future__ import annotations

import pygame

from scoreboard.display.render.canvas import Canvas
from scoreboard.display.theme.load import load_theme
from scoreboard.labels import column_name, say, stage_name

KINDS = ("bracket", "round", "standings", "cross")


def short_name(name: str) -> str:
    """'Максим Орлов' → 'М. Орлов': what a person name becomes when the full one cannot fit."""
    words = str(name).split()
    return f"{words[0][0]}. {' '.join(words[1:])}" if len(words) > 1 else str(name)


def _say(canvas: Canvas, value) -> str:
    return say(value, canvas.theme.text)


def _px(canvas: Canvas, texts, width, height) -> int:
    """One size for a column or grid of texts (the smallest any needs), so a table reads evenly."""
    box = pygame.Rect(0, 0, max(1, int(width)), max(1, int(height)))
    sizes = [canvas.fit_px(box, str(t), int(height * 0.8)) for t in texts if str(t)]
    return min(sizes, default=max(canvas.min_px, int(height * 0.8)))


def _names_px(canvas: Canvas, names, width, height) -> int:
    """One size for a column of person names: each name as large as it fits whole, or as «И. Фамилия" when that
    is larger (what `_name` then draws); the smallest of those."""
    box = pygame.Rect(0, 0, max(1, int(width)), max(1, int(height)))
    top = int(height * 0.8)
    sizes = [max(canvas.fit_px(box, str(n), top), canvas.fit_px(box, short_name(n), top)) for n in names if str(n)]
    return min(sizes, default=max(canvas.min_px, top))


def _name(canvas: Canvas, box, name: str, px: int, color, tag: str, align: str = "left", mark: str = ""):
    """A person's name: whole if it fits at `px`, else «И. Фамилия», only then shortened by the canvas."""
    box = pygame.Rect(box)
    text = mark + name
    for shorter in (short_name(name), str(name).split()[-1] if str(name).split() else name):
        if canvas.fits_whole(box, text, px, max_lines=1):
            break
        text = mark + shorter       # «И. Фамилия», then the surname alone
    return canvas.text(box, text, px, color, align, tag=tag, max_lines=1)


def draw(canvas: Canvas, kind: str, view: dict) -> None:
    if kind not in KINDS:
        raise ValueError(f"no tournament screen kind {kind!r} ({', '.join(KINDS)})")
    theme = canvas.theme
    canvas.fill(theme.color("background"))
    w, h = canvas.w, canvas.h
    canvas.text(pygame.Rect(w * 0.03, h * 0.015, w * 0.94, h * 0.08), _say(canvas, view.get("title", "")),
                int(h * 0.06), theme.color("accent"), tag="tn:title", max_lines=1)
    body = pygame.Rect(w * 0.02, h * 0.11, w * 0.96, h * 0.86)
    {"bracket": _bracket, "round": _round, "standings": _standings, "cross": _cross}[kind](canvas, view, body)


def _player_color(canvas: Canvas, p: dict):
    theme = canvas.theme
    if p.get("placeholder"):
        return theme.color("muted")
    if p.get("wild_card"):
        return theme.color("wild_card")
    return theme.color("accent") if p.get("won") or p.get("advanced") else theme.color("text")


def _score_text(canvas: Canvas, p: dict) -> str:
    """The score, and beside a tied score what told it apart: the tie-break's points or «жребий»."""
    if p.get("score") is None:
        return ""
    text = f"{p['score']:g}"
    if p.get("tie"):
        text += f" ({_say(canvas, p['tie'])})"
    return text


def _game_box(canvas: Canvas, game: dict, rect: pygame.Rect, px: int, tag: str) -> None:
    canvas.fill(canvas.theme.color("muted"), rect, radius=6, width=2, tag=f"{tag}:box")
    n = max(len(game["players"]), 1)
    line_h = rect.height / n
    pad = rect.width * 0.04
    scores = [_score_text(canvas, p) for p in game["players"]]
    score_w = max((canvas.cache.width(canvas.theme.font("main"), px, s) for s in scores if s), default=0)
    score_w = score_w + pad if score_w else 0
    for i, p in enumerate(game["players"]):
        line = pygame.Rect(rect.left + pad, rect.top + i * line_h, rect.width - 2 * pad, line_h)
        color = _player_color(canvas, p)
        name = _say(canvas, p["name"])
        box = pygame.Rect(line.left, line.top, line.width - score_w, line.height)
        if p.get("placeholder"):
            canvas.text(box, name, px, color, "left", tag=f"{tag}:feed:{i}", max_lines=1)
        else:
            _name(canvas, box, name, px, color, f"{tag}:name:{i}")
        if scores[i]:
            canvas.text(pygame.Rect(line.right - score_w, line.top, score_w, line.height), scores[i], px, color,
                        "right", tag=f"{tag}:score:{i}", max_lines=1)


def _bracket(canvas: Canvas, view: dict, body: pygame.Rect) -> None:
    """Columns of games joined by the tree. When the first column cannot hold all its games at the minimum text
    size (27 names of a 1/9 final), each group of games that feeds one game is laid out in a row before it."""
    theme = canvas.theme
    muted = theme.color("muted")
    columns = view["columns"]
    line = canvas.cache.line_height(theme.font("main"), canvas.min_px)
    area_top, area_h = body.top + body.height * 0.06, body.height * 0.94
    first_lines = sum(max(len(g["players"]), 3) for g in columns[0]["games"])
    grouped = len(columns) > 1 and first_lines * line * 1.1 > area_h and \
        len(columns[0]["games"]) > len(columns[1]["games"])
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
                                 min(slot * 0.75, rows * canvas.h * 0.065)) for i in range(len(games))]
            title = pygame.Rect(body.left, body.top, unit * per * 0.97, body.height * 0.05)
        else:
            x = body.left + ((per - 1 + c) if grouped else c) * unit
            slot = area_h / len(games)
            box_h = min(slot * 0.9, rows * canvas.h * 0.065)
            top = (lambda i: area_top + i * slot) if grouped and c == 1 else \
                (lambda i: area_top + i * slot + (slot - box_h) / 2)
            wide = 0.95 if c == len(columns) - 1 else 0.8      # nothing to the right of the last column
            rects = [pygame.Rect(x, top(i), unit * wide, box_h) for i in range(len(games))]
            title = pygame.Rect(x, body.top, unit * 0.8, body.height * 0.05)
        canvas.text(title, stage_name(column["title"], theme.text), int(title.height * 0.8), muted,
                    tag=f"tn:column:{c}", max_lines=1)
        inner, line_h = rects[0].width * 0.92, rects[0].height / rows
        scores = [_score_text(canvas, p) for g in games for p in g["players"]]
        score_px = _px(canvas, [x for x in scores if x], inner * 0.3, line_h)
        px = min(score_px, _names_px(canvas, [_say(canvas, p["name"]) for g in games for p in g["players"]
                                              if not p.get("placeholder")], inner * 0.66, line_h),
                 _px(canvas, [_say(canvas, p["name"]) for g in games for p in g["players"] if p.get("placeholder")],
                     inner, line_h))
        for game, rect in zip(games, rects):
            _game_box(canvas, game, rect, px, f"tn:game:{game['id']}")
        boxes.append(rects)
    for c, (left, right) in enumerate(zip(boxes, boxes[1:])):   # each game joins the game its winner goes to
        step = max(len(left) // max(len(right), 1), 1)
        for i, rect in enumerate(left):
            target = right[min(i // step, len(right) - 1)]
            if grouped and c == 0:      # down from each game onto a bus that runs to the game they feed
                bus = rect.bottom + (area_h / len(right) - rect.height) * 0.25
                points = [rect.midbottom, (rect.centerx, bus), (target.left - unit * 0.05, bus),
                          (target.left - unit * 0.05, target.centery), target.midleft]
            else:
                mid_x = (rect.right + target.left) // 2
                points = [rect.midright, (mid_x, rect.centery), (mid_x, target.centery), target.midleft]
            pygame.draw.lines(canvas.surface, muted, False, points, 2)
    if view.get("champion"):
        last = boxes[-1][0]
        champion = view["champion"]
        champion = ", ".join(champion) if isinstance(champion, list) else champion
        width = body.right - last.left
        canvas.text(pygame.Rect(last.left, last.bottom + body.height * 0.02, width, body.height * 0.06),
                    theme.text("tn_champion"), int(body.height * 0.05), muted, "left", tag="tn:champion:label")
        _name(canvas, pygame.Rect(last.left, last.bottom + body.height * 0.08, width, body.height * 0.08), champion,
              int(body.height * 0.07), theme.color("accent"), "tn:champion")


def _tag(canvas: Canvas, p: dict) -> str:
    """The score (and what told a tied score apart), then Σ for a place taken by the cup sum or WC for a wild card
    (the legend explains them)."""
    text = _score_text(canvas, p)
    why = (p.get("why") or {}).get("key") if isinstance(p.get("why"), dict) else None
    if why == "tn_why_cup_sum":
        text += " " + canvas.theme.text("tn_tag_sum")
    elif why == "tn_why_wild_card":
        text += " " + canvas.theme.text("tn_tag_wild")
    return text


def _round(canvas: Canvas, view: dict, body: pygame.Rect) -> None:
    """Every game of the round as a card: ✓ and gold for who went on, Σ by cup sum, WC (own colour) a wild card."""
    theme = canvas.theme
    wild = set(view.get("wild_cards") or [])
    games = [dict(g, players=[dict(p, wild_card=p["name"] in wild) for p in g["players"]]) for g in view["games"]]
    cols = 3 if len(games) <= 9 else 4 if len(games) <= 12 else 5     # as wide as the names need
    cols = min(cols, max(1, len(games)))
    rows = -(-len(games) // cols)
    notes = [x for x in (view.get("note"), view.get("legend")) if x] + \
        ([{"key": "tn_legend_wild"}] if wild else [])
    foot_h = body.height * 0.06
    cell_w = min(body.width / cols, body.width / 3)
    left = body.left + (body.width - cell_w * cols) / 2
    cell_h = (body.height - len(notes) * foot_h) / max(rows, 1)
    lines = 1 + max((len(g["players"]) for g in games), default=3)
    lh = min((cell_h - 12) / lines, canvas.h * 0.075)
    names = [p["name"] for g in games for p in g["players"]]
    tags = [_tag(canvas, p) for g in games for p in g["players"]]
    mark_w = canvas.cache.width(theme.font("main"), canvas.min_px, "✓ ")
    px = min(_names_px(canvas, names, cell_w * 0.55 - 8 - mark_w * 1.5, lh),
             _px(canvas, [t for t in tags if t] or ["0"], cell_w * 0.45 - 16, lh))
    for i, game in enumerate(games):
        r, c = divmod(i, cols)
        cell = pygame.Rect(left + c * cell_w + 4, body.top + r * cell_h + 4, cell_w - 8, lh * lines + 4)
        canvas.fill(theme.color("muted"), cell, radius=6, width=2, tag=f"tn:game:{game['id']}:box")
        caption = theme.text("tn_game_n", n=game["number"]) if game.get("number") else game["id"]
        canvas.text(pygame.Rect(cell.left + 8, cell.top, cell.width - 16, lh), caption, px, theme.color("muted"),
                    "left", tag=f"tn:game:{game['id']}:caption", max_lines=1)
        for j, p in enumerate(game["players"]):
            y = cell.top + (j + 1) * lh
            color = _player_color(canvas, p)
            mark = "✓ " if p.get("advanced") else ""
            _name(canvas, pygame.Rect(cell.left + 8, y, cell.width * 0.55 - 8, lh), p["name"], px, color,
                  f"tn:game:{game['id']}:name:{j}", mark=mark)
            canvas.text(pygame.Rect(cell.left + cell.width * 0.55, y, cell.width * 0.45 - 12, lh), _tag(canvas, p), px,
                        color, "right", tag=f"tn:game:{game['id']}:score:{j}", max_lines=1)
    for k, note in enumerate(notes):
        color = theme.color("wild_card") if note == {"key": "tn_legend_wild"} else \
            theme.color("text") if note is view.get("note") else theme.color("muted")
        canvas.text(pygame.Rect(body.left, body.bottom - (len(notes) - k) * foot_h, body.width, foot_h),
                    _say(canvas, note), int(foot_h * 0.7), color, tag=f"tn:note:{k}", max_lines=1)


def _standings(canvas: Canvas, view: dict, body: pygame.Rect) -> None:
    """The table: places as the view gives them («4–5» shared), a last column saying what ordered equal points."""
    theme = canvas.theme
    rows = [list(r) for r in view["rows"]]
    ties = view.get("ties") or [None] * len(rows)
    heads = [column_name(c, theme.text) for c in view["columns"]]
    if any(ties):
        heads.append(theme.text("tn_col_tie"))
        rows = [r + [_say(canvas, t) if t else ""] for r, t in zip(rows, ties)]
    rows = [[_say(canvas, v) for v in r] for r in rows]
    floor = canvas.min_px * 1.3
    foot_h = body.height * 0.06 if any(ties) else 0
    per_col = max(1, int((body.height - foot_h - floor) // floor))
    per_col = min(per_col, max(len(rows), 1), 20)
    blocks = min(max(1, -(-len(rows) // per_col)), 2)
    shown = rows[: per_col * blocks]
    block_w = body.width / blocks
    # Each column gets room in proportion to its header or widest value at the smallest size, so a longer header
    # (another language) widens its column instead of being cut.
    font = theme.font("main")
    need = [max([canvas.cache.width(font, canvas.min_px, heads[k])] +
                [canvas.cache.width(font, canvas.min_px, row[k]) for row in rows]) + 12 for k in range(len(heads))]
    place_w = max(need[0], canvas.cache.width(font, canvas.min_px, "#") + 12) / max(block_w, 1)
    rest = [n / max(sum(need[2:]), 1) for n in need[2:]]
    place_w = min(place_w, 0.12)
    weights = [place_w, 0.3] + [(0.97 - place_w - 0.3) * x for x in rest]
    row_h = min((body.height - foot_h) / (per_col + 1), canvas.h * 0.07)
    for b in range(blocks):
        xs = [body.left + b * block_w]
        for wgt in weights:
            xs.append(xs[-1] + wgt * block_w)
        boxes = [pygame.Rect(xs[k] + 3, 0, xs[k + 1] - xs[k] - 6, row_h) for k in range(len(heads))]
        head_px = min(_px(canvas, [heads[k]], boxes[k].w, row_h) for k in range(1, len(heads)))
        cells_px = min([_names_px(canvas, [r[1] for r in shown], boxes[1].w, row_h)] +
                       [_px(canvas, [r[k] for r in shown], boxes[k].w, row_h) for k in range(len(heads)) if k != 1])
        shown_heads = list(heads)
        if not canvas.fits_whole(boxes[0], heads[0], head_px, max_lines=1):
            shown_heads[0] = "#"        # 'Место' in a narrow place column: the sign, at the headers' size
        for k, name in enumerate(shown_heads):
            canvas.text(boxes[k].move(0, body.top), name, head_px, theme.color("muted"),
                        "left" if k == 1 or (any(ties) and k == len(heads) - 1) else "right", tag=f"tn:head:{k}", max_lines=1)
        for r, row in enumerate(shown[b * per_col:(b + 1) * per_col]):
            index = b * per_col + r
            y = body.top + (r + 1) * row_h
            color = theme.color("accent") if index < view.get("highlight", 0) else theme.color("text")
            for k, value in enumerate(row):
                box = boxes[k].move(0, y)
                if k == 1:
                    _name(canvas, box, value, cells_px, color, f"tn:row:{index}:player")
                else:
                    last_tie = any(ties) and k == len(row) - 1
                    canvas.text(box, value, cells_px, theme.color("muted") if last_tie else color,
                                "left" if last_tie else "right", tag=f"tn:row:{index}:{k}", max_lines=1)
    if len(rows) > len(shown):
        canvas.text(pygame.Rect(body.left, body.bottom - foot_h - row_h, body.width, row_h),
                    theme.text("tn_more", n=len(rows) - len(shown)), int(row_h * 0.8), theme.color("muted"), "right",
                    tag="tn:more")
    if foot_h:
        canvas.text(pygame.Rect(body.left, body.bottom - foot_h, body.width, foot_h), theme.text("tn_legend_ties"),
                    int(foot_h * 0.7), theme.color("muted"), tag="tn:legend", max_lines=1)


def _cross(canvas: Canvas, view: dict, body: pygame.Rect) -> None:
    """Rows and columns by Super Nine number; a cell is the row player's score in the game with the column player,
    gold when the row player finished ahead of that opponent. Places are shown as places (shared: «4–5»)."""
    theme = canvas.theme
    players = view["players"]
    n = len(players)
    name_w, tail_w = body.width * 0.24, body.width * 0.14
    cell_w = (body.width - name_w - tail_w) / n
    legend_h = body.height * 0.06
    row_h = (body.height - legend_h) / (n + 1)
    mine = [[(c.split(":")[0] if c else c) for c in row] for row in view["cells"]]
    px = _px(canvas, [c for row in mine for c in row if c], cell_w - 6, row_h)
    name_px = _px(canvas, [f"{p['number']}. {p['name']}" for p in players], name_w - 6, row_h)
    places = [p["place"] for p in players]
    place_text = {q: str(q) if places.count(q) == 1 else f"{q}–{q + places.count(q) - 1}" for q in places}
    for j, p in enumerate(players):
        canvas.text(pygame.Rect(body.left + name_w + j * cell_w, body.top, cell_w, row_h), str(p["number"]), px,
                    theme.color("muted"), tag=f"tn:cross:col:{j}", max_lines=1)
    for k, key in enumerate(("tn_cross_points", "tn_cross_place")):     # two columns: points, place
        canvas.text(pygame.Rect(body.right - tail_w + k * tail_w / 2, body.top, tail_w / 2 - 4, row_h),
                    theme.text(key), name_px, theme.color("muted"), "right", tag=f"tn:cross:head:{k}", max_lines=1)
    for i, p in enumerate(players):
        y = body.top + (i + 1) * row_h
        color = theme.color("accent") if p["place"] <= 3 and p["points"] > 0 else theme.color("text")
        _name(canvas, pygame.Rect(body.left, y, name_w - 6, row_h), f"{p['number']}. {p['name']}", name_px, color,
              f"tn:cross:name:{i}")
        for j, cell in enumerate(view["cells"][i]):
            rect = pygame.Rect(body.left + name_w + j * cell_w, y, cell_w, row_h)
            if cell is None:
                canvas.fill(theme.color("muted"), rect.inflate(-6, -6), tag=f"tn:cross:self:{i}")
            elif cell:
                a, b = (float(x) for x in cell.split(":"))
                canvas.text(rect.inflate(-6, 0), mine[i][j], px, theme.color("accent") if a > b else
                            theme.color("text"), tag=f"tn:cross:cell:{i}:{j}", max_lines=1)
        for k, value in enumerate((f"{p['points']:g}", place_text[p["place"]])):
            canvas.text(pygame.Rect(body.right - tail_w + k * tail_w / 2, y, tail_w / 2 - 4, row_h), value, name_px,
                        color, "right", tag=f"tn:cross:tail:{i}:{k}", max_lines=1)
        pygame.draw.line(canvas.surface, theme.color("muted"), (body.left, y), (body.right, y), 1)
    canvas.text(pygame.Rect(body.left, body.bottom - legend_h, body.width, legend_h), theme.text("tn_cross_legend"),
                int(legend_h * 0.7), theme.color("muted"), tag="tn:cross:legend", max_lines=1)


def offscreen(size=(1280, 720)) -> pygame.Surface:
    """A surface to draw tournament screens on without a display (`render`, benches)."""
    pygame.font.init()
    return pygame.Surface(size)


def render_png(kind: str, view: dict, out: str, size=(1280, 720), theme=None) -> Canvas:
    """`scoreboard tournament render`: one tournament screen (its view from the tournament package) to a PNG,
    headless, as the board draws it."""
    canvas = Canvas(offscreen(size), theme or load_theme(), record=True)
    draw(canvas, kind, view)
    pygame.image.save(canvas.surface, out)
    return canvas
