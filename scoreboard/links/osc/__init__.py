"""OSC, the remotes' link (PROTOCOL.md §2, docs/LINKS.md): the board's `server` (the loop and its transports, UDP
and `tcp`), the `sessions` it keeps, what each message does (`dispatch`), the authenticated mode both sides share
(`auth`), the encoding (`messages`), and the project's one `client` (the remote, followers, benches, tests)."""
