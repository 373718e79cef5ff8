"""The remote's pygame UI, headless (SDL dummy): taps and keys become the right commands; the screen shows state."""
import pygame
import pytest

from host_remote.app import RemoteApp, parse_args, to_design
from host_remote.ui import widgets as w
from host_remote.ui.control_screen import ControlScreen

from remote_board_double import BoardDouble
from remote_snapshots import HOST_QUESTION, base, question


def tap(screen, rect):
    return screen.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=rect.center, button=1))


def key(screen, k, mod=0, text=""):
    return screen.handle(pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode=text))


def button_for(screen, action_key):
    return next(b for b in screen.buttons if b.payload.key == action_key)


def test_g4_tapping_a_cell_selects_it(pygame_display):
    """G4: GIVEN the choosing grid WHEN the host taps Кино·40 THEN /sg/select 4 4 is returned to send."""
    screen = ControlScreen()
    screen.set_state(base("choosing"))
    assert tap(screen, button_for(screen, "select:4:4").rect) == ("/sg/select", (4, 4))


def test_keyboard_shortcuts_judge_and_undo(pygame_display):
    """GIVEN a player answering WHEN the host presses r, w, Ctrl+Z THEN right, wrong and undo are returned."""
    screen = ControlScreen()
    screen.set_state(base("answering", answering=1, question=question(reading=False)))
    assert key(screen, pygame.K_r) == ("/sg/judge/right", ())
    assert key(screen, pygame.K_w) == ("/sg/judge/wrong", ())
    assert key(screen, pygame.K_z, pygame.KMOD_CTRL) == ("/sg/undo", ())
    assert key(screen, pygame.K_q) is None


def test_g8_score_correction_through_the_numeric_pad(pygame_display):
    """G8: GIVEN the play screen WHEN the host taps ± Вера, types 1 5, flips the sign and taps OK
    THEN /sg/score/adjust 3 -15 is returned; nothing is sent before OK."""
    screen = ControlScreen()
    screen.set_state(base("reveal"))
    assert tap(screen, button_for(screen, "adjust:3").rect) is None
    assert screen.pad is not None and screen.pad.title.endswith("Вера")
    pad_button = {b.payload: b for b in screen.pad.buttons}
    for digit in ("1", "5", "±"):
        assert tap(screen, pad_button[digit].rect) is None
    assert tap(screen, pad_button["ok"].rect) == ("/sg/score/adjust", (3, -15))
    assert screen.pad is None


def test_fn2_stake_pad_refuses_out_of_range_and_closes_when_phase_moves(pygame_display):
    """FN2: GIVEN a stake pad for Анна (1..30) WHEN 45 is typed THEN OK does nothing; WHEN the board's next state
    no longer asks for her stake THEN the pad closes by itself."""
    final = {"kind": "final_round", "topic": "Физика", "eligible": [1, 2], "stakes_in": [], "judged": [],
             "revealed": []}
    screen = ControlScreen()
    screen.set_state(base("final_stakes", final=final))
    tap(screen, button_for(screen, "stake:1").rect)
    key(screen, pygame.K_4, text="4")
    key(screen, pygame.K_5, text="5")
    assert key(screen, pygame.K_RETURN) is None and screen.pad is not None
    key(screen, pygame.K_BACKSPACE)
    assert screen.pad.value == "4"
    screen.set_state(base("final_stakes", final={**final, "stakes_in": [1]}))
    assert screen.pad is None


def test_drawing_shows_connection_colour_question_and_scores(pygame_display):
    """GIVEN a connected remote in `answering` with the host question WHEN drawn THEN the status dot is green,
    the answer panel and the answering player's row are drawn; WHEN the link is lost THEN the dot is red."""
    screen = ControlScreen("127.0.0.1:9000")
    screen.set_state(base("answering", answering=1, question=question(reading=False)))
    screen.question = HOST_QUESTION
    screen.connection = "connected"
    surface = pygame.Surface(w.DESIGN)
    screen.draw(surface)
    assert surface.get_at((22, 22))[:3] == w.STATE_COLOURS["connected"]
    assert surface.get_at((20, 440))[:3] == (60, 90, 60)           # seat 1 answering: highlighted row
    judge = button_for(screen, "judge_right").rect
    assert surface.get_at((judge.left + 4, judge.centery))[:3] == w.KIND_COLOURS["right"]
    screen.connection = "lost"
    screen.draw(surface)
    assert surface.get_at((22, 22))[:3] == w.STATE_COLOURS["lost"]


def test_connect_screen_to_play_screen_over_udp(pygame_display):
    """GIVEN a board (double) on loopback WHEN the host types its port and passcode and presses Enter
    THEN the app connects, switches to the play screen with the board's state, and a tap is delivered and acked."""
    board = BoardDouble()
    app = RemoteApp("127.0.0.1", 1)
    try:
        screen = app.connect_screen
        screen.focus = "port"
        for _ in range(4):
            key(screen, pygame.K_BACKSPACE)
        app.handle(pygame.event.Event(pygame.TEXTINPUT, text=str(board.address[1])))
        key(screen, pygame.K_TAB)
        app.handle(pygame.event.Event(pygame.TEXTINPUT, text="1234"))
        app.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r"))

        def ready():
            app.pump()
            return app.control is not None and app.control.snapshot is not None
        assert app.client.wait_for(ready, 30)
        app.render()
        adjust = button_for(app.control, "adjust:2")
        app.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=adjust.rect.center, button=1))
        for digit in "20":
            app.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_0, mod=0, unicode=digit))
        app.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r"))

        def acked():
            app.pump()
            return app.control.last_ack == "поправка счёта: принято" and app.control.rev == 1
        assert app.client.wait_for(acked, 30)
        assert board.scores[2] == 20
        assert app.sent[-1][:2] == ("/sg/score/adjust", (2, 20))
    finally:
        app.close()
        board.close()


def test_connect_screen_rejects_a_bad_port(pygame_display):
    """GIVEN port "99999" WHEN the host presses connect THEN nothing connects and the reason is shown."""
    app = RemoteApp("127.0.0.1", 99999)
    app.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r"))
    assert app.client is None and "65535" in app.connect_screen.message


def test_command_line_and_scaling():
    """GIVEN the command line WHEN parsed THEN HOST:PORT and --size are read; a bad size is a clear error;
    window taps are scaled into the 1024×600 design space."""
    args, host, port, size = parse_args(["10.0.0.5:9100", "--passcode", "x", "--size", "1280x800"])
    assert (host, port, size, args.passcode) == ("10.0.0.5", 9100, (1280, 800), "x")
    with pytest.raises(SystemExit):
        parse_args(["--size", "big"])
    assert to_design((640, 400), (1280, 800)) == (512, 300)


def test_screenshots_render_every_scene_of_a_real_game(tmp_path, pygame_display):
    """GIVEN the screenshot tool WHEN it plays the sample-pack game on a real Session THEN it writes one PNG per
    scene at 1024×600, and the reading scene shows the pack's question (text pixels in the question panel)."""
    from scoreboard.demo import remote_shots as screenshots
    assert screenshots.main([str(tmp_path)]) == 0
    names = sorted(p.name for p in tmp_path.glob("remote-*.png"))
    assert {"remote-connect.png", "remote-choosing.png", "remote-reading.png", "remote-answering.png",
            "remote-auction.png", "remote-lost.png"} <= set(names)
    image = pygame.image.load(str(tmp_path / "remote-reading.png"))
    assert image.get_size() == (1024, 600)
    panel = [image.get_at((x, y))[:3] for x in range(22, 420, 3) for y in range(96, 130, 3)]
    assert any(colour == w.TEXT or sum(colour) > 500 for colour in panel)   # the question's words


def test_console_script_starts_connects_and_exits_on_ctrl_c():
    """GIVEN a board (double) on loopback WHEN `scoreboard-remote 127.0.0.1:PORT --passcode 1234` runs headless
    THEN it connects (the board sees /sg/connect with the passcode and role host) and Ctrl+C ends it cleanly."""
    import os
    import signal
    import subprocess
    import sys
    import time
    board = BoardDouble()
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    process = subprocess.Popen([sys.executable, "-c", "import sys; from host_remote.app import main; sys.exit(main())",
                                f"127.0.0.1:{board.address[1]}", "--passcode", "1234"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        deadline = time.monotonic() + 60             # only bounds a hang
        while ("/sg/connect", ["1234", "host"]) not in board.received:
            assert process.poll() is None, process.stderr.read()
            assert time.monotonic() < deadline, "the remote never connected"
            time.sleep(0.05)
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=60) == 130
        assert "Traceback" not in process.stderr.read()
    finally:
        if process.poll() is None:
            process.kill()
        board.close()


def test_view_role_shows_state_without_buttons(pygame_display):
    """GIVEN a `view` session (the board refuses its commands) WHEN a state arrives THEN no button is offered,
    and taps and keys send nothing."""
    screen = ControlScreen(view_only=True)
    screen.set_state(base("answering", answering=1, question=question(reading=False)))
    assert screen.buttons == [] and key(screen, pygame.K_r) is None


def test_connect_screen_says_when_the_board_does_not_answer(pygame_display):
    """GIVEN an address where nothing listens WHEN the host connects THEN after 2 s the connect screen says the board
    does not answer (and the app keeps trying)."""
    silent = socket_for_nothing()
    app = RemoteApp("127.0.0.1", silent.getsockname()[1], "1234")
    try:
        app.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r"))
        assert app.client is not None

        def told():
            app.pump()
            return "не отвечает" in app.connect_screen.message
        assert app.client.wait_for(told, 30)
        assert app.client.state == "connecting"
    finally:
        app.close()
        silent.close()


def socket_for_nothing():
    """A bound UDP socket that never answers (so no ICMP unreachable either)."""
    import socket
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.bind(("127.0.0.1", 0))
    return sock


def test_app_plays_a_question_on_the_real_board(pygame_display):
    """G5, G6, BZ2: GIVEN the real board side (links OSC server + Session) WHEN the host, on the app, taps Выбирает
    Анна, the cell Реки·20, Вопрос прочитан, and — after seat 2's press — Верно THEN each tap is applied by the board
    and the app's screen follows the board's phases to seat 2 at +20."""
    from scoreboard.engine.commands import make
    from scoreboard.session import Session
    from scoreboard.bench.remote_harness import PASSCODE, BoardLoop
    session = Session()
    session.submit(make(0, "/sg/game/new", "novosibirsk-2007", "1/9", 3, 0))
    session.submit(make(0, "/sg/player/name", 1, "Анна"))
    session.submit(make(0, "/sg/game/start"))
    board = BoardLoop(session).start()
    app = RemoteApp(*board.address, passcode=PASSCODE)
    try:
        app.connect(*board.address, PASSCODE)

        def phase(name):
            def reached():
                app.pump()
                return app.control is not None and (app.control.snapshot or {}).get("phase") == name
            return reached

        def tap_action(action_key):
            app.render()
            rect = button_for(app.control, action_key).rect
            app.handle(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=rect.center, button=1))

        assert app.client.wait_for(phase("round_intro"), 30)
        tap_action("chooser:1")
        assert app.client.wait_for(lambda: app.pump() or (app.control.snapshot or {}).get("chooser") == 1, 30)
        tap_action("select:1:2")
        assert app.client.wait_for(phase("reading"), 30)
        tap_action("reading_done")
        assert app.client.wait_for(phase("buzz_window"), 30)
        board.inbox.put(make(board.clock(), "/sg/button", 2), "keys")      # seat 2 presses
        assert app.client.wait_for(phase("answering"), 30)
        tap_action("judge_right")
        assert app.client.wait_for(phase("reveal"), 30)
        assert [p["score"] for p in app.control.snapshot["players"]] == [0, 20, 0]
        assert app.control.last_ack_ok and app.control.last_ack == "верно: принято"   # words, not the address
        assert [a for a, _, _ in app.sent] == ["/sg/chooser", "/sg/select", "/sg/reading/done", "/sg/judge/right"]
    finally:
        app.close()
        board.stop()


def test_passcode_changed_while_away_returns_to_the_connect_screen(pygame_display):
    """GIVEN the app on the play screen WHEN the board restarts with a new passcode (sessions gone, old passcode
    denied) THEN after the link is lost the app re-connects, is denied, and shows the connect screen with the reason."""
    board = BoardDouble()
    app = RemoteApp()
    try:
        app.connect("127.0.0.1", board.address[1], "1234")
        app.client.quiet_after, app.client.lost_after = 0.2, 0.5

        def on_play_screen():
            app.pump()
            return app.control is not None and app.control.snapshot is not None
        assert app.client.wait_for(on_play_screen, 30)
        board.passcode = "new-code"
        board.forget_sessions()
        board.silent = True
        app.client.wait_for(lambda: app.client.state == "lost", 30)
        board.silent = False

        def back_on_connect_screen():
            app.pump()
            return app.control is None and "неверный код доступа" in app.connect_screen.message
        assert app.client.wait_for(back_on_connect_screen, 30)
        assert app.screen is app.connect_screen
    finally:
        app.close()
        board.close()
