"""The registry of tournament formats: regulation name → the module that owns that format.

A format module owns its whole format — flow and views — and offers:
  draw_next(t, **options), advance(t, stage), standings(t), expected_input(t, stage, registered), redraw(t, stage),
  registration_status(t, cups), cups_entered(t, cups, already=()), substitute_for(t, by);
  WINNER (who wins a typed game: "final_round" | "top" | "top_positive", TB5), TIEBREAK (how a tie for first is
  settled: "extra_round" | "extra_questions" | "extra_topic", TB1–TB3), SHARED_FIRST_STAGES (engine stages where tied
  players share first, T-S7), OPTIONS (the command-line options that apply to it, beyond the common ones),
  DEMO (the demo's made-up field: players, seeded, the lowest score),
  TITLE (label key), VIEWS ({kind: view(t, stage=None)}), screen(t, scene); its words are scoreboard/labels.py's
  FORMATS[regulation], a catalogue below the display and the tournament alike.
A format that needs them also offers: leave_cup, leave_season, substitution_scope, draw_constraints,
  verify_topics, add_topic and draw_topics (with "topics_per_game" in OPTIONS), PUBLISH_EXTRA, FIELD_VIEW.
Adding a format is a new folder here (its `flow` the format module), one line in FORMATS and its words in
scoreboard/labels.py; nothing else branches on a format's name.
"""
from __future__ import annotations

from scoreboard.tournament.errors import TournamentError
from scoreboard.tournament.formats.america import flow as america
from scoreboard.tournament.formats.novosibirsk import flow as novosibirsk
from scoreboard.tournament.formats.samara import flow as samara

FORMATS = {
    "novosibirsk-2007": novosibirsk,
    "america-2005": america,
    "samara-2003": samara,
}


def names() -> list[str]:
    return list(FORMATS)


def format_module(name: str):
    if name not in FORMATS:
        raise TournamentError(f"format must be one of {', '.join(FORMATS)}; got {name!r}")
    return FORMATS[name]


def format_modules():
    return list(FORMATS.values())
