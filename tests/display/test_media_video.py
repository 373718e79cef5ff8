"""Video and sound questions as SImulator plays them (issue 10 item 4): the video plays on the audience screen on the
engine's media clock (`question.media_state`), the host pauses, plays on and replays it (`/sg/media/*`, journaled),
sound in every container a pack carries decodes, an answer's picture reaches the hall only at the reveal, and a file
that cannot be decoded is a note on the host's screen and one warning while the game goes on. Every clip is made
here with PyAV (scoreboard/bench/clips.py): frame k shows k in black and white blocks, read back from the screen."""
import shutil
import time
from pathlib import Path

import pygame
import pytest

from scoreboard.bench import clips
from scoreboard.display import compose
from scoreboard.display.media import decoder, files as media
from scoreboard.display.media.sounds import Sounds
from scoreboard.display.theme.load import load_theme
from tests.conftest import ROOT
from scoreboard.display.media.video import PLAYER
from scoreboard.engine.commands import Refused, make
from scoreboard.session import Session

SIZE = (1280, 720)
SAMPLE = ROOT / "assets" / "packs" / "sample.toml"
FLAG = '{ kind = "image", path = "sample_media/flag.png" }'
FPS = 30


@pytest.fixture(autouse=True)
def fresh(tmp_path, monkeypatch):
    monkeypatch.setenv("SVOYA_PACK_CACHE", str(tmp_path / "pack-cache"))
    media.forget()
    PLAYER.stop()
    PLAYER.problems.clear()
    yield
    PLAYER.stop()


@pytest.fixture(scope="module")
def clip(tmp_path_factory):
    return clips.make_video(tmp_path_factory.mktemp("clip") / "clip.mp4", seconds=2.0, fps=FPS, size=(192, 108))


def rel(tmp_path: Path, kind: str, source) -> str:
    """A media entry for `source`, copied into the pack's folder (pack paths are relative and stay inside it)."""
    (tmp_path / "sample_media").mkdir(exist_ok=True)
    shutil.copy(source, tmp_path / "sample_media" / Path(source).name)
    return f'{{ kind = "{kind}", path = "sample_media/{Path(source).name}" }}'


def pack_with(tmp_path: Path, item: str, answer_media: str = "") -> Path:
    """A copy of the sample pack whose flag question («Флаги», 10) has `item` as its media instead."""
    shutil.copytree(SAMPLE.parent / "sample_media", tmp_path / "sample_media", dirs_exist_ok=True)
    text = SAMPLE.read_text(encoding="utf-8")
    assert text.count(FLAG) == 1
    text = text.replace(FLAG, item + (f" ]\nanswer_media = [ {answer_media}" if answer_media else ""))
    (tmp_path / "pack.toml").write_text(text, encoding="utf-8")
    return tmp_path / "pack.toml"


def open_question(pack: Path, journal=None) -> Session:
    """A samara cup game on `pack`, the flag question opened at engine time 3."""
    session = Session(journal) if journal else Session()
    for at, address, *args in [(0, "/sg/game/new", "samara-2003", "cup", 3), (0, "/sg/pack/load", str(pack)),
                               (1, "/sg/game/start"), (2, "/sg/next"), (3, "/sg/select", 2, 1)]:
        session.submit(make(at, address, *args))
    return session


def video_pack(tmp_path, clip):
    return pack_with(tmp_path, rel(tmp_path, "video", clip))


def shown_index(snapshot, now, want=None, deadline=20.0):
    """Run the board's per-frame media step and draw the audience screen until a frame is shown (or frame `want`):
    (index shown, every index seen on the way)."""
    sounds = Sounds(load_theme("classic"), enabled=False)
    surface = pygame.Surface(SIZE)
    seen = []
    end = time.monotonic() + deadline
    while time.monotonic() < end:
        sounds.update(None, snapshot, now)
        canvas = compose.draw(surface, snapshot, load_theme("classic"), now, record=True, animate=False)
        frames = canvas.tagged("media:video:frame")
        if frames:
            seen.append(clips.read_index(surface, frames[0].rect))
            if want is None or seen[-1] == want:
                return seen[-1], seen
    return None, seen


def test_p1_video_question_shows_the_frame_of_the_engine_time(tmp_path, clip):
    """GIVEN a video question (a 2 s 30 fps H.264 clip with a tone) opened at engine time 3 WHEN the audience screen
    is drawn at engine times 3.5 and 4.2 THEN the media clock started at 3 (`playing`), the frames shown are 15 and
    then 36 (read back from the blocks on screen), and no frame from later in the clip was ever shown; the tone
    started on the mixer."""
    session = open_question(video_pack(tmp_path, clip))
    snap = session.snapshot()
    assert snap["question"]["media_state"] == {"state": "playing", "started": 3.0, "position": None}
    index, seen = shown_index(snap, 3.5, want=15)
    assert index == 15 and max(seen) <= 15
    index, seen = shown_index(snap, 4.2, want=36)
    assert index == 36 and max(seen) <= 36 and min(seen) >= 15
    assert PLAYER.started and PLAYER.run.audio is not None and PLAYER.alive


def test_p1_media_pause_play_replay_from_the_remote_are_journaled(tmp_path, clip):
    """GIVEN the video question open at 3 WHEN the host sends /sg/media/pause at 4, /sg/media/play at 10,
    /sg/media/replay at 11, and the game is paused 12–15 THEN the snapshot's media clock reads paused at 1.0 s (the
    screen holds frame 30 at any later time), then playing as if started at 9, then at 11, then at 14 after the game
    pause; pausing twice is refused; a replay of the journal gives the same clock."""
    session = open_question(video_pack(tmp_path, clip), tmp_path / "game.sqlite")
    state = session.submit(make(4, "/sg/media/pause"))["question"]["media_state"]
    assert state == {"state": "paused", "started": None, "position": 1.0}
    with pytest.raises(Refused):
        session.submit(make(4.5, "/sg/media/pause"))
    paused = session.snapshot()
    assert shown_index(paused, 4.0, want=30)[0] == 30
    assert shown_index(paused, 7.0)[0] == 30
    assert session.submit(make(10, "/sg/media/play"))["question"]["media_state"]["started"] == 9.0
    assert session.submit(make(11, "/sg/media/replay"))["question"]["media_state"]["started"] == 11.0
    session.submit(make(12, "/sg/pause"))
    after = session.submit(make(15, "/sg/unpause"))
    assert after["question"]["media_state"] == {"state": "playing", "started": 14.0, "position": None}
    assert shown_index(after, 14.5, want=15)[0] == 15
    session.close()
    recovered = Session.recover(tmp_path / "game.sqlite")
    assert recovered.snapshot()["question"]["media_state"] == after["question"]["media_state"]


def test_p1_media_commands_are_refused_without_a_video_or_sound(tmp_path):
    """GIVEN the sample pack's flag question (a picture, no sound) open WHEN the host sends /sg/media/pause or
    /sg/media/replay THEN each is refused with the reason and the snapshot has no media clock."""
    session = open_question(SAMPLE)
    for address in ("/sg/media/pause", "/sg/media/replay", "/sg/media/play"):
        with pytest.raises(Refused, match="no video or sound"):
            session.submit(make(4, address))
    assert session.snapshot()["question"]["media_state"] is None


@pytest.mark.parametrize("ext", [".m4a", ".aac", ".ogg", ".mp3", ".wav"])
def test_p1_sound_of_every_pack_container_decodes_to_pcm(tmp_path, ext):
    """GIVEN a 0.5 s tone written as `ext` WHEN the audio worker decodes it for a 48 kHz stereo mixer THEN the PCM
    chunks hold 0.5 s (±60 ms of codec padding) of sound, the first one short (it goes out at once), and the worker
    ends without an error."""
    path = clips.make_sound(tmp_path / f"tone{ext}", seconds=0.5)
    worker = decoder.AudioWorker(path, 0.0, 48000, 2).start()
    chunks = []
    end = time.monotonic() + 20
    while time.monotonic() < end and not (worker.done and worker.queue.empty()):
        try:
            chunks.append(worker.queue.get(timeout=0.05))
        except Exception:
            pass
    assert worker.error is None
    total = sum(len(c.data) for c in chunks) / 4 / 48000
    assert total == pytest.approx(0.5, abs=0.06)
    assert len(chunks[0].data) / 4 / 48000 == pytest.approx(decoder.FIRST_CHUNK, abs=0.002)


def test_p1_an_m4a_sound_question_plays_through_pyav(tmp_path):
    """GIVEN a sound question whose file is an m4a (AAC) — pygame cannot read it WHEN it opens on the board
    THEN the sound is started once, by the PyAV worker, and the audience sees the «звук» note."""
    (tmp_path / "src").mkdir()
    tone = clips.make_sound(tmp_path / "src" / "tone.m4a", seconds=1.0)
    session = open_question(pack_with(tmp_path, rel(tmp_path, "audio", tone)))
    snap = session.snapshot()
    player = Sounds(load_theme("classic"), enabled=False)
    player.update(None, snap, 3.0)
    player.update(snap, snap, 3.1)
    assert len(player.media_played) == 1 and PLAYER.run.audio is not None
    canvas = compose.draw(pygame.Surface(SIZE), snap, load_theme("classic"), 3.1, record=True, animate=False)
    assert canvas.texts("media:audio")[0].text == "звук"


def test_p1_an_undecodable_video_is_a_note_for_the_host_and_the_game_goes_on(tmp_path, capsys):
    """GIVEN a video question whose file holds bytes that are no video WHEN the board plays it over several frames
    THEN one warning names the file, the host's screen says «не воспроизводится», nothing raises, and the host's next
    command is applied."""
    (tmp_path / "src").mkdir()
    bad = tmp_path / "src" / "broken.mp4"
    bad.write_bytes(b"\x00\x00\x00\x18ftypmp42 this is no video" * 50)
    session = open_question(pack_with(tmp_path, rel(tmp_path, "video", bad)))
    snap = session.snapshot()
    player = Sounds(load_theme("classic"), enabled=False)
    for k in range(5):
        player.update(None, snap, 3 + k / 10)
        compose.draw(pygame.Surface(SIZE), snap, load_theme("classic"), 3 + k / 10, record=True, animate=False)
    host = compose.draw(pygame.Surface(SIZE), snap, load_theme("classic"), 3.5, role="host",
                       host_question=session.host_question(), record=True, animate=False)
    assert host.texts("host:media:broken")[0].text == "не воспроизводится"
    warnings = [line for line in capsys.readouterr().err.splitlines() if line.startswith("media:")]
    path = snap["question"]["media"][0]["path"]
    assert len(warnings) == 1 and path in warnings[0]
    assert session.submit(make(5, "/sg/reading/done"))["phase"] == "buzz_window"


def test_p1_answer_picture_reaches_the_hall_only_at_the_reveal(tmp_path):
    """GIVEN a question with an answer picture WHEN it is read, in its window and at the reveal THEN the audience
    snapshot and screen carry no answer picture before the reveal, and show it at the reveal."""
    (tmp_path / "src").mkdir()
    pygame.image.save(pygame.Surface((40, 80)), str(tmp_path / "src" / "answer.png"))
    session = open_question(pack_with(tmp_path, FLAG, rel(tmp_path, "image", tmp_path / "src" / "answer.png")))
    theme = load_theme("classic")
    for snap in (session.snapshot(), session.submit(make(5, "/sg/reading/done"))):
        assert "answer.png" not in repr(snap)
        assert not compose.draw(pygame.Surface(SIZE), snap, theme, 5.5, record=True).tagged("answer_media:")
    session.advance(20)
    reveal = session.snapshot()
    assert reveal["phase"] == "reveal" and reveal["last"]["answer_media"][0]["kind"] == "image"
    canvas = compose.draw(pygame.Surface(SIZE), reveal, theme, 20.5, record=True, animate=False)
    picture = canvas.tagged("answer_media:image")[0]
    assert picture.rect.w / picture.rect.h == pytest.approx(0.5, abs=0.02)


def test_p1_a_worker_that_fails_says_so_and_the_board_sees_it(tmp_path, clip, capsys):
    """GIVEN a video question whose file disappears after it opened (the worker then fails to read it) WHEN the
    board's media step and the audience screen run THEN the worker ends with its reason (`error`, not alive), the
    player reports it (`PLAYER.alive` false until it stops the run), warns once and the host's screen shows the note."""
    session = open_question(video_pack(tmp_path, clip))
    snap = session.snapshot()
    path = Path(snap["question"]["media"][0]["path"])
    sounds = Sounds(load_theme("classic"), enabled=False)
    sounds.update(None, snap, 3.0)                   # probed and the sound worker started
    path.unlink()
    worker = decoder.VideoWorker(str(path), 0.0, (320, 180)).start()
    worker.join(20)
    assert not worker.alive and worker.done and "cannot be decoded" in worker.error
    PLAYER.run.video = worker
    assert not PLAYER.alive and "cannot be decoded" in PLAYER.error
    sounds.update(None, snap, 3.1)
    assert PLAYER.run is None and PLAYER.problem(str(path))
    host = compose.draw(pygame.Surface(SIZE), snap, load_theme("classic"), 3.2, role="host",
                       host_question=session.host_question(), record=True, animate=False)
    assert host.texts("host:media:broken")
    assert len([line for line in capsys.readouterr().err.splitlines() if str(path) in line]) == 1


def media_threads() -> list:
    import threading
    return [t for t in threading.enumerate() if t.name in ("media-video", "media-audio") and t.is_alive()]


def until(condition, step=lambda: None, deadline=30.0):
    """Run `step` until `condition()` holds (the deadline only bounds a hang); the last value of `condition`."""
    end = time.monotonic() + deadline
    while not condition() and time.monotonic() < end:
        step()
        time.sleep(0.005)
    return condition()


def test_p6_the_question_s_decoding_workers_end_when_the_question_closes(tmp_path, clip):
    """GIVEN a playing video question (a frame shown; its video and sound workers running) WHEN the answer is
    revealed — the clip plays on through the reveal — and then the host goes back to the round's grid (the question
    closes) and the board's media step runs THEN both decoding workers end and no media thread is left behind."""
    session = open_question(video_pack(tmp_path, clip))
    snap = session.snapshot()
    assert shown_index(snap, 3.5, want=15)[0] == 15
    run = PLAYER.run
    assert run.video is not None and run.audio is not None
    session.submit(make(5, "/sg/reading/done"))
    session.advance(20)
    reveal = session.snapshot()
    Sounds(load_theme("classic"), enabled=False).update(None, reveal, 20.5)
    assert reveal["phase"] == "reveal" and PLAYER.run is run
    grid = session.submit(make(30, "/sg/next"))
    assert grid["question"] is None
    Sounds(load_theme("classic"), enabled=False).update(None, grid, 30.5)
    assert PLAYER.run is None
    assert until(lambda: not run.video.alive and not run.audio.alive and not media_threads())


def test_p4_pause_play_replay_end_the_previous_run_s_workers(tmp_path, clip):
    """GIVEN a playing video question WHEN the host pauses (media_state paused at 0.5 s), plays on and replays it
    THEN each step ends the previous run's workers (at most one video and one sound worker stay alive), the paused
    screen holds frame 15, playing on continues from there and the replay starts again from frame 0."""
    session = open_question(video_pack(tmp_path, clip))
    snap = session.snapshot()
    assert shown_index(snap, 3.2, want=6)[0] == 6
    runs = [PLAYER.run]
    paused = session.submit(make(3.5, "/sg/media/pause"))
    assert shown_index(paused, 6.0, want=15)[0] == 15 and PLAYER.run.audio is None
    runs.append(PLAYER.run)
    index, seen = shown_index(session.submit(make(8, "/sg/media/play")), 8.5, want=30)
    assert index == 30 and min(seen) >= 15 and PLAYER.run.audio is not None
    runs.append(PLAYER.run)
    replay = session.submit(make(9, "/sg/media/replay"))
    index, seen = shown_index(replay, 9.1, want=3)
    assert index == 3 and max(seen) <= 3
    for old in runs:
        assert until(lambda: not any(w is not None and w.alive for w in (old.video, old.audio)))
    assert len([t for t in media_threads() if t.name == "media-video"]) <= 1
    assert len([t for t in media_threads() if t.name == "media-audio"]) <= 1


def test_p1_replayed_or_closed_the_old_sound_stops_at_once(tmp_path, clip):
    """GIVEN a playing video question whose sound has a chunk playing and the next one queued on its channel
    WHEN the host replays the media THEN the new run's first chunk starts on an idle channel at once (pygame starts
    the queued chunk when a channel is halted: the old sound played on and the first sound of the replay waited
    behind it, in the queue); and WHEN the question then closes THEN the channel is silent at once."""
    session = open_question(video_pack(tmp_path, clip))
    sounds = Sounds(load_theme("classic"), enabled=False)
    snap = session.snapshot()
    assert until(lambda: PLAYER.run is not None and PLAYER.run.queued is not None,
                 lambda: sounds.update(None, snap, 3.2))
    assert PLAYER.channel.get_busy() and PLAYER.channel.get_queue() is not None
    old = PLAYER.run
    replay = session.submit(make(3.5, "/sg/media/replay"))
    assert until(lambda: PLAYER.run is not old and (PLAYER.run.first_sound is not None or PLAYER.run.queued),
                 lambda: sounds.update(None, replay, 3.5))
    assert PLAYER.run.first_sound is not None, "the replay's first chunk waited in the queue behind the old sound"
    session.submit(make(4, "/sg/reading/done"))
    session.advance(20)
    grid = session.submit(make(30, "/sg/next"))
    sounds.update(None, grid, 30.5)
    assert PLAYER.run is None and not PLAYER.channel.get_busy()


@pytest.mark.parametrize("look_after, marked", [(0.016, True), (0.2, False)])
def test_p1_a_chunk_start_seen_only_after_a_stalled_frame_is_not_taken_for_late_sound(look_after, marked):
    """GIVEN the question's channel playing a 10 ms chunk with the next one (media time 0.95 s) queued behind it,
    the queue last looked at media position 1.0 WHEN the board looks again after the queued chunk has started,
    one frame later (16 ms) or after a stalled frame (200 ms) THEN one frame later the start is taken at the middle
    of the gap (1.008) and its drift (+58 ms, beyond the limit) corrects the next chunk; after the stall nothing is
    measured and nothing corrected — the late look says nothing about when the sound started (it was on time)."""
    import queue as queues
    from types import SimpleNamespace

    from scoreboard.display.media.video import DRIFT_LIMIT, Player, Run
    player = Player()
    assert player._mixer()
    freq, size, channels = pygame.mixer.get_init()
    step = abs(size) // 8 * channels
    run = Run("clip.mp4", "video", 1.0, True, None)
    run.audio = SimpleNamespace(queue=queues.Queue())      # the decoding worker's side: nothing more decoded
    player.channel.play(pygame.mixer.Sound(buffer=bytes(int(0.01 * freq) * step)))
    player.channel.queue(pygame.mixer.Sound(buffer=bytes(int(0.5 * freq) * step)))
    run.queued, run.looked_at = decoder.Chunk(0.95, b""), 1.0
    assert until(lambda: player.channel.get_queue() is None)     # the queued chunk is playing now
    player._feed(run, 1.0 + look_after)
    player.channel.stop()
    assert run.queued is None
    if marked:
        assert run.audio_marks == [(pytest.approx(1.008), 0.95)] and run.unmarked == 0
        assert run.correction == pytest.approx(0.058) and run.correction > DRIFT_LIMIT
    else:
        assert run.audio_marks == [] and run.unmarked == 1 and run.correction == 0.0


def test_p1_the_next_chunk_never_jumps_ahead_of_the_queued_one():
    """GIVEN a chunk queued on the question's channel at the moment the one before it has ended and the queued one
    has not yet started (pygame's channel is then idle with a queue — a moment between two mixer callbacks, caught
    here with a channel that stays in it) WHEN the board feeds the sound THEN the next decoded chunk is neither
    played at once nor queued over it: it waits, so the sound is heard in order (playing it put a later 200 ms
    before the queued one, read by the bench as sound 200 ms early)."""
    import queue as queues
    from types import SimpleNamespace

    from scoreboard.display.media.video import Player, Run

    class BetweenTwoChunks:
        """The channel's state between two mixer callbacks: nothing playing, one sound queued."""
        def __init__(self):
            self.calls = []

        def get_busy(self):
            return False

        def get_queue(self):
            return "the queued chunk"

        def play(self, sound):
            self.calls.append("play")

        def queue(self, sound):
            self.calls.append("queue")

    player, channel = Player(), BetweenTwoChunks()
    player.channel = channel
    run = Run("clip.mp4", "video", 0.0, True, None)
    run.audio = SimpleNamespace(queue=queues.Queue())
    later = decoder.Chunk(0.24, bytes(4 * 480))
    run.audio.queue.put(later)
    run.queued, run.looked_at = decoder.Chunk(0.04, b""), 0.05
    player._feed(run, 0.054)
    assert channel.calls == [] and run.queued.time == 0.04 and run.audio.queue.get_nowait() is later
    assert run.audio_marks == []
