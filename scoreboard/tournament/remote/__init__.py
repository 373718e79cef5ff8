"""Results from boards in other rooms over the network (docs/TOURNAMENTS.md "Board B over the network"): `keys` (a
key per board, and the MACs both sides sign with), `server` (the organiser's `tournament serve`), `door` (its HTTP
side: deadlines, connection caps, quiet refusals), `client` (the board's side: fetch a game's setup, send its result
from an outbox), `cli` (`serve | board | assign | boards`)."""
