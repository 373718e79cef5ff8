"""OSC, the remotes' link (PROTOCOL.md §2, docs/LINKS.md). The board's `server` is the loop and its transports (UDP,
and `tcp`), holding the session table (`sessions`), the address map and what each message does (`routes`,
`dispatch`) and what goes back (`feedback`: acks, the state push). Both sides share the authenticated mode (`auth`)
and the encoding (`messages`); the project's one `client` (the remote, followers, benches, tests) reads on a
`reader` thread that reports its own death."""
