"""The one exception a tournament operation raises; its text is meant for the organiser."""


class TournamentError(Exception):
    """Refused: the message says what and why; nothing was changed."""
