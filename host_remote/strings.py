"""Every word the remote shows the host, in one table: Russian by default, English selectable (`--lang en`).

`t(key, **values)` formats the phrase in the current language; a key missing from English falls back to Russian,
never to the key itself. The board's refusals and denials arrive in English (the protocol's words): `refusal()` and
`denial()` say them in the current language from the board's own table (`scoreboard.links.words_ru`, which a test
keeps complete); a reason the table does not know is shown as the board said it, after «Табло отказало:».
"""
from __future__ import annotations

import re

from scoreboard.links import words_ru

LANGUAGES = ("ru", "en")
_current = ["ru"]

RU = {
    # set-up
    "setup.tab.game": "Игра", "setup.tab.players": "Игроки", "setup.tab.pack": "Пакет", "setup.tab.start": "Старт",
    "setup.regulation": "Регламент", "setup.stage": "Этап", "setup.seats": "Игроков",
    "setup.next_game": "Следующая игра турнира", "setup.next_game.button": "Игра {game}: {names}",
    "setup.next_game.none": "Турнир: {reason}",
    "setup.catalog.wait": "Ждём список с табло…", "setup.catalog.ask": "Обновить список",
    "setup.no_pack": "Без пакета", "setup.no_pack.note": "Без пакета: на табло только названия тем, "
                     "ведущий читает с листа (P3).",
    "setup.pack.none_found": "В папках пакетов ничего нет: {dirs}",
    "setup.pack.summary": "{format} · раундов {rounds} · тем {topics} · вопросов {questions}",
    "setup.pack.warnings": "Предупреждений: {count}", "setup.pack.errors": "Не загружается: {first}",
    "setup.pack.loaded": "Загружен: «{title}»", "setup.pack.short": "Пакету не хватает тем: {why}",
    "setup.pack.choose_topics": "Темы раунда {round}: выберите {need} из {have}",
    "setup.pack.topics_done": "Темы выбраны", "setup.pack.all_topics": "Первые по порядку",
    "setup.chooser": "Первым выбирает", "setup.chooser.lot": "жребий при старте (G5)",
    "setup.chooser.lowest": "меньший счёт", "setup.chooser.later": "ведущий назовёт на табло",
    "setup.start": "Начать игру", "setup.name.edit": "Имя игрока {seat}",
    "setup.name.empty": "Имя игрока {seat} пустое", "setup.name.long": "Имя длиннее {max} символов",
    "setup.name.done": "Готово", "setup.name.cancel": "Отмена", "setup.kb.layout": "ABC", "setup.kb.layout2": "АБВ",
    "setup.kb.space": "пробел", "setup.busy": "Отправляем: {what}…",
    "setup.ready": "Готово к старту: {reg} · {stage} · {seats} игрока",
    "setup.folder": "Папка пакетов: {problem}",
    "connect.denied": "Табло отказало: {reason}",
    "connect.passcode_hint": "Пароль — на экране ведущего на табло (рядом с адресом) или в конфиге табло: "
                             "[osc] passcode в scoreboard.toml (где он — скажет `scoreboard doctor`).",
    # status line
    "ack.ok": "{what}: принято", "ack.refused": "{what}: {reason}", "ack.unknown": "{what}: исход неизвестен, "
              "проверьте табло", "ack.waiting": "ждут ответа: {n}",
    "undo.label": "Отменить", "undo.what": "Отменить: {what}",
    # buttons (host_remote/actions.py): the verb first, so a long name is cut, never the action
    "act.stake": "Ставка {name}",
    "act.player": "Игрок {seat}",
    "act.assign": "Отвечает {name}",
    "act.allin": "Ва-банк {name}",
    "act.pass": "Пас {name}",
    "act.final_start": "Старт (вопрос прочитан)",
    "act.final_end": "Конец записи",
    "act.final_right": "Верно: {name}",
    "act.final_wrong": "Неверно: {name}",
    "act.final_reveal": "Открыть {name}",
    "act.rejudge_right": "Засчитать: {name}",
    "act.rejudge_wrong": "Снять: {name}",
    "act.waive": "Без аукциона",
    "act.adjust": "± {name}",
    "act.manual_on": "Кнопки: вручную",
    "act.manual_off": "Кнопки: включить",
    "act.resume": "Продолжить (кнопки)",
    "act.unpause": "Продолжить",
    "act.pause": "Пауза",
    "act.protocol": "Протокол", "ack.protocol": "Протокол боя: {url}",
    "act.right": "Верно",
    "act.wrong": "Неверно",
    "act.reading_done": "Вопрос прочитан",
    "act.time": "Время",
    "act.extend": "+3 с",
    "act.clarify": "Уточните",
    "act.show_board": "Показать табло залу",
    "act.chooser": "Выбирает {name}",
    "act.next": "Дальше",
    "act.replace": "Заменить вопрос",
    "act.media_pause": "Медиа: пауза", "act.media_play": "Медиа: дальше", "act.media_replay": "Медиа: сначала",
}
EN = {
    "setup.tab.game": "Game", "setup.tab.players": "Players", "setup.tab.pack": "Pack", "setup.tab.start": "Start",
    "setup.regulation": "Regulation", "setup.stage": "Stage", "setup.seats": "Players",
    "setup.next_game": "The tournament's next game", "setup.next_game.button": "Game {game}: {names}",
    "setup.next_game.none": "Tournament: {reason}",
    "setup.catalog.wait": "Waiting for the board's list…", "setup.catalog.ask": "Refresh the list",
    "setup.no_pack": "No pack", "setup.no_pack.note": "No pack: the board shows topic names only, the host reads "
                     "from paper (P3).",
    "setup.pack.none_found": "No packs in the pack folders: {dirs}",
    "setup.pack.summary": "{format} · rounds {rounds} · topics {topics} · questions {questions}",
    "setup.pack.warnings": "Warnings: {count}", "setup.pack.errors": "Does not load: {first}",
    "setup.pack.loaded": "Loaded: «{title}»", "setup.pack.short": "The pack lacks topics: {why}",
    "setup.pack.choose_topics": "Round {round} topics: choose {need} of {have}",
    "setup.pack.topics_done": "Topics chosen", "setup.pack.all_topics": "First ones in order",
    "setup.chooser": "First to choose", "setup.chooser.lot": "drawn by lot at the start (G5)",
    "setup.chooser.lowest": "lowest score", "setup.chooser.later": "the host names them on the board",
    "setup.start": "Start the game", "setup.name.edit": "Player {seat}'s name",
    "setup.name.empty": "Player {seat}'s name is empty", "setup.name.long": "A name longer than {max} characters",
    "setup.name.done": "Done", "setup.name.cancel": "Cancel", "setup.kb.layout": "ABC", "setup.kb.layout2": "АБВ",
    "setup.kb.space": "space", "setup.busy": "Sending: {what}…",
    "setup.ready": "Ready: {reg} · {stage} · {seats} players",
    "setup.folder": "Pack folder: {problem}",
    "connect.denied": "The board refused: {reason}",
    "connect.passcode_hint": "The passcode is on the board's host screen (beside its address) or in the board's "
                             "config: [osc] passcode in scoreboard.toml (`scoreboard doctor` says where).",
    "ack.ok": "{what}: done", "ack.refused": "{what}: {reason}", "ack.unknown": "{what}: outcome unknown, check "
              "the board", "ack.waiting": "waiting: {n}",
    "undo.label": "Undo", "undo.what": "Undo: {what}",
    "act.stake": "Stake: {name}",
    "act.player": "Player {seat}",
    "act.assign": "Answers: {name}",
    "act.allin": "All-in: {name}",
    "act.pass": "Pass: {name}",
    "act.final_start": "Start (question read)",
    "act.final_end": "Writing over",
    "act.final_right": "Right: {name}",
    "act.final_wrong": "Wrong: {name}",
    "act.final_reveal": "Reveal: {name}",
    "act.rejudge_right": "Accept: {name}",
    "act.rejudge_wrong": "Take back: {name}",
    "act.waive": "No auction",
    "act.adjust": "± {name}",
    "act.manual_on": "Buttons: manual",
    "act.manual_off": "Buttons: on",
    "act.resume": "Resume (buttons)",
    "act.unpause": "Unpause",
    "act.pause": "Pause",
    "act.protocol": "Protocol", "ack.protocol": "The game's protocol: {url}",
    "act.right": "Right",
    "act.wrong": "Wrong",
    "act.reading_done": "Reading done",
    "act.time": "Time",
    "act.extend": "+3 s",
    "act.clarify": "Clarify",
    "act.show_board": "Show the board to the hall",
    "act.chooser": "Chooses: {name}",
    "act.next": "Next",
    "act.replace": "Replace question",
    "act.media_pause": "Media: pause", "act.media_play": "Media: play", "act.media_replay": "Media: replay",
}

# What each command does, in words, for the status line (never the raw address).
COMMANDS_RU = {
    "/sg/game/new": "новая игра", "/sg/player/name": "имя игрока", "/sg/pack/load": "пакет", "/sg/topics": "темы",
    "/sg/game/start": "начало игры", "/sg/chooser": "выбирающий", "/sg/select": "выбор вопроса",
    "/sg/next": "дальше", "/sg/reading/done": "вопрос прочитан", "/sg/judge/right": "верно",
    "/sg/judge/wrong": "неверно", "/sg/resume": "продолжение", "/sg/time": "время",
    "/sg/answer/extend": "добавка времени", "/sg/answer/clarify": "уточните", "/sg/buttons/manual": "режим кнопок",
    "/sg/assign": "отвечающий", "/sg/auction/bid": "ставка", "/sg/auction/allin": "ва-банк",
    "/sg/auction/pass": "пас", "/sg/auction/waive": "без аукциона", "/sg/final/stake": "ставка в финале",
    "/sg/final/start": "старт финала", "/sg/final/judge": "оценка в финале", "/sg/final/reveal": "вскрытие",
    "/sg/score/adjust": "поправка счёта", "/sg/rejudge": "пересуд", "/sg/question/replace": "замена вопроса",
    "/sg/undo": "отмена", "/sg/pause": "пауза", "/sg/unpause": "продолжение", "/sg/screen": "экран",
    "/sg/setup/catalog": "список для подготовки", "/sg/setup/game": "игра турнира",
    "/sg/media/pause": "пауза медиа", "/sg/media/play": "медиа", "/sg/media/replay": "повтор медиа",
}
COMMANDS_EN = {
    "/sg/game/new": "new game", "/sg/player/name": "player's name", "/sg/pack/load": "pack", "/sg/topics": "topics",
    "/sg/game/start": "game start", "/sg/chooser": "chooser", "/sg/select": "question choice", "/sg/next": "next",
    "/sg/reading/done": "reading done", "/sg/judge/right": "right", "/sg/judge/wrong": "wrong",
    "/sg/resume": "resume", "/sg/time": "time", "/sg/answer/extend": "extra time", "/sg/undo": "undo",
    "/sg/pause": "pause", "/sg/unpause": "unpause", "/sg/score/adjust": "score correction",
}

# The board's catalogue problems (the pack folders), in Russian.
BOARD_RU = [
    (r"(.+): no such folder", r"папки \1 нет"),
    (r"(.+): not a folder", r"\1 — не папка"),
    (r"(.+): cannot read \((.*)\)", r"\1 не читается (\2)"),
    (r"(\d+) pack files; only the first (\d+) are listed", r"файлов пакетов \1, показаны первые \2"),
]


def board_words(text: str) -> str:
    """A problem the board reported about its own files, in the current language (as said when not known)."""
    if _current[0] == "en":
        return text
    for pattern, phrase in BOARD_RU:
        if re.fullmatch(pattern, text, flags=re.S):
            return re.sub(pattern, phrase, text, count=1, flags=re.S)
    return text


def set_language(lang: str) -> None:
    if lang not in LANGUAGES:
        raise ValueError(f"language {lang!r}: one of {', '.join(LANGUAGES)}")
    _current[0] = lang


def language() -> str:
    return _current[0]


def t(key: str, **values) -> str:
    table = EN if _current[0] == "en" else RU
    phrase = table.get(key, RU.get(key))
    if phrase is None:
        raise KeyError(f"no phrase {key!r} in the strings table")
    return phrase.format(**values) if values else phrase


def command(address: str) -> str:
    """A command in words («верно», «пакет»), never the raw address."""
    table = COMMANDS_EN if _current[0] == "en" else COMMANDS_RU
    return table.get(address) or COMMANDS_RU.get(address) or address.rsplit("/", 1)[-1]


def refusal(reason: str) -> str:
    if _current[0] == "en":
        return reason
    return words_ru.refusal(reason) or f"табло отказало: {reason}"


def denial(reason: str) -> str:
    """A refused connect (wrong passcode, too many tries…) in the current language."""
    if _current[0] == "en":
        return reason
    return words_ru.denial(reason) or reason
