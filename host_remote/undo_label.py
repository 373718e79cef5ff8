"""What «Отменить» takes back, in words: «Отменить: верно — Вера, +20» (issue 9 item 4).

The board's undo takes back the last host command (and what followed it: presses, the clock). The remote knows
the host commands it sent that the board accepted, in order; the last of them is described from the board's
snapshot (the verdict and its points from the question's answers or the last resolved question, a correction
from the adjustments). An undo that was accepted takes that entry off, so the next label is the one before.
"""
from __future__ import annotations

from .strings import command, t

NOT_UNDONE = ("/sg/undo", "/sg/setup/catalog", "/sg/setup/game", "/sg/button", "/sg/sync")


def _name(snapshot: dict, seat) -> str:
    for player in snapshot.get("players") or []:
        if player.get("seat") == seat:
            return str(player.get("name") or f"Игрок {seat}")
    return f"Игрок {seat}"


def _signed(value) -> str:
    return f"{value:+d}" if isinstance(value, int) else ""


def describe(address: str, args: tuple, snapshot: dict) -> tuple[str, str, str]:
    """(what, whose name, points) for the command, from the snapshot after it."""
    if address in ("/sg/judge/right", "/sg/judge/wrong"):
        verdict = "right" if address.endswith("right") else "wrong"
        question = snapshot.get("question") or {}
        answers = [a for a in (question.get("answered") or []) + ((snapshot.get("last") or {}).get("answers") or [])
                   if isinstance(a, dict) and a.get("verdict") == verdict]
        answer = answers[-1] if answers else {}
        return command(address), _name(snapshot, answer.get("seat")) if answer else "", _signed(answer.get("delta"))
    if address == "/sg/score/adjust" and len(args) >= 2:
        return command(address), _name(snapshot, args[0]), _signed(args[1])
    if address in ("/sg/assign", "/sg/chooser", "/sg/auction/pass", "/sg/auction/allin", "/sg/final/reveal",
                   "/sg/player/name") and args:
        return command(address), _name(snapshot, args[0]), ""
    if address in ("/sg/auction/bid", "/sg/final/judge", "/sg/rejudge") and args:
        return command(address), _name(snapshot, args[0]), str(args[1]) if address != "/sg/final/stake" else ""
    if address == "/sg/select" and len(args) >= 2:
        topics = (snapshot.get("round") or {}).get("topics") or []
        topic = topics[args[0] - 1].get("name", "") if 0 < args[0] <= len(topics) else ""
        value = (snapshot.get("question") or {}).get("value", "")
        return command(address), topic, str(value)
    return command(address), "", ""


class UndoLog:
    def __init__(self) -> None:
        self.done: list[tuple[str, tuple]] = []

    def accepted(self, address: str, args: tuple) -> None:
        if address == "/sg/undo":
            if self.done:
                self.done.pop()
        elif address not in NOT_UNDONE:
            self.done.append((address, tuple(args)))
            del self.done[:-50]

    def parts(self, snapshot: dict | None) -> tuple[str, str] | None:
        """(«Отменить: верно +20», «Вера») for the button's two lines; None when nothing is known."""
        if not self.done or not snapshot:
            return None
        what, name, points = describe(*self.done[-1], snapshot)
        # the points stay on the first line: a long name is cut, the amount never is
        return t("undo.what", what=f"{what} {points}".strip()), name

    def label(self, snapshot: dict | None) -> str:
        parts = self.parts(snapshot)
        if parts is None:
            return t("undo.label")
        return parts[0] + (f" — {parts[1]}" if parts[1] else "")
