"""Demo and simulation: `scoreboard demo` on the board's real path, simulated players and host, random
playthroughs, and the screenshots of the README and the remote cut from demo games."""
