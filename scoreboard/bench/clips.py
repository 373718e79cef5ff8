"""Media made on the spot (tests and `scoreboard bench media`; no binary media in the repository): a video whose
every frame shows its own index as a grid of black and white blocks (read back from the screen with `read_index`),
with a tone; and sound files of any container PyAV writes (m4a/aac, ogg, mp3, wav).
"""
from __future__ import annotations

import array
import math
from fractions import Fraction
from pathlib import Path

import av

GRID = (4, 3)                 # 12 bits: frame indices up to 4095
BITS = GRID[0] * GRID[1]


def _frame(index: int, size: tuple[int, int]):
    """A yuv420p frame: luma white or black per block (bit k of `index`), neutral chroma."""
    w, h = size
    frame = av.VideoFrame(w, h, "yuv420p")
    luma = frame.planes[0]
    rows = []
    for gy in range(GRID[1]):
        row = bytearray()
        for gx in range(GRID[0]):
            bit = (index >> (gy * GRID[0] + gx)) & 1
            row += (b"\xeb" if bit else b"\x10") * ((gx + 1) * w // GRID[0] - gx * w // GRID[0])
        row += b"\x10" * (luma.line_size - w)
        rows.append(bytes(row) * ((gy + 1) * h // GRID[1] - gy * h // GRID[1]))
    luma.update(b"".join(rows))
    for chroma in frame.planes[1:]:
        chroma.update(b"\x80" * chroma.buffer_size)
    return frame


def _tone(rate: int, seconds: float, channels: int, hz: float = 440.0) -> bytes:
    samples = array.array("h", (int(8000 * math.sin(2 * math.pi * hz * k / rate)) for k in range(int(rate * seconds))))
    if channels == 2:
        both = array.array("h", bytes(len(samples) * 4))
        both[0::2], both[1::2] = samples, samples
        samples = both
    return samples.tobytes()


def _add_audio(container, codec: str, rate: int, seconds: float, hz: float = 440.0):
    stream = container.add_stream(codec, rate=rate)
    stream.layout = "stereo"
    pcm = _tone(rate, seconds, 2, hz)
    step = 1024
    frames = []
    for start in range(0, int(rate * seconds), step):
        n = min(step, int(rate * seconds) - start)
        frame = av.AudioFrame(format="s16", layout="stereo", samples=n)
        frame.planes[0].update(pcm[start * 4:(start + n) * 4])
        frame.sample_rate, frame.pts, frame.time_base = rate, start, Fraction(1, rate)
        frames.append(frame)
    return stream, frames


def make_video(path, seconds: float = 1.0, fps: int = 30, size: tuple[int, int] = (160, 90), sound: bool = True,
               codec: str = "h264") -> str:
    """An MP4 (H.264 + AAC) of `seconds` at `fps`: frame k shows k in blocks (see `read_index`); a 440 Hz tone."""
    with av.open(str(path), "w") as container:
        video = container.add_stream(codec, rate=fps)
        video.width, video.height, video.pix_fmt = size[0], size[1], "yuv420p"
        if codec == "h264":
            video.options = {"preset": "ultrafast", "tune": "zerolatency"}
        audio, tones = _add_audio(container, "aac", 48000, seconds) if sound else (None, [])
        count = int(round(seconds * fps))
        tone_k = 0
        for k in range(count):
            frame = _frame(k, size)
            frame.pts, frame.time_base = k, Fraction(1, fps)
            for packet in video.encode(frame):
                container.mux(packet)
            while audio is not None and tone_k < len(tones) and tones[tone_k].pts / 48000 <= (k + 1) / fps:
                for packet in audio.encode(tones[tone_k]):
                    container.mux(packet)
                tone_k += 1
        for packet in video.encode(None):
            container.mux(packet)
        if audio is not None:
            for frame in tones[tone_k:]:
                for packet in audio.encode(frame):
                    container.mux(packet)
            for packet in audio.encode(None):
                container.mux(packet)
    return str(path)


# container format name and audio codec of each sound file kind a pack carries
SOUND_KINDS = {".m4a": ("mp4", "aac"), ".aac": ("adts", "aac"), ".ogg": ("ogg", "libopus"),
               ".mp3": ("mp3", "libmp3lame"), ".wav": ("wav", "pcm_s16le")}


def make_sound(path, seconds: float = 0.5, hz: float = 440.0) -> str:
    """A tone in the container `path`'s extension names (see SOUND_KINDS)."""
    fmt, codec = SOUND_KINDS[Path(path).suffix.lower()]
    with av.open(str(path), "w", format=fmt) as container:
        rate = 44100 if codec == "libmp3lame" else 48000
        stream, frames = _add_audio(container, codec, rate, seconds, hz)
        for frame in frames:
            for packet in stream.encode(frame):
                container.mux(packet)
        for packet in stream.encode(None):
            container.mux(packet)
    return str(path)


def read_index(surface, rect) -> int:
    """The frame index shown in `rect` of `surface` (the blocks of `make_video`, however scaled)."""
    index = 0
    for gy in range(GRID[1]):
        for gx in range(GRID[0]):
            x = rect.left + (2 * gx + 1) * rect.w // (2 * GRID[0])
            y = rect.top + (2 * gy + 1) * rect.h // (2 * GRID[1])
            if sum(surface.get_at((x, y))[:3]) > 3 * 128:
                index |= 1 << (gy * GRID[0] + gx)
    return index
