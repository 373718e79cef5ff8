"""What the host may do now: a pure function of the board's snapshot (PROTOCOL.md §1, §3; docs/ENGINE_API.md).

The remote never decides the game; the board does, and refuses what does not fit. This table only chooses which
buttons to show, so that the host sees the few that make sense in the current phase instead of all thirty. It reads
nothing but the snapshot and has no side effects, so it is tested phase by phase.

Within a phase no button moves (issue 9 item 4): each phase has a fixed set of slots, and an action that does not
apply now is kept, disabled, in its slot. The question's phases (reading → buzz window → answering → after a wrong
answer, and the auction's answer) share one set, so «Верно» is where it was while the host read.

An `Action` is a command ready to send, or (when `amount` is set) a command that still needs a number from the
numeric pad, appended as the last argument: auction bids, final stakes and score corrections.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from scoreboard.engine.phases import Phase

from .strings import t

PHASES = tuple(phase.value for phase in Phase)   # the engine's one enumeration (the snapshot's `phase`)

# Groups, in the order the UI lays them out.
FLOW = "flow"      # the big buttons of the current phase
GRID = "grid"      # cells of the round's board
SEAT = "seat"      # per-seat buttons (assign, auction, final, rejudge)
TOOLS = "tools"    # always there: correction, undo, manual mode, pause


@dataclass(frozen=True)
class Action:
    key: str                    # stable identifier, e.g. "judge_right", "select:2:3", "bid:1"
    label: str
    address: str
    args: tuple = ()
    group: str = FLOW
    seat: int | None = None
    amount: str | None = None   # None, or what the pad asks for: "bid" | "stake" | "delta"
    low: int | None = None      # the pad's bounds (a hint; the board checks)
    high: int | None = None
    shortcut: str | None = None  # a key name for the laptop keyboard (pygame.key.name)
    who: str = ""               # the player's name, for the pad's title
    enabled: bool = True        # a slot that does not apply now: drawn disabled, never left out (no reflow)

    def command(self, amount: int | None = None) -> tuple[str, tuple]:
        """The address and arguments to send; an amount action needs its number."""
        if self.amount is None:
            return self.address, self.args
        if amount is None:
            raise ValueError(f"{self.key}: needs a number ({self.amount})")
        return self.address, (*self.args, int(amount))


def _players(snapshot: dict) -> list[dict]:
    return [p for p in snapshot.get("players") or [] if isinstance(p, dict) and isinstance(p.get("seat"), int)]


def _in_play(snapshot: dict) -> list[dict]:
    return [p for p in _players(snapshot) if p.get("in_play", True)]


def _name(player: dict) -> str:
    return str(player.get("name") or t("act.player", seat=player['seat']))


def _answered_seats(snapshot: dict) -> set[int]:
    question = snapshot.get("question") or {}
    seats = {a.get("seat") for a in question.get("answered") or [] if isinstance(a, dict)}
    seats |= {p["seat"] for p in _players(snapshot) if p.get("answered")}
    return seats


def _grid(snapshot: dict) -> list[Action]:
    """Every unplayed cell of the round (choice mode)."""
    actions = []
    rnd = snapshot.get("round") or {}
    topics = rnd.get("topics") or []
    unplayed = sum(not cell.get("played") for topic in topics for cell in topic.get("cells") or [])
    missing = rnd.get("auctions_missing")
    # AU1 Decision: the round's last cells must be opened as its auction (or the host waives it: `_waive`)
    auction = isinstance(missing, int) and 0 < unplayed <= missing
    for t, topic in enumerate(topics, start=1):
        for q, cell in enumerate(topic.get("cells") or [], start=1):
            if not cell.get("played"):
                label = str(cell.get("value", q)) + (" (аукцион)" if auction else "")
                actions.append(Action(f"select:{t}:{q}", label, "/sg/select",
                                      (t, q, "auction") if auction else (t, q), GRID))
    return actions


def _board_empty(snapshot: dict) -> bool:
    topics = (snapshot.get("round") or {}).get("topics") or []
    return all(cell.get("played") for topic in topics for cell in topic.get("cells") or [])


def _assign(snapshot: dict) -> list[Action]:
    """Manual mode (BZ9): the host names who answers; not a player who already answered (BZ4)."""
    done = _answered_seats(snapshot)
    return [Action(f"assign:{p['seat']}", t("act.assign", name=_name(p)), "/sg/assign", (p["seat"],), SEAT, p["seat"],
                   shortcut=str(p["seat"]), enabled=p["seat"] not in done)
            for p in _in_play(snapshot)]


def _auction(snapshot: dict) -> list[Action]:
    """AU2–AU4: bids, all-in and pass for the seat whose turn it is (every seat still in, if the turn is unknown)."""
    auction = snapshot.get("auction") or {}
    stake = int(auction.get("stake") or 0)
    passed = set(auction.get("passed") or [])
    turn = auction.get("turn")
    seats = [p for p in _in_play(snapshot) if p["seat"] not in passed]
    if isinstance(turn, int):
        seats = [p for p in seats if p["seat"] == turn]
    actions = []
    for p in seats:
        seat, score = p["seat"], int(p.get("score") or 0)
        actions.append(Action(f"bid:{seat}", t("act.stake", name=_name(p)), "/sg/auction/bid", (seat,), SEAT, seat,
                              amount="bid", low=stake + 1,
                              high=max(score, stake), shortcut="b", who=_name(p)))
        actions.append(Action(f"allin:{seat}", t("act.allin", name=_name(p)), "/sg/auction/allin", (seat,), SEAT, seat,
                              shortcut="a"))
        actions.append(Action(f"pass:{seat}", t("act.pass", name=_name(p)), "/sg/auction/pass", (seat,), SEAT, seat,
                              shortcut="s"))
    return actions


def _final(snapshot: dict, phase: str) -> list[Action]:
    final = snapshot.get("final") or {}
    eligible = set(final.get("eligible") or [])
    players = [p for p in _players(snapshot) if p["seat"] in eligible]
    if phase == Phase.FINAL_STAKES:
        stakes_in = set(final.get("stakes_in") or [])
        actions = []
        for p in players:
            # FN2 starts at 1, FN3 at 0; a score at or below 0 can only stake 0. A stake that is in keeps its
            # slot, disabled (FN4: the amount is never shown).
            low = 0 if final.get("kind") == "super_question" or int(p.get("score") or 0) <= 0 else 1
            done = p["seat"] in stakes_in
            actions.append(Action(f"stake:{p['seat']}", t("act.stake", name=_name(p)) + (" ✓" if done else ""),
                                  "/sg/final/stake", (p["seat"],), SEAT, p["seat"], amount="stake", low=low,
                                  high=max(int(p.get("score") or 0), low), who=_name(p), enabled=not done))
        actions.append(Action("final_start", t("act.final_start"), "/sg/final/start", shortcut="space",
                              enabled=bool(eligible) and eligible <= stakes_in))
        return actions
    if phase == Phase.FINAL_ANSWER:
        # FN2: the answers are being written; verdicts come after writing ends (by the clock or by the host).
        return [Action("final_end_writing", t("act.final_end"), "/sg/next", shortcut="n")]
    judged = set(final.get("judged") or [])
    revealed = {r.get("seat") for r in final.get("revealed") or [] if isinstance(r, dict)}
    actions = []
    for p in players:
        seat = p["seat"]
        actions.append(Action(f"final_right:{seat}", t("act.final_right", name=_name(p)), "/sg/final/judge", (seat, "right"),
                              SEAT, seat, enabled=seat not in judged))
        actions.append(Action(f"final_wrong:{seat}", t("act.final_wrong", name=_name(p)), "/sg/final/judge", (seat, "wrong"),
                              SEAT, seat, enabled=seat not in judged))
        actions.append(Action(f"final_reveal:{seat}", t("act.final_reveal", name=_name(p)), "/sg/final/reveal", (seat,), SEAT,
                              seat, enabled=seat in judged and seat not in revealed))
    return actions


def _rejudge(snapshot: dict) -> list[Action]:
    """G8: change a verdict on the last resolved question, before the next one opens."""
    last = snapshot.get("last") or {}
    if not last.get("rejudgeable"):
        return []
    names = {p["seat"]: _name(p) for p in _players(snapshot)}
    actions = []
    for answer in last.get("answers") or []:
        seat, verdict = answer.get("seat"), answer.get("verdict")
        if isinstance(seat, int) and verdict in ("right", "wrong"):
            other = "wrong" if verdict == "right" else "right"
            # the verb first: a long name is cut at the end, never the verb
            label = t("act.rejudge_right", name=names.get(seat, seat)) if other == "right" else t("act.rejudge_wrong", name=names.get(seat, seat))
            actions.append(Action(f"rejudge:{seat}", label, "/sg/rejudge", (seat, other), SEAT, seat))
    return actions


def _waive(snapshot: dict) -> list[Action]:
    """AU1 Decision: the host confirms the round goes without its auction (engines that report the count)."""
    round_ = snapshot.get("round") or {}
    if "auctions_missing" not in round_:
        return []
    return [Action("waive", t("act.waive"), "/sg/auction/waive", group=TOOLS,
                   enabled=bool(round_.get("auctions_missing")) and not round_.get("auction_waived"))]


def _tools(snapshot: dict, phase: str) -> list[Action]:
    actions = [] if phase in (Phase.SETUP, Phase.GAME_OVER) else [
        Action(f"adjust:{p['seat']}", t("act.adjust", name=_name(p)), "/sg/score/adjust", (p["seat"],), TOOLS, p["seat"],
               amount="delta", who=_name(p)) for p in _players(snapshot)]
    actions.append(Action("undo", t("undo.label"), "/sg/undo", group=TOOLS, shortcut="backspace"))
    if phase == Phase.GAME_OVER:    # the game's protocol: the board answers with its link (/sg/protocol/link)
        actions.append(Action("protocol", t("act.protocol"), "/sg/protocol", group=TOOLS))
    if phase not in (Phase.SETUP, Phase.GAME_OVER):
        manual = bool(snapshot.get("buttons_manual"))
        actions.append(Action("manual", t("act.manual_on") if not manual else t("act.manual_off"),
                              "/sg/buttons/manual", (0 if manual else 1,), TOOLS, shortcut="m"))
        if snapshot.get("paused"):
            actions.append(Action("unpause", t("act.unpause"), "/sg/unpause", group=TOOLS, shortcut="p"))
        else:
            actions.append(Action("pause", t("act.pause"), "/sg/pause", group=TOOLS, shortcut="p"))
    return actions


QUESTION_PHASES = (Phase.READING, Phase.BUZZ_WINDOW, Phase.ANSWERING, Phase.AFTER_WRONG, Phase.AUCTION_ANSWER)


def _disabled(action: Action) -> Action:
    return replace(action, enabled=False)


def _question_slots(snapshot: dict, phase: str) -> list[Action]:
    """The same slots from the opening of a question to its verdict, each enabled when it applies."""
    question = snapshot.get("question") or {}
    reading = phase == Phase.READING or (phase == Phase.AUCTION_ANSWER and bool(question.get("reading")))
    judging = phase in (Phase.ANSWERING, Phase.AUCTION_ANSWER)
    slots = [Action("judge_right", t("act.right"), "/sg/judge/right", shortcut="r", enabled=judging),
             Action("judge_wrong", t("act.wrong"), "/sg/judge/wrong", shortcut="w", enabled=judging),
             Action("reading_done", t("act.reading_done"), "/sg/reading/done", shortcut="space", enabled=reading),
             Action("time", t("act.time"), "/sg/time", shortcut="t",
                    enabled=phase in (Phase.READING, Phase.BUZZ_WINDOW, Phase.AFTER_WRONG)),
             Action("resume", t("act.resume"), "/sg/resume", shortcut="space", enabled=phase == Phase.AFTER_WRONG),
             Action("extend", t("act.extend"), "/sg/answer/extend", (3.0,), shortcut="e",     # BZ5
                    enabled=phase == Phase.ANSWERING and question.get("deadline") is not None)]
    if "clarify" in question:   # BZ10 «Уточните» (engines that know it): the answer time starts again
        slots.append(Action("clarify", t("act.clarify"), "/sg/answer/clarify", shortcut="u",
                            enabled=phase == Phase.ANSWERING and question.get("deadline") is not None))
    if "media_state" in question:   # the question's video or sound (engines with the media clock)
        media = question.get("media_state") or {}
        slots += [Action("media_pause", t("act.media_pause"), "/sg/media/pause", group=TOOLS,
                         enabled=media.get("state") == "playing"),
                  Action("media_play", t("act.media_play"), "/sg/media/play", group=TOOLS,
                         enabled=media.get("state") == "paused"),
                  Action("media_replay", t("act.media_replay"), "/sg/media/replay", group=TOOLS, enabled=bool(media))]
    return slots


def allowed_actions(snapshot: dict | None) -> list[Action]:
    """The buttons the host should see for this snapshot (nothing before the first state arrives)."""
    if not isinstance(snapshot, dict):
        return []
    phase = snapshot.get("phase")
    if phase not in PHASES:
        return []
    if snapshot.get("paused"):
        # A frozen game takes only the way out, plus corrections the host may need to make meanwhile.
        return [a for a in _tools(snapshot, phase) if a.key in ("unpause", "undo") or a.key.startswith("adjust:")]
    choice = snapshot.get("order", "choice") != "sequential"
    manual = bool(snapshot.get("buttons_manual"))
    flow: list[Action] = []
    if phase == Phase.SETUP:
        flow.append(Action("start", t("setup.start"), "/sg/game/start", shortcut="return"))
    elif phase in (Phase.ROUND_INTRO, Phase.CHOOSING) and choice:
        # G5: nobody may select before the host names the chooser; the board stays in its place, disabled
        flow += [a if snapshot.get("chooser") is not None else _disabled(a) for a in _grid(snapshot)]
        # The round's topics are announced first; «Показать табло» puts the board before the hall (→ choosing)
        flow.append(Action("show_board", t("act.show_board"), "/sg/next", shortcut="n",
                           enabled=phase == Phase.ROUND_INTRO))
        flow += [Action(f"chooser:{p['seat']}", t("act.chooser", name=_name(p)), "/sg/chooser", (p["seat"],), SEAT, p["seat"],
                        enabled=p["seat"] != snapshot.get("chooser"))
                 for p in _in_play(snapshot)]
        flow += _waive(snapshot)
    elif phase in (Phase.ROUND_INTRO, Phase.TOPIC_INTRO):
        flow.append(Action("next", t("act.next"), "/sg/next", shortcut="n"))
    elif phase in QUESTION_PHASES:
        flow += _question_slots(snapshot, phase)
        flow.append(Action("replace", t("act.replace"), "/sg/question/replace", group=TOOLS,
                           enabled=phase in (Phase.READING, Phase.BUZZ_WINDOW)))
        if manual and phase != Phase.AUCTION_ANSWER:
            flow += [a if phase != Phase.ANSWERING else _disabled(a) for a in _assign(snapshot)]
    elif phase == Phase.REVEAL:
        if choice and not _board_empty(snapshot):
            flow += _grid(snapshot)
        else:
            flow.append(Action("next", t("act.next"), "/sg/next", shortcut="n"))
        flow += _rejudge(snapshot)
        flow += _waive(snapshot)
        flow.append(Action("replace", t("act.replace"), "/sg/question/replace", group=TOOLS))
    elif phase == Phase.AUCTION:
        flow += _auction(snapshot)
    elif phase in (Phase.FINAL_STAKES, Phase.FINAL_ANSWER, Phase.FINAL_REVEAL):
        flow += _final(snapshot, phase)
    elif phase == Phase.GAME_OVER:
        flow += _rejudge(snapshot)
    return flow + _tools(snapshot, phase)


def find(actions: list[Action], key: str) -> Action | None:
    """The action `key` if it is offered now (enabled); a disabled slot is not an offer."""
    return next((a for a in actions if a.key == key and a.enabled), None)


def slot(actions: list[Action], key: str) -> Action | None:
    """The action `key` whether enabled or not (its place on the screen)."""
    return next((a for a in actions if a.key == key), None)
