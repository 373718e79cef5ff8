"""A finished game's result: seats, scores, extra-topic points, the winner; from a board snapshot or typed in.

Extra-topic / extra-question points (`tiebreak_score`) only order tied players; sums never see them (T-S3, TB3).
"""
from __future__ import annotations

from dataclasses import dataclass

from scoreboard.tournament.errors import TournamentError


@dataclass(frozen=True)
class Seat:
    seat: int
    name: str
    score: float
    tiebreak: float = 0
    right: int | None = None     # questions answered right (T-A4); None when unknown


@dataclass(frozen=True)
class GameResult:
    seats: tuple[Seat, ...]
    winner: str | None           # None: the game had no winner (TB5)
    lot: tuple[str, ...] = ()    # the players level after the tie-break among whom a lot chose the winner (TB4)

    def score(self, name: str) -> float:
        return self.seat_of(name).score

    def right(self, name: str) -> int:
        return self.seat_of(name).right or 0

    def seat_of(self, name: str) -> Seat:
        for s in self.seats:
            if s.name == name:
                return s
        raise KeyError(name)

    def order(self) -> list[Seat]:
        """Winner first, then by score, extra-topic points only between equal scores."""
        rest = sorted((s for s in self.seats if s.name != self.winner), key=lambda s: (-s.score, -s.tiebreak, s.seat))
        return [self.seat_of(self.winner)] + rest if self.winner else rest

    def as_json(self) -> dict:
        out = {"winner": self.winner,
               "seats": [{"seat": s.seat, "name": s.name, "score": s.score, "tiebreak": s.tiebreak, "right": s.right}
                         for s in self.seats]}
        if self.lot:             # only when a lot decided: results recorded before stay byte-for-byte the same
            out["lot"] = list(self.lot)
        return out

    @staticmethod
    def from_json(data: dict) -> "GameResult":
        return GameResult(tuple(Seat(d["seat"], d["name"], d["score"], d.get("tiebreak", 0), d.get("right"))
                                for d in data["seats"]), data.get("winner"), tuple(data.get("lot") or ()))


def _norm(name: str) -> str:
    return " ".join(str(name).split()).casefold()


def from_snapshot(snapshot: dict, expected: list[str]) -> GameResult:
    """The result a board's final snapshot shows, checked against the players the tournament seated."""
    if not snapshot.get("game_over"):
        raise TournamentError("the journal's game is not over yet (game_over is false)")
    players = snapshot.get("players")
    if not isinstance(players, list) or not players:
        raise TournamentError("the snapshot has no players list")
    for i, p in enumerate(players):
        ok = (isinstance(p, dict) and _is_int(p.get("seat")) and isinstance(p.get("name"), str)
              and _is_number(p.get("score")) and _is_number(p.get("tiebreak_score", 0) or 0)
              and (p.get("rights") is None or _is_int(p.get("rights"))))
        if not ok:
            raise TournamentError(f"snapshot players[{i}]: needs an integer seat, a name, numeric score and "
                                  f"tiebreak_score; got {p!r:.120}")
    by_norm = {_norm(n): n for n in expected}
    names = [_norm(p.get("name", "")) for p in players]
    if sorted(names) != sorted(by_norm):
        raise TournamentError(f"the journal's players {[p.get('name') for p in players]} are not the game's "
                              f"players {expected}")
    right = _right_answers(snapshot)
    seats = []
    for p in players:
        seat = int(p["seat"])
        seats.append(Seat(seat, by_norm[_norm(p["name"])], p.get("score", 0), p.get("tiebreak_score", 0) or 0,
                          p.get("right", p.get("rights", right.get(seat)))))
    winner = snapshot.get("winner")
    if winner is not None and not (_is_int(winner) or isinstance(winner, str)):
        raise TournamentError(f"snapshot winner must be a seat number; got {winner!r:.40}")
    if _is_int(winner):
        match = [s.name for s in seats if s.seat == winner]
        if not match:
            raise TournamentError(f"the journal's winner is seat {winner}, which has no player")
        winner = match[0]
    elif winner is not None:
        if _norm(winner) not in by_norm:
            raise TournamentError(f"the journal's winner {winner!r} is not a player of this game")
        winner = by_norm[_norm(winner)]
    return GameResult(tuple(sorted(seats, key=lambda s: s.seat)), winner, _winner_lot(snapshot, seats, winner))


WINNER_LOT = "winner (tie after the tie-break)"      # what the engine calls the lot after a level tie-break (TB4)


def _winner_lot(snapshot: dict, seats: list[Seat], winner) -> tuple[str, ...]:
    """The players a board's lot chose the winner among (TB1/TB3 then TB4), from the snapshot's `lots`."""
    name_of = {s.seat: s.name for s in seats}
    for lot in reversed(snapshot.get("lots") or []):
        if isinstance(lot, dict) and lot.get("what") == WINNER_LOT and isinstance(lot.get("among"), list):
            among = tuple(name_of[s] for s in lot["among"] if s in name_of)
            if winner in among:
                return among
    return ()


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_number(v) -> bool:
    return (_is_int(v) or isinstance(v, float)) and v == v and v not in (float("inf"), float("-inf"))


def _right_answers(snapshot: dict) -> dict[int, int]:
    """Questions answered right per seat, from `history` (a score going up on a resolution is a right answer).

    Used only when the snapshot has no `players[].rights`; manual score corrections do not enter `history`.
    """
    seats = [int(p["seat"]) for p in snapshot.get("players") or []]
    history = snapshot.get("history") or []
    if not isinstance(history, list) or not all(isinstance(r, list) and all(map(_is_number, r)) for r in history):
        return {s: 0 for s in seats}
    count = {s: 0 for s in seats}
    previous = [0] * len(seats)
    for row in history:
        for i, value in enumerate(row[:len(seats)]):
            if value > previous[i]:
                count[seats[i]] += 1
        previous = list(row[:len(seats)]) + previous[len(row):]
    return count


def check_winner(result: GameResult, rule: str, ties: str | None, source: str = "the snapshot") -> None:
    """A winner sent from outside (a snapshot) must be one the rules allow: the top score (TB5), positive in samara,
    not below 0 in novosibirsk (FN1/FN2), alone at the top where ties share first place (T-S7)."""
    if result.winner is None:
        return
    top = max(s.score for s in result.seats)
    mine = result.score(result.winner)
    if mine != top:
        raise TournamentError(f"{source}: its winner {result.winner} has {mine:g}, not the top score {top:g}")
    if rule == "top_positive" and mine <= 0 or rule == "final_round" and mine < 0:
        raise TournamentError(f"{source}: its winner {result.winner} has {mine:g}; with nobody positive this "
                              f"regulation gives no winner (TB5)")
    if ties is None and sum(1 for s in result.seats if s.score == top) > 1:
        raise TournamentError(f"{source}: its winner {result.winner} is tied on {top:g}; tied players share first "
                              f"place here (T-S7), there is no single winner")


TIE_ROUNDS = {"extra_round": "the extra round (TB1)", "extra_questions": "the extra questions (TB2)",
              "extra_topic": "the extra topic (TB3)"}


def typed(scores: dict[str, float], seat_order: list[str], rule: str, winner: str | None = None,
          tiebreak: dict[str, float] | None = None, right: dict[str, int] | None = None,
          ties: str | None = "extra_topic", lot: bool = False, lot_allowed: bool = True) -> GameResult:
    """A result typed by the organiser, with the regulation's winner rule (TB5) applied as the engine applies it.

    `rule`: "top" (america: whatever its sign), "top_positive" (samara: nobody positive → no winner) or
    "final_round" (novosibirsk: only players positive after the last regular round play the final round, FN1, and
    a stake never exceeds the score, FN2, so a finalist ends on 0 or more — a top below 0 means nobody reached the
    final round, no winner; a top of exactly 0 wins only when `winner` names them: a finalist who lost the whole
    stake, which the scores alone cannot tell from a player who never got there).
    `ties`: how a tie for first is settled — a key of TIE_ROUNDS, or None where tied players share first place and
    the game has no winner (samara Super Nine, T-S7).
    `lot`: the tie-break ended level too and a lot (TB4) chose `winner` among the players still level; the result
    keeps who they were. Refused where the regulation's tie-break has no lot (`lot_allowed`: TB2 goes on until one
    player is ahead).
    """
    tiebreak = tiebreak or {}
    missing = [n for n in seat_order if n not in scores]
    extra = [n for n in scores if n not in seat_order]
    if missing or extra:
        raise TournamentError(f"scores must name exactly the game's players {seat_order}"
                              + (f"; missing {missing}" if missing else "") + (f"; not in this game {extra}" if extra else ""))
    seats = tuple(Seat(i + 1, n, scores[n], tiebreak.get(n, 0), (right or {}).get(n)) for i, n in enumerate(seat_order))
    top = max(s.score for s in seats)
    leaders = [s for s in seats if s.score == top]
    if winner is not None and winner not in seat_order:
        raise TournamentError(f"winner {winner!r} is not a player of this game")
    if rule == "top_positive" and top <= 0 or rule == "final_round" and top < 0:
        if winner is not None:
            raise TournamentError(f"no winner can be given: nobody has a positive score (top {top:g}), and under "
                                  f"this regulation such a game has no winner "
                                  f"({'FN1: nobody reached the final round' if rule == 'final_round' else 'TB5'});"
                                  f" drop --winner")
        return GameResult(seats, None)
    if rule == "final_round" and top == 0 and winner is None:
        return GameResult(seats, None)     # nobody positive after the last round, unless the host says otherwise
    if lot:
        return _typed_lot(seats, leaders, winner, ties, lot_allowed)
    if ties is None:
        if any(tiebreak.values()):
            raise TournamentError("this game has no tie-break (T-S7: tied players share the places); drop --tiebreak")
        if len(leaders) > 1:
            if winner is not None:
                raise TournamentError(f"{', '.join(s.name for s in leaders)} are tied on {top:g}: they share first "
                                      f"place and its points, the game has no single winner (T-S7); drop --winner")
            return GameResult(seats, None)
    if winner is not None:
        if scores[winner] != top:
            raise TournamentError(f"winner {winner!r} does not have the top score {top:g}")
        return GameResult(seats, winner)
    if len(leaders) > 1:
        best = max(s.tiebreak for s in leaders)
        ahead = [s for s in leaders if s.tiebreak == best]
        if len(ahead) > 1:
            raise TournamentError(f"{', '.join(s.name for s in leaders)} are tied on {top:g}: give the points of "
                                  f"{TIE_ROUNDS[ties]} (--tiebreak NAME=POINTS) or --winner NAME")
        return GameResult(seats, ahead[0].name)
    return GameResult(seats, leaders[0].name)


def _typed_lot(seats, leaders, winner, ties, allowed) -> GameResult:
    """--lot: the winner was drawn among the leaders still level after the tie-break (TB1/TB3, then TB4)."""
    if ties is None:
        raise TournamentError("tied players share first place here (T-S7): no lot is drawn (drop --lot)")
    if not allowed:
        raise TournamentError(f"{TIE_ROUNDS.get(ties, 'the tie-break')} is played until one player is ahead: "
                              f"there is no lot (drop --lot)")
    if len(leaders) < 2:
        raise TournamentError("--lot: nobody is tied for first, there was nothing for a lot to decide")
    if winner is None:
        raise TournamentError("--lot: name whom the lot chose with --winner NAME")
    best = max(s.tiebreak for s in leaders)
    level = [s for s in leaders if s.tiebreak == best]
    if winner not in [s.name for s in level]:
        raise TournamentError(f"--lot: {winner} is not among the players level after the tie-break "
                              f"({', '.join(s.name for s in level)})")
    if len(level) < 2:
        raise TournamentError(f"--lot: the tie-break's points put {level[0].name} ahead; no lot was drawn")
    return GameResult(seats, winner, tuple(s.name for s in level))
