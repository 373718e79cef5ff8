"""america-2005: selection games with wild cards, then 1/3 finals and the final (`rules`), and the progression over
the tournament file (`flow`, the format module the registry names)."""
