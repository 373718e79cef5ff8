"""The players' phones on the host's screen (issue 26 item 1, item 3): a QR code per seat before the game, each
reading back to its seat's link (its key), never on the hall's screens; the phones' state and the wait in play."""
import pygame

from scoreboard.display.compose import draw
from scoreboard.display.theme.load import load_theme
from scoreboard.engine.commands import make
from scoreboard.links.osc import auth as osc_auth
from scoreboard.links.phones.seats import seat_link
from scoreboard.session import Session

URL = "http://192.168.1.20:8080/"
KEY = osc_auth.parse_key("AAAAAAAAAAAAAAAAAAAAAA")


def _read(surface, area, text):
    import segno
    matrix = [list(row) for row in segno.make(text, error="m").matrix_iter(scale=1, border=4)]
    module = area.w // len(matrix)
    read = [[surface.get_at((area.x + x * module + module // 2, area.y + y * module + module // 2))[:3] == (0, 0, 0)
             for x in range(len(matrix))] for y in range(len(matrix))]
    return read == [[bool(v) for v in row] for row in matrix]


def test_item1_host_screen_shows_each_seats_code_and_the_hall_none(tmp_path):
    """GIVEN a 3-seat game in set-up and the seats' links in the host's connect hint
    WHEN the host's, the audience's and the players' screens draw
    THEN the host's shows three QR codes that read back to seats 1–3's links (and the remote's code still); no other
    screen draws a seat's code or its key."""
    pygame.init()
    session = Session()
    session.submit(make(0.0, "/sg/game/new", "novosibirsk-2007", "1/9", 3, 0))
    snapshot = session.snapshot()
    seats = {seat: seat_link(URL, KEY, seat) for seat in range(1, 10)}
    status = {"connect": {"address": "192.168.1.20:9000", "passcode": "x7k2", "web": URL, "qr": URL + "#k=x",
                          "seats": seats}}
    surface = pygame.Surface((1280, 720))
    canvas = draw(surface, snapshot, load_theme("default"), 0.0, "host", status=status, record=True)
    pygame.image.save(surface, str(tmp_path / "host.png"))
    codes = {d.tag: d.rect for d in canvas.log if d.tag.startswith("host:seat:qr:")}
    assert sorted(codes) == [f"host:seat:qr:{seat}" for seat in (1, 2, 3)]
    for seat in (1, 2, 3):
        assert _read(surface, codes[f"host:seat:qr:{seat}"], seats[seat])
    assert [d for d in canvas.log if d.tag == "host:web:qr"]
    for role in ("audience", "players"):
        hall = draw(pygame.Surface((1280, 720)), snapshot, load_theme("default"), 0.0, role, status=status,
                    record=True)
        assert not any(d.tag.startswith("host:seat") or "seat.html" in d.text for d in hall.log)


def test_item3_host_screen_shows_the_phones_state_and_the_wait():
    """GIVEN a game in play and two seated phones, one synced (± 21 ms over a 38 ms round trip), one lost
    WHEN the host's screen draws THEN one line names both phones' state and the arbitration's wait."""
    pygame.init()
    session = Session()
    for cmd in (make(0.0, "/sg/game/new", "novosibirsk-2007", "1/9", 3, 0), make(1.0, "/sg/game/start")):
        session.submit(cmd)
    phones = {"seats": [{"seat": 1, "state": "synced", "error_ms": 21.0, "rtt_ms": 38.0, "waiting": False},
                        {"seat": 3, "state": "lost", "waiting": True}], "wait_ms": 180}
    canvas = draw(pygame.Surface((1280, 720)), session.snapshot(), load_theme("default"), 2.0, "host",
                  status={"phones": phones}, record=True)
    [line] = [d.text for d in canvas.log if d.tag == "host:phones"]
    assert "1 ±21" in line and "3 нет связи" in line and "180" in line
