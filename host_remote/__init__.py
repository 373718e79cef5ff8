"""The host's remote control: an OSC client with exactly-once commands and a pygame-ce touch UI (docs/REMOTE.md)."""
