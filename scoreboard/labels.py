"""Labels: what a tournament view says, as data — `{"key": "tn_…", field: value}`, never words — and the words of
every key in Russian and English, the catalogue a translation edits.

The tournament makes views; the display (its built-in theme takes `strings()`, so a theme's `[strings.ru]` /
`[strings.en]` overrides a word like any other), the terminal (`scoreboard tournament standings`) and the exports
say them. This module sits below all of them and imports nothing: the display never imports the tournament. A new
format adds its words under its regulation's name in FORMATS (tests/tournament/test_shape.py checks both languages
and each format's title).
"""
from __future__ import annotations

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

# Each format's own words, by the regulation whose tournaments it runs (tournament/formats/).
FORMATS = {
    "novosibirsk-2007": {
        "ru": {"tn_novosibirsk": "Чемпионат Новосибирска", "tn_stage_1_9": "1/9 финала", "tn_reached_1_9": "1/9",
               "tn_col_1_9": "1/9", "tn_tie_extra_round": "доп. раунд"},
        "en": {"tn_novosibirsk": "Novosibirsk championship", "tn_stage_1_9": "1/9 final", "tn_reached_1_9": "1/9",
               "tn_col_1_9": "1/9", "tn_tie_extra_round": "extra round"},
    },
    "america-2005": {
        "ru": {
            "tn_reached_selection": "отбор",
            "tn_col_selection": "Отбор",
            "tn_tie_extra_questions": "доп. вопросы",
            "tn_legend_wild": "WC (голубым) — wild card: лучшие вторые места",
            "tn_america": "Открытый турнир «Америка»",
            "tn_selection_winners": "победители отбора",
            "tn_and_wild_cards": "и лучшие вторые (WC)",
            "tn_selection": "Отборочные игры",
            "tn_why_wild_card": "wild card: 2-е место в игре {game}, {score}",
            "tn_tag_wild": "WC",
            "tn_legend_america": "✓ проходит дальше · WC — wild card, лучшие вторые места · золотом — победитель игры",
            "tn_by_score": "очки",
            "tn_by_players": "игроков в отборочной игре",
            "tn_by_right": "верных ответов",
            "tn_stage_selection": "Отбор",
        },
        "en": {
            "tn_reached_selection": "selection",
            "tn_col_selection": "Sel.",
            "tn_tie_extra_questions": "extra questions",
            "tn_legend_wild": "WC (blue): wild card, the best second places",
            "tn_america": "America open",
            "tn_selection_winners": "selection winners",
            "tn_and_wild_cards": "and wild cards",
            "tn_selection": "Selection games",
            "tn_why_wild_card": "wild card: 2nd in {game} with {score}",
            "tn_tag_wild": "WC",
            "tn_legend_america": "✓ goes on · WC wild card · gold: won the game",
            "tn_by_score": "score",
            "tn_by_players": "players in the selection game",
            "tn_by_right": "questions answered right",
            "tn_stage_selection": "Selection",
        },
    },
    "samara-2003": {
        "ru": {
            "tn_by_summer": "по очкам летнего кубка",
            "tn_by_wins": "по победам",
            "tn_by_weighted": "по взвешенной сумме",
            "tn_by_h2h": "по личной встрече",
            "tn_by_total": "по сумме очков в играх",
            "tn_by_shared": "место поделено",
            "tn_col_h2h": "Личн.",
            "tn_col_super9": "С9",
            "tn_field": "Чемпионат Самары · все места",
            "tn_samara": "Чемпионат Самары",
            "tn_cup_winter": "Зимний кубок",
            "tn_cup_spring": "Весенний кубок",
            "tn_cup_summer": "Летний кубок",
            "tn_cup_round": "{cup} · {n}-й тур",
            "tn_cup_final": "{cup} · финал",
            "tn_why_cup_sum": "по сумме кубка: {sum}",
            "tn_tag_sum": "Σ",
            "tn_legend_samara": "✓ проходит дальше · Σ — по сумме кубка · золотом — победитель игры",
            "tn_by_cup_sum": "сумма кубка",
            "tn_by_round_points": "очки в этом туре",
            "tn_super_nine": "Супердевятка",
            "tn_col_summer": "Лето",
            "tn_col_weighted": "Взвеш. Σ",
            "tn_col_game_points": "Σ в играх",
            "tn_cross_points": "Очки",
            "tn_cross_place": "Место",
            "tn_cross_legend": "в клетке — очки игрока строки в игре с игроком столбца (золотом — он оказался выше)",
        },
        "en": {
            "tn_by_summer": "on summer cup points",
            "tn_by_wins": "on wins",
            "tn_by_weighted": "on weighted sum",
            "tn_by_h2h": "head-to-head",
            "tn_by_total": "on game points",
            "tn_by_shared": "shared place",
            "tn_col_h2h": "H2H",
            "tn_col_super9": "S9",
            "tn_field": "Samara championship · every place",
            "tn_samara": "Samara championship",
            "tn_cup_winter": "Winter cup",
            "tn_cup_spring": "Spring cup",
            "tn_cup_summer": "Summer cup",
            "tn_cup_round": "{cup} · round {n}",
            "tn_cup_final": "{cup} · final",
            "tn_why_cup_sum": "cup sum {sum}",
            "tn_tag_sum": "Σ",
            "tn_legend_samara": "✓ goes on · Σ by cup sum · gold: won the game",
            "tn_by_cup_sum": "cup sum",
            "tn_by_round_points": "points in this round",
            "tn_super_nine": "Super Nine",
            "tn_col_summer": "Summer",
            "tn_col_weighted": "Wtd Σ",
            "tn_col_game_points": "Game points",
            "tn_cross_points": "Pts",
            "tn_cross_place": "Place",
            "tn_cross_legend": "cell: the row player's score in the game with the column player (gold: finished ahead)",
        },
    },
}


def strings(language: str) -> dict[str, str]:
    """Every tournament string in `language` (ru where it has none): the common ones and each format's."""
    out: dict[str, str] = {}
    for words in (COMMON, *FORMATS.values()):
        out.update(words["ru"])
        out.update(words.get(language, {}))
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
