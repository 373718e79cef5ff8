"""The host's remote in a phone's browser: the page's files (`index.html`, `*.js`, `remote.css`, package data) and
`server`, which serves them and carries the page's OSC over WebSocket into the board's OSC server."""
