"""The fan-out's bookkeeping: a few latest messages for every viewer, never an open-ended queue.

Theory of operation. The relay publishes a message of a kind (`state`, `tournament`, `tick`) encoded once; the hub
keeps it as the kind's latest and appends it to every viewer's *slot*, which holds at most `keep[kind]` messages of
that kind (states: KEEP_STATES, the others: one) — past that the oldest of the kind goes. So a viewer that keeps up
gets every state, in order, even two published in one turn of the loop; a slow phone skips to the newest ones
(latest wins); and a viewer that never reads holds at most KEEP_STATES states and one of each other kind here, plus
what its socket's buffer holds. Each viewer's writer sends its slot in order; a viewer whose socket has held bytes it
does not take for `send_timeout` seconds is closed (`sweep`, twice a second), which also ends a send waiting for
room. A viewer that joins gets the latest of every kind at once. Event-loop thread only.
"""
from __future__ import annotations

import asyncio
from collections import deque
from typing import Awaitable, Callable, Union

Message = Union[str, bytes]     # what the relay publishes: encoded once, the same object for every viewer

SEND_TIMEOUT = 10.0       # seconds a viewer's socket may take to accept one message before it is closed
KEEP_STATES = 8           # states a viewer's slot holds: a burst of a few in one turn reaches a viewer that keeps up


class Viewer:
    """One viewer's slot and its writer's wake-up."""

    def __init__(self, send: Callable[[Message], Awaitable[None]], close: Callable[[], Awaitable[None]], ip: str = "?",
                 backlog: Callable[[], int] = lambda: 0):
        self.send, self.close, self.ip, self.backlog = send, close, ip, backlog
        self.stuck_since: float | None = None    # since when its socket has held bytes it did not take
        self.slot: deque = deque()              # (kind, message), in the order they were published
        self.wake = asyncio.Event()
        self.sent = self.replaced = 0
        self.gone = False

    @property
    def waiting_bytes(self) -> int:
        return sum(len(text) for _, text in self.slot)


class Hub:
    def __init__(self, send_timeout: float = SEND_TIMEOUT, keep: dict | None = None):
        self.send_timeout = send_timeout
        self.keep = {"state": KEEP_STATES, **(keep or {})}
        self.latest: dict[str, Message] = {}
        self.viewers: set[Viewer] = set()
        self.published = self.replaced = self.timed_out = 0

    def publish(self, kind: str, text: Message) -> None:
        self.published += 1
        self.latest[kind] = text
        keep = self.keep.get(kind, 1)
        for viewer in self.viewers:
            viewer.slot.append((kind, text))
            if sum(1 for k, _ in viewer.slot if k == kind) > keep:
                oldest = next(i for i, (k, _) in enumerate(viewer.slot) if k == kind)
                del viewer.slot[oldest]          # this kind's oldest: the viewer is behind, the newest win
                viewer.replaced += 1
                self.replaced += 1
            viewer.wake.set()

    def join(self, viewer: Viewer) -> None:
        viewer.slot = deque(self.latest.items())
        self.viewers.add(viewer)
        if viewer.slot:
            viewer.wake.set()

    def leave(self, viewer: Viewer) -> None:
        viewer.gone = True
        viewer.slot.clear()
        self.viewers.discard(viewer)

    async def write(self, viewer: Viewer) -> None:
        """The viewer's writer: until it leaves, send what its slot holds (a slow socket is closed)."""
        while not viewer.gone:
            await viewer.wake.wait()
            viewer.wake.clear()
            while viewer.slot and not viewer.gone:
                _, text = viewer.slot.popleft()
                try:
                    # no timer a send (a task each: the relay's main cost with hundreds of viewers): a socket
                    # that stops taking bytes is closed by `sweep`, which ends this send with an error
                    await viewer.send(text)
                except (ConnectionError, RuntimeError):
                    self.leave(viewer)
                    return
                viewer.sent += 1

    async def sweep(self, now: float) -> None:
        """Close every viewer whose socket has held untaken bytes for longer than `send_timeout` (a viewer that
        stopped reading after its last message is never in the middle of a send, so the writer would not see it)."""
        for viewer in list(self.viewers):
            if viewer.backlog() <= 0:
                viewer.stuck_since = None
            elif viewer.stuck_since is None:
                viewer.stuck_since = now
            elif now - viewer.stuck_since > self.send_timeout:
                self.timed_out += 1
                self.leave(viewer)
                viewer.wake.set()
                await viewer.close()

    def status(self) -> dict:
        return {"viewers": len(self.viewers), "published": self.published, "replaced": self.replaced,
                "timed_out": self.timed_out,
                "most_waiting_bytes": max((v.waiting_bytes for v in self.viewers), default=0)}
