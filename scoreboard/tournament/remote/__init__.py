"""Results from boards in other rooms over the network (docs/TOURNAMENTS.md "Board B over the network"): `keys` (the
tournament's passcode and the MACs both sides sign with), `server` (the organiser's `tournament serve`), `client` (the
board's side: fetch a game's setup, send its result from an outbox), `cli` (`serve | passcode | assign | boards`)."""
