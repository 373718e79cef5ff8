"""Frames drawn from kept tiles (issue 9 item 3): the picture is exactly the one drawn directly, a tile is drawn
again when what it shows changes (content, theme, size), and the host's screen, which shows the answers, keeps no
tiles that the hall's screen could be drawn from."""
import pygame
import pytest
from hypothesis import given, settings, strategies as st

from scoreboard.display import compose
from scoreboard.display.screens import Screen, ScreenSpec
from scoreboard.display.theme.load import load_theme

SIZE = (640, 360)


def direct(snap, theme, now, size=SIZE, role="audience"):
    """The frame as a scene draws it straight onto a fresh surface, with no tile cache."""
    surface = pygame.Surface(size)
    compose.draw(surface, snap, theme, now, role)
    return pygame.image.tobytes(surface, "RGB")


def shown(screen):
    return pygame.image.tobytes(screen.surface, "RGB")


def scenes_of(frames):
    """One snapshot per scene the audience sees, plus the between-plays screens (scores, logo, winner, chart)."""
    found = {}
    for snap, _, at in frames:
        found.setdefault(compose.scene_name(snap), (snap, at))
    board = next(v for k, v in found.items() if k == "choosing")
    for screen in ("scores", "logo", "winner", "chart"):
        found[f"screen:{screen}"] = (dict(board[0], screen=screen), board[1])
    return found


@pytest.mark.parametrize("regulation", ["novosibirsk-2007", "america-2005"])
def test_i9_3_a_whole_game_from_kept_tiles_is_pixel_identical_to_drawing_directly(games, regulation):
    """GIVEN one audience screen with its tile cache WHEN it draws every snapshot of a whole game in order (each new
    snapshot reusing the tiles of the earlier ones; a fade's first frame, its end and a frame in the middle; clock
    ticks; the new tiles kept after the frame as the board does, or at the next frame's start) THEN every frame is
    byte for byte the frame the scene draws directly with no cache; and most tiles of a new snapshot were kept ones."""
    theme = load_theme("classic")
    screen = Screen(ScreenSpec("audience", size=SIZE), theme, window=False)
    for number, (snap, _, at) in enumerate(games[regulation]):
        # a new snapshot (a fade's first frame, its main area drawn into the kept picture), a later moment (a fade
        # over: the kept picture shown unveiled, or a clock tick), a mid-fade frame drawn whole
        for now, force in ((at, True), (at + 0.7, False), (at + 0.2, True), (at + 1.3, True)):
            if not screen.render(snap, now, force=force):
                continue   # nothing the frame key tells apart moved (a clock bar drains between its digits)
            assert screen.error is None
            assert shown(screen) == direct(snap, theme, now), (snap["phase"], snap["rev"], now)
            if number % 2:
                screen.settle()   # as the board after its flip; otherwise the next frame keeps them first
    assert screen.tiles.hits > screen.tiles.misses


def test_i9_3_what_is_drawn_over_a_frame_is_never_kept_in_its_tiles(games):
    """GIVEN an audience screen that keeps a frame's new tiles after the frame (as the board after its flip) WHEN a
    reveal's fade starts with the buttons-offline badge drawn over its veil, a frame carries the quit prompt, or the
    game is paused (the pause veil over the whole frame), and the tiles are kept after it THEN the next frames
    without the badge, the prompt or the pause are exactly the direct ones (none was kept in a tile); every frame is
    checked (BZ9's badge, the reveal fade, /sg/pause)."""
    theme = load_theme("classic")
    offline = {"buttons_online": False, "buttons_configured": True}
    prompt = lambda surface: surface.fill((200, 30, 30), pygame.Rect(0, SIZE[1] // 4, SIZE[0], SIZE[1]))  # noqa: E731
    found = scenes_of(games["novosibirsk-2007"])
    for name in ("reveal", "choosing", "answering"):
        snap, at = found[name]
        paused = dict(snap, paused=True)
        # a new score under the prompt: the frame's tiles are new ones, kept after it
        scored = dict(snap, players=[dict(p, score=p["score"] + 900) for p in snap["players"]])
        screen = Screen(ScreenSpec("audience", size=SIZE), theme, window=False)
        steps = [(snap, at, offline, None), (snap, at + 2.0, None, None), (scored, at + 2.1, None, prompt),
                 (scored, at + 2.2, None, None), (snap, at + 2.3, offline, None), (snap, at + 2.4, None, None),
                 (paused, at + 2.5, None, None), (snap, at + 2.6, None, None)]
        for frame, now, status, overlay in steps:
            screen.render(frame, now, status, overlay=overlay, force=True)
            want = pygame.Surface(SIZE)
            compose.draw(want, frame, theme, now, "audience", status=status)
            if overlay:
                overlay(want)
            assert shown(screen) == pygame.image.tobytes(want, "RGB"), (name, now, status, overlay, frame["paused"])
            screen.settle()


def test_i9_3_a_fade_keeps_its_veiled_tiles_from_its_picture_after_the_flip(games):
    """GIVEN a 1280×720 audience screen (tiles small enough to lie wholly inside the main area) WHEN each reveal of a
    game opens its fade — the main area drawn into the fade's picture, an opaque veil over it on the screen — and
    its new tiles are kept after the frame THEN the tiles under the veil are kept from the picture (never the veil), so
    the frame after the fade, drawn from them, is exactly the direct one; so are the fade's first frame and a frame in
    its middle drawn whole (its ticks blend the kept picture, a rounding apart: not compared here)."""
    theme = load_theme("classic")
    size = (1280, 720)
    screen = Screen(ScreenSpec("audience", size=size), theme, window=False)
    from_picture = 0
    for snap, _, at in games["novosibirsk-2007"]:
        for now in ((at, at + 0.2, at + 0.7) if snap["phase"] in ("reveal", "final_reveal", "game_over") else (at,)):
            if not screen.render(snap, now, force=now < at + 0.5):   # the fade's first frame, one drawn whole
                continue
            from_picture += sum(1 for entry in screen._tiles._pending if entry[2] is not None)
            assert shown(screen) == direct(snap, theme, now, size=size), (snap["phase"], snap["rev"], now)
            screen.settle()
    assert from_picture > 0, "some tiles were kept from a fade's picture"


def test_i9_3_kept_tiles_live_in_memory_reserved_when_the_screen_opened(games):
    """GIVEN an audience screen whose tile cache is asked to hold a third of a screen (it holds one screen: a frame's
    kept tiles must never be evicted by its new ones) WHEN it draws a whole game's snapshots, evicting tiles all along
    THEN every kept tile is a slot of the blocks reserved at the first frame (no new memory, no page faults
    mid-game), no slot holds two tiles, and every frame is still exactly the direct one."""
    from scoreboard.display.render.tiles import TileCache
    theme = load_theme("classic")
    screen = Screen(ScreenSpec("audience", size=SIZE), theme, window=False)
    screen._tiles = cache = TileCache(screens_kept=1 / 3)
    blocks = None
    for snap, _, at in games["novosibirsk-2007"]:
        if not screen.render(snap, at):
            continue
        assert shown(screen) == direct(snap, theme, at), (snap["phase"], snap["rev"])
        blocks = blocks or list(cache._blocks)
        assert cache._blocks == blocks
        kept = [entry[0] for entry in cache._tiles.values()]
        assert all(tile.get_abs_parent() in blocks for tile in kept)
        offsets = [(blocks.index(tile.get_abs_parent()), tile.get_abs_offset()) for tile in kept]
        assert len(set(offsets)) == len(offsets)
        assert len(kept) + len(cache._free) == len(cache._slots)
    assert len(cache._slots) == len(cache.rects)
    assert cache.misses > len(cache._slots), "the game evicted tiles"


@pytest.mark.parametrize("theme_name", ["classic", "light"])
def test_i9_3_every_scene_drawn_twice_from_tiles_matches_the_direct_drawing(games, theme_name):
    """GIVEN every scene the audience sees (the game's phases and the between-plays screens, the chart's lines and
    markers among them) WHEN each is drawn with an empty tile cache and then again from its kept tiles, at 1280×720
    THEN both frames are byte for byte the direct drawing."""
    theme = load_theme(theme_name)
    for name, (snap, at) in scenes_of(games["novosibirsk-2007"]).items():
        screen = Screen(ScreenSpec("audience", size=(1280, 720)), theme, window=False)
        want = direct(snap, theme, at + 2.0, size=(1280, 720))
        screen.render(snap, at + 2.0, force=True)
        misses = screen.tiles.misses
        assert shown(screen) == want, name
        screen.render(snap, at + 2.0, force=True)
        assert screen._tiles.misses == misses, name      # the second frame came from kept tiles alone
        assert shown(screen) == want, name


def test_i9_3_a_changed_score_theme_or_size_draws_its_tiles_again(games):
    """GIVEN a screen that drew the board (its tiles kept) WHEN a score changes, THEN only the tiles it touches are
    drawn again and the frame is the new snapshot's; WHEN the theme changes THEN every tile is drawn again in the new
    theme; WHEN the window's size changes THEN the frame is the new size's direct drawing."""
    classic, light = load_theme("classic"), load_theme("light")
    snap, at = scenes_of(games["novosibirsk-2007"])["choosing"]
    screen = Screen(ScreenSpec("audience", size=(1280, 720)), classic, window=False)
    screen.render(snap, at, force=True)
    before = shown(screen)
    tiles = len(screen._tiles.rects)

    scored = dict(snap, rev=snap["rev"] + 1,
                  players=[dict(p, score=p["score"] + 700) if p["seat"] == 2 else p for p in snap["players"]])
    misses = screen.tiles.misses
    screen.render(scored, at, force=True)
    redrawn = screen._tiles.misses - misses
    assert shown(screen) == direct(scored, classic, at, size=(1280, 720)) != before
    assert 0 < redrawn < tiles // 4

    screen.set_theme(light)
    misses = screen.tiles.misses
    screen.render(scored, at, force=True)
    assert screen._tiles.misses - misses == tiles
    assert shown(screen) == direct(scored, light, at, size=(1280, 720))

    screen.surface = pygame.Surface((1600, 900))
    screen.resized()
    screen.render(scored, at, force=True)
    assert len(screen._tiles) == 0, "the new tiles are kept after the flip"
    screen.settle()
    assert screen._tiles.rects[-1].bottomright == (1600, 900) and len(screen._tiles) == len(screen._tiles.rects)
    assert shown(screen) == direct(scored, light, at, size=(1600, 900))


def test_i9_3_the_hall_screen_never_draws_from_the_host_screens_drawing(games):
    """GIVEN a host screen and an audience screen of the same size and theme in one process, and a question being
    answered (the host's screen shows its answer) WHEN both draw it, the host first THEN the host's screen keeps no
    tiles at all, the audience's kept operations hold no text of the host's question (answer, comment), and the
    audience's frame is its own direct drawing."""
    theme = load_theme("classic")
    snap, hq, at = next((s, q, t) for s, q, t in games["novosibirsk-2007"] if s["phase"] == "answering" and q)
    host = Screen(ScreenSpec("host", size=SIZE), theme, window=False)
    hall = Screen(ScreenSpec("audience", size=SIZE), theme, window=False)
    host.render(snap, at, host_question=hq, force=True)
    assert host._tiles is None
    assert any(str(hq.get("answer")) in d.text for d in host.last_log if d.text)   # the host did draw the answer
    hall.render(snap, at, host_question=hq, force=True)
    secret = {str(hq.get(k)) for k in ("answer", "comment") if hq.get(k)}
    drawn = {op[3] for op in hall._tiles._ops if op[0] == "text"}
    assert secret and not any(s in line or line in s for s in secret for line in drawn if len(line) > 3)
    assert shown(hall) == direct(snap, theme, at)


def test_i9_3_a_new_snapshot_copies_only_what_changed_unless_the_window_lost_its_pixels(games):
    """GIVEN an audience screen showing a choosing frame WHEN the next snapshot changes a part of the screen THEN only
    the tiles that differ are drawn or copied (the rest are already on the surface) and the frame is exactly the direct
    one; and WHEN the window's pixels are lost (uncovered, a new surface: `exposed`, `resized`) THEN the next new
    snapshot copies every tile again, so nothing of the lost picture stays."""
    theme = load_theme("classic")
    frames = [(snap, at) for snap, _, at in games["novosibirsk-2007"]]
    pairs = [(a, b) for a, b in zip(frames, frames[1:]) if a[0]["phase"] == "choosing" and b[0]["phase"] == "reading"]
    (first, at_first), (second, at_second) = pairs[1]
    for lose in ("exposed", "resized", None):
        screen = Screen(ScreenSpec("audience", size=SIZE), theme, window=False)
        assert screen.render(first, at_first)
        screen.settle()
        tiles = screen._tiles
        if lose is not None:
            screen.surface.fill((255, 0, 255))       # what an uncovered window or a new surface may hold
            getattr(screen, lose)()
        touched_before = tiles.hits + tiles.misses
        assert screen.render(second, at_second)
        touched = tiles.hits + tiles.misses - touched_before
        assert shown(screen) == direct(second, theme, at_second), lose
        if lose is None:
            assert 0 < touched < len(tiles.rects), "only the changed tiles were drawn or copied"
        else:
            assert touched == len(tiles.rects), lose
        screen.settle()


def test_i9_3_an_area_without_the_fades_veil_is_cut_into_bands_that_cover_the_rest_exactly():
    """GIVEN areas of tiles that a fade's veil covers wholly, partly (each side, a corner, across) or not at all
    WHEN the part outside the veil is cut out (drawn in the frame; the part under it goes to the fade's picture)
    THEN the pieces and the veiled part cover the area exactly once: every pixel in one of them, none in two."""
    from scoreboard.display.render.tiles import _outside
    veil = pygame.Rect(100, 80, 300, 200)
    for area in (pygame.Rect(150, 100, 50, 50), pygame.Rect(0, 0, 600, 400), pygame.Rect(50, 50, 100, 100),
                 pygame.Rect(350, 250, 100, 100), pygame.Rect(0, 100, 600, 50), pygame.Rect(500, 0, 50, 50)):
        parts = _outside(area, veil) + ([area.clip(veil)] if area.colliderect(veil) else [])
        assert sum(part.w * part.h for part in parts) == area.w * area.h, area
        assert all(area.contains(part) for part in parts), area
        assert not any(a.colliderect(b) for i, a in enumerate(parts) for b in parts[i + 1:]), area


@settings(max_examples=300, deadline=None)
@given(x=st.integers(-40, 300), y=st.integers(-40, 200), w=st.integers(1, 700), h=st.integers(1, 500),
       radius=st.one_of(st.just(0), st.integers(1, 400)))
def test_i9_3_a_filled_boxs_cover_is_painted_whole_by_the_box(x, y, w, h, radius):
    """GIVEN a filled box, rounded or not (any radius, clamped as pygame clamps it) WHEN pygame draws it THEN every
    pixel of the cover the tile cache draws less under is the box's colour — nothing under it can show through."""
    from scoreboard.display.render.canvas import _cover
    surface = pygame.Surface((800, 600))
    surface.fill((9, 9, 9))
    pygame.draw.rect(surface, (13, 42, 140), (x, y, w, h), border_radius=radius)
    cover = _cover(("fill", (13, 42, 140), (x, y, w, h), radius, 0))
    if cover is None:
        assert radius and min(w, h) <= 2 * min(radius, w // 2, h // 2) + 2   # too small to have a band
        return
    assert pygame.Rect(x, y, w, h).contains(cover)
    inside = cover.clip(surface.get_rect())
    if inside.w and inside.h:
        assert pygame.image.tobytes(surface.subsurface(inside), "RGB") == bytes((13, 42, 140)) * (inside.w * inside.h)


def test_i9_3_outlines_texts_and_images_cover_nothing():
    """GIVEN operations that blend or paint only part of their box WHEN asked what they cover THEN nothing."""
    from scoreboard.display.render.canvas import _cover
    assert _cover(("fill", (1, 2, 3), (0, 0, 500, 500), 20, 6)) is None          # an outline
    assert _cover(("text", None, 40, "Анна", (255, 255, 255), (0, 0))) is None
    assert _cover(("image", ("bg", (500, 500), False), (0, 0))) is None


def test_i9_3_the_backdrop_is_not_drawn_under_a_later_opaque_panel():
    """GIVEN a backdrop picture, a small box on it and a rounded panel painted over most of the screen after them WHEN
    the tile cache draws an area THEN the backdrop runs only outside the panel's band (where the panel's corners and
    the rest of the screen show it) — a small box cuts nothing —, and the pixels are those drawn in full."""
    from scoreboard.display.render.canvas import _cover, _run
    from scoreboard.display.render.tiles import _draw_areas
    picture = pygame.Surface((640, 360))
    for row in range(360):
        picture.fill((row % 200, 40, 90), (0, row, 640, 1))
    from scoreboard.display.render import canvas
    canvas._IMAGES[("test-backdrop", (640, 360), False)] = picture
    ops = [(("image", ("test-backdrop", (640, 360), False), (0, 0)), pygame.Rect(0, 0, 640, 360)),
           (("fill", (200, 10, 10), (300, 20, 30, 30), 0, 0), pygame.Rect(300, 20, 30, 30)),
           (("fill", (13, 42, 140), (20, 60, 600, 280), 30, 0), pygame.Rect(20, 60, 600, 280))]
    covers = [_cover(op) for op, _ in ops]
    clips = []

    def run(surface, op):
        if op[0] == "image":
            clips.append(surface.get_clip())
        _run(surface, op)

    culled, whole = pygame.Surface((640, 360)), pygame.Surface((640, 360))
    area = pygame.Rect(0, 0, 640, 360)
    _draw_areas(culled, [area], ops, run, covers)
    _draw_areas(whole, [area], ops, _run)
    assert pygame.image.tobytes(culled, "RGB") == pygame.image.tobytes(whole, "RGB")
    band = covers[2]
    assert clips and not any(clip.colliderect(band) for clip in clips)
    assert sum(clip.w * clip.h for clip in clips) == 640 * 360 - band.w * band.h
