"""A tournament run over its file: registration, draws, results, advancement, standings, verification.

Each public method is one transaction; rules come from the pure modules, the stage-by-stage progression of each
regulation from its flow module (`formats/<name>/flow.py`).
"""
from __future__ import annotations

import hashlib
import json
import secrets
from pathlib import Path

from scoreboard.journal import JournalError
from scoreboard.session import replay_snapshot
from scoreboard.tournament import bounds, corrections, formats, lots, protocols, results as res, verify as verification
from scoreboard.tournament.errors import TournamentError
from scoreboard.tournament.names import clean_name, closest, player_name
from scoreboard.tournament.remote.keys import tournament_id
from scoreboard.tournament.store import Store

# Audit entries that change what was recorded after the fact (issue 12 item 3); forced results carry `forced`.
CORRECTIONS = ("correction", "reopen", "walkover")


class Tournament:
    def __init__(self, path: str | Path):
        self.store = Store(path)
        self.format = self.store.meta("format")
        if self.format not in formats.names():
            self.store.close()
            raise TournamentError(f"{path}: unknown format {self.format!r}")
        self.seed = int(self.store.meta("seed"))
        self.flow = formats.format_module(self.format)

    @classmethod
    def create(cls, path, fmt: str, seed: int | None = None, topics_per_game: int = 4) -> "Tournament":
        formats.format_module(fmt)             # refuses an unknown format, naming those there are
        if Path(path).exists() and Path(path).stat().st_size:
            raise TournamentError(f"{path} already exists; a tournament file is never overwritten")
        if topics_per_game < 4:
            raise TournamentError("samara plays at least 4 topics a game (samara 3.2.4)")
        store = Store(path, create=True)
        with store.tx():
            store.set_meta("schema", 1)
            store.set_meta("format", fmt)
            store.set_meta("seed", secrets.randbelow(2**31) if seed is None else int(seed))
            store.set_meta("topics_per_game", topics_per_game)
            store.audit("new", {"format": fmt, "seed": store.meta("seed")})
        tournament_id(store)    # the id boards in other rooms name when they send results (serve)
        store.close()
        return cls(path)

    def close(self):
        self.store.close()

    def rng(self, label: str):
        return lots.rng(self.seed, label)

    # -- registration
    def add_player(self, name, team=None, seeded=False, relatives=(), cups=None) -> dict:
        name = player_name(name)
        team = clean_name(team, "team") if team else None
        with self.store.tx() as db:
            if any(p["name"].casefold() == name.casefold() for p in self.store.players()):
                raise TournamentError(f"{name} is already registered")
            status = self.flow.registration_status(self, cups)
            known = {p["name"].casefold(): p["name"] for p in self.store.players()}
            relatives = [clean_name(r, "relative") for r in relatives]
            for r in relatives:
                if r.casefold() not in known:
                    raise TournamentError(f"relative {r!r} is not registered (add them first)")
            relatives = [known[r.casefold()] for r in relatives]
            entered = db.execute("SELECT COALESCE(MAX(entered), 0) + 1 FROM players").fetchone()[0]
            db.execute("INSERT INTO players(name, team, seeded, status, entered, cups) VALUES (?, ?, ?, ?, ?, ?)",
                       (name, team, int(bool(seeded)), status, entered,
                        json.dumps(self.flow.cups_entered(self, cups))))
            for r in relatives:
                db.execute("INSERT OR IGNORE INTO relatives(a, b) VALUES (?, ?)", tuple(sorted((name, r))))
            self.store.audit("player add", {"name": name, "team": team, "seeded": bool(seeded), "status": status,
                                            "relatives": relatives})
        return self.store.player(name)

    def enter_cup(self, name, cup) -> None:
        with self.store.tx() as db:
            player = self.player(name)
            cups = self.flow.cups_entered(self, [cup], already=player["cups"])
            db.execute("UPDATE players SET cups = ? WHERE name = ?", (json.dumps(cups), player["name"]))
            self.store.audit("cup enter", {"name": player["name"], "cup": cup})

    def leave_cup(self, name, cup) -> dict:
        """T-S1 (issue 12 item 4): leave a cup before its draw, or a drawn cup's round by walkover."""
        leave = getattr(self.flow, "leave_cup", None)
        if leave is None:
            raise TournamentError(f"a {self.format} tournament has no cups (use `player withdraw`)")
        with self.store.tx():
            return leave(self, self.player(name), cup)

    def withdraw(self, name) -> str | list | None:
        """Before the first draw: a withdrawal; the first on the waiting list takes the place (T-A1). A season of
        cups (samara) goes on after it: the player leaves every cup not over (leave_cup)."""
        with self.store.tx() as db:
            player = self.player(name)
            season = getattr(self.flow, "leave_season", None)
            if self.store.stages() and season is not None:
                return season(self, player)
            if self.store.stages():
                raise TournamentError("the draw is made: replace an absent player with `player substitute`")
            db.execute("UPDATE players SET status = 'withdrawn' WHERE name = ?", (player["name"],))
            promoted = None
            if player["status"] == "active":
                waiting = self.store.players("waiting")
                if waiting:
                    promoted = waiting[0]["name"]
                    db.execute("UPDATE players SET status = 'active' WHERE name = ?", (promoted,))
            self.store.audit("withdraw", {"name": player["name"], "promoted": promoted})
        return promoted

    def substitute(self, game_id, absent, by=None) -> str:
        """T-N3 (and a waiting-list player in america): replace an absent player before their first game.

        In novosibirsk and america the absent player is `withdrawn` and the substitute `substitute` in the players
        table. In samara a season is three cups entered independently (T-S1), so the replacement holds only for the
        game's cup: the players table is left as it is (a new substitute is registered active with no cup), the
        game's seats and the audit entry (`scope`: the cup) carry it, and both can play any later cup they enter."""
        with self.store.tx() as db:
            game = self.game(game_id)
            stage = self.store.stage(game["stage"])
            scoped = getattr(self.flow, "substitution_scope", None)   # samara: the cup, not the season (T-S1)
            where = scoped(self, stage) if scoped else None
            if (stage["seq"] != 1) if scoped is None else where is None:
                raise TournamentError("only a player of the first stage can be replaced (T-N3)" if scoped is None
                                      else "only a player of a cup's first round can be replaced")
            if game["result"]:
                raise TournamentError(f"game {game_id} already has a result")
            absent_status = self.player(absent)["status"]
            absent = self.player(absent)["name"]
            if absent not in game["players"]:
                raise TournamentError(f"{absent} does not play game {game_id}")
            by = self.flow.substitute_for(self, by)
            by = next((p["name"] for p in self.store.players() if p["name"].casefold() == by.casefold()), by)
            seated = {p for g in self.store.games(stage["id"]) for p in g["players"]}
            if by in seated:
                raise TournamentError(f"{by} already plays in {stage['id']}: a substitute must be a non-qualifier")
            before = self.store.player(by)
            if not before:      # registered by the substitution; in samara active but in no cup until they enter one
                entered = db.execute("SELECT COALESCE(MAX(entered), 0) + 1 FROM players").fetchone()[0]
                db.execute("INSERT INTO players(name, status, entered) VALUES (?, ?, ?)",
                           (by, "substitute" if scoped is None else "active", entered))
            elif scoped is None:
                db.execute("UPDATE players SET status = 'substitute' WHERE name = ?", (by,))
            if scoped is None:  # novosibirsk, america: for the whole tournament (there is nothing after it)
                db.execute("UPDATE players SET status = 'withdrawn' WHERE name = ?", (absent,))
            players = [by if p == absent else p for p in game["players"]]
            db.execute("UPDATE games SET players = ? WHERE id = ?", (json.dumps(players, ensure_ascii=False), game_id))
            self.store.audit("substitute", {"game": game_id, "absent": absent, "by": by,   # statuses: for verify
                                            "by_status": before["status"] if before else None,
                                            "absent_status": absent_status,
                                            **({"scope": where} if where else {})})
        return by

    # -- draws and advancement
    def draw(self, topics_per_game: int | None = None) -> dict:
        if topics_per_game is not None and "topics_per_game" not in self.flow.OPTIONS:
            raise TournamentError(f"--topics-per-game does not apply to {self.format} (its stages fix the topics)")
        if topics_per_game is not None and topics_per_game < 4:
            raise TournamentError("samara plays at least 4 topics a game (samara 3.2.4)")
        kwargs = {"topics_per_game": topics_per_game} if topics_per_game is not None else {}
        with self.store.tx():
            last = self.last_stage()
            if last and last["state"] != "advanced":
                raise TournamentError(f"stage {last['id']} is not finished: record its results and run `advance`")
            summary = self.flow.draw_next(self, **kwargs)
            self.store.audit("draw", summary)
        return summary

    def advance(self) -> dict:
        with self.store.tx():
            stage = self.last_stage()
            if not stage:
                raise TournamentError("nothing drawn yet")
            if stage["state"] == "advanced":
                raise TournamentError(f"stage {stage['id']} is already advanced: `draw` the next one")
            pending = [g["id"] for g in self.store.games(stage["id"]) if not g["result"]]
            if pending:
                raise TournamentError(f"stage {stage['id']} still has games without a result: {', '.join(pending)}")
            advancement = self.flow.advance(self, stage)
            self.store.set_advancement(stage["id"], advancement)
            self.store.audit("advance", {"stage": stage["id"], **advancement})
        return advancement

    def verify(self) -> list[str]:
        """Re-run every stored draw and advancement from the seed; compare inputs, draws, seats played, advancements
        with the file (see verify.py); list every difference."""
        return verification.verify(self)

    # -- results
    def record(self, game_id: str, result: res.GameResult, journal_hash: str | None = None,
               replace: bool = False, force: bool = False, reason: str | None = None) -> dict:
        """Idempotent: the same result for the same game is recorded once, whoever sends it and how often.

        A result the rules cannot give (bounds.py: whole points, the value step, the stage's bounds) is refused
        naming the bound, unless `force` with a `reason` (a host's ruling, G8: logged). `replace` on a stage already
        advanced is a correction after the fact (corrections.py): it needs a reason, recomputes what follows and
        refuses when a later game already played would have had other players."""
        data = result.as_json()
        reason = " ".join(str(reason).split()) if reason else None
        if force and not reason:
            raise TournamentError("--force needs --reason TEXT: a host's ruling is logged with its reason")
        with self.store.tx() as db:
            game = self.game(game_id)
            stage = self.store.stage(game["stage"])
            if sorted(s["name"] for s in data["seats"]) != sorted(game["players"]):
                raise TournamentError(f"game {game_id} is played by {game['players']}, the result names "
                                      f"{[s['name'] for s in data['seats']]}")
            if game["result"] == data:
                return {"game": game_id, "recorded": False, "reason": "already recorded", "winner": result.winner}
            if game["result"] and not replace:
                raise TournamentError(f"game {game_id} already has a different result "
                                      f"({'journal ' + game['journal_hash'][:12] if game['journal_hash'] else 'typed'});"
                                      f" use --replace to correct it")
            beyond = bounds.problems(result, bounds.for_game(self, game), game_id, self.format)
            if beyond and not force:
                raise TournamentError(f"{game_id}: {bounds.refusal(beyond)}")
            ruling = {"forced": beyond} if beyond else {}
            if stage["state"] == "advanced":
                if not reason:
                    raise TournamentError(f"stage {stage['id']} is already advanced: a correction after the fact "
                                          f"needs --reason TEXT (it recomputes everything that follows, and is logged)")
                was: dict = {}
                changes = corrections.after_advance(self, game, data, journal_hash, was)
                self.store.audit("correction", {"game": game_id, "reason": reason, "journal": journal_hash,
                                                "before": game["result"], "after": data, "changes": changes,
                                                "was": was, **ruling})
                return {"game": game_id, "recorded": True, "winner": result.winner, "changes": changes}
            db.execute("UPDATE games SET result = ?, journal_hash = ?, recorded_at = datetime('now') WHERE id = ?",
                       (json.dumps(data, ensure_ascii=False), journal_hash, game_id))
            self.store.audit("result", {"game": game_id, "journal": journal_hash, "replaced": bool(game["result"]),
                                        **({"reason": reason} if reason else {}), **ruling, **data})
        return {"game": game_id, "recorded": True, "winner": result.winner}

    def record_typed(self, game_id, scores: dict, winner=None, tiebreak=None, right=None, replace=False,
                     lot=False, force=False, reason=None) -> dict:
        game = self.game(game_id)
        names = {n.casefold(): n for n in game["players"]}

        def resolve(key):
            key = str(key).strip()
            if key.isdigit() and 1 <= int(key) <= len(game["players"]):
                return game["players"][int(key) - 1]
            if key.casefold() not in names:
                raise TournamentError(f"{key!r} is neither a seat (1–{len(game['players'])}) nor a player of "
                                      f"{game_id}" + closest(key, game["players"]))
            return names[key.casefold()]

        fix = lambda d: {resolve(k): v for k, v in (d or {}).items()}
        rule, ties = self.winner_rules(game)
        result = res.typed(fix(scores), game["players"], rule, resolve(winner) if winner else None, fix(tiebreak),
                           fix(right), ties, lot, bounds.regulation(self).tiebreak_lot)
        return self.record(game_id, result, None, replace, force, reason)

    def reopen(self, stage_id: str, reason: str) -> dict:
        """`tournament reopen STAGE --reason R`: the explicit path when a correction would change games already
        played after STAGE — the stages after it are discarded (their draws and results kept in the audit log)
        and STAGE takes results again until the next `advance`."""
        with self.store.tx():
            return corrections.reopen(self, stage_id, reason)

    def winner_rules(self, game: dict) -> tuple[str, str | None]:
        """(who wins: TB5, how a tie for first is settled: TB1–TB3, or None where tied players share first)."""
        shared = self.store.stage(game["stage"])["engine_stage"] in self.flow.SHARED_FIRST_STAGES
        return self.flow.WINNER, None if shared else self.flow.TIEBREAK

    def results(self, stage_id: str) -> list[tuple[dict, res.GameResult]]:
        return [(g, res.GameResult.from_json(g["result"])) for g in self.store.games(stage_id) if g["result"]]

    # -- reading
    def last_stage(self) -> dict | None:
        stages = self.store.stages()
        return stages[-1] if stages else None

    def standings(self) -> dict:
        return self.flow.standings(self)

    def export(self) -> dict:
        log = self.store.audit_log()
        return {"format": self.format, "seed": self.seed, "players": self.store.players(),
                "relatives": self.store.relatives(), "stages": self.store.stages(), "games": self.store.games(),
                "standings": self.standings(), "audit": log,
                "corrections": [a for a in log if a["what"] in CORRECTIONS or a["detail"].get("forced")]}

    def player(self, name) -> dict:
        """The registered player `name` (case and spaces ignored), or a refusal naming the closest ones."""
        players = self.store.players()
        for p in players:
            if p["name"].casefold() == clean_name(name).casefold():
                return p
        raise TournamentError(f"no player {name!r}" + closest(name, [p["name"] for p in players]))

    def game(self, game_id) -> dict:
        """The drawn game `game_id`, or a refusal naming the closest ids."""
        game = self.store.game(game_id)
        if not game:
            ids = [g["id"] for g in self.store.games()]
            raise TournamentError(f"no game {game_id!r}" + (closest(game_id, ids) or " (see `scoreboard tournament "
                                                                              "games`)"))
        return game


def snapshot_hash(snapshot: dict) -> str:
    return hashlib.sha256(json.dumps(snapshot, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


def record_from_journal(tournament_path, game_id: str, journal_path, replace: bool = False, force: bool = False,
                        reason: str | None = None) -> dict:
    """Read a board journal's final snapshot and record it as `game_id`'s result (T-A6: safe from two boards); the
    game's protocol is kept with it (protocols.py). A protocol that cannot be built never loses the result: then
    the answer's `protocol` says why."""
    snapshot = journal_snapshot(journal_path)
    out = record_snapshot(tournament_path, game_id, snapshot, replace, str(journal_path), force, reason)
    t = Tournament(tournament_path)
    try:
        if out["recorded"] or protocols.get(t.store, game_id) is None:
            protocols.attach(t.store, t.flow, game_id, journal_path)
    except TournamentError as error:
        out["protocol"] = f"not kept: {error}"
    finally:
        t.close()
    return out


def journal_snapshot(journal_path) -> dict:
    """The final snapshot of a board's journal, replayed read-only; a journal that cannot be read is refused."""
    try:
        return replay_snapshot(journal_path)
    except JournalError as error:
        raise TournamentError(f"{journal_path}: {error}") from None


def record_snapshot(tournament_path, game_id: str, snapshot: dict, replace: bool = False,
                    source: str = "the snapshot", force: bool = False, reason: str | None = None) -> dict:
    """Record a board's final snapshot (PROTOCOL.md §3) as `game_id`'s result; keyed by game id + snapshot hash."""
    if not isinstance(snapshot, dict):
        raise TournamentError(f"{source}: a snapshot is a JSON object")
    t = Tournament(tournament_path)
    try:
        if snapshot.get("regulation") not in (None, t.format):
            raise TournamentError(f"{source} is a {snapshot.get('regulation')} game; the tournament is {t.format}")
        game = t.game(game_id)
        stage = t.store.stage(game["stage"])
        if snapshot.get("stage") not in (None, stage["engine_stage"]):
            raise TournamentError(f"{source} is a {snapshot.get('stage')} game; {game_id} is "
                                  f"{stage['engine_stage']}")
        result = res.from_snapshot(snapshot, game["players"])
        res.check_winner(result, *t.winner_rules(game), source=source)
        return t.record(game_id, result, snapshot_hash(snapshot), replace, force, reason)
    finally:
        t.close()
