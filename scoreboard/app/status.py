"""The board's own `status` in the snapshot it publishes (docs/ENGINE_API.md): the button box, the journal, the links'
threads (the watchdog restarts a dead one) and a taken OSC port retried, and the internal errors the board survived.
Read twice a second by the board loop; the host's screen draws what is wrong (roles/host.py), and what the host types
on the remote to connect (`connect_hint`)."""
from __future__ import annotations

import socket

from scoreboard.app import setup_desk
from scoreboard.links.osc import auth as osc_auth
from scoreboard.links.phones.seats import seat_link

SEAT_LINKS = 9          # seats whose phone links the host's screen may show (the players' count picks)
OSC_RETRY = 2.0         # seconds between attempts to bind an OSC port that was taken


def board_status(board) -> dict:
    entries = []
    box = {"state": "none", "since": None, "detail": "links unavailable"}
    links = board.links
    if links is not None:   # (test doubles of the links may lack the watchdog's calls)
        entries = links.watch() if hasattr(links, "watch") else []
        if links.osc_error and links.osc is None:
            entries.append(retry_osc(board))
        box = links.box_status() if hasattr(links, "box_status") else box
        board.status = links.status()
    session = board.session
    journal = (session.journal_status() if hasattr(session, "journal_status") else
               {"ok": True, "error": None, "since": None})
    sender = getattr(board, "result_sender", None)
    if sender is not None:  # a tournament result on its way to the organiser's `tournament serve`
        entries = [*entries, sender.status()]
    return {"box": box, "journal": journal, "links": entries, "alerts": list(board.alerts)}


def retry_osc(board) -> dict:
    """The OSC port was taken at start: try to bind it again every OSC_RETRY seconds."""
    links = board.links
    if board.clock() - board.osc_tried_at >= OSC_RETRY:
        board.osc_tried_at = board.clock()
        try:
            links.start_osc()
        except OSError as error:
            links.osc_error = str(error)
        else:
            setup_desk.attach(links, board.config, board.inbox, links.clock)
            board.out(f"board: OSC listening on udp {links.osc.address[0]}:{links.osc.address[1]}")
            links.osc_error = None
            return {"name": "osc", "state": "ok", "detail": "osc-server (port bound after a retry)"}
    return {"name": "osc", "state": "retrying", "detail": links.osc_error or ""}


def connect_hint(config: dict, status: dict) -> dict | None:
    """What the host types on the remote to connect: the board's address and the passcode; and the QR code's link,
    which carries the board's key after `#` (a fragment: the browser never sends it over the network) so the phone
    that scans it connects with no passcode (host screen only, never published)."""
    osc = config.get("osc") or {}
    if not osc.get("enabled", True) or not status.get("osc_address"):
        return None
    host, port = status["osc_address"][:2]
    urls = (status.get("remote_web") or {}).get("urls") or []
    board_key = osc_auth.board_key(osc.get("key", ""))
    key = osc_auth.key_text(board_key)
    # each seat's link for the players' phones (docs/PHONE_BUTTONS.md): the host's screen draws their QR codes
    seats = {seat: seat_link(urls[0], board_key, seat) for seat in range(1, SEAT_LINKS + 1)} if urls else {}
    return {"address": f"{reachable_address(host)}:{port}", "passcode": osc.get("passcode", ""),
            "web": urls[0] if urls else "", "qr": f"{urls[0]}#k={key}" if urls else "", "seats": seats}


def reachable_address(bind: str) -> str:
    """The address a tablet reaches the board at: the bound one, or for 0.0.0.0 this machine's address on the
    network its default route leads to (a UDP connect sends nothing), else its host name."""
    if bind not in ("0.0.0.0", "::", ""):
        return bind
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))   # TEST-NET-1: never contacted, only routed
            return probe.getsockname()[0]
    except OSError:
        return socket.gethostname()
