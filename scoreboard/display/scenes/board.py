"""The topic grid (choice play), the round's topic list, and the topic intro of sequential play."""
from __future__ import annotations

import pygame

from scoreboard.display.render.canvas import Canvas
from scoreboard.display.scenes.common import Layout, header, round_title, stage_title


def grid_rects(main: pygame.Rect, topics: int, cells: int, gap: int) -> tuple[list[pygame.Rect], list[list[pygame.Rect]]]:
    """Topic-name boxes and value cells, row by row: names take a third of the width, values share the rest."""
    rows = max(1, topics)
    cols = max(1, cells)
    row_h = (main.h - gap * (rows - 1)) // rows
    name_w = main.w * 34 // 100
    cell_w = (main.w - name_w - gap * cols) // cols
    names, grid = [], []
    for r in range(rows):
        y = main.top + r * (row_h + gap)
        names.append(pygame.Rect(main.left, y, name_w, row_h))
        grid.append([pygame.Rect(main.left + name_w + gap + c * (cell_w + gap), y, cell_w, row_h) for c in range(cols)])
    return names, grid


def draw_grid(canvas: Canvas, snapshot: dict, now: float, layout: Layout, show_header: bool = True) -> None:
    """Played cells are empty; an auction cell looks like any other until it is chosen (AU1)."""
    theme = canvas.theme
    rnd = snapshot.get("round") or {}
    topics = rnd.get("topics") or []
    if show_header:
        header(canvas, layout.header, round_title(snapshot, theme), stage_title(snapshot, theme))
    if not topics:
        return
    cells = max(len(t.get("cells") or []) for t in topics)
    gap = max(2, layout.m // 2)
    names, grid = grid_rects(layout.main, len(topics), cells, gap)
    radius = max(3, names[0].h // 10)
    pad = max(2, names[0].h // 12)
    # Every value on the board at one size: the size the widest value ("100") fits at.
    widest = max((str(c.get("value", "")) for t in topics for c in t.get("cells") or []), key=len, default="")
    value_px = canvas.fit_px(grid[0][0].inflate(-2 * pad, -pad), widest, "cell_value")
    for t, topic in enumerate(topics):
        canvas.fill(theme.color("panel"), names[t], radius=radius, tag=f"topicbox:{t + 1}")
        canvas.text(names[t].inflate(-2 * pad, -pad), topic.get("name", ""), "topic", theme.color("text"),
                    tag=f"topic:{t + 1}", max_lines=2)
        for c, cell in enumerate(topic.get("cells") or []):
            rect = grid[t][c]
            where = f"{t + 1}:{c + 1}"
            if cell.get("played"):
                canvas.fill(theme.color("cell_played"), rect, radius=radius, tag=f"cell:{where}:played")
                continue
            canvas.fill(theme.color("cell"), rect, radius=radius, tag=f"cell:{where}")
            canvas.text(rect.inflate(-2 * pad, -pad), str(cell.get("value", "")), value_px,
                        theme.color("cell_text"), tag=f"value:{where}")


def draw_topic_list(canvas: Canvas, snapshot: dict, now: float, layout: Layout) -> None:
    """round_intro: the round's topics, one per row, as the host announces them."""
    theme = canvas.theme
    topics = (snapshot.get("round") or {}).get("topics") or []
    header(canvas, layout.header, round_title(snapshot, theme), theme.text("topics_of_round"))
    if not topics:
        return
    columns = 2 if len(topics) > 6 else 1
    per_col = -(-len(topics) // columns)
    gap = layout.m
    col_w = (layout.main.w - gap * (columns - 1)) // columns
    row_h = min(layout.main.h // 5, (layout.main.h - gap * (per_col - 1)) // per_col)
    top = layout.main.top + (layout.main.h - (row_h * per_col + gap * (per_col - 1))) // 2
    for i, topic in enumerate(topics):
        col, row = divmod(i, per_col)
        box = pygame.Rect(layout.main.left + col * (col_w + gap), top + row * (row_h + gap), col_w, row_h)
        canvas.fill(theme.color("panel"), box, radius=row_h // 6, tag=f"topicbox:{i + 1}")
        number = pygame.Rect(box.left, box.top, row_h, row_h)
        canvas.text(number.inflate(-row_h // 5, -row_h // 5), str(i + 1), "topic", theme.color("accent"),
                    tag=f"topicnum:{i + 1}")
        canvas.text(pygame.Rect(number.right, box.top, box.w - number.w - layout.m, box.h).inflate(0, -row_h // 8),
                    topic.get("name", ""), "topic", theme.color("text"), align="left", tag=f"topic:{i + 1}",
                    max_lines=2)


def draw_topic_intro(canvas: Canvas, snapshot: dict, now: float, layout: Layout) -> None:
    """Sequential play: the topic about to be played, big, with its values (played ones dimmed)."""
    theme = canvas.theme
    rnd = snapshot.get("round") or {}
    topics = rnd.get("topics") or []
    index = rnd.get("topic") or (snapshot.get("question") or {}).get("topic") or 1
    header(canvas, layout.header, round_title(snapshot, theme),
           theme.text("topic_n_of", n=index, count=len(topics)) if topics else "")
    topic = topics[index - 1] if 1 <= index <= len(topics) else {}
    main = layout.main
    name_box = pygame.Rect(main.left, main.top, main.w, main.h * 62 // 100)
    canvas.text(name_box.inflate(-4 * layout.m, -layout.m), topic.get("name", ""), int(canvas.h * 0.13),
                theme.color("text"), tag="topic_intro:name", max_lines=3)
    cells = topic.get("cells") or []
    if cells:
        gap = layout.m
        chip_w = min(main.w // 7, (main.w - gap * (len(cells) - 1)) // len(cells))
        chip_h = main.h * 28 // 100
        left = main.centerx - (chip_w * len(cells) + gap * (len(cells) - 1)) // 2
        for c, cell in enumerate(cells):
            chip = pygame.Rect(left + c * (chip_w + gap), name_box.bottom + layout.m, chip_w, chip_h)
            if cell.get("played"):
                canvas.fill(theme.color("cell_played"), chip, radius=chip_h // 6, tag=f"chip:{c + 1}:played")
                continue
            canvas.fill(theme.color("cell"), chip, radius=chip_h // 6, tag=f"chip:{c + 1}")
            canvas.text(chip.inflate(-chip_w // 8, -chip_h // 8), str(cell.get("value", "")), "cell_value",
                        theme.color("cell_text"), tag=f"chipvalue:{c + 1}")
