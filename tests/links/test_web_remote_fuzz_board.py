"""Issue 13 item 5: 10,000 random WebSocket messages over several connections against the REAL drawing board
(`scoreboard run` under Xvfb): the game is unchanged and the board still draws. The in-process twin of this test
(tests/links/test_web_remote.py) covers the server's counters; this one the whole board process."""
from __future__ import annotations

import asyncio
import json
import random
import time

import aiohttp

from scoreboard.links.osc.messages import build
from webhelp import Socket, journal_position, real_board, scripted_journal


def junk(rng: random.Random, sid: int) -> bytes:
    """Random bytes, truncated OSC, unknown and internal addresses, bad arguments, wrong passcodes, forged and
    unsigned commands (from the host's own connection too: a signed session takes signed commands only)."""
    kind = rng.randrange(8)
    if kind == 0:
        return rng.randbytes(rng.randrange(1, 300))
    if kind == 1:
        return build("/sg/cmd/player/name", rng.randrange(10**6), rng.choice([0, 9, -1]), "x")[:-rng.randrange(1, 8)]
    if kind == 2:
        return build(rng.choice(["/sg/nonsense", "/sg/clock", "/sg/cmd/clock", "/x", "#bundle"]), rng.random())
    if kind == 3:
        return build("/sg/cmd/select", rng.randrange(10**6), "a", "b")
    if kind == 4:
        return build("/sg/connect", rng.randbytes(4).hex(), rng.choice(["host", "view", "root"]))
    if kind == 5:
        return build("/sg/sig/judge/right", rng.choice([sid, rng.randrange(10**6)]), rng.randrange(10**6),
                     rng.randbytes(16))
    if kind == 6:
        return build("/sg/cmd/undo", rng.randrange(10**6))
    return build("/sg/auth/connect", "host", f"{time.monotonic():.3f}.{rng.randbytes(16).hex()}",
                 rng.randbytes(8).hex(), rng.randbytes(32).hex())


def test_issue13_5_fuzz_10000_messages_leave_the_real_boards_game_unchanged_and_it_still_draws(tmp_path):
    """Issue 13 item 5, PROTOCOL.md §2: GIVEN the real board resuming novosibirsk's example mid-game, a signed
    host phone connected over WebSocket, and four more connections WHEN 10,000 random messages arrive over them
    and the host's own (random bytes, truncated OSC, text frames, oversized messages, internal and unknown
    addresses, bad arguments, wrong passcodes, forged signatures, unsigned commands)
    THEN the journal's rev and state are exactly what they were, the process still runs, and the host's next
    signed command is applied by the board's frame loop: acked, journaled, and a fresh /sg/state with the next rev
    arrives."""
    journal = scripted_journal(tmp_path / "game.sqlite", "novosibirsk-2007-1-9.txt",
                               lambda line: line.at > 100 and line.command.address == "/sg/select")
    with real_board(tmp_path, journal, chromium=False) as (url, _, journal, process):
        before = journal_position(journal)
        rng = random.Random(13)

        async def fuzz():
            async with aiohttp.ClientSession() as http:
                host = await (await Socket(http, url, "the-real-host-phone").open()).host()
                rev = json.loads((await host.until("/sg/state"))[1])["rev"]
                assert rev == before[0]
                others = [await Socket(http, url, f"fuzzer-token-{i:03d}").open() for i in range(4)]
                for n in range(10_000):
                    slot = n % (len(others) + 1)
                    peer = host if slot == len(others) else others[slot]
                    try:
                        if n % 1000 == 999:
                            await peer.ws.send_str("not osc")
                        elif n % 2500 == 2499 and peer is not host:
                            await peer.ws.send_bytes(b"\0" * 20_000)    # over the limit: that connection is cut
                            others[slot] = await Socket(http, url, f"fuzzer-token-r{n}").open()
                        else:
                            await peer.ws.send_bytes(junk(rng, host.sid))
                    except (ConnectionError, RuntimeError):
                        others[slot] = await Socket(http, url, f"fuzzer-token-s{n}").open()
                # The host's own junk is handled once the board answers a ping sent after it (the others'
                # connections are checked again at the end, after they have closed).
                # A reply to a peer that flooded the board may be dropped while its queue is full (links.web.server.QUEUE:
                # acks are retried, replies are not): ask again until the board has caught up.
                for attempt in range(15):
                    await host.send("/sg/ping")
                    try:
                        await host.until("/sg/pong", timeout=2.0)
                        break
                    except AssertionError:
                        if attempt == 14:
                            raise
                assert process.poll() is None
                assert journal_position(journal) == before          # the game is unchanged
                ack = await host.command("/sg/screen", "scores")
                assert ack[1] == "ok", ack
                state = await host.until("/sg/state", lambda a: a[0] > before[0])
                assert json.loads(state[1])["screen"] == "scores"
                for peer in others:
                    await peer.ws.close()
        asyncio.run(fuzz())
        assert process.poll() is None
        assert journal_position(journal)[0] == before[0] + 1        # the one real command, journaled
