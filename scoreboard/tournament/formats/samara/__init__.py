"""samara-2003: three cups in rounds and the Super Nine. `rules` (round sizes, cup sums, conditional points, the Super
Nine selection), `super_nine` (its schedule and table), `entries` (entering and leaving cups), `flow` (the progression
over the tournament file, the format module the registry names) and `views` (its screens and labels)."""
