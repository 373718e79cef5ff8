"""Tools, not the show: the benchmarks of docs/PERFORMANCE.md (`scoreboard bench …`), the real-board harness on a
virtual X display, the remote's loopback harness and media made on the spot. Nothing that runs a show imports it."""
