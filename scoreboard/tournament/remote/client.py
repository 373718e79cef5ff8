"""The board's side of `tournament serve` (issue 12 item 7, issue 24 item 7): fetch a scheduled game's setup from
the organiser's machine, and send the result at game over from an outbox that survives a dropped link or a restart.
Every request is signed with the board's own key (`[tournament] key`, from `scoreboard tournament board add NAME`).

The outbox is `<journal>.result.json`, written (atomically, fsynced) when the game is set up: server, tournament id,
game, board — so a board restarted mid-game still knows where its result goes. At game over the final snapshot is
read from the journal into it (`pending`), and the sender's thread adds the game's protocol and the journal's digest
(sent_protocol.py); `ResultSender` posts it until the server's *signed* answer says
recorded / already recorded (`sent`) or refuses it (`refused`, with the reason: retrying would not change it). A
link that is down, an answer that is not signed with the board's key, a server error: tried again with backoff (0.5 s
doubling to 30 s), for as long as the board runs, and again when it starts. Each attempt has a new nonce; the
server's idempotence makes a result that arrived but whose answer was lost harmless to send again.
"""
from __future__ import annotations

import json
import os
import threading
import urllib.error
import urllib.request
from pathlib import Path

from scoreboard.session import replay_snapshot
from scoreboard.tournament.errors import TournamentError
from scoreboard.tournament.remote import keys, sent_protocol
from scoreboard.tournament.views import commands_from_setup

DEFINITIVE = ("refused", "bad request")     # signed refusals: sending again would get the same answer
VERSION = 2                                 # the request's version (server.py): a key per board


def post(server: str, key: str, kind: str, payload: dict, timeout: float = 10.0) -> dict:
    """One request signed with this board's key. Returns the answer when its MAC checks with the same key; raises
    OSError (link) or TournamentError (a malformed key; an answer that is not signed with it, or none)."""
    key_id, secret = keys.split_key(key)
    nonce = keys.new_nonce()
    body = json.dumps({"v": VERSION, "kind": kind, "nonce": nonce, **payload}, ensure_ascii=False).encode("utf-8")
    request = urllib.request.Request(f"http://{server}/v1/{kind}", data=body, method="POST",
                                     headers={"Content-Type": "application/json", keys.KEY_HEADER: key_id,
                                              keys.HEADER: keys.request_mac(secret, body)})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            data, mac = response.read(), response.headers.get(keys.HEADER)
    except urllib.error.HTTPError as error:      # a refusal still carries the signed answer
        data, mac = error.read(), error.headers.get(keys.HEADER)
    if not keys.same(mac, keys.answer_mac(secret, nonce, data)):
        raise TournamentError(f"{server}: the answer is not signed with this board's key ({_unsigned(data)}): the "
                              f"key is not the one `scoreboard tournament board add` printed for this board, the "
                              f"board was removed or given a new key, or this is not the tournament's server")
    answer = json.loads(data.decode("utf-8"))
    if answer.get("nonce") != nonce:
        raise TournamentError(f"{server}: the answer is for another request")
    return answer


def _unsigned(data: bytes) -> str:
    """What an unsigned answer says, as a hint only: nothing is believed from it."""
    try:
        reason = json.loads(data.decode("utf-8")).get("reason")
    except (UnicodeDecodeError, ValueError, AttributeError, RecursionError):
        reason = None
    return f"the server says, unsigned: {str(reason)[:200]}" if reason else "no reason given"


def fetch_setup(server: str, key: str, board: str | None, game: str) -> dict:
    """The game's setup from the organiser (also claims the game for this board). `board`: the configured name,
    checked against the key's by the server (None: the key's). Raises TournamentError."""
    try:
        answer = post(server, key, "setup", {"tournament": None, "game": game, "board": board})
    except OSError as error:
        raise TournamentError(f"tournament server {server}: {getattr(error, 'reason', error)}") from None
    if not answer.get("ok"):
        raise TournamentError(f"tournament server {server}: {answer.get('outcome')}: {answer.get('reason')}")
    return {"tournament": answer["tournament"], "board": answer["board"], "setup": answer["setup"]}


# -- the outbox
def outbox_path(journal_path) -> Path:
    return Path(f"{journal_path}.result.json")


def journal_of(outbox: Path) -> Path:
    """The journal whose outbox this is (outbox_path's inverse)."""
    return Path(str(outbox).removesuffix(".result.json"))


def write_outbox(path: Path, data: dict) -> None:
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(data, f, ensure_ascii=False)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def read_outbox(path: Path) -> dict | None:
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def open_outbox(journal_path, server: str, tournament: str, game: str, board: str) -> Path:
    path = outbox_path(journal_path)
    write_outbox(path, {"server": server, "tournament": tournament, "game": game, "board": board,
                        "state": "playing", "attempts": 0, "error": None, "answer": None})
    return path


def queue_result(journal_path) -> Path:
    """Game over: the final snapshot from the journal (read-only) goes into the outbox, `pending` (the game's
    protocol is added by the sender's thread: building it is no work for the board's loop)."""
    path = outbox_path(journal_path)
    box = read_outbox(path)
    if box is None:
        raise TournamentError(f"{path}: no outbox for this journal (the game was not set up from a server)")
    if box["state"] in ("pending", "sent"):
        return path
    box.update(state="pending", snapshot=replay_snapshot(journal_path), error=None)
    write_outbox(path, box)
    return path


class ResultSender:
    """Sends one outbox until it is sent or refused; `status()` for the host's screen."""

    def __init__(self, path: Path, key: str, out=print, first: float = 0.5, cap: float = 30.0):
        self.path, self.key, self.out = Path(path), key, out
        self.first, self.cap = first, cap
        self.stopping = threading.Event()
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._run, name="tournament-result", daemon=True)
        self._shown = _summary(read_outbox(self.path) or {})     # what status() says, without reading the file

    def start(self) -> "ResultSender":
        self.thread.start()
        return self

    def stop(self) -> None:
        self.stopping.set()
        self.thread.join(timeout=15)

    def _save(self, box: dict) -> None:
        write_outbox(self.path, box)
        self._shown = _summary(box)

    def status(self) -> dict:
        box = self._shown
        state = {"sent": "ok", "refused": "down"}.get(box.get("state"), "retrying")
        detail = {"sent": f"{box.get('game')} записан на {box.get('server')}",
                  "refused": f"{box.get('game')} отклонён: {box.get('error')}"}.get(
            box.get("state"), f"{box.get('game')} не отправлен на {box.get('server')} "
                              f"(попыток {box.get('attempts') or 0}: {box.get('error') or '…'})")
        return {"name": "tournament", "state": state, "detail": detail}

    def _run(self) -> None:
        wait = self.first
        while not self.stopping.is_set():
            box = read_outbox(self.path)
            if not box or box.get("state") != "pending":
                break
            if "protocol" not in box and not box.get("no_protocol"):     # once, here on the sender's thread
                box.update(sent_protocol.for_outbox(journal_of(self.path), self.out) or {"no_protocol": True})
                self._save(box)
            try:
                answer = post(box["server"], self.key, "result",
                              {"tournament": box["tournament"], "game": box["game"], "board": box["board"],
                               "snapshot": box["snapshot"],
                               **{k: box[k] for k in ("protocol", "journal_digest") if k in box}})
            except (OSError, TournamentError, ValueError) as error:
                box.update(attempts=box["attempts"] + 1, error=str(getattr(error, "reason", error)))
                self._save(box)
                self.stopping.wait(wait)          # backoff: the link is down or the answer is not trusted
                wait = min(self.cap, wait * 2)
                continue
            box.update(attempts=box["attempts"] + 1, answer=answer, error=answer.get("reason") or None,
                       state="sent" if answer.get("ok") else "refused" if answer.get("outcome") in DEFINITIVE
                       else "pending")
            self._save(box)
            if box["state"] == "pending":         # e.g. an unexpected outcome: keep trying
                self.stopping.wait(wait)
                wait = min(self.cap, wait * 2)
                continue
            self.out(f"tournament: game {box['game']} {answer['outcome']} by {box['server']}"
                     + (f": {answer['reason']}" if answer.get("reason") else ""))
            break
        self.done.set()


def _summary(box: dict) -> dict:
    return {k: box.get(k) for k in ("state", "game", "server", "attempts", "error")}


# -- what the board calls (display/board.py), with its `[tournament]` config section
def remote_setup(tournament: dict, game: str, out=print):
    """(the opening commands, `opened(journal_path)` that writes the outbox) for a game set up from the server."""
    got = fetch_setup(tournament["server"], tournament["key"], tournament.get("board") or None, game)
    commands, board = commands_from_setup(got["setup"]), got["board"]
    out(f"tournament: game {game} set up from {tournament['server']} (tournament {got['tournament']}, "
        f"board {board!r})")
    return commands, lambda journal_path: open_outbox(journal_path, tournament["server"], got["tournament"], game,
                                                      board)


def resume_sender(journal_path, tournament: dict, out=print) -> ResultSender | None:
    """At start: a result still pending in this journal's outbox (a restart, a link that was down) is sent again."""
    if not journal_path or not (tournament or {}).get("server"):
        return None
    path = outbox_path(journal_path)
    box = read_outbox(path)
    if not box or box.get("state") != "pending":
        return None
    out(f"tournament: game {box['game']}: its result is not acknowledged yet; sending to {box['server']} again")
    return ResultSender(path, tournament["key"], out).start()


def send_result(journal_path, tournament: dict, out=print) -> ResultSender:
    """Game over of a game set up from the server: into the outbox, then sent (and retried) on a thread."""
    path = queue_result(journal_path)
    return ResultSender(path, tournament["key"], out).start()
