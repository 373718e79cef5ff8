"""The remote's benchmark: tap → ack and tap → the new state on screen, on loopback and through the lossy relay.

    python -m scoreboard.bench.remote [--quick] [--json]

The board side is real (links OSC server + Session, scoreboard/bench/remote_harness.py). Each command (pause, unpause in turn)
is sent the way the UI sends a tap (`OscClient.send`) and timed until its ack event, and until the client holds a
state at least as new as the board's rev after applying it. Commands go one after another, as a host taps.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time

from scoreboard.bench.figures import percentile
from scoreboard.bench.remote_harness import PASSCODE, BoardLoop, LossyRelay
from scoreboard.engine.commands import make
from scoreboard.links.osc.client import OscClient
from scoreboard.session import Session


def _run(count: int, lossy: bool) -> dict:
    session = Session()
    session.submit(make(0, "/sg/game/new", "novosibirsk-2007", "1/9", 3, 0))
    session.submit(make(0, "/sg/game/start"))
    board = BoardLoop(session).start()
    relay = LossyRelay(board.address, drop=0.2, duplicate=0.2, max_delay=0.03, seed=1) if lossy else None
    client = OscClient(*(relay.address if relay else board.address), passcode=PASSCODE)
    to_ack, to_state, attempts = [], [], []
    try:
        client.connect()
        if not client.wait_for(lambda: client.state == "connected" and client.snapshot is not None, 10):
            raise RuntimeError("could not connect to the board")
        for i in range(count):
            start = time.perf_counter()
            # Pause and unpause in turn: each changes the state, and neither grows it (corrections would,
            # and a state over one datagram is not pushed at all).
            command_id = client.send("/sg/pause" if i % 2 == 0 else "/sg/unpause")
            while client.last_ack is None or client.last_ack.id != command_id:
                time.sleep(0.0002)
            acked = time.perf_counter()
            target = board.published_rev
            while client.rev < target:
                time.sleep(0.0002)
            shown = time.perf_counter()
            to_ack.append((acked - start) * 1e3)
            to_state.append((shown - start) * 1e3)
            attempts.append(client.last_ack.attempts)
    finally:
        client.close()
        if relay:
            relay.close()
        board.stop()
    return {"commands": count, "network": "lossy relay 20% drop, 20% dup, 0-30 ms reorder" if lossy else "loopback",
            "ack_ms_median": round(statistics.median(to_ack), 3), "ack_ms_p99": round(percentile(to_ack, 0.99), 3),
            "state_ms_median": round(statistics.median(to_state), 3),
            "state_ms_p99": round(percentile(to_state, 0.99), 3), "state_ms_max": round(max(to_state), 3),
            "attempts_max": max(attempts), "resent_share": round(sum(a > 1 for a in attempts) / count, 3)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scoreboard.bench.remote", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer commands (a smoke test)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    clean = _run(50 if args.quick else 1000, lossy=False)
    lossy = _run(20 if args.quick else 300, lossy=True)
    lossy["ack_p99_ratio_to_loopback"] = round(lossy["ack_ms_p99"] / max(clean["ack_ms_p99"], 1e-9), 1)
    if args.json:
        print(json.dumps([clean, lossy], indent=1))
    else:
        for figures in (clean, lossy):
            print(", ".join(f"{key} {value}" for key, value in figures.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
