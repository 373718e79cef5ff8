"""Demo and simulation: `scoreboard demo` on the board's real path (`show`), simulated players and host
(`simulated`, `game`), random playthroughs (`playthrough`), made-up tournaments (`tournament`), the frames a theme is
checked on (`frames`), and the screenshots of the README and the remote cut from demo games (`shots`, `remote_*`)."""
