"""Issue 25 item 6: `scoreboard doctor`, the AV crew's pre-show check: each line ok / warn / FAIL with the fix, exit 1
on a FAIL. Real parts: a real `scoreboard doctor` process with no display, ports really taken on loopback, a journal
folder that cannot be made, and the fake button box (links/serial/fake_box.py, what `scoreboard fake-box` runs)
answering HELLO and pressing its buttons over TCP."""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading

from scoreboard.app import doctor
from scoreboard.app.config import default_config
from scoreboard.display.screens import Display
from scoreboard.links.serial.fake_box import FakeBox
from tests.conftest import ROOT


def _press_every_seat_once_the_board_listens(box: FakeBox) -> threading.Thread:
    def press():
        if box.wait_for(lambda b: b.first_contact_us is not None and b.connected, timeout=30):
            for seat in range(1, box.players + 1):
                box.press(seat)
    thread = threading.Thread(target=press, daemon=True)
    thread.start()
    return thread


def test_doctor_names_each_fault_with_its_fix_and_exits_1(tmp_path):
    """GIVEN a machine with no display, the config's OSC port and web port taken by other programs, a journal
    folder that cannot be made (its parent is a file), and a button box (the fake box on TCP) that answers HELLO and
    whose four buttons are pressed during the check
    WHEN `scoreboard doctor --presses 30` runs
    THEN it exits 1; the display, both ports and the journal folder are FAIL lines each with a fix; the box's HELLO
    (name, four buttons) and the four presses are ok; the fonts are ok."""
    udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    udp.bind(("127.0.0.1", 0))
    tcp = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    tcp.bind(("127.0.0.1", 0))
    tcp.listen(1)
    (tmp_path / "a-file").write_text("not a folder", encoding="utf-8")
    box = FakeBox(players=4, name="doctor-box", tcp_port=0).start()
    config = tmp_path / "scoreboard.toml"
    config.write_text(f"""
[board]
journal_dir = "{(tmp_path / 'a-file' / 'games').as_posix()}"
[osc]
bind = "127.0.0.1"
port = {udp.getsockname()[1]}
passcode = "doctor-pass"
advertise = false
[remote_web]
bind = "127.0.0.1"
port = {tcp.getsockname()[1]}
[buttons]
port = "{box.url}"
""", encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")}
    env["SDL_AUDIODRIVER"] = "dummy"
    presser = _press_every_seat_once_the_board_listens(box)
    try:
        done = subprocess.run([sys.executable, "-m", "scoreboard", "doctor", "--config", str(config),
                               "--presses", "30", "--box-seconds", "30"], cwd=tmp_path, env=env,
                              capture_output=True, text=True, timeout=120)
    finally:
        presser.join(timeout=5)
        box.stop()
        udp.close()
        tcp.close()
    out = done.stdout
    assert done.returncode == 1, out + done.stderr
    lines = out.splitlines()

    def line(start: str) -> str:
        found = [i for i, text in enumerate(lines) if text.startswith(start)]
        assert found, f"no line starting {start!r} in:\n{out}"
        return lines[found[0]] + "\n" + (lines[found[0] + 1] if found[0] + 1 < len(lines) else "")
    assert "no display here" in line("FAIL  displays") and "fix:" in line("FAIL  displays")
    assert "taken by another program" in line("FAIL  OSC port: UDP 127.0.0.1") and "[osc] port" in line("FAIL  OSC")
    assert "taken by another program" in line("FAIL  web page port") and "[remote_web] port" in line("FAIL  web")
    assert "cannot write there" in line("FAIL  journal folder") and "fix:" in line("FAIL  journal folder")
    assert "HELLO from 'doctor-box', 4 buttons" in line(f"ok    button box {box.url}")
    assert "pressed: 1, 2, 3, 4" in line("ok    buttons")
    assert line("ok    font main") and line("ok    passcode: set")
    assert lines[-1].startswith("doctor: 4 to fix")


def test_doctor_says_ok_where_all_is_well_and_fail_for_a_silent_box_or_a_missing_screen(tmp_path):
    """GIVEN free ports, a writable journal folder, two displays with the config's screens on them, and a serial
    port where nothing answers
    WHEN the doctor's checks run THEN ports, folder, passcode, screens and the sample pack's media are ok; the same
    screens with only one display make the host's screen a FAIL (it is never put on the projector); the silent box
    is a FAIL with a fix."""
    config = default_config([Display(0, "laptop", (1366, 768)), Display(1, "projector", (1920, 1080))])
    config["osc"].update(bind="127.0.0.1", port=0, passcode="pass1234")
    config["remote_web"].update(bind="127.0.0.1", port=0)
    config["board"]["journal_dir"] = str(tmp_path / "games")
    assert {line.verdict for line in doctor.check_ports(config) + doctor.check_passcode(config)} == {doctor.OK}
    journal = doctor.check_journal(config)
    assert [line.verdict for line in journal] == [doctor.OK] and "writable" in journal[0].detail
    assert list((tmp_path / "games").iterdir()) == []            # its test file is gone
    both = [Display(0, "laptop", (1366, 768)), Display(1, "projector", (1920, 1080))]
    assert {line.verdict for line in doctor.check_displays(config, both)} == {doctor.OK}
    one = doctor.check_displays(config, both[:1])
    assert [line.verdict for line in one] == [doctor.OK, doctor.FAIL, doctor.OK]
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(1)
        config["buttons"]["port"] = f"socket://127.0.0.1:{silent.getsockname()[1]}"
        box = doctor.check_box(config, seconds=0.5)
    assert [line.verdict for line in box] == [doctor.FAIL] and "box-check" in box[0].fix
    pack = doctor.check_pack(config, str(ROOT / "assets" / "packs" / "sample.toml"))
    assert [line.verdict for line in pack] == [doctor.OK] and "every one readable" in pack[0].detail
