"""Demo tournaments with made-up players and scores: rehearse the screens (`/sg/screen bracket`) without a real day.

`scoreboard tournament demo --format F --file PATH [--stage S]` plays and advances the format up to stage S (default: to the end).
"""
from __future__ import annotations

import random

from scoreboard.tournament.bounds import for_game
from scoreboard.tournament.errors import TournamentError
from scoreboard.tournament.service import Tournament

NAMES = ["Анна Белова", "Борис Гусев", "Вера Днепрова", "Глеб Ершов", "Дина Жукова", "Егор Зайцев", "Жанна Ильина",
         "Захар Котов", "Ирина Лебедева", "Кирилл Морозов", "Лидия Новикова", "Максим Орлов", "Нина Павлова",
         "Олег Рыбаков", "Полина Соколова", "Роман Тихонов", "Светлана Ульянова", "Тимур Фёдоров", "Ульяна Хохлова",
         "Фёдор Цветков", "Юлия Чернова", "Ярослав Шубин", "Алиса Щукина", "Богдан Эйдельман", "Валерия Юдина",
         "Григорий Яковлев", "Дарья Абрамова", "Евгений Борисов", "Зоя Власова", "Илья Голубев", "Ксения Давыдова",
         "Леонид Егоров", "Мария Жданова", "Никита Зуев", "Ольга Исаева", "Пётр Калинин"]


def top(t, game, most: int = 520) -> int:
    """Made-up scores stay results that can happen (bounds.py): without stakes the positive scores of a game add up
    to at most the sum of its cells."""
    b = for_game(t, game)
    return most if b.stakes else min(most, b.regular // len(game["players"]) + 10)


def build(path, fmt: str, until: str | None = None, seed: int = 2024, players: int | None = None) -> Tournament:
    t = Tournament.create(path, fmt, seed=seed)
    rnd = random.Random(seed)
    demo = t.flow.DEMO           # the format's made-up field: how many, how many seeded, the lowest score
    for i, name in enumerate(NAMES[:players or demo["players"]]):
        team = "Мозговорот" if i % 7 == 0 else None
        t.add_player(name, team=team, seeded=i < demo["seeded"])
    while True:
        try:
            stage = t.draw()["stage"]
        except TournamentError:   # the championship is over
            break
        for g in t.store.games(stage):
            if not g["result"]:
                values = rnd.sample(range(demo["lowest"], top(t, g), 10), len(g["players"]))
                t.record_typed(g["id"], {str(k + 1): v for k, v in enumerate(values)})
        t.advance()
        if until and stage == until:
            break
    return t
