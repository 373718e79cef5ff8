"""The browser remote's address as a QR code on the host's screen (issue 13 item 1)."""
import pygame

from scoreboard.display.render.qr import qr_surface


def test_qr_modules_round_trip_to_the_address():
    """GIVEN the board's page address WHEN it is painted as a QR surface THEN reading the surface's modules back
    gives exactly segno's matrix for that address (quiet zone included), each module whole pixels."""
    import segno
    url = "http://192.168.1.20:8080/"
    surface = qr_surface(url, 300)
    matrix = [list(row) for row in segno.make(url, error="m").matrix_iter(scale=1, border=4)]
    module = surface.get_width() // len(matrix)
    assert module >= 2 and surface.get_width() == module * len(matrix) <= 300
    read = [[surface.get_at((x * module + module // 2, y * module + module // 2))[:3] == (0, 0, 0)
             for x in range(len(matrix))] for y in range(len(matrix))]
    assert read == [[bool(v) for v in row] for row in matrix]
    assert not any(read[0]) and not any(row[0] for row in read)      # the quiet zone is white


def test_host_screen_shows_the_browser_remote_address_and_its_qr_before_the_game():
    """GIVEN a board whose web remote serves http://192.168.1.20:8080/ WHEN the host's screen draws the set-up
    THEN it shows that address in words and as a QR code that reads back to it; the audience screen shows neither."""
    import segno
    from scoreboard.display.compose import draw
    from scoreboard.display.theme.load import load_theme
    from scoreboard.session import Session
    from scoreboard.engine.commands import make
    pygame.init()
    session = Session()
    session.submit(make(0.0, "/sg/game/new", "novosibirsk-2007", "1/9", 3, 0))
    snapshot = session.snapshot()
    url = "http://192.168.1.20:8080/"
    status = {"connect": {"address": "192.168.1.20:9000", "passcode": "x7k2", "web": url}}
    surface = pygame.Surface((1280, 720))
    canvas = draw(surface, snapshot, load_theme("default"), 0.0, "host", status=status, record=True)
    qr = [d for d in canvas.log if d.tag == "host:web:qr"]
    assert len(qr) == 1 and any(url in d.text for d in canvas.log if d.tag == "host:web")
    area = qr[0].rect
    matrix = [list(row) for row in segno.make(url, error="m").matrix_iter(scale=1, border=4)]
    module = area.w // len(matrix)
    read = [[surface.get_at((area.x + x * module + module // 2, area.y + y * module + module // 2))[:3] == (0, 0, 0)
             for x in range(len(matrix))] for y in range(len(matrix))]
    assert read == [[bool(v) for v in row] for row in matrix]
    hall = draw(pygame.Surface((1280, 720)), snapshot, load_theme("default"), 0.0, "audience", status=status,
                record=True)
    assert not any(url in d.text or d.tag.startswith("host:web") for d in hall.log)
