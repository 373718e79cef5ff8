"""A frame as cached tiles: a new snapshot redraws only the parts of the screen whose drawing changed (issue 9 item 3).

A screen's canvas records what a scene draws (each fill, text line, image, line…: a hashable operation and the box
it can touch) instead of drawing it. The screen is cut into a grid of tiles; a tile's key is the list of the
operations that touch it, in order. A tile seen before is one opaque blit of its kept pixels; a new one is drawn by
running its operations clipped to it, then kept. So a 4K frame whose grid, panels and texts did not change costs
one screen's worth of opaque copying, and a played cell or a new score redraws only the tiles they touch.

The picture is the one the scene would draw directly: clipping cuts no operation short (each runs whole, only its
pixels outside the tile are dropped) and a tile is only kept when its first operation covers it (the backdrop), so
nothing left from an earlier frame is kept in it. A new tile is copied into its slot after the frame is shown
(`settle`, the board's call after its flip) while the surface still shows it; whatever draws past the tiles before
then (a veil, an overlay, a video frame) keeps them first or drops them. The key holds everything drawn (texts,
colours, fonts, boxes), so a screen's tiles are its own: the host's screen, which draws the answers, has no tile
cache at all (screens.py).
"""
from __future__ import annotations

from collections import OrderedDict

import pygame

# Tiles at least 240 px wide (16×9 of 240×240 at 3840×2160, 8×9 of 240×120 at 1080p): SDL copies rows narrower
# than that an order of magnitude slower (144 tiles of 120×120 took 3.9 ms at 1080p, 72 of 240×120 0.32 ms).
TILE_WIDTH, ROWS = 240, 9
SCREENS_KEPT = 4               # memory for this many screens' worth of tiles (133 MB at 4K, 33 MB at 1080p)
SLOTS_A_BLOCK = 32             # tile slots per block of memory (32 × 240×240 × 4 B = 7.4 MB at 4K)
MAX_OPERATIONS = 50_000        # operation ids before they are all forgotten (clocks make new ones all evening)


class TileCache:
    def __init__(self, screens_kept: float = SCREENS_KEPT):
        self.screens_kept = screens_kept
        self.size: tuple[int, int] | None = None
        self.format: tuple | None = None
        self.rects: list[pygame.Rect] = []
        self._blocks: list[pygame.Surface] = []   # memory reserved for tiles (_reserve)
        self._slots: list[pygame.Surface] = []    # tile-sized views of it
        self.hits = self.misses = 0
        self.clear()

    def clear(self) -> None:
        """Forget every tile and operation (a new theme: its pictures may have changed on disk)."""
        self._ids: dict = {}
        self._ops: list = []
        self._tiles: OrderedDict = OrderedDict()      # key → (tile surface, its slot)
        self._free: list[pygame.Surface] = list(self._slots)
        self._shown: list = [None] * len(self.rects)   # per tile: the key of what the surface shows there
        # to keep after the flip: (key, tile rect, source, its area there); source None: `_pending_on`, the surface
        # drawn on; else the fade's picture, which holds what the veil covers on the surface
        self._pending: list[tuple] = []
        self._pending_on: pygame.Surface | None = None
        # kept tiles that go into a fade's picture (only there: the veil covers them on the surface), copied after
        # the flip too — before any tile is kept, which could take one of their slots: (picture, [(tile, place)])
        self._to_picture: tuple | None = None
        # new tiles under a starting fade's veil, drawn into its picture after the flip: (memory, areas, ops, run)
        self._to_draw: tuple | None = None

    def _fit(self, surface: pygame.Surface) -> None:
        """A new size or pixel format: new tile rectangles, nothing kept."""
        fmt = (surface.get_bitsize(), surface.get_masks())
        if surface.get_size() == self.size and fmt == self.format:
            return
        self.size, self.format = surface.get_size(), fmt
        w, h = self.size
        self._tw, self._th = -(-w // max(1, w // TILE_WIDTH)), -(-h // ROWS)
        self.rects = [pygame.Rect(x, y, min(self._tw, w - x), min(self._th, h - y))
                      for y in range(0, h, self._th) for x in range(0, w, self._tw)]
        self._columns = -(-w // self._tw)
        # at least a screen's worth: a frame's kept tiles are the newest, so evicting the oldest never takes one of them
        wanted = int(self.screens_kept * w * h) // (self._tw * self._th)
        self._reserve(surface, max(len(self.rects), wanted))
        self.clear()

    def _reserve(self, surface: pygame.Surface, count: int) -> None:
        """`count` tile-sized slots in blocks of memory written once now (the screen opening or resized): a tile kept
        later is one copy into pages already there. A fresh surface a tile cost a page fault every 4 KB of it: a
        scene change early in the evening, keeping ~50 new 4K tiles, took 56 ms for them on a loaded machine
        (2026-12-04); and the memory is the same all evening (133 MB at 4K, 33 MB at 1080p)."""
        tw, th = self._tw, self._th
        self._blocks, self._slots = [], []
        for first in range(0, count, SLOTS_A_BLOCK):
            n = min(SLOTS_A_BLOCK, count - first)
            block = pygame.Surface((tw, th * n), 0, surface)
            block.fill((0, 0, 0))
            self._blocks.append(block)
            self._slots += [block.subsurface((0, th * k, tw, th)) for k in range(n)]

    def _id(self, op) -> int:
        found = self._ids.get(op)
        if found is None:
            if len(self._ops) >= MAX_OPERATIONS:
                self.clear()
            found = self._ids[op] = len(self._ops)
            self._ops.append(op)
        return found

    def draw(self, surface: pygame.Surface, ops: list, run, into=None, changed_only: bool = False,
             covers: list | None = None) -> None:
        """Draw recorded `ops` ((operation, pygame.Rect it can touch) in drawing order) on `surface`, running
        `run(surface, operation)` only for the tiles not kept. Tiles outside the surface's clip are left alone.

        `into` (rect, picture): what falls in `rect` goes to `picture` (its size) instead, and kept tiles wholly
        inside `rect` are not copied to `surface` at all — the frame that starts a fade covers that area with its
        opaque veil, and keeps the picture for the fade's ticks (fade.py): one copy of the area saved.

        `changed_only`: only the tiles whose operations differ from what the surface shows there (`_shown`) are drawn
        or copied — a clock tick draws its live boxes, a new snapshot the part of the screen it changed. Whatever
        draws on the surface past the tiles says so (`drawn_over`, `forget_shown`). Tiles touching `into`'s area are
        never skipped: the fade's picture needs them."""
        self.settle(surface)   # last frame's new tiles, if the loop did not keep them after its flip
        self._fit(surface)
        lists: list[list[int]] = [[] for _ in self.rects]
        w, h = self.size
        tw, th, columns = self._tw, self._th, self._columns
        ids = [self._id(op) for op, _ in ops]   # may clear: ids first, then the tiles that use them
        for oid, (_, box) in zip(ids, ops):
            left, top = max(0, box.left), max(0, box.top)
            right, bottom = min(w, box.right), min(h, box.bottom)
            if right <= left or bottom <= top:
                continue
            for row in range(top // th, (bottom - 1) // th + 1):
                base = row * columns
                for col in range(left // tw, (right - 1) // tw + 1):
                    lists[base + col].append(oid)
        clip = surface.get_clip()
        cover = ops[0][1] if ops else None
        shown = self._shown
        kept, missed = [], []
        for index, rect in enumerate(self.rects):
            if not clip.colliderect(rect):
                continue
            key = (index, tuple(lists[index]))
            if changed_only and shown[index] == key and (into is None or not into[0].colliderect(rect)):
                continue
            entry = self._tiles.get(key)
            if entry is not None:
                self._tiles.move_to_end(key)
                kept.append((index, key, entry[0]))
            else:
                missed.append((index, key))
        self.hits += len(kept)
        self.misses += len(missed)
        # New tiles wholly under a starting fade's veil are drawn straight into its picture (which lies in memory of the
        # screen's size, at the same place), after the flip: the frame shows only the veil there.
        under = memory = None
        if into is not None and (memory := into[1].get_parent()) is not None \
                and into[1].get_offset() == into[0].topleft and memory.get_size() == surface.get_size():
            under = into[0]
        # Tiles not kept are drawn in a few rectangles (runs of them, merged down the rows), each operation once per
        # rectangle: a frame with nothing kept costs one drawing of the scene, not one per tile.
        areas = self._areas([index for index, _ in missed])
        later: list[pygame.Rect] = []
        if under is not None:   # what lies under the veil goes to the picture after the flip, the rest is drawn now
            later = [area.clip(under) for area in areas if area.colliderect(under)]
            areas = [part for area in areas for part in _outside(area, under)]
        _draw_areas(surface, areas, ops, run, covers)
        surface.set_clip(clip)
        self._to_draw = (memory, later, ops, run, covers) if later else None
        for index, key in missed:
            rect = self.rects[index]
            shown[index] = key
            # kept only over the backdrop: a tile the first operation does not cover would keep an older frame
            if key[1] and key[1][0] == ids[0] and cover.contains(rect):
                if into is None or not into[0].colliderect(rect):
                    self._pending.append((key, rect, None, rect))   # after the flip (settle): the frame first
                elif into[0].contains(rect):   # the fade's veil goes over it on the surface; its picture keeps it
                    self._pending.append((key, rect, into[1], rect.move(-into[0].left, -into[0].top)))
                elif under is None:
                    self._keep(key, surface, rect)      # half veiled, half not: now
                # (half veiled with its veiled half drawn after the flip: whole nowhere, not kept)
        if self._pending:
            self._pending_on = surface
        if into is not None:
            target, picture = into
            offset = (-target.left, -target.top)
            if under is None:   # what was drawn under the veil on the surface, into the picture before the veil
                picture.blits([(surface, area.clip(target).move(offset).topleft, area.clip(target)) for area in areas
                               if area.colliderect(target)], doreturn=False)
            inside = [(tile, self.rects[index].move(offset)) for index, _, tile in kept
                      if target.contains(self.rects[index])]
            picture.blits([(tile, self.rects[index].move(offset)) for index, _, tile in kept
                           if target.colliderect(self.rects[index]) and not target.contains(self.rects[index])],
                          doreturn=False)
            # the tiles wholly under the veil: the picture is first needed by the next tick, so after the flip
            self._to_picture = (picture, inside) if inside else None
            for index, _, _ in kept:
                if target.contains(self.rects[index]):
                    shown[index] = None          # in the picture only: the screen shows the veil there
            kept = [entry for entry in kept if not target.contains(self.rects[entry[0]])]
        for index, key, _ in kept:
            shown[index] = key
        if kept:
            surface.blits([(tile, self.rects[index]) for index, _, tile in kept], doreturn=False)

    def settle(self, surface: pygame.Surface) -> None:
        """Keep the tiles the last `draw` drew anew (copies into their slots), while the surface still shows them: the
        board calls this after the flip, so a scene change's frame is on screen before its tiles are copied. Dropped
        if `surface` is not the one they were drawn on. First, a starting fade's picture gets its new and kept tiles."""
        if self._to_draw is not None:
            memory, areas, ops, run, covers = self._to_draw
            self._to_draw = None
            _draw_areas(memory, areas, ops, run, covers)
            memory.set_clip(None)
        if self._to_picture is not None:
            picture, copies = self._to_picture
            self._to_picture = None
            picture.blits(copies, doreturn=False)
        pending, self._pending = self._pending, []
        same = surface is self._pending_on
        for key, rect, source, area in pending:
            if key not in self._tiles and (source is not None or same):
                self._keep(key, source or self._pending_on, area)
        self._pending_on = None

    def forget_shown(self) -> None:
        """Something drew on the surface outside the tiles (a veil, a fade's tick, a video frame, an overlay): the
        next `changed_only` frame copies every tile again, and the tiles drawn last are not kept (call `settle` first
        when nothing has been drawn over them yet)."""
        self._shown = [None] * len(self.rects)
        self._pending, self._pending_on = [], None

    def drawn_over(self, box: pygame.Rect) -> None:
        """Something drew in `box` past the tiles (after `draw`): the tiles it touches show something else now (those
        to be kept from the fade's picture are not touched there)."""
        self._pending = [entry for entry in self._pending if entry[2] is not None or not entry[1].colliderect(box)]
        for index, rect in enumerate(self.rects):
            if rect.colliderect(box):
                self._shown[index] = None

    def _areas(self, indices: list[int]) -> list[pygame.Rect]:
        """The tiles `indices` (in row order) as rectangles: each row's runs, merged with the run just above when
        they span the same columns."""
        areas: list[pygame.Rect] = []
        open_runs: dict[tuple[int, int], pygame.Rect] = {}   # (left, right) of a run of the previous row → its area
        row_runs: dict[tuple[int, int], pygame.Rect] = {}
        row = None
        run_start = previous = None

        def close(first, last):
            span = (self.rects[first].left, self.rects[last].right)
            rect = self.rects[first].union(self.rects[last])
            above = open_runs.get(span)
            if above is not None and above.bottom == rect.top:
                above.union_ip(rect)
                row_runs[span] = above
            else:
                areas.append(rect)
                row_runs[span] = rect

        for index in indices:
            r = index // self._columns
            if r != row or index != previous + 1:
                if run_start is not None:
                    close(run_start, previous)
                if r != row:
                    open_runs, row_runs, row = row_runs, {}, r
                run_start = index
            previous = index
        if run_start is not None:
            close(run_start, previous)
        return areas

    def _keep(self, key, surface: pygame.Surface, rect: pygame.Rect) -> None:
        """Copy `rect` of `surface` (a tile's size) into a free slot, evicting the oldest tile when none is free."""
        if not self._free:
            if not self._tiles:
                return               # no slots at all: a surface of no size
            _, (_, slot) = self._tiles.popitem(last=False)
            self._free.append(slot)
        slot = self._free.pop()
        tile = slot if rect.size == slot.get_size() else slot.subsurface((0, 0), rect.size)   # an edge tile
        tile.blit(surface, (0, 0), rect)
        self._tiles[key] = (tile, slot)

    def __len__(self) -> int:
        return len(self._tiles)


def _draw_areas(surface: pygame.Surface, areas: list[pygame.Rect], ops: list, run, covers=None) -> None:
    """Each operation that touches an area, clipped to it (the caller restores the clip). `covers` (per operation, a
    rectangle it paints opaquely, or None): a large operation is not run where a later one paints over it — at 4K
    the backdrop under the panels is a third of a scene change's memory traffic."""
    hidden = _hidden(ops, covers) if covers else {}
    for area in areas:
        surface.set_clip(area)
        for index, (op, box) in enumerate(ops):
            if not box.colliderect(area):
                continue
            over = hidden.get(index)
            pieces = _uncovered(area.clip(box), over) if over else None
            if pieces is None:
                run(surface, op)
                continue
            for piece in pieces:
                surface.set_clip(piece)
                run(surface, op)
            surface.set_clip(area)


LARGE = 256 * 256    # an operation this large is worth cutting around what covers it later; smaller ones run whole
LARGE_COVER = 128 * 128   # a smaller cover would cut the backdrop into more pieces than it saves


def _hidden(ops: list, covers: list) -> dict:
    """For each large operation, the later large covers that overlap it."""
    hidden, later = {}, []
    for index in range(len(ops) - 1, -1, -1):
        box = ops[index][1]
        if later and box.w * box.h >= LARGE:
            over = [cover for cover in later if cover.colliderect(box)]
            if over:
                hidden[index] = over
        cover = covers[index]
        if cover is not None and cover.w * cover.h >= LARGE_COVER:
            later.append(cover)
    return hidden


def _uncovered(area: pygame.Rect, covers: list) -> list[pygame.Rect] | None:
    """`area` without `covers`, as rectangles; None when nothing is cut away."""
    pieces = [area]
    for cover in covers:
        if cover.colliderect(area):
            pieces = [part for piece in pieces for part in _outside(piece, cover)]
    return pieces if len(pieces) != 1 or pieces[0] != area else None


def _outside(area: pygame.Rect, hole: pygame.Rect) -> list[pygame.Rect]:
    """`area` without `hole`: up to four rectangles (bands above and below it, then its sides)."""
    if not area.colliderect(hole):
        return [area]
    inner = area.clip(hole)
    parts = [pygame.Rect(area.left, area.top, area.w, inner.top - area.top),
             pygame.Rect(area.left, inner.bottom, area.w, area.bottom - inner.bottom),
             pygame.Rect(area.left, inner.top, inner.left - area.left, inner.h),
             pygame.Rect(inner.right, inner.top, area.right - inner.right, inner.h)]
    return [part for part in parts if part.w > 0 and part.h > 0]
