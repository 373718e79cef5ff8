"""novosibirsk-2007: the 1/9 → 1/3 → final bracket (`rules`) and its progression over the tournament file (`flow`,
the format module the registry names)."""
