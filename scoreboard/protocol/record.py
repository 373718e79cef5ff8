"""The protocol's lines, as the rules made them: what each journaled command did to the game, read off the state
around it (build.py replays; this module watches). See build.py for the theory of operation.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from scoreboard.engine import Command, Game
from scoreboard.engine.commands import NOT_HOST, Refused
from scoreboard.engine.phases import BOARD, FINAL, LIVE, Phase
from scoreboard.engine.plan import planned_question

FORMAT = "svoya-protocol"     # the JSON's `format` and `version` (docs/PROTOCOL_OF_A_GAME.md)
VERSION = 1

class ProtocolError(Exception):
    """A journal the protocol cannot be read from: the message names the file and why."""


def apply_event(game: Game, seq: int, cmd: Command, path: Path) -> None:
    try:
        outcome = game.apply(cmd, atomic=False)
    except Refused as error:
        raise ProtocolError(f"{path}: event {seq} ({cmd.address}) does not replay: {error}") from None
    if not outcome.changed:
        raise ProtocolError(f"{path}: event {seq} ({cmd.address}) changes nothing on replay: {outcome.note}")


def _scores(game: Game) -> list[int]:
    return [p.score for p in game.st.players] if game.st else []


def _tiebreak_scores(game: Game) -> list[int]:
    return [p.tiebreak_score for p in game.st.players] if game.st else []


def _key(game: Game) -> tuple | None:
    """Which question block the game is in: a question (round, topic, cell, replaced) or the final."""
    st = game.st
    if st is None:
        return None
    if st.final is not None and st.phase in FINAL:
        return ("final",)
    if st.phase is Phase.ROUND_INTRO and st.round is not None:
        return ("round", st.round.index)
    q = st.question if st.phase not in BOARD | {Phase.GAME_OVER} else None
    q = q or (st.last.question if st.last is not None and st.phase is Phase.REVEAL else None)
    if q is None:
        return None
    return (q.round, q.topic, q.index, q.replaced)


class Recorder:
    def __init__(self, path: Path):
        self.path = path
        self.blocks: list[dict] = []
        self.current: int | None = None       # the block new lines go to
        self.setup: list[dict] = []           # lines before the first question (names, pack, start)
        self.key: tuple | None = None
        self.live_since: float | None = None  # when the buttons last went live on the open question
        self.window_at: float | None = None
        self.early: list[dict] = []           # false starts waiting for the window they were too early for
        self.effective: list[tuple[int, str]] = []   # (seq, address) in force: undo's rule, mirrored
        self.lines_by_seq: dict[int, list[dict]] = {}
        self.at_by_seq: dict[int, float] = {}
        self.header: dict[str, Any] = {"pack": None}
        self.ignored_seen: list[tuple] = []
        self.ignored_next = 0

    # -- one journaled command ---------------------------------------------------------------------
    def command(self, game: Game, seq: int, cmd: Command) -> None:
        st = game.st
        before = {"phase": st.phase if st else None, "scores": _scores(game), "tiebreak": _tiebreak_scores(game),
                  "answering": st.answering if st else None,
                  "deadline_kind": st.question.deadline_kind if st and st.question else None,
                  "final_deadline": bool(st and st.final and st.final.deadline is not None),
                  "lots": len(st.lots) if st else 0,
                  "passed": list(st.auction.passed) if st and st.auction else []}
        undone = self._undo_target(cmd) if cmd.address == "/sg/undo" else None
        self.at_by_seq[seq] = cmd.at
        apply_event(game, seq, cmd, self.path)
        st = game.st
        if cmd.address == "/sg/game/new":
            self.effective = [(seq, cmd.address)]
            self.header.update(regulation=st.regulation, title=game.reg.title, stage=st.stage, seed=st.seed)
        elif cmd.address != "/sg/undo":
            self.effective.append((seq, cmd.address))
        key = _key(game)
        if key is not None and key != self.key and cmd.address != "/sg/undo":
            self._open_block(game, seq, key, cmd.at)
        if st.phase in LIVE and before["phase"] not in LIVE:
            self.live_since = cmd.at
        if st.phase is Phase.BUZZ_WINDOW and before["phase"] is not Phase.BUZZ_WINDOW:
            self.window_at = cmd.at
            for line in self.early:
                line["ms"] = round((line["at"] - cmd.at) * 1000)
            self.early = []
        line = self._describe(game, seq, cmd, before, undone)
        if line is not None:
            self._add(line)
        self._auction_moves(game, seq, cmd, before)
        if cmd.address == "/sg/undo":
            self._back_to(key)
        if len(st.lots) > before["lots"]:
            for lot in st.lots[before["lots"]:]:
                self._add({"seq": seq, "at": cmd.at, "what": "lot", "lot": dict(lot, among=list(lot["among"])),
                           "seat": lot["result"]})
        if st.game_over and before["phase"] is not Phase.GAME_OVER:
            self._add({"seq": seq, "at": cmd.at, "what": "game_over", "seat": st.winner,
                       "reason": st.no_winner_reason})

    def _undo_target(self, cmd: Command) -> tuple[int, str, list[int]] | None:
        for i in range(len(self.effective) - 1, 0, -1):
            if self.effective[i][1] not in NOT_HOST:
                seq, address = self.effective[i]
                dropped = [s for s, _ in self.effective[i:]]
                self.effective = self.effective[:i]
                return seq, address, dropped
        return None

    def _back_to(self, key: tuple | None) -> None:
        """After an undo: a block whose opening was taken back is left (its lines stay, marked); the lines go on in
        the block of the question the game is back in."""
        self.key = key
        if self.current is None or not self.blocks[self.current].get("undone_by"):
            return
        found = [i for i, b in enumerate(self.blocks) if b["key"] == key and not b.get("undone_by")]
        self.current = found[-1] if found else None
        if self.current is not None:
            self.blocks[self.current]["scores"] = self.blocks[self.current]["tiebreak_scores"] = None  # its scores are taken again when it closes

    def _open_block(self, game: Game, seq: int, key: tuple, at: float) -> None:
        st = game.st
        self.key = key
        self.live_since = self.window_at = None
        self.early = []
        if key[0] == "round":
            block = {"n": None, "round": st.round.index + 1, "round_kind": st.round.kind, "kind": "round_start",
                     "topic": None, "topic_index": None, "index": None, "value": None, "opened_at": at, "lines": [],
                     "scores": None, "eligible": None}
        elif key == ("final",):
            f = st.final
            block = {"n": self._number(), "round": None, "round_kind": "final",
                     "kind": "super" if f.kind == "super_question" else "final", "topic": f.topic, "value": None,
                     "topic_index": None, "index": None, "opened_at": at, "lines": [], "scores": None,
                     "eligible": list(f.eligible)}
        else:
            q = st.question if st.question is not None else st.last.question
            planned = planned_question(st, game.plan, q) or {}
            if q.replaced:
                kind = "reserve"
            elif planned.get("kind") == "secret":
                kind = "cat"
            else:
                kind = {"auction": "auction", "extra": "tiebreak"}.get(q.kind, "normal")
            block = {"n": self._number(), "round": q.round + 1, "round_kind": st.round.kind,
                     "kind": kind, "topic": st.round.topics[q.topic - 1].name, "topic_index": q.topic,
                     "index": q.index, "value": q.value, "opened_at": at, "lines": [], "scores": None,
                     "eligible": None}
        block.update(key=key, opened_seq=seq, tiebreak_scores=None)
        self.close_block(game)
        self.blocks.append(block)
        self.current = len(self.blocks) - 1

    def _number(self) -> int:
        """Questions are numbered in play order; a round's start is not a question."""
        return sum(1 for b in self.blocks if b["n"] is not None) + 1

    def close_block(self, game: Game) -> None:
        if self.current is not None and self.blocks[self.current]["scores"] is None:
            self.blocks[self.current]["scores"] = _scores(game)
            self.blocks[self.current]["tiebreak_scores"] = _tiebreak_scores(game)

    def _add(self, line: dict) -> None:
        target = self.blocks[self.current]["lines"] if self.current is not None else self.setup
        target.append(line)
        if line.get("seq") is not None:
            self.lines_by_seq.setdefault(line["seq"], []).append(line)

    # -- the presses the rules ignored (BZ8) ---------------------------------------------------------
    def ignored_until(self, at: float, rows: list[tuple], game: Game) -> None:
        """Lines for the ignored commands stamped before `at` (they happened between two journaled events)."""
        while self.ignored_next < len(rows) and rows[self.ignored_next][0] < at:
            when, address, args, reason = rows[self.ignored_next]
            self.ignored_next += 1
            self.ignored_seen.append(rows[self.ignored_next - 1])
            line = {"seq": None, "at": when, "what": "ignored", "address": address, "reason": reason,
                    "seat": args[0] if address == "/sg/button" and args and isinstance(args[0], int) else None}
            if address == "/sg/button":
                line.update(self._press_fields(args, when))
            self._add(line)

    def _press_fields(self, args, at: float) -> dict:
        source = args[1] if len(args) > 1 else None
        bound = args[2] if len(args) > 2 else None
        # after the window opened if it had (BZ2), else after the reading began with the buttons live (BZ1)
        since = max((t for t in (self.live_since, self.window_at) if t is not None and t <= at), default=None)
        ms = round((at - since) * 1000) if since is not None else None
        during = None if since is None else ("window" if since == self.window_at else "reading")
        return {"source": source, "bound_ms": bound, "ms": ms, "during": during}

    # -- what a command did ---------------------------------------------------------------------------
    def _describe(self, game: Game, seq: int, cmd: Command, before: dict, undone) -> dict | None:
        st, a = game.st, cmd.args
        line: dict[str, Any] = {"seq": seq, "at": cmd.at, "what": None}
        deltas = [(i + 1, now - old) for i, (old, now) in enumerate(zip(before["scores"], _scores(game)))
                  if now != old]
        if deltas:
            line["deltas"] = [{"seat": s, "delta": d} for s, d in deltas]
        extra = [{"seat": i + 1, "delta": now - old}
                 for i, (old, now) in enumerate(zip(before["tiebreak"], _tiebreak_scores(game))) if now != old]
        if extra:
            line["tiebreak_deltas"] = extra     # TB: points of the tie-break decide the winner only
        address = cmd.address
        if address == "/sg/button":
            line.update(self._press_fields(a, cmd.at), seat=a[0])
            if before["phase"] in LIVE:
                line["what"] = "press"
            elif before["phase"] is Phase.ANSWERING:
                line["what"] = "press_late"
            else:
                line.update(what="false_start", ms=None, during=None)
                until = st.player(a[0]).locked_until
                line["locked_s"] = round(until - cmd.at, 3) if until is not None else None
                self.early.append(line)
        elif address in ("/sg/judge/right", "/sg/judge/wrong"):
            line.update(what="verdict", seat=before["answering"], verdict=address.rsplit("/", 1)[1])
        elif address == "/sg/clock":
            if before["final_deadline"] and before["deadline_kind"] is None:
                line["what"] = "final_time"
            elif before["deadline_kind"] == "window":
                line["what"] = "window_closed"
            else:
                line.update(what="timeout", seat=before["answering"])
        elif address == "/sg/undo":
            line["what"] = "undo"
            if undone is not None:
                target_seq, target_address, dropped = undone
                line.update(undone_seq=target_seq, undone_address=target_address)
                for s in dropped:
                    for old in self.lines_by_seq.get(s, []):
                        old["undone_by"] = seq
                for block in self.blocks:
                    if block["opened_seq"] in dropped:
                        block["undone_by"] = seq
                taken = self.lines_by_seq.get(target_seq) or [{"what": None}]
                line.update(undone_what=taken[0]["what"], undone_at=self.at_by_seq.get(target_seq))
        elif address == "/sg/auction/bid":
            line.update(what="bid", seat=a[0], amount=a[1])
        elif address == "/sg/auction/allin":
            line.update(what="allin", seat=a[0], amount=st.auction.stake if st.auction else
                        (st.question.stake if st.question else None))
        elif address == "/sg/auction/pass":
            line.update(what="pass", seat=a[0])
        elif address == "/sg/final/stake":
            revealed = st.final is not None and a[0] in st.final.revealed
            line.update(what="stake", seat=a[0], amount=a[1])
            line["secret"] = not revealed   # revealed later: `finish` opens it
        elif address == "/sg/final/judge":
            line.update(what="final_judge", seat=a[0], verdict=a[1], secret=True)
        elif address == "/sg/final/reveal":
            f = st.final
            line.update(what="reveal", seat=a[0], amount=f.stakes.get(a[0]), verdict=f.verdicts.get(a[0]),
                        score=st.player(a[0]).score)
        elif address == "/sg/score/adjust":
            line.update(what="adjust", seat=a[0], amount=a[1], reason=a[2] if len(a) > 2 else "")
        elif address == "/sg/rejudge":
            line.update(what="rejudge", seat=a[0], verdict=a[1])
        elif address == "/sg/answerer":
            # BZ11: a close call — the host named the other player before any verdict
            line.update(what="answerer", seat=a[0], instead=before["answering"])
        else:
            simple = {"/sg/reading/done": "reading_done", "/sg/resume": "resume", "/sg/time": "time",
                      "/sg/question/replace": "replace", "/sg/pause": "pause", "/sg/unpause": "unpause",
                      "/sg/answer/clarify": "clarify", "/sg/auction/waive": "waive", "/sg/final/start": "final_start",
                      "/sg/game/start": "start", "/sg/chooser": "chooser", "/sg/assign": "assign",
                      "/sg/player/name": "name", "/sg/pack/load": "pack", "/sg/final/topic": "final_topic",
                      "/sg/answer/extend": "extend", "/sg/buttons/manual": "manual", "/sg/topics": "topics",
                      "/sg/game/new": "new_game"}
            what = simple.get(address)
            if what is None:
                return None if not deltas else dict(line, what="other", address=address)
            line["what"] = what
            if what == "time" and before["phase"] is Phase.FINAL_ANSWER:
                line["what"] = "final_time_host"
            if what in ("chooser", "assign", "name"):
                line["seat"] = a[0]
            if what == "name":
                line["name"] = a[1]
            elif what == "pack":
                plan = cmd.data if isinstance(cmd.data, dict) else {}
                self.header["pack"] = {"path": a[0], "title": plan.get("title") or None}
                line["name"] = a[0]
            elif what in ("final_topic",):
                line["name"] = a[0]
            elif what == "extend":
                line["amount"] = a[0]
            elif what == "manual":
                line["on"] = bool(a[0])
            elif what == "topics":
                line["name"] = ", ".join(a)
        return line

    def _auction_moves(self, game: Game, seq: int, cmd: Command, before: dict) -> None:
        """The passes the rules made for a player who cannot outbid (AU6), and the auction's close (AU5)."""
        st = game.st
        if st.auction is not None and before["phase"] in (Phase.AUCTION, Phase.CHOOSING, Phase.TOPIC_INTRO) \
                and cmd.address != "/sg/undo":
            own = cmd.args[0] if cmd.address == "/sg/auction/pass" else None
            for seat in st.auction.passed:
                if seat not in before["passed"] and seat != own:
                    self._add({"seq": seq, "at": cmd.at, "what": "pass", "seat": seat, "auto": True})
        if st.phase is Phase.AUCTION_ANSWER and before["phase"] is not Phase.AUCTION_ANSWER \
                and cmd.address != "/sg/undo":
            self._add({"seq": seq, "at": cmd.at, "what": "auction_won", "seat": st.answering,
                       "amount": st.question.stake})

    # -- the end ----------------------------------------------------------------------------------------
    def finish(self, game: Game) -> dict[str, Any]:
        st = game.st
        self.close_block(game)
        revealed = set(st.final.revealed) if st.final is not None else set()
        for block in self.blocks:
            block["key"] = list(block["key"])
            if block["scores"] is None:
                block["scores"] = _scores(game)
            if block["round_kind"] == "tiebreak" or block["tiebreak_scores"] is None:
                block["tiebreak_scores"] = block["tiebreak_scores"] or _tiebreak_scores(game)
            for line in block["lines"]:
                if line["what"] in ("stake", "final_judge") and line["seat"] in revealed:
                    line["secret"] = False
                if line.get("secret"):           # a stake never revealed stays unknown in the protocol too
                    line.pop("amount", None)
                    line.pop("verdict", None)
        players = [{"seat": p.seat, "name": p.name, "score": p.score, "tiebreak_score": p.tiebreak_score,
                    "rights": p.rights} for p in st.players]
        adjustments = [dict(x) for x in st.adjustments]
        result = {"game_over": st.game_over, "winner": st.winner, "no_winner": st.no_winner,
                  "no_winner_reason": st.no_winner_reason, "shared_first": list(st.shared),
                  "tiebreaks": st.tiebreaks, "lots": [dict(lot, among=list(lot["among"])) for lot in st.lots],
                  "scores": _scores(game), "adjustments": adjustments}
        header = dict(self.header, players=[{"seat": p["seat"], "name": p["name"]} for p in players],
                      tournament=None, game=None)
        return {"format": FORMAT, "version": VERSION, "header": header, "setup": self.setup,
                "questions": self.blocks, "players": players, "result": result}
