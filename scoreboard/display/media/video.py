"""The open question's video and sound, played on the engine's media clock (`question.media_state`,
docs/ENGINE_API.md): the position at engine time T is `T - started` while playing (T frozen at `paused_at` while the
game is paused) or the paused `position`, so every screen and a follower show the same frame.

`PLAYER.sync(snapshot, now)` runs once a frame on the main thread (the board's sound update): it (re)starts the
decoding workers when the question, its media clock or the pause changes, and feeds the mixer. Scenes call
`PLAYER.frame(path, box, snapshot, now)` for the frame to draw: the newest decoded frame whose time has come (older
ones are dropped and counted). Sound goes to one reserved mixer channel as PCM chunks; a sound pygame reads itself
(wav, ogg, mp3) is loaded whole and started from the position. A file that cannot be decoded: one warning, a note on
the host's screen (`PLAYER.problem(path)`), and the game goes on.
"""
from __future__ import annotations

import os
import queue
import time

import pygame

from scoreboard.display.media import decoder
from scoreboard.display.media.files import MAX_MEDIA_BYTES, media_items, readable, sound, warn_once

# pygame reads these sound files itself (a whole Sound, started from any position by slicing its PCM)
PYGAME_SOUNDS = (".wav", ".ogg", ".mp3", ".flac")
MAX_VIDEO_BYTES = 16 * MAX_MEDIA_BYTES     # a video question is bigger than a picture; beyond this it is a mistake
XRGB = (0xFF0000, 0xFF00, 0xFF)            # the masks of a 32-bit surface whose bytes are FFmpeg's "bgr0"
DRIFT_LIMIT = 0.02                         # seconds the sound may stray from the media clock before it is corrected
MARK_WITHIN = 0.04                         # seconds: a chunk's start is measured only when looked for this often
FIRST_SOUND_WAIT = 0.03                    # seconds the question's opening frame waits for its first sound


def position(snapshot: dict, now: float, first_seen: float | None = None) -> float:
    """Seconds into the open question's media at board time `now` (see the module's docstring); a snapshot with
    no media clock (an older board) plays from when it was first seen."""
    state = (snapshot.get("question") or {}).get("media_state")
    at = float(snapshot["paused_at"]) if snapshot.get("paused") and snapshot.get("paused_at") is not None else now
    if isinstance(state, dict) and state.get("state") == "paused":
        return max(0.0, float(state.get("position") or 0.0))
    if isinstance(state, dict) and isinstance(state.get("started"), (int, float)):
        return max(0.0, at - float(state["started"]))
    return max(0.0, at - (first_seen if first_seen is not None else at))


def _playing(snapshot: dict) -> bool:
    state = (snapshot.get("question") or {}).get("media_state")
    return not snapshot.get("paused") and not (isinstance(state, dict) and state.get("state") == "paused")


class Run:
    """One file played from one position: its workers and what the main thread has taken from them."""

    def __init__(self, path: str, kind: str, start: float, playing: bool, box: tuple[int, int] | None):
        self.path, self.kind, self.start, self.playing = path, kind, start, playing
        self.video: decoder.VideoWorker | None = None
        self.audio: decoder.AudioWorker | None = None
        self.sound = None                  # a whole pygame Sound (wav/ogg/mp3 sound questions)
        self.shown: decoder.Frame | None = None
        self.surface: pygame.Surface | None = None
        self.next: decoder.Frame | None = None
        self.box = box
        self.has_video = False
        self.frames_shown = self.frames_dropped = 0
        self.audio_marks: list[tuple[float, float]] = []   # (position when a chunk started, the chunk's own time)
        self.queued = None                 # the chunk waiting in the channel's queue
        self.looked_at = start             # media position when the channel's queue was last looked at
        self.unmarked = 0                  # chunk starts not measured (seen only after a stalled frame)
        self.correction = 0.0              # seconds the next chunk is trimmed (sound late) or delayed (sound early)
        self.corrections = 0
        self.first_sound: float | None = None   # perf_counter when the first chunk went to the mixer
        self.created = time.perf_counter()

    def stop(self) -> None:
        for worker in (self.video, self.audio):
            if worker is not None:
                worker.stop()


class Player:
    def __init__(self):
        self.run: Run | None = None
        self.key = None
        self.first_seen: dict = {}
        self.problems: dict[str, str] = {}
        self.channel = None
        self.started: list[str] = []      # files whose sound was started, in order (diagnostics and tests)

    # --- state the board and the host's screen read ----------------------------------------------------------
    @property
    def alive(self) -> bool:
        """False when a decoding worker of the current run ended with an error (its reason in `error`)."""
        return self.error is None

    @property
    def error(self) -> str | None:
        run = self.run
        for worker in (run.video, run.audio) if run else ():
            if worker is not None and worker.error:
                return worker.error
        return None

    def problem(self, path: str) -> str | None:
        return self.problems.get(path)

    def _fail(self, path: str, reason: str) -> None:
        self.problems[path] = reason
        warn_once(path, reason)

    # --- once a frame -----------------------------------------------------------------------------------------
    def sync(self, snapshot: dict, now: float) -> None:
        item = next((m for m in media_items(snapshot) if m["kind"] == "video"), None) or next(
            (m for m in media_items(snapshot) if m["kind"] == "audio"), None)
        if item is None or item["path"] in self.problems:
            self.stop()
            return
        q = snapshot.get("question") or {}
        ident = (q.get("round"), q.get("topic"), q.get("index"), q.get("replaced"), item["path"])
        self.first_seen.setdefault(ident, now)
        if len(self.first_seen) > 50:
            self.first_seen = {ident: self.first_seen[ident]}
        state = q.get("media_state")
        playing = _playing(snapshot)
        key = (ident, repr(state), playing)
        if key != self.key:
            self.stop()
            self.key = key
            self._start(item, position(snapshot, now, self.first_seen[ident]), playing)
        if self.run is not None:
            self._check(self.run)
            if self.run is not None and self.run.playing:
                self._feed(self.run, position(snapshot, now, self.first_seen[ident]))

    def stop(self) -> None:
        if self.run is not None:
            self.run.stop()
            if self.channel is not None:
                self.channel.stop()
                if self.channel.get_busy():
                    # a halted channel starts what was queued behind it (pygame's end-of-sound callback): halt
                    # that too, or the closed question's next chunk plays on and the next question's first sound
                    # waits behind it
                    self.channel.stop()
        self.run, self.key = None, None

    def _start(self, item: dict, start: float, playing: bool) -> None:
        path, kind = item["path"], item["kind"]
        reason = readable(path)
        if reason is not None and not reason.startswith("too large"):
            return self._fail(path, reason)
        try:
            if os.path.getsize(path) > MAX_VIDEO_BYTES:
                return self._fail(path, f"too large (at most {MAX_VIDEO_BYTES} bytes)")
            info = decoder.probe(path)
        except (decoder.MediaError, OSError) as error:
            return self._fail(path, str(error))
        run = Run(path, kind, start, playing, self.run.box if self.run else None)
        run.has_video = kind == "video" and info["video"] is not None
        if run.has_video and run.box is not None:
            run.video = decoder.VideoWorker(path, start, run.box, single=not playing).start()
        if playing and info["audio"]:
            if kind == "audio" and path.lower().endswith(PYGAME_SOUNDS) and self._whole_sound(run, start):
                pass
            elif self._mixer():
                freq, _, channels = pygame.mixer.get_init()
                run.audio = decoder.AudioWorker(path, start, freq, channels).start()
            self.started.append(path)
        self.run = run
        if run.audio is not None:       # the opening frame waits a moment so the sound starts with the question
            end = time.perf_counter() + FIRST_SOUND_WAIT
            while run.audio.queue.empty() and not run.audio.done and time.perf_counter() < end:
                time.sleep(0.001)

    def _mixer(self) -> bool:
        try:
            if not pygame.mixer.get_init():
                pygame.mixer.init()
            if self.channel is None:
                pygame.mixer.set_reserved(1)       # theme cues never take the question's channel
                self.channel = pygame.mixer.Channel(0)
            return True
        except pygame.error as error:
            warn_once("mixer", f"no sound device ({error}); media play silently")
            return False

    def _whole_sound(self, run: Run, start: float) -> bool:
        """A sound pygame reads itself, played from `start` by slicing its PCM; False when pygame cannot read it."""
        if not self._mixer():
            return True
        whole = sound(run.path)
        if whole is None:
            return False
        freq, size, channels = pygame.mixer.get_init()
        step = abs(size) // 8 * channels
        offset = int(start * freq) * step
        clip = whole if offset <= 0 else pygame.mixer.Sound(buffer=whole.get_raw()[offset:])
        self.channel.play(clip)
        run.sound, run.first_sound = clip, time.perf_counter()
        return True

    def _check(self, run: Run) -> None:
        for worker in (run.video, run.audio):
            if worker is not None and worker.error:
                self._fail(run.path, worker.error)
                self.stop()
                return

    def _feed(self, run: Run, at: float) -> None:
        """Keep the mixer's channel busy: the next chunk plays when the last ends, one more waits in its queue."""
        if run.audio is None or self.channel is None:
            return
        if run.queued is not None and self.channel.get_queue() is None:
            # the queued chunk started between the last look and this one: its start is known to half that gap,
            # and only a start known to a frame is measured — after a stalled frame the late look would read as
            # late sound, and the correction would cut sound that played on time
            if at - run.looked_at <= MARK_WITHIN:
                self._mark(run, (run.looked_at + at) / 2, run.queued.time)
            else:
                run.unmarked += 1
            run.queued = None
        run.looked_at = at
        for _ in range(2):
            # between a chunk's end and the queued one's start the channel is idle with a queue: playing now would
            # put the next chunk before the queued one (heard out of order)
            busy = self.channel.get_busy() or self.channel.get_queue() is not None
            if busy and run.queued is not None:
                return
            try:
                chunk = run.audio.queue.get_nowait()
            except queue.Empty:
                return
            sound = pygame.mixer.Sound(buffer=self._corrected(run, chunk))
            if not busy:
                self.channel.play(sound)
                self._mark(run, at, chunk.time)
                if run.first_sound is None:
                    run.first_sound = time.perf_counter()
            else:
                self.channel.queue(sound)
                run.queued = chunk

    @staticmethod
    def _mark(run: Run, at: float, chunk_time: float) -> None:
        """A chunk started playing at media position `at`: how far the sound strays from the media clock (the
        device's clock is not the engine's; SDL's dummy device even runs ~2 % fast). Beyond DRIFT_LIMIT the next
        chunk is corrected."""
        run.audio_marks.append((at, chunk_time))
        drift = at - chunk_time
        if abs(drift) > DRIFT_LIMIT and run.correction == 0.0:
            run.correction = drift

    @staticmethod
    def _corrected(run: Run, chunk) -> bytes:
        """The chunk's PCM with the pending correction applied: late sound skips ahead, early sound waits in silence."""
        if run.correction == 0.0:
            return chunk.data
        freq, size, channels = pygame.mixer.get_init()
        step = abs(size) // 8 * channels
        cut = int(abs(run.correction) * freq) * step
        data = chunk.data
        if run.correction > 0:
            cut = min(cut, len(data) - step)
            data, chunk.time = data[cut:], chunk.time + cut / step / freq
        else:
            data, chunk.time = bytes(cut) + data, chunk.time - cut / step / freq
        run.correction, run.corrections = 0.0, run.corrections + 1
        return data

    # --- drawing ---------------------------------------------------------------------------------------------
    def frame(self, path: str, box: tuple[int, int], snapshot: dict, now: float) -> pygame.Surface | None:
        """The video frame to show in `box` now, or None (not decoded yet, or undecodable)."""
        run = self.run
        if run is None or run.path != path:
            return None
        at = position(snapshot, now, self.first_seen.get(self.key[0]) if self.key else None)
        if run.has_video and run.video is None:       # the first draw says how large the frames are made
            run.box = tuple(box)
            run.video = decoder.VideoWorker(path, at if run.playing else run.start, run.box,
                                            single=not run.playing).start()
        fresh = None
        while True:
            if run.next is None:
                try:
                    run.next = run.video.queue.get_nowait() if run.video else None
                except queue.Empty:
                    break
                if run.next is None:
                    break
            if run.playing and run.next.time > at + 1e-3 and (run.shown is not None or fresh is not None):
                break
            if fresh is not None:
                run.frames_dropped += 1
            fresh, run.next = run.next, None
            if not run.playing:
                break
        if fresh is not None:
            run.shown = fresh
            run.frames_shown += 1
            if run.surface is None or run.surface.get_size() != fresh.size:
                run.surface = pygame.Surface(fresh.size, 0, 32)
            if run.surface.get_pitch() == fresh.pitch and run.surface.get_masks()[:3] == XRGB:
                run.surface.get_buffer().write(fresh.data, 0)
            else:                                     # an unusual surface layout: a converting copy
                run.surface.blit(pygame.image.frombuffer(fresh.data, fresh.size, "BGRA").convert(run.surface),
                                 (0, 0))
        return run.surface

    def frame_time(self, snapshot: dict, now: float) -> float | None:
        """The time of the frame that should be on screen now (a part of the screens' redraw key): it changes
        when a newer decoded frame's time has come."""
        run = self.run
        if run is None or not run.has_video:
            return None
        if run.next is None and run.video is not None:
            try:
                run.next = run.video.queue.get_nowait()
            except queue.Empty:
                pass
        at = position(snapshot, now, self.first_seen.get(self.key[0]) if self.key else None)
        if run.next is not None and (run.next.time <= at + 1e-3 or run.shown is None):
            return run.next.time
        return run.shown.time if run.shown is not None else -1.0


PLAYER = Player()
