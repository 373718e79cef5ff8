"""Scenes of the hall's screen, one module per part of the game: the board (`board`), an open question (`question`),
the auction (`auction`), the final (`final`), between plays and tournament screens (`between`, `tournament`), and
the pieces they share (`common`). Which scene a frame shows is `display/compose.py`'s choice."""
