"""`scoreboard fake-box` as a real process on a real pty, and its press script format."""
import signal
import subprocess
import sys

import pytest

from linkhelp import drain_n, start_links, wait_until
from scoreboard.links.cli import parse_script


def test_bz3_fake_box_script_presses_at_exact_box_times(tmp_path):
    """GIVEN `scoreboard fake-box --script` pressing seat 2 at 1.0000 s and seat 3 at 1.0001 s of box time
    WHEN the board reads it over the pty THEN both presses arrive, in that order, exactly 0.1 ms apart."""
    link = tmp_path / "box"
    script = tmp_path / "presses.txt"
    script.write_text("# seconds seat\n1.0 2\n1.0001 3\n", encoding="utf-8")
    links, inbox = start_links(str(link))
    process = subprocess.Popen([sys.executable, "-m", "scoreboard", "fake-box", "--pty", str(link),
                                "--players", "3", "--script", str(script), "--exit"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert wait_until(lambda: links.status()["buttons_online"], timeout=30), links.status()
        items = drain_n(inbox, 2, timeout=30)
        assert [item.cmd.args[0] for item in items] == [2, 3]
        assert abs(items[1].cmd.at - items[0].cmd.at - 0.0001) < 1e-6
        assert process.wait(timeout=60) == 0
        assert f'buttons.port = "{link}"' in process.stdout.read()
    finally:
        if process.poll() is None:
            process.kill()
        links.stop()


def test_bz3_fake_box_script_clock_starts_at_the_boards_hello(tmp_path):
    """GIVEN `scoreboard fake-box --script` pressing seat 2 at 0 s and seat 3 at 0.0001 s, started well
    before any board opens its pty (pyserial flushes a port's input on open, so a press sent then is lost)
    WHEN the board opens the pty only once the box says its script is waiting (with the old clock, counted from
    the box's start, both presses would be gone by then)
    THEN the script's zero is the board's HELLO?: both presses arrive, 0.1 ms apart, stamped after the board
    started, and no press is reported dropped."""
    import threading
    import time
    link = tmp_path / "box"
    script = tmp_path / "presses.txt"
    script.write_text("0 2\n0.0001 3\n", encoding="utf-8")
    process = subprocess.Popen([sys.executable, "-m", "scoreboard", "fake-box", "--pty", str(link),
                                "--players", "3", "--script", str(script), "--exit"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    stderr: list[str] = []
    reader = threading.Thread(target=lambda: stderr.extend(process.stderr), daemon=True)
    reader.start()
    links = None
    try:
        assert f'buttons.port = "{link}"' in process.stdout.readline()
        # the box has reached its script's zero (a press at 0 s would have gone out now with the old clock)
        assert wait_until(lambda: any("waits for the board" in line for line in stderr), timeout=60), stderr
        opened = time.monotonic()
        links, inbox = start_links(str(link))
        items = drain_n(inbox, 2, timeout=30)
        assert [item.cmd.args[0] for item in items] == [2, 3]
        assert abs(items[1].cmd.at - items[0].cmd.at - 0.0001) < 1e-6 and items[0].cmd.at >= opened
        assert process.wait(timeout=60) == 0
        reader.join(timeout=60)
        assert not any("dropped" in line for line in stderr), stderr
    finally:
        if process.poll() is None:
            process.kill()
        if links is not None:
            links.stop()


def test_fake_box_script_clock_start_warns_of_presses_nobody_got(tmp_path):
    """GIVEN `fake-box --script-clock start` (the old behaviour: seconds since the box started) and no board
    WHEN the script presses seat 2 at 0 s and seat 1 at 0.05 s and exits
    THEN each lost press is named on stderr with its script time, exit 0."""
    script = tmp_path / "presses.txt"
    script.write_text("0 2\n0.05 1\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "scoreboard", "fake-box", "--pty", str(tmp_path / "b"),
                           "--script", str(script), "--script-clock", "start", "--exit"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "press of seat 2 at 0.000 s dropped: no board connected" in done.stderr
    assert "press of seat 1 at 0.050 s dropped: no board connected" in done.stderr


def test_fake_box_press_says_whether_a_board_got_it(tmp_path):
    """GIVEN a fake box on a pty and one on TCP, no board yet WHEN they press THEN press() is False;
    GIVEN the board then opens the pty (HELLO?) WHEN the box presses THEN True, and the press arrives,
    and first_contact_us holds the box time of that HELLO?."""
    from scoreboard.links.serial.fake_box import FakeBox
    box = FakeBox(players=2, link=str(tmp_path / "box")).start()
    tcp = FakeBox(players=2, tcp_port=0).start()
    try:
        assert box.press(1) is False and tcp.press(1) is False and box.first_contact_us is None
        before = box.now_us()
        links, inbox = start_links(box.url)
        try:
            assert box.wait_for(lambda b: b.connected, timeout=30)
            assert box.first_contact_us is not None and box.first_contact_us >= before
            assert box.press(2) is True
            assert [item.cmd.args[0] for item in drain_n(inbox, 1)] == [2]
        finally:
            links.stop()
    finally:
        box.stop()
        tcp.stop()


@pytest.mark.parametrize("text, error", [
    ("1.0 2\n0.5 1\n", "s.txt:2: time 0.5 goes back"),
    ("1.0\n", "s.txt:1: expected SECONDS SEAT"),
    ("x 1\n", "s.txt:1: could not convert"),
    ("1 0\n", "s.txt:1: seat 0 outside"),
])
def test_fake_box_bad_script_line_named(text, error):
    """GIVEN a malformed press script WHEN parsed THEN the error names the file, line and reason."""
    with pytest.raises(ValueError, match=error):
        parse_script(text, "s.txt")


def test_fake_box_bad_script_exits_2_with_reason(tmp_path):
    """GIVEN a script with a bad line WHEN fake-box starts THEN it exits 2 naming the line, opening nothing."""
    script = tmp_path / "bad.txt"
    script.write_text("2 1\n1 1\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "scoreboard", "fake-box", "--pty", str(tmp_path / "b"),
                           "--script", str(script), "--exit"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "bad.txt:2: time 1.0 goes back" in done.stderr
    assert not (tmp_path / "b").exists()


def test_fake_box_piped_seats_and_tcp(tmp_path):
    """GIVEN `scoreboard fake-box --tcp PORT` fed seats on a pipe WHEN the board opens socket://127.0.0.1:PORT
    and the pipe says 3 THEN a press of seat 3 arrives."""
    import socket
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()
    process = subprocess.Popen([sys.executable, "-m", "scoreboard", "fake-box", "--tcp", str(port)],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    links, inbox = start_links(f"socket://127.0.0.1:{port}")
    try:
        assert wait_until(lambda: links.status()["buttons_online"], timeout=30), links.status()
        process.stdin.write("3\n")
        process.stdin.flush()
        assert [item.cmd.args[0] for item in drain_n(inbox, 1, timeout=30)] == [3]
    finally:
        process.kill()
        process.wait(timeout=60)
        links.stop()


def test_proto5_box_check_prints_handshake_and_presses(tmp_path):
    """GIVEN a fake box on a pty that presses seat 2 once the board has PINGed it
    WHEN `scoreboard box-check PTY --seconds 0` runs (until Ctrl-C)
    THEN it prints the box online with its name and player count, and the press of seat 2."""
    import threading
    from scoreboard.links.serial.fake_box import FakeBox
    box = FakeBox(players=3, name="venuebox", link=str(tmp_path / "box")).start()

    def press_when_pinged():
        if box.wait_for(lambda b: any(line.startswith("PING") for line in b.received), timeout=30):
            box.press(2)

    presser = threading.Thread(target=press_when_pinged)
    # No fixed listening window (a loaded machine can take longer than any): box-check runs until stopped, and is
    # stopped with Ctrl-C once the press is printed (the deadline only bounds a hang).
    check = subprocess.Popen([sys.executable, "-m", "scoreboard", "box-check", box.url, "--seconds", "0"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out: list[str] = []
    reader = threading.Thread(target=lambda: out.extend(check.stdout), daemon=True)
    try:
        presser.start()
        reader.start()
        online = f"box {box.url}: online; name=venuebox players=3"
        assert wait_until(lambda: any("press seat 2  (serial)" in line for line in out)
                          and any(online in line for line in out), timeout=60), out
        check.send_signal(signal.SIGINT)
        assert check.wait(timeout=60) == 0, check.stderr.read()
    finally:
        if check.poll() is None:
            check.kill()
        presser.join()
        box.stop()


def test_proto5_box_check_missing_port_says_why(tmp_path):
    """GIVEN no box at the path WHEN box-check runs for 1 s THEN it prints offline with the open error, exit 1."""
    done = subprocess.run([sys.executable, "-m", "scoreboard", "box-check", str(tmp_path / "none"),
                           "--seconds", "1"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "offline: " in done.stdout and "No such file" in done.stdout
