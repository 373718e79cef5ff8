"""The browser remote's address as a QR code on the host's screen (issue 13 item 1)."""
import pygame

from scoreboard.display.qr import qr_surface


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
