"""The decoding workers of the question's video and sound (PyAV): threads that read a file from a position and hand
the main thread plain bytes through bounded queues — video frames already converted to the screen's pixel format at
the size they are drawn at, sound as PCM chunks in the mixer's format. No pygame here: surfaces and sounds are made
from these bytes on the main thread only (scoreboard/display/media/video.py).

A worker never dies silently: an exception ends it with `error` set (the player shows a note and warns once), and
`alive` says whether it still runs.
"""
from __future__ import annotations

import queue
import threading
from dataclasses import dataclass

VIDEO_QUEUE = 6          # frames decoded ahead (~0.2 s at 30 fps): enough to ride out a slow frame, little memory
AUDIO_QUEUE = 12         # PCM chunks decoded ahead
FIRST_CHUNK = 0.04       # seconds: the first sound goes out at once (≤ 50 ms after the question opens)
# FFmpeg's "bgr0" is the byte order of a 32-bit pygame surface (XRGB8888, little-endian): the main thread copies
# the bytes into its surface and blits the same format, a plain copy (a swizzling blit costs ~3× more at 1080p)
PIXEL_FORMAT = "bgr0"
MAX_PIXELS = 1920 * 1080
CHUNK = 0.2              # then chunks long enough that a frame or two of delay never starves the mixer


class MediaError(Exception):
    """A media file that cannot be decoded (its reason is shown on the host's screen and warned once)."""


@dataclass
class Frame:
    time: float             # seconds into the media
    size: tuple[int, int]
    pitch: int
    data: bytes             # PIXEL_FORMAT rows of `pitch` bytes


@dataclass
class Chunk:
    time: float             # seconds into the media of its first sample
    data: bytes             # signed 16-bit interleaved PCM at the mixer's rate and channels


def probe(path: str) -> dict:
    """What the file holds: {"video": (w, h, fps) | None, "audio": bool, "duration": seconds | None}."""
    import av  # lazy: PyAV costs 140 ms at import beside pygame; only a question with video or sound opens it
    try:
        with av.open(path) as container:
            video = container.streams.video[0] if container.streams.video else None
            info = {"video": None, "audio": bool(container.streams.audio), "duration": None}
            if video is not None:
                rate = float(video.average_rate or video.guessed_rate or 30)
                info["video"] = (video.codec_context.width, video.codec_context.height, rate)
            if container.duration:
                info["duration"] = container.duration / 1_000_000
            if info["video"] is None and not info["audio"]:
                raise MediaError("no video or sound in the file")
            return info
    except MediaError:
        raise
    except Exception as error:     # av.error.* and whatever a broken container raises
        raise MediaError(f"cannot be decoded ({type(error).__name__}: {error})") from None


class Worker:
    """A daemon thread running `self.work()`; `stop()` ends it promptly (queue waits are short)."""

    def __init__(self, name: str, size: int):
        self.queue: queue.Queue = queue.Queue(size)
        self.error: str | None = None
        self.done = False              # the file ended (or the one frame asked for was made)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)

    def start(self) -> "Worker":
        self._thread.start()
        return self

    @property
    def alive(self) -> bool:
        return self._thread.is_alive()

    def stop(self) -> None:
        self._stop.set()

    def join(self, timeout: float = 5.0) -> None:
        self._thread.join(timeout)

    def _run(self) -> None:
        try:
            self.work()
        except Exception as error:    # reported through `error`, never swallowed
            self.error = f"cannot be decoded ({type(error).__name__}: {error})"
        finally:
            self.done = True

    def put(self, item) -> bool:
        """Hand `item` to the main thread, waiting while the queue is full; False once stopped."""
        while not self._stop.is_set():
            try:
                self.queue.put(item, timeout=0.05)
                return True
            except queue.Full:
                continue
        return False

    def work(self) -> None:
        raise NotImplementedError


def _seek(container, stream, position: float) -> None:
    if position > 0 and stream.time_base:
        container.seek(int(position / stream.time_base), stream=stream, backward=True, any_frame=False)


class VideoWorker(Worker):
    """Frames from `position` on, fitted into `box` with the aspect kept; `single`: only the frame at `position`
    (a paused video)."""

    def __init__(self, path: str, position: float, box: tuple[int, int], single: bool = False):
        super().__init__("media-video", VIDEO_QUEUE)
        self.path, self.position, self.box, self.single = path, position, box, single

    def work(self) -> None:
        import av  # lazy: as in probe()
        with av.open(self.path) as container:
            stream = container.streams.video[0]
            stream.thread_type = "AUTO"        # FFmpeg's own frame threads for H.264
            _seek(container, stream, self.position)
            width, height = stream.codec_context.width, stream.codec_context.height
            # at most MAX_PIXELS: upscaling a 1080p frame to a 4K box costs the worker ~4× more time a frame (it
            # then cannot keep 30 fps on a loaded 2-core machine) and adds no detail; a small video still fills its box
            ratio = min(self.box[0] / width, self.box[1] / height, max(1.0, (MAX_PIXELS / (width * height)) ** 0.5))
            size = (max(2, int(width * ratio) // 2 * 2), max(2, int(height * ratio) // 2 * 2))
            rate = float(stream.average_rate or 30)
            held = None
            for frame in container.decode(stream):
                at = float(frame.time if frame.time is not None else 0.0)
                if at + 1 / rate <= self.position + 1e-6:   # before the position (decoded from the key frame)
                    held = frame
                    continue
                if self.single and held is not None and at > self.position + 1e-6:
                    frame = held                          # the frame showing at the position is the one before
                    at = float(frame.time or 0.0)
                if not self.put(self._convert(frame, at, size)) or self.single:
                    return
            if held is not None and self.single:          # the position is past the last frame
                self.put(self._convert(held, float(held.time or 0.0), size))

    @staticmethod
    def _convert(frame, at: float, size: tuple[int, int]) -> Frame:
        rgb = frame.reformat(width=size[0], height=size[1], format=PIXEL_FORMAT, interpolation="BILINEAR")
        plane = rgb.planes[0]
        data, row = bytes(plane), size[0] * 4
        if plane.line_size != row:                    # FFmpeg pads rows: pack them as the surface has them
            data = b"".join(data[y * plane.line_size:y * plane.line_size + row] for y in range(size[1]))
        return Frame(at, size, row, data)


class AudioWorker(Worker):
    """PCM chunks from `position` on, resampled to the mixer's rate and channels."""

    def __init__(self, path: str, position: float, rate: int, channels: int):
        super().__init__("media-audio", AUDIO_QUEUE)
        self.path, self.position, self.rate, self.channels = path, position, rate, channels

    def work(self) -> None:
        import av  # lazy: as in probe()
        layout = "stereo" if self.channels >= 2 else "mono"
        step = 2 * (2 if layout == "stereo" else 1)          # bytes per sample frame
        with av.open(self.path) as container:
            stream = container.streams.audio[0]
            _seek(container, stream, self.position)
            resampler = av.AudioResampler(format="s16", layout=layout, rate=self.rate)
            pending, pending_at, chunk = bytearray(), None, FIRST_CHUNK
            clock = None                                     # seconds into the media of the next resampled sample

            def emit(frames) -> bool:
                nonlocal pending, pending_at, chunk, clock
                for out in frames:
                    data = bytes(out.planes[0])[:out.samples * step]
                    if clock is None:
                        clock = float(out.time) if out.time is not None else self.position
                    skip = int(round((self.position - clock) * self.rate)) * step
                    if skip > 0:                             # samples before the position (seek lands earlier)
                        cut = min(skip, len(data))
                        data = data[cut:]
                        clock += cut / step / self.rate
                    if not data:
                        continue
                    if pending_at is None:
                        pending_at = clock
                    pending += data
                    clock += len(data) / step / self.rate
                    while len(pending) >= int(chunk * self.rate) * step:
                        size = int(chunk * self.rate) * step
                        if not self.put(Chunk(pending_at, bytes(pending[:size]))):
                            return False
                        pending_at += size / step / self.rate
                        del pending[:size]
                        chunk = CHUNK
                return True

            for frame in container.decode(stream):
                if not emit(resampler.resample(frame)):
                    return
            if emit(resampler.resample(None)) and pending:
                self.put(Chunk(pending_at, bytes(pending)))
