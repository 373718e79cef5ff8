"""The figures every bench quotes: a percentile by nearest rank, and n / median / p99 / max of samples in seconds."""
from __future__ import annotations


def percentile(samples: list[float], q: float) -> float:
    """The sample at rank q·(n−1), rounded half up (q = 0.99: the p99)."""
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * (len(ordered) - 1) + 0.5))]


def percentiles(samples: list[float]) -> dict:
    """n, median, p99 and max of samples in seconds, in milliseconds."""
    ordered = sorted(samples)
    return {"n": len(ordered), "median_ms": round(percentile(ordered, 0.5) * 1e3, 3),
            "p99_ms": round(percentile(ordered, 0.99) * 1e3, 3), "max_ms": round(ordered[-1] * 1e3, 3)}
