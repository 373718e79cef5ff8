"""Issue 9 item 6 — themes the back row can read: `theme check` always measures WCAG contrast of every text on what
it is drawn on, seat colours as colour-blind viewers see them (Machado 2009, CIEDE2000), and capital-letter heights
on the real font; every shipped theme passes and a theme someone else wrote gets each mistake named."""
import re
import subprocess
import sys
from pathlib import Path

import pygame
import pytest

from scoreboard.display import compose
from scoreboard.display.theme import legibility
from scoreboard.display.render.canvas import text_cache
from scoreboard.display.theme.colorvision import MACHADO_2009, MIN_PLAYER_DELTA_E, ciede2000, delta_e, simulate
from scoreboard.display.theme.contrast import PAUSE_ALPHA, TEXT_PAIRS, UNDER_VEIL, composite, contrast_ratio, luminance
from scoreboard.demo.frames import sample_frames
from scoreboard.display.theme.legibility import check_theme
from scoreboard.display.theme.load import MIN_CAP_FRACTION, load_theme

SHIPPED = ("default", "classic", "high-contrast", "light")
UNREADABLE = Path(__file__).parent / "themes" / "unreadable"
ROOT = Path(__file__).resolve().parents[2]


def test_wcag_reference_values():
    """GIVEN WCAG 2.x's published examples WHEN measured THEN white on black is 21:1, #777 on white 4.48:1 (just
    under AA), equal colours 1:1, and a veil is composited over its real ground before it is measured."""
    assert contrast_ratio((255, 255, 255), (0, 0, 0)) == pytest.approx(21.0)
    assert contrast_ratio((0x77, 0x77, 0x77), (255, 255, 255)) == pytest.approx(4.48, abs=0.005)
    assert contrast_ratio((0x12, 0x34, 0x56), (0x12, 0x34, 0x56)) == 1.0
    assert luminance((255, 255, 255)) == pytest.approx(1.0) and luminance((0, 0, 0)) == 0.0
    # sRGB linearisation, not a straight average: mid-grey #808080 is 21.6 % luminance, not 50 %.
    assert luminance((128, 128, 128)) == pytest.approx(0.2159, abs=0.0005)
    assert composite((0, 0, 0), 170, (255, 255, 255)) == (85, 85, 85)


def _srgb(linear: float) -> int:
    linear = min(1.0, max(0.0, linear))
    return round(255 * (12.92 * linear if linear <= 0.0031308 else 1.055 * linear ** (1 / 2.4) - 0.055))


def test_machado_2009_matrices_applied_in_linear_rgb():
    """GIVEN Machado, Oliveira & Fernandes 2009's severity-1.0 matrices WHEN applied to known colours THEN white and
    black stay (each row sums to 1), pure red becomes the olive a deuteranope sees — computed in linear RGB (162, 144,
    0), not on gamma-encoded values (94, 71, 0) — and red/green merge for deuteranopes while not for normal vision."""
    for vision, matrix in MACHADO_2009.items():
        assert all(sum(row) == pytest.approx(1.0, abs=1e-5) for row in matrix), vision
        assert simulate((255, 255, 255), vision) == (255, 255, 255) and simulate((0, 0, 0), vision) == (0, 0, 0)
    row = MACHADO_2009["deuteranopia"]
    assert simulate((255, 0, 0), "deuteranopia") == tuple(_srgb(r[0]) for r in row) == (163, 144, 0)
    assert simulate((0, 0, 255), "tritanopia") == tuple(_srgb(r[2]) for r in MACHADO_2009["tritanopia"])
    red, green = (0xE0, 0x30, 0x30), (0x30, 0xA0, 0x30)
    assert delta_e(red, green) > 60 and delta_e(red, green, "deuteranopia") < 5


@pytest.mark.parametrize("lab1, lab2, expected", [
    ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),     # Sharma, Wu & Dalal 2005, test pairs 1, 7, 17, 25
    ((50.0, 0.0, 0.0), (50.0, -1.0, 2.0), 2.3669),
    ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
    ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
])
def test_ciede2000_matches_sharma_reference_data(lab1, lab2, expected):
    """GIVEN CIEDE2000's published test pairs WHEN measured THEN the difference matches to 4 decimals, both ways."""
    assert ciede2000(lab1, lab2) == pytest.approx(expected, abs=1e-4)
    assert ciede2000(lab2, lab1) == pytest.approx(expected, abs=1e-4)


@pytest.mark.parametrize("name", SHIPPED)
def test_every_shipped_theme_passes_theme_check(name):
    """GIVEN a shipped theme WHEN `theme check` measures it (contrast, seats for protan/deutan/tritan, cap heights,
    the backdrop under each text) THEN there is no problem — and the numbers behind that hold: 4.5:1 (7:1 for
    high-contrast) on every declared pair, seats ≥ the ΔE threshold apart for every vision."""
    assert check_theme(name, sample_frames()) == []
    theme = load_theme(name)
    floor = 7.0 if name == "high-contrast" else 4.5
    assert legibility.contrast_floor(theme) == floor
    colors = theme.values["colors"]["players"]
    assert min(delta_e(a, b, v) for i, a in enumerate(colors) for b in colors[i + 1:]
               for v in ("normal", *MACHADO_2009)) >= MIN_PLAYER_DELTA_E


def test_a_theme_someone_wrote_gets_each_mistake_named_with_its_numbers():
    """GIVEN a theme with 1.15:1 muted text on the panels, red/green seats and small text whose capitals are 2.2 % of
    the height WHEN `scoreboard theme check PATH` runs THEN it exits 1 and names the theme file and each key with the
    ratio, the ΔE and vision, and the cap height in px and %."""
    run = subprocess.run([sys.executable, "-m", "scoreboard", "theme", "check", str(UNREADABLE)], cwd=ROOT,
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 1, run.stdout + run.stderr
    lines = run.stdout.splitlines()
    own = str(UNREADABLE / "theme.toml")
    muted = [line for line in lines if line.startswith(f"{own}: colors.muted: ")]
    assert any("on panel #132a78: contrast 1.15:1 is below 4.5:1" in line for line in muted), lines
    seats = [line for line in lines if line.startswith(f"{own}: colors.players: ")]
    assert any(re.search(r"seats 1 #e03030 and 2 #30a030 differ by ΔE00 \d\.\d for deuteranopia", line) for line in seats)
    small = [line for line in lines if line.startswith(f"{own}: sizes.small: ")]
    assert len(small) == 1 and re.search(r"capital letters 2\d px = 2\.\d\d% of 1920×1080, below 3%", small[0])
    assert lines[-1] == f"{UNREADABLE}: {len(lines) - 1} problem(s)"


def _probe_theme(tmp_path) -> Path:
    """A theme whose every colour key (and seat) is a different colour, so a drawn colour names its key."""
    from scoreboard.display.theme.load import SCHEMA
    keys = [k for k, kind in SCHEMA["colors"].items() if kind == "color"]
    # Every channel ≥ 100 and a black overlay: the pause veil (170/255 black) turns each into a colour ≤ 85, apart.
    lines = ["[colors]"] + [f'{k} = [{100 + 7 * i}, {250 - 6 * i}, {100 + (53 * i) % 150}]' if k != "overlay"
                            else f"{k} = [0, 0, 0]" for i, k in enumerate(keys)]
    lines.append("players = [[250, 100, 100], [100, 250, 120], [100, 100, 250], [250, 250, 100]]")
    lines += ["[images]", 'logo = ""']   # the logo under the pause word is a picture: legibility.py measures it
    tmp_path.mkdir(parents=True, exist_ok=True)
    (tmp_path / "theme.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return tmp_path


def _ground_names(theme) -> dict:
    names = {}
    for key, value in theme.values["colors"].items():
        for color in (value if key == "players" else [value]):
            assert tuple(color) not in names, f"probe colours collide: {key}"
            names[tuple(color)] = "players" if key == "players" else key
    for under in UNDER_VEIL:
        if under == "overlay":
            continue   # the veil over its own colour is that colour
        for color in (theme.values["colors"]["players"] if under == "players" else [theme.color(under)]):
            veiled = composite(theme.color("overlay"), PAUSE_ALPHA, color)
            assert names.get(veiled, "veil") == "veil", under
            names[veiled] = "veil"
    return names


def test_every_text_the_scenes_draw_is_a_declared_pair(games, tmp_path):
    """GIVEN a theme whose colours are all different WHEN every snapshot of whole games of the three regulations is
    drawn for the hall (each phase once for the host and the players, plus pause, badges, chart, scores and the
    tournament screens) and each text's ground is read from the pixels under it before it is drawn THEN every
    (text colour, ground) pair is in contrast.TEXT_PAIRS — the table theme check measures cannot drift from the code."""
    from scoreboard.display.render.canvas import Canvas
    from scoreboard.display.scenes import tournament as screens
    from scoreboard.demo import tournament as demo
    from scoreboard.tournament import views
    theme = load_theme(_probe_theme(tmp_path / "probe"))
    assert theme.problems == []
    names = _ground_names(theme)
    surface = pygame.Surface((640, 360))
    drawn: dict[tuple[str, str], str] = {}

    def look(probe, where):
        for tag, color, ground, _px, _font in probe:
            if not ground:
                continue   # an empty line: no ink
            top = max(set(ground), key=ground.count)
            pair = (names.get(tuple(color), f"?{color}"), names.get(top, f"?{top}"))
            drawn.setdefault(pair, f"{where} {tag}")
    seen = set()
    for regulation, frames in games.items():
        for snap, hq, at in frames:
            views_of = [(snap, "audience", None)]
            if snap["phase"] not in seen:
                seen.add(snap["phase"])
                views_of += [(snap, "host", None), (snap, "players", None),
                             (dict(snap, paused=True, paused_at=at, buttons_manual=True), "audience",
                              {"buttons_online": False})]
                for screen in ("scores", "chart", "logo", "winner", "bracket"):
                    views_of.append((dict(snap, screen=screen), "audience", None))
            for variant, role, status in views_of:
                probe: list = []
                compose.draw(surface, variant, theme, at + 0.5, role, host_question=hq, status=status, animate=False,
                            probe=probe)
                look(probe, f"{regulation} {role} {variant['phase']}/{variant.get('screen')}")
    for fmt, kind, until in (("samara-2003", "standings", "winter-1"), ("america-2005", "bracket", "1/3"),
                             ("samara-2003", "round", "winter-1")):
        canvas = Canvas(pygame.Surface((1280, 720)), theme)
        canvas.probe = []
        screens.draw(canvas, kind, views.build(demo.build(tmp_path / f"{fmt}-{kind}.sqlite", fmt, until), kind))
        look(canvas.probe, f"tournament {fmt} {kind}")
    undeclared = {pair: where for pair, where in drawn.items() if pair not in TEXT_PAIRS}
    assert undeclared == {}, "drawn but not in contrast.TEXT_PAIRS (add them, so theme check measures them)"
    # And no stale entry: every declared pair is drawn, but for two states these frames do not reach (a clock's last
    # 2 s fall between snapshots; the demo tournaments here award no wild card).
    assert set(TEXT_PAIRS) - set(drawn) <= {("timer_low", "background"), ("wild_card", "background")}


@pytest.mark.parametrize("size, names", [((1920, 1080), SHIPPED), ((3840, 2160), ("classic",))])
def test_every_audience_text_has_capitals_at_least_3_percent_of_the_height(size, names):
    """GIVEN the shipped themes WHEN one frame of each scene (hall and players) is drawn at 1080p (every theme) and
    4K (classic: the shipped themes share their sizes and font, checked here) THEN every text's capital "H",
    measured on the real font at the size it was drawn, is at least 3 % of the screen height."""
    cache = text_cache()
    base = load_theme("default")
    for name in names:
        theme = load_theme(name)
        assert theme.values["sizes"] == base.values["sizes"] and theme.font("main") == base.font("main")
        count = 0
        for scene, probe in legibility.render_probes(theme, size, sample_frames()):
            for tag, _color, _ground, px, font in probe:
                cap = cache.cap_height(font, px)
                assert cap >= MIN_CAP_FRACTION * size[1], f"{name} {scene} {tag}: {cap} px at {px} px"
                count += 1
        assert count > 200


def test_too_small_sizes_are_raised_when_drawn_and_reported(tmp_path):
    """GIVEN a theme whose small text gives 2.2 % capitals WHEN drawn THEN the board still draws them at the legible
    minimum; WHEN checked THEN sizes.small is reported with its px and %."""
    folder = tmp_path / "tiny"
    folder.mkdir()
    (folder / "theme.toml").write_text("[sizes]\nsmall = 0.03\nname = 0.03\n", encoding="utf-8")
    theme = load_theme(folder)
    cache = text_cache()
    for scene, probe in legibility.render_probes(theme, (1920, 1080), sample_frames()):
        assert all(cache.cap_height(font, px) >= 32.4 for _t, _c, _g, px, font in probe), scene
    problems = check_theme(folder, sample_frames())
    assert {p.key for p in problems} == {"sizes.small", "sizes.name"}
    assert all(re.search(r"capital letters \d+ px = 2\.\d\d% of 1920×1080", p.reason) for p in problems)


def test_a_bright_backdrop_fails_under_the_texts_it_carries(tmp_path):
    """GIVEN a theme whose backdrop picture is a light grey the white texts sit on (its plain colours all pass)
    WHEN checked THEN images.background is reported for texts drawn on it, with the ratio against its pixels; the
    classic backdrop passes."""
    folder = tmp_path / "bright"
    folder.mkdir()
    picture = pygame.Surface((64, 36))
    for x in range(64):
        pygame.draw.line(picture, (200, 200, 200) if x % 8 < 4 else (190, 190, 196), (x, 0), (x, 35))
    pygame.image.save(picture, str(folder / "back.png"))
    (folder / "theme.toml").write_text('[images]\nbackground = "back.png"\n', encoding="utf-8")
    problems = check_theme(folder, sample_frames())
    assert problems and {p.key for p in problems} == {"images.background"}
    assert all(p.file == str(folder / "theme.toml") for p in problems)
    assert any(re.search(r"text 'header:title' in colors\.text.* [01]\.\d\d:1 against the picture", p.reason)
               for p in problems), problems
    assert legibility.picture_problems(load_theme("classic"), sample_frames()) == []


def test_chart_lines_carry_a_marker_shape_per_seat_besides_colour():
    """GIVEN a chart of four players WHEN drawn THEN each seat's line ends in its own marker shape and the legend
    shows the same shape beside the name — the score chart does not rely on colour alone."""
    players = [{"seat": i + 1, "name": f"Игрок {i + 1}", "score": 10 * i} for i in range(4)]
    snap = {"phase": "choosing", "screen": "chart", "players": players,
            "history": [[0, 0, 0, 0], [10, 0, -10, 20], [10, 30, -10, 40]]}
    canvas = compose.draw(pygame.Surface((1280, 720)), snap, load_theme("classic"), 0, record=True, animate=False)
    shapes, keys = {}, {}
    for mark in canvas.tagged("chart:marker:"):
        seat, shape = mark.tag.split(":")[2:]
        shapes.setdefault(int(seat), set()).add(shape)
    for mark in canvas.tagged("chart:keymark:"):
        seat, shape = mark.tag.split(":")[2:]
        keys[int(seat)] = shape
    assert all(len(s) == 1 for s in shapes.values()) and len({next(iter(s)) for s in shapes.values()}) == 4
    assert keys == {seat: next(iter(s)) for seat, s in shapes.items()}
