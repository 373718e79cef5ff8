"""The game: applies commands to the state, all or nothing, and takes them back.

Theory of operation. `Game.apply(command)` checks the command's time and arguments, asks the phase table
whether the game's phase takes it (phases.py), runs the rule handler for its address on the state, and either
keeps the result (rev + 1) or restores the state exactly and raises `Refused` (a rule says no) — or returns
`changed=False` when the rules ignore it (`Ignored`, BZ8).
Nothing reads a clock: deadlines live in the state and fire only through `/sg/clock` commands stamped with
the deadline's own time, so a list of commands always folds into the same state.

Undo keeps the *effective history* (the commands in force) with a pickled checkpoint every few commands.
`/sg/undo` drops the last host command and everything after it (presses, clock events), rebuilds the state
from the nearest checkpoint, and — if that state has a running clock — freezes it at the moment of the undone
command, so no time runs out while the host looks again. Append-only logs (ledger, score history,
adjustments, lots) are truncated rather than copied, which keeps a checkpoint small.
"""
from __future__ import annotations

import pickle
from dataclasses import dataclass
from typing import Any, Callable

from . import photo, rounds, stakes, tiebreak
from .commands import NOT_HOST, BadCommand, Command, Ignored, InternalError, Refused, parse
from .handlers import HANDLERS
from .media import follow as media_clock
from .phases import Phase, admit
from .regulation import Regulation, RegulationError, parse_regulation
from .snapshot import build_snapshot, host_view
from .state import Player, State
from .table import Table

CHECKPOINT_EVERY = 32
LOGS = ("ledger", "history", "adjustments", "lots")


@dataclass(frozen=True)
class Outcome:
    changed: bool
    note: str | None = None


class Game:
    def __init__(self, regulations: Callable[[str], Regulation] | None = None):
        """`regulations` finds a preset by name; without it a new game needs the regulation's table in its
        command's data (as every journaled /sg/game/new has)."""
        self._regulations = regulations
        self.st: State | None = None
        self.reg: Regulation | None = None
        self.plans: list[dict] = []
        self.rev = 0
        self.time = 0.0
        self._effective: list[Command] = []
        self._checkpoints: list[tuple[int, bytes, tuple[int, ...]]] = []

    # -- public -------------------------------------------------------------------------------------
    def apply(self, cmd: Command, commit: Callable[[Command], Any] | None = None, atomic: bool = True) -> Outcome:
        """Apply `cmd` all or nothing. `commit(cmd)` (the journal's append) runs once the command is
        accepted and before it counts; if it raises, the game is rolled back and the command refused.
        `atomic=False` skips the rollback copy: only for replaying a journal, which is abandoned whole
        on the first refusal."""
        if not isinstance(cmd.at, (int, float)) or cmd.at != cmd.at or cmd.at < 0:
            raise BadCommand(f"time must be a number >= 0, got {cmd.at!r}")
        if cmd.at < self.time:
            raise Refused(f"time goes backwards: {cmd.at:g} is before the last command at {self.time:g}")
        args = parse(cmd.address, cmd.args)
        cmd = Command(float(cmd.at), cmd.address, args, cmd.data)
        if self.st is None and cmd.address != "/sg/game/new":
            raise Refused("no game yet: start one with /sg/game/new")
        due = self.next_deadline()
        if cmd.address != "/sg/clock" and due is not None and cmd.at > due:
            raise Refused(f"a deadline at {due:g} must fire (/sg/clock) before a command at {cmd.at:g}")
        if cmd.address in ("/sg/undo", "/sg/game/new"):
            whole = self._save_whole()
            try:
                self._guarded(lambda: self._undo(cmd) if cmd.address == "/sg/undo" else self._new_game(cmd), cmd)
                if commit is not None:
                    commit(cmd)
            except BaseException:
                self._restore_whole(whole)
                raise
        elif not atomic:
            if not self._guarded(lambda: self._run_unguarded(cmd), cmd):
                return Outcome(False, "ignored")
            self._effective.append(cmd)
            self._maybe_checkpoint()
        else:
            saved = self._save()
            try:
                self._guarded(lambda: self._run(cmd), cmd)
            except Ignored as ignored:
                self._restore(saved)
                self._note_ignored(cmd, str(ignored))
                return Outcome(False, str(ignored))
            except (Refused, InternalError):   # a bug must not leave a half-applied command behind either
                self._restore(saved)
                raise
            self._effective.append(cmd)
            checkpoints = len(self._checkpoints)
            self._maybe_checkpoint()
            if commit is not None:
                try:
                    commit(cmd)
                except BaseException:
                    self._effective.pop()
                    del self._checkpoints[checkpoints:]
                    self._restore(saved)
                    raise
        self.rev += 1
        self.time = cmd.at
        return Outcome(True)

    @staticmethod
    def _guarded(run: Callable[[], Any], cmd: Command) -> Any:
        """Run a handler; anything but a refusal or an ignored press is a bug: `InternalError`, never `Refused`."""
        try:
            return run()
        except (Refused, Ignored):
            raise
        except Exception as error:
            raise InternalError(f"internal error on {cmd.address}: {error!r}") from error

    def _run_unguarded(self, cmd: Command) -> bool:
        try:
            self._run(cmd)
        except Ignored as ignored:
            self._note_ignored(cmd, str(ignored))
            return False
        return True

    def _note_ignored(self, cmd: Command, reason: str) -> None:
        """An ignored press changes nothing but the photo finish; it stays in the effective history so undo's
        rebuild from a checkpoint notes it again (it is ignored again: the rules are deterministic)."""
        if cmd.address != "/sg/button" or self.st is None:
            return
        photo.ignored(self.st, cmd.args, cmd.at, reason)
        self._effective.append(cmd)
        self._maybe_checkpoint()

    def replay_ignored(self, cmd: Command) -> bool:
        """A press the journal logged as ignored (its `ignored` table), noted again while replaying: the game is
        left exactly as it was but for the photo finish. False when it is not ignored now (a damaged row)."""
        if self.st is None or cmd.address != "/sg/button" or cmd.at < self.time:
            return False
        try:
            cmd = Command(float(cmd.at), cmd.address, parse(cmd.address, cmd.args), cmd.data)
        except BadCommand:
            return False
        saved = self._save()
        try:
            self._run(cmd)
        except Ignored as ignored:
            self._restore(saved)
            self._note_ignored(cmd, str(ignored))
            return True
        except Exception:   # a row that does not fit this game: the record goes without it
            self._restore(saved)
            return False
        self._restore(saved)
        return False

    def next_deadline(self) -> float | None:
        st = self.st
        if st is None or st.paused or st.game_over:
            return None
        times = []
        if st.question is not None and st.question.deadline is not None:
            times.append(st.question.deadline)
        if st.final is not None and st.final.deadline is not None:
            times.append(st.final.deadline)
        return min(times) if times else None

    def snapshot(self) -> dict[str, Any]:
        return build_snapshot(self)

    def host_question(self) -> dict[str, Any] | None:
        return host_view(self)

    @property
    def plan(self) -> dict | None:
        return None if self.st is None or self.st.plan is None else self.plans[self.st.plan]

    # -- commands -----------------------------------------------------------------------------------
    def _new_game(self, cmd: Command) -> None:
        if self.st is not None:
            admit(Table(self.st, self.reg, self.plan, cmd.at), cmd.address, cmd.args)
        name, stage = cmd.args[0], cmd.args[1]
        try:
            if isinstance(cmd.data, dict) and isinstance(cmd.data.get("regulation"), dict):
                reg = parse_regulation(cmd.data["regulation"], f"journaled regulation {name}")
            elif self._regulations is not None:
                reg = self._regulations(name)
            else:
                raise Refused(f"regulation {name!r} is not resolved: the session journals its content")
        except RegulationError as error:
            raise Refused(str(error)) from None
        if stage not in reg.stages:
            raise Refused(f"{name} has no stage {stage!r} (stages: {', '.join(reg.stages)})")
        count = cmd.args[2] if len(cmd.args) > 2 else reg.players_default
        if not reg.players_min <= count <= reg.players_max:
            raise Refused(f"{name} plays {reg.players_min}–{reg.players_max} players, got {count} (G1)")
        seed = cmd.args[3] if len(cmd.args) > 3 else 0
        self.reg = reg
        self.st = State(reg.name, stage, [Player(s, f"Игрок {s}") for s in range(1, count + 1)], seed=seed)
        self.plans = []
        self._effective = [cmd]
        self._checkpoints = []
        self._maybe_checkpoint()

    def _run(self, cmd: Command) -> None:
        """Apply one command's rules to the state (no time, rev or history bookkeeping)."""
        t = Table(self.st, self.reg, self.plan, cmd.at)
        a = cmd.args
        address = cmd.address
        admit(t, address, a)    # the one check of the phase (and the state it needs) before any rule runs
        if address == "/sg/pack/load":
            self._load_pack(t, cmd)
            return
        handler = HANDLERS.get(address)
        if handler is None:
            raise BadCommand(f"unknown address {address!r}")
        scores, phase = [p.score for p in self.st.players], self.st.phase
        was = photo.before(self.st)
        handler(t, *a)
        photo.follow(t, address, a, was)
        media_clock(t)
        now = [p.score for p in self.st.players]
        if now != scores:
            stakes.enforce(t)   # FN5: a correction never leaves a stake above its limit
        if now != scores or (self.st.phase is Phase.REVEAL and phase is not Phase.REVEAL):
            self.st.history.append(now)   # the chart: every score after each resolution or correction

    def _load_pack(self, t: Table, cmd: Command) -> None:
        """In setup, or while the first board is full (phases.NEEDS)."""
        st = self.st
        plan = cmd.data
        problem = check_plan(plan) or self._plan_fits(plan)
        if problem:
            raise Refused(f"pack {cmd.args[0]!r}: {problem}")
        self.plans.append(plan)
        self._use_plan(len(self.plans) - 1, cmd.at)
        st.warnings = tiebreak.plan_warnings(Table(st, self.reg, plan, cmd.at))

    def _plan_fits(self, plan: dict) -> str | None:
        """G3: every round of the stage needs its topics from the pack; none is made up from numbers."""
        stage = self.reg.stage(self.st.stage)
        rounds_ = plan["rounds"]
        if len(rounds_) < len(stage.rounds):
            return (f"it gives {len(rounds_)} round(s) of topics; a {self.st.stage} game plays {len(stage.rounds)} "
                    "(choose topics for every round)")
        for i, spec in enumerate(stage.rounds):
            have = len(rounds_[i]["topics"])
            need = spec.min_topics if spec.open_size else spec.topics
            if have < need:
                return (f"round {i + 1} has {have} topic(s); a {self.st.stage} game needs "
                        f"{'at least ' if spec.open_size else ''}{need} (G3)")
        return None

    def _use_plan(self, index: int, at: float) -> None:
        """Point the game at a loaded plan: its final topic, and the first board if play has started."""
        st, plan = self.st, self.plans[index]
        st.plan = index
        if plan.get("final") and plan["final"].get("topic"):
            st.final_topic = plan["final"]["topic"]
        if st.started:
            st.round = rounds.build_round(Table(st, self.reg, plan, at), 0)

    # -- rollback and undo --------------------------------------------------------------------------
    def _save(self) -> tuple[bytes, tuple[int, ...]]:
        st = self.st
        logs = [getattr(st, name) for name in LOGS]
        for name in LOGS:
            setattr(st, name, None)
        try:
            blob = pickle.dumps(st, protocol=pickle.HIGHEST_PROTOCOL)
        finally:
            for name, log in zip(LOGS, logs):
                setattr(st, name, log)
        return blob, tuple(len(log) for log in logs)

    def _restore(self, saved: tuple[bytes, tuple[int, ...]]) -> None:
        """The saved state comes back whole, its phase with it: a restore, not a move (phases.move is for moves)."""
        blob, lengths = saved
        logs = [getattr(self.st, name) for name in LOGS]
        st = pickle.loads(blob)
        for name, log, length in zip(LOGS, logs, lengths):
            del log[length:]
            setattr(st, name, log)
        self.st = st

    def save_point(self) -> tuple:
        """All a run of commands may change, to come back to exactly (`restore_point`): the board's batch that
        could not be journaled is undone whole. The state with its logs is pickled (an undo or a new game inside
        the run may replace or truncate them); histories and checkpoints are lists of immutable entries."""
        return (pickle.dumps(self.st, protocol=pickle.HIGHEST_PROTOCOL), self.reg, list(self.plans),
                list(self._effective), list(self._checkpoints), self.rev, self.time)

    def restore_point(self, point: tuple) -> None:
        blob, self.reg, plans, effective, checkpoints, self.rev, self.time = point
        self.st, self.plans, self._effective, self._checkpoints = pickle.loads(blob), plans, effective, checkpoints

    def _save_whole(self) -> tuple:
        """For the rare commands that replace the state (undo, new game): keep the old one and its logs."""
        logs = None if self.st is None else [list(getattr(self.st, name)) for name in LOGS]
        return (self.st, logs, self.reg, list(self.plans), list(self._effective), list(self._checkpoints),
                self.rev, self.time)

    def _restore_whole(self, whole: tuple) -> None:
        self.st, logs, self.reg, self.plans, self._effective, self._checkpoints, self.rev, self.time = whole
        if self.st is not None:
            for name, log in zip(LOGS, logs):
                setattr(self.st, name, log)

    def _maybe_checkpoint(self) -> None:
        n = len(self._effective)
        if n == 1 or n % CHECKPOINT_EVERY == 0:
            blob, lengths = self._save()
            self._checkpoints.append((n, blob, lengths))

    def _undo(self, cmd: Command) -> None:
        if self.st is None:
            raise Refused("nothing to undo")
        admit(Table(self.st, self.reg, self.plan, cmd.at), cmd.address, cmd.args)   # every phase takes it
        target = None
        for i in range(len(self._effective) - 1, 0, -1):
            if self._effective[i].address not in NOT_HOST:
                target = i
                break
        if target is None:
            raise Refused("nothing to undo")
        undone = self._effective[target]
        was_paused = self.st.paused
        while self._checkpoints and self._checkpoints[-1][0] > target:
            self._checkpoints.pop()
        n, blob, lengths = self._checkpoints[-1]
        self._restore((blob, lengths))
        for replayed in self._effective[n:target]:
            self._run_replayed(replayed)
        self._effective = self._effective[:target]
        st = self.st
        clock = (st.question is not None and st.question.deadline is not None) or (
            st.final is not None and st.final.deadline is not None)
        running = (clock and not st.game_over) or any(
            p.locked_until is not None and p.locked_until > undone.at for p in st.players)
        # Undo never takes back a pause or an unpause: the game stays paused if it was (or a clock would run on
        # while the host looks again), and a pause the host has since lifted is lifted again.
        if (running or was_paused) and not st.paused:
            marker = Command(undone.at, "/sg/pause", (), "undo")
        elif st.paused and not (running or was_paused):
            marker = Command(undone.at, "/sg/unpause", (), "undo")
        else:
            marker = None
        if marker is not None:
            self._run_replayed(marker)
            self._effective.append(marker)
        self._maybe_checkpoint()

    def _run_replayed(self, cmd: Command) -> None:
        if cmd.address == "/sg/pack/load":
            # the plan is already in self.plans: point at it again instead of appending a copy
            self._use_plan(next(i for i, p in enumerate(self.plans) if p is cmd.data), cmd.at)
            return
        try:
            self._run(cmd)
        except Ignored as ignored:   # an ignored press kept for the photo finish: ignored again, noted again
            photo.ignored(self.st, cmd.args, cmd.at, str(ignored))


def check_plan(plan: Any) -> str | None:
    if not isinstance(plan, dict):
        return "not resolved into a plan (the board reads the file and journals its content)"
    rounds_ = plan.get("rounds")
    if not isinstance(rounds_, list):
        return "plan has no list of rounds"
    for i, r in enumerate(rounds_, 1):
        if not isinstance(r, dict) or not isinstance(r.get("topics"), list):
            return f"round {i} has no list of topics"
        for k, tp in enumerate(r["topics"], 1):
            if not isinstance(tp, dict) or not isinstance(tp.get("name"), str):
                return f"round {i} topic {k} has no name"
            if not isinstance(tp.get("questions", []), list):
                return f"round {i} topic {k}: questions must be a list"
    return None
