"""Third-party controller files (docs/controllers/): generated from one table, every command in the vocabulary,
and the plain /sg/... form they send really drives the board (real OSC server, real Session, a raw UDP socket
standing in for TouchOSC)."""
import json
import socket
import time
from pathlib import Path

from pythonosc.osc_message import OscMessage

from scoreboard.engine.commands import SPEC, make, parse
from scoreboard.session import Session

from host_remote import controllers
from scoreboard.links.osc.messages import build_message
from scoreboard.bench.remote_harness import PASSCODE, BoardLoop

DOCS = Path(__file__).resolve().parents[2] / "docs" / "controllers"


def test_every_controller_button_is_a_valid_command():
    """GIVEN the controller table WHEN each button's arguments are filled (amount 10) THEN the vocabulary's own
    parser accepts them: no button a controller shows can be malformed."""
    for _, label, address, args in controllers.BUTTONS:
        filled = [10 if a == "{amount}" else a for a in args]
        assert address in SPEC, label
        parse(address, filled)


def test_committed_files_are_what_the_generator_writes(tmp_path):
    """GIVEN docs/controllers WHEN the generator runs again THEN the committed files are identical (no drift), the
    session is Open Stage Control JSON whose every button sends its command from a script with the widget's own
    message bypassed (it would carry an extra value argument the board refuses)."""
    for path in controllers.write(tmp_path):
        assert path.read_text(encoding="utf-8") == (DOCS / path.name).read_text(encoding="utf-8"), path.name
    session = json.loads((DOCS / "open-stage-control.json").read_text(encoding="utf-8"))
    assert session["type"] == "session" and session["content"]["type"] == "root"
    buttons = [w for tab in session["content"]["tabs"] for w in tab["widgets"] if w["type"] == "button"]
    assert len(buttons) == len(controllers.BUTTONS) + 1
    assert all(b["bypass"] and b["onValue"].startswith("if (value === 1) send(") for b in buttons)
    ids = [w["id"] for tab in session["content"]["tabs"] for w in tab["widgets"]]
    assert len(ids) == len(set(ids))


def test_plain_commands_from_a_touchosc_like_sender_drive_the_real_board():
    """G5, G6, BZ2: GIVEN the real board and a bare UDP socket WHEN it connects with the passcode and sends the
    table's plain messages chooser 2, cell 1·1, reading done, button 2, right THEN the board applied each once:
    seat 2 has 10 points; a refused plain command comes back as /sg/error with the reason."""
    session = Session()
    session.submit(make(0, "/sg/game/new", "novosibirsk-2007", "1/9", 3, 0))
    session.submit(make(0, "/sg/game/start"))
    board = BoardLoop(session).start()
    sender = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sender.bind(("127.0.0.1", 0))
    sender.settimeout(2)
    try:
        sender.sendto(build_message("/sg/connect", (PASSCODE, "host")), board.address)
        replies = []

        def receive(timeout):
            sender.settimeout(timeout)
            try:
                message = OscMessage(sender.recvfrom(65535)[0])
                replies.append((message.address, list(message.params)))
            except socket.timeout:
                pass
        while "/sg/connected" not in [address for address, _ in replies]:
            receive(2)
        for address, args in (("/sg/chooser", (2,)), ("/sg/select", (1, 1)), ("/sg/reading/done", ()),
                              ("/sg/button", (2,)), ("/sg/judge/right", ()), ("/sg/judge/right", ())):
            expected = len(board.applied) + len(board.refused) + 1     # counted before sending: it may be fast
            sender.sendto(build_message(address, args), board.address)
            deadline = time.monotonic() + 30            # only bounds a hang
            while len(board.applied) + len(board.refused) < expected and time.monotonic() < deadline:
                receive(0.01)
        assert [c.address for c in board.applied] == ["/sg/chooser", "/sg/select", "/sg/reading/done",
                                                      "/sg/button", "/sg/judge/right"]
        assert board.refused and board.refused[0][0].address == "/sg/judge/right"   # nobody answering any more
        assert {p["seat"]: p["score"] for p in session.snapshot()["players"]} == {1: 0, 2: 10, 3: 0}
        deadline = time.monotonic() + 30                # only bounds a hang
        while not any(address == "/sg/error" for address, _ in replies) and time.monotonic() < deadline:
            receive(0.02)
        errors = [params for address, params in replies if address == "/sg/error"]
        assert errors and errors[0][0] == "/sg/judge/right" and errors[0][1]
    finally:
        sender.close()
        board.stop()
