"""The hall's phones and the stream's overlay (issue 27 items 3–4): the hall's view of a game, fanned out to many
viewers by a process of its own (`scoreboard watch-relay`), never by the board's drawing process."""
