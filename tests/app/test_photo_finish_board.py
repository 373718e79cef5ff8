"""Issue 27 item 2 (BZ11): the board's own keys press with their source and bound, the host's screen draws the photo
finish and the hall's does not, and a press the rules ignore reaches the host's remotes though the rev stays."""
import pygame

from scoreboard.engine.commands import make


def key(board, k):
    board.handle(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode="", scancode=0))


def test_keys_press_as_keys_within_a_frame_and_only_the_hosts_screen_shows_the_photo_finish(board_factory):
    """GIVEN the real board in rehearsal (keys 1–9 are seats, 60 fps), a host and an audience screen WHEN keys 2 and 1
    go down in the window, one turn apart THEN the host's record says both are `key` presses ± 17 ms (one frame), 2
    answering, 1 too late; the second (ignored by the rules: same rev) was published to the links again; the host's
    screen draws the panel with both rows and the audience's draws none of it."""
    board = board_factory(rehearsal=True)
    for at, address, *args in [(0.1, "/sg/game/start"), (0.2, "/sg/chooser", 1), (0.3, "/sg/select", 1, 1),
                               (0.4, "/sg/reading/done")]:
        board.inbox.put(make(at, address, *args), "test")
    board.fake_clock.t += 0.5
    board.frame()
    key(board, pygame.K_2)
    board.frame()
    rev, published = board.session.rev, len(board.links.published)
    board.fake_clock.t += 0.010
    key(board, pygame.K_1)
    board.frame()
    assert board.session.rev == rev and len(board.links.published) == published + 1
    snapshot, host_question = board.links.published[-1]
    rows = host_question["presses"]["current"]["windows"][-1]["presses"]
    assert [(r["seat"], r["source"], r["bound_ms"], r["outcome"]) for r in rows] == [
        (2, "key", 17, "won"), (1, "key", 17, "too_late")]
    assert rows[1]["gap_ms"] == 10.0 and rows[1]["close"] == {"with": 2, "gap_ms": 10.0, "bounds_ms": 34}
    hall, host = board.screens
    board.draw()
    host_tags = {d.tag for d in host.last_log}
    assert {"host:photo:title", "host:photo:close", "host:photo:0:0", "host:photo:1:3"} <= host_tags
    texts = " ".join(d.text for d in host.last_log if d.tag.startswith("host:photo:"))
    assert "клавиша ±17" in texts and "+10.0 мс" in texts and "СПОРНО" in texts
    assert not [d for d in hall.last_log if "photo" in d.tag or "±" in d.text or "СПОРНО" in d.text]
    assert "presses" not in snapshot
