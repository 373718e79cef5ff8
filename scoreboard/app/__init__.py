"""The composition root: where the board is assembled and run — its config, start-up (journal, links, screens),
the loop, signals, status, the remote's set-up desk, followers, and the commands that start them (`cli.py`)."""
