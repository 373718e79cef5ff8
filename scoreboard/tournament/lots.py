"""Every lot of a tournament comes from the tournament seed and a label that names the lot.

`random.Random` seeded with a str hashes it with SHA-512, so the same (seed, label) gives the same sequence on any
machine and Python version >= 3.2: anyone holding the file can re-run a draw (`draw --verify`).
"""
from __future__ import annotations

import random


def rng(seed: int, label: str) -> random.Random:
    return random.Random(f"svoya-tournament/{seed}/{label}")
