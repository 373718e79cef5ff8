"""The inbox: where every link (serial box, OSC, keys) leaves commands for the board's main thread.

Links run on their own threads and never touch the session; they `put` stamped commands here. The board
loop `drain`s once a turn, submits the items in time order (that is what makes the earliest press win even
when it arrived later) as one journal batch, and reports each outcome through the item's `on_result` once the batch
is durable, so that OSC can ack.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass, replace
from typing import Callable, Optional

from scoreboard.engine.commands import Command
from scoreboard.session import outcome

OnResult = Callable[[bool, Optional[str]], None]

# A flood of valid commands must not eat the board's memory; nothing legitimate comes near this per frame.
MAX_ITEMS = 10_000


@dataclass(frozen=True)
class Item:
    cmd: Command
    source: str                     # "serial", "digits", "keys", "osc:<session id>"
    on_result: Optional[OnResult] = None
    seq: int = 0                    # arrival order: ties on cmd.at keep it


class Inbox:
    """Thread-safe queue of stamped commands, drained in `cmd.at` order."""

    def __init__(self, max_items: int = MAX_ITEMS):
        self._items: list[Item] = []
        self._cond = threading.Condition()
        self._seq = 0
        self._max = max_items
        self.dropped = 0

    def put(self, cmd: Command, source: str, on_result: Optional[OnResult] = None) -> bool:
        """Queue `cmd`; False (and on_result(False, reason)) when the inbox is full."""
        with self._cond:
            if len(self._items) >= self._max:
                self.dropped += 1
                full = True
            else:
                self._seq += 1
                self._items.append(Item(cmd, source, on_result, self._seq))
                self._cond.notify_all()
                full = False
        if full and on_result is not None:
            on_result(False, "board busy: inbox full")
        return not full

    def put_many(self, entries: list[tuple[Command, str]]) -> None:
        """Queue several commands at once: a drain sees all of them or none. The box reader puts every
        press of one read this way, so a frame boundary can never split two presses the box reported
        together (the board would otherwise submit the later-stamped one first)."""
        if not entries:
            return
        with self._cond:
            room = max(0, self._max - len(self._items))
            self.dropped += max(0, len(entries) - room)
            for cmd, source in entries[:room]:
                self._seq += 1
                self._items.append(Item(cmd, source, None, self._seq))
            self._cond.notify_all()

    def deliver_all(self, session, holdback: "Holdback | None" = None, now: float = 0.0,
                    extra: list[Item] = ()) -> list[tuple[Item, bool, Optional[str]]]:
        """One turn of the board loop's input: drain (plus the board's own `extra` items, e.g. its keys),
        let `holdback` keep what must wait, submit the rest in time order, report each outcome. One item's
        failure (refused, not journaled, a bug) never stops the rest of the batch."""
        # the phones' wait is read before the drain: a phone's sample that proves its press arrived is handled after
        # that press was queued, so a wait this short never lets a drain miss a press it counted on
        wait = holdback.wait() if holdback is not None else 0.0
        items = self.drain()
        if extra:
            items = sorted(items + list(extra), key=lambda item: (item.cmd.at, item.seq))
        if holdback is not None:
            items = holdback.due(items, now, wait)
        items = lifted(items, getattr(session, "time", None))
        # One batch: the session journals every accepted command in one transaction, and only once that is durable
        # is anyone told (an ack means "done and journaled"); a session without batches submits one by one.
        batch = getattr(session, "submit_batch", None)
        cmds = [item.cmd for item in items]
        outcomes = batch(cmds) if batch is not None else [outcome(session, cmd) for cmd in cmds]
        for item, (ok, reason) in zip(items, outcomes):
            if item.on_result is not None:
                item.on_result(ok, reason)
        return [(item, ok, reason) for item, (ok, reason) in zip(items, outcomes)]

    def drain(self) -> list[Item]:
        """Every queued item, earliest `cmd.at` first (arrival order among equal times)."""
        with self._cond:
            items, self._items = self._items, []
        items.sort(key=lambda item: (item.cmd.at, item.seq))
        return items

    def wait(self, timeout: float | None = None) -> bool:
        """Block until something is queued (or timeout); True if the inbox is not empty."""
        with self._cond:
            if not self._items:
                self._cond.wait(timeout)
            return bool(self._items)

    def nudge(self) -> None:
        """Wake a `wait` with nothing queued (the board's own keys, or its input thread stopping)."""
        with self._cond:
            self._cond.notify_all()

    def __len__(self) -> int:
        with self._cond:
            return len(self._items)


def lifted(items: list[Item], floor) -> list[Item]:
    """A remote's command is stamped when its datagram reached the machine (osc/rxstamp.py), which may be before
    the last command the game applied (a key, a deadline, while the OSC thread was busy): such a command is applied
    at that last command's time, as the OSC thread's own stamp would have had it, never refused as "time goes
    backwards". Presses keep their stamps: their time is what they are judged on."""
    if not isinstance(floor, (int, float)):
        return items
    return [replace(item, cmd=replace(item.cmd, at=floor)) if item.source.startswith("osc:") and item.cmd.at < floor
            else item for item in items]


BOX_SOURCES = ("serial",)   # stamped by the box's own clock, reported in the order the box saw them


class Holdback:
    """No press lost to timing: everything but the box's presses waits out the grace before it is applied.

    A box press reaches the board up to `grace` after it was made (USB adapters buffer), stamped with the
    box's time. A host command is stamped on arrival. Applied at once, a host command stamped 10 ms after a
    press that is still in the adapter would be applied first, and the engine would then refuse the press as
    "time goes backwards" (a false start after /sg/judge/wrong, a press during reading after
    /sg/reading/done). So the board applies, each turn, in stamp order, every item stamped up to the
    horizon: `now - grace` (what the deadlines wait for too), or the newest box press if that is later — the
    box reports in order, so once a press stamped t is here none stamped before t is still on its way.
    Box presses therefore never wait; a host command waits at most `grace` (its ack with it). With grace 0
    (no event box) nothing waits.

    Players' phones (docs/PHONE_BUTTONS.md) are a box with a worse link: their presses are stamped with the touch,
    up to their delivery bound before they arrive, and a phone's press says nothing of another's. While phones
    are armed, `wait()` (the longest delivery bound among them, capped) holds everything — box presses, host
    commands, deadlines — until no earlier press can still arrive: one arbitration, on stamps, for all sources.
    """

    def __init__(self, grace: float, wait: Callable[[], float] | None = None):
        self.grace = grace
        self.wait = wait or (lambda: 0.0)
        self._held: list[Item] = []
        self._used = 0.0        # the wait the last turn's items were held by: its deadlines wait as long

    def delay(self) -> float:
        """Seconds an item may wait now (and the deadlines lag): the grace, or the phones' wait when longer."""
        return max(self.grace, self.wait(), self._used)

    def __len__(self) -> int:
        return len(self._held)

    def next_due(self) -> float | None:
        """The stamp of the earliest held item (it is due at that plus the grace), or None."""
        return self._held[0].cmd.at if self._held else None

    def due(self, items: list[Item], now: float, wait: float | None = None) -> list[Item]:
        """The items to submit now, in order; the rest stay held for a later turn (`wait`: the phones', read before
        `items` were drained; None: read now)."""
        pool = sorted(self._held + items, key=lambda item: (item.cmd.at, item.seq))
        horizon = now - self.grace
        for item in pool:
            if item.source in BOX_SOURCES:
                horizon = max(horizon, item.cmd.at)
        wait = self._used = self.wait() if wait is None else wait
        if wait > 0:            # the box's order proves nothing of a phone's press still on its way
            horizon = min(horizon, now - wait)
        cut = len(pool)
        for i, item in enumerate(pool):
            if item.cmd.at > horizon:
                cut = i
                break
        self._held = pool[cut:]
        return pool[:cut]
