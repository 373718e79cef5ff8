"""Words of the tournament views: a view carries labels `{"key": "tn_…", field: value}`, never words; the theme
(or, in a terminal, `text_for`) says them. Strings every format uses are here; each format module adds its own
(`LABELS` in the format's module, gathered through the registry in `formats/__init__.py`).

The display's builtin theme takes `strings()` into its UI strings, so a theme's `[strings.ru]` / `[strings.en]`
overrides them like any other; the terminal (`scoreboard tournament standings`) speaks them without the display.
"""
from __future__ import annotations

from scoreboard.tournament.formats import format_modules

COMMON = {
    "ru": {
        "tn_stage_1_3": "1/3 финала",
        "tn_stage_final": "Финал",
        "tn_to_be_drawn": "жеребьёвка впереди",
        "tn_winner_of": "победитель {game}",
        "tn_champion": "Чемпион",
        "tn_why_won": "победа в игре {game}",
        "tn_cut": "{above} выше, чем {below}: {by} {a} против {b}",
        "tn_cut_lot": "{above} выше, чем {below}, по жребию (равны по всем показателям)",
        "tn_final_of": "{tournament} · финал",
        "tn_no_final_yet": "{tournament} · финал ещё впереди",
        "tn_col_place": "Место",
        "tn_col_player": "Игрок",
        "tn_col_points": "Очки",
        "tn_col_wins": "Победы",
        "tn_col_score": "Очки",
        "tn_more": "и ещё {n}",
        "tn_game_n": "Игра {n}",
        "tn_reached_1_3": "1/3",
        "tn_reached_final": "финал",
        "tn_col_reached": "Этап",
        "tn_tie_lot": "жребий",
        "tn_tie_extra": "+{points}",
        "tn_col_tie": "Равенство",
        "tn_col_1_3": "1/3",
        "tn_col_final": "Финал",
        "tn_legend_ties": "«Равенство» — что решило порядок при равных очках",
    },
    "en": {
        "tn_stage_1_3": "1/3 final",
        "tn_stage_final": "Final",
        "tn_to_be_drawn": "to be drawn",
        "tn_winner_of": "winner {game}",
        "tn_champion": "Champion",
        "tn_why_won": "won {game}",
        "tn_cut": "{above} ahead of {below} on {by}: {a} vs {b}",
        "tn_cut_lot": "{above} ahead of {below} by lot (equal on every criterion)",
        "tn_final_of": "{tournament} · final",
        "tn_no_final_yet": "{tournament} · no final yet",
        "tn_col_place": "#",
        "tn_col_player": "Player",
        "tn_col_points": "Points",
        "tn_col_wins": "Wins",
        "tn_col_score": "Score",
        "tn_more": "+{n} more",
        "tn_game_n": "Game {n}",
        "tn_reached_1_3": "1/3",
        "tn_reached_final": "final",
        "tn_col_reached": "Stage",
        "tn_tie_lot": "lot",
        "tn_tie_extra": "+{points}",
        "tn_col_tie": "Tie",
        "tn_col_1_3": "1/3",
        "tn_col_final": "Final",
        "tn_legend_ties": "«Tie»: what ordered players on equal points",
    },}


def strings(language: str) -> dict[str, str]:
    """Every tournament string in `language` (ru when it has none): the common ones and each format's."""
    out = dict(COMMON["ru"])
    out.update(COMMON.get(language, {}))
    for module in format_modules():
        labels = getattr(module, "LABELS", {})
        out.update(labels.get("ru", {}))
        out.update(labels.get(language, {}))
    return out


def text_for(language: str = "ru"):
    """`text(key, **fields)` over the tournament strings, as a theme's `text` is (for the terminal and exports)."""
    table = strings(language)

    def text(key: str, **fields) -> str:
        template = table.get(key, key)
        try:
            return template.format(**fields)
        except (KeyError, IndexError, ValueError):
            return template
    return text


def say(value, text) -> str:
    """A view's value in words: a label `{"key": k, field: …}` through `text` (fields may be labels too), a number
    without a trailing .0, anything else (a name, a game id) as it is."""
    if isinstance(value, dict) and isinstance(value.get("key"), str):
        return text(value["key"], **{k: say(v, text) for k, v in value.items() if k != "key"})
    if isinstance(value, float):
        return f"{value:g}"
    return "" if value is None else str(value)


STAGES = {"1/9": "tn_stage_1_9", "1/3": "tn_stage_1_3", "final": "tn_stage_final", "selection": "tn_stage_selection"}


def column_name(code: str, text) -> str:
    """A table column's header: the `tn_col_…` string of its code (a stage id's '/' read as '_': `tn_col_1_9`)."""
    return text(f"tn_col_{code.replace('/', '_')}")


def stage_name(stage_id: str, text) -> str:
    return text(STAGES[stage_id]) if stage_id in STAGES else str(stage_id)
