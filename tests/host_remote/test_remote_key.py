"""The laptop remote connects with the board's key (issue 24 item 6; docs/REMOTE.md "Signed commands"): what follows
`#k=` in the link of the QR code on the board's host screen, instead of a passcode, over real UDP on loopback."""
from __future__ import annotations

import pytest

from host_remote.app import RemoteApp, parse_args
from scoreboard.bench.remote_harness import BoardLoop
from scoreboard.links.osc import auth as osc_auth

KEY = osc_auth.new_key()


def test_hall6_remote_takes_the_boards_key_and_refuses_a_bad_one(capsys):
    """GIVEN the command line WHEN `--key` is the board's key THEN it is taken (and the board is connected to at
    start); WHEN it is too short, not base64url, or given with `--auth off` THEN the remote refuses to start and says
    why."""
    args, host, port, _ = parse_args(["192.168.1.20", "--key", KEY])
    assert (args.key, host, port) == (KEY, "192.168.1.20", 9000)
    # base64url may begin with "-" (one key in 64): it is still the key's value, never taken for an option
    dashed = "-" + KEY[1:]
    assert parse_args(["192.168.1.20", "--key", dashed])[0].key == dashed
    assert parse_args(["192.168.1.20", "--passcode", "-1234"])[0].passcode == "-1234"
    for argv, why in ((["--key", "c2hvcnQ"], "too short"), (["--key", "не ключ"], "base64url"),
                      (["--key", KEY, "--auth", "off"], "not with --auth off")):
        with pytest.raises(SystemExit):
            parse_args(["192.168.1.20", *argv])
        assert why in capsys.readouterr().err


def test_hall6_remote_with_the_key_alone_connects_signed(pygame_display):
    """GIVEN a board with a key WHEN the remote is given that key and no passcode THEN it connects signed, as the
    host, and a command it sends is applied."""
    board = BoardLoop(osc={"key": KEY}).start()
    app = RemoteApp(*board.address, passcode="", key=KEY)
    try:
        app.connect(*board.address, "")
        assert app.client.wait_for(lambda: app.client.connected, 10) and app.client.signed
        assert app.client.command("/sg/game/new", "novosibirsk-2007", "1/9", 3, timeout=5) == (True, None)
    finally:
        if app.client is not None:
            app.client.close()
        board.stop()
