"""The button box on a serial line (PROTOCOL.md §5): `protocol` parses and formats its lines (pure), `clockmap`
maps its microsecond clock onto the board's, `buttons` is the reader thread that owns the port, `fake_box` is a box
in software (demo, tests, benches, rehearsals)."""
