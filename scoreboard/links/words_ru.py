"""The board's own words — refusals, denials, malformed-command errors — in Russian, for the operator's screens.

The protocol keeps the board's English reasons (`/sg/ack id 0 REASON`, `/sg/denied REASON`): third-party controllers
and scripts match on them. The project's remotes show them in the operator's language through this one table: the
pygame remote (`host_remote.strings.refusal`) and the browser remote (served as `/words.json`, applied in
`strings.js`). A test reads every reason the engine, the session and the links can raise and checks each has a line
here, so a new refusal cannot reach the host untranslated.

Patterns are whole-string regular expressions in the subset JavaScript shares with Python (plain groups, `\\1` in
the phrase becomes `$1` in the page); the first that matches wins, so a specific pattern comes before a general one.
"""
from __future__ import annotations

import re

from scoreboard.engine.phases import Phase

# The engine's phase names as a refusal says them («не сейчас: идёт выбор вопроса»).
PHASES_RU = {
    Phase.SETUP: "подготовка игры", Phase.ROUND_INTRO: "начало раунда", Phase.TOPIC_INTRO: "представление темы",
    Phase.CHOOSING: "выбор вопроса", Phase.READING: "чтение вопроса", Phase.BUZZ_WINDOW: "ожидание кнопок",
    Phase.ANSWERING: "ответ игрока", Phase.AFTER_WRONG: "после неверного ответа", Phase.REVEAL: "показ ответа",
    Phase.AUCTION: "аукцион", Phase.AUCTION_ANSWER: "ответ на аукционе", Phase.FINAL_STAKES: "ставки финала",
    Phase.FINAL_ANSWER: "ответы финала", Phase.FINAL_REVEAL: "раскрытие финала", Phase.GAME_OVER: "игра окончена",
}

_SEAT = r"(\d+)"
_ANY = r"(.+?)"

REFUSALS_RU: list[tuple[str, str]] = [
    # --- the game as a whole (G) --------------------------------------------------------------------------------
    (r"no game yet: start one with /sg/game/new", "игры ещё нет: начните новую"),
    (r"the game has not started: /sg/game/start first", "игра ещё не начата: сначала «Начать игру»"),
    (r"the game has not started.*", "игра ещё не начата"),
    (r"the game is over: undo the last command to change the result",
     "игра окончена: чтобы изменить итог, отмените последнее действие"),
    (r"the game is over", "игра окончена"),
    (r"a game is in progress: finish it \(or undo\) before /sg/game/new",
     "идёт игра: закончите её (или отмените) перед новой"),
    (r"(.+?) has no stage (.+?) \(stages: (.+)\)", r"в регламенте \1 нет стадии \2 (есть: \3)"),
    (r"(.+?) plays (\d+)–(\d+) players, got (\d+) \(G1\)", r"\1: игроков от \2 до \3, а не \4 (G1)"),
    (r"regulation (.+?) is not resolved: the session journals its content", r"регламент \1 не загружен"),
    (r"regulation (.+?): (.+)", r"регламент \1: \2"),
    (r"unknown regulation.*|.*no such regulation.*", "нет такого регламента"),
    (r"time goes backwards: .*", "команда пришла с прошедшим временем: повторите"),
    (r"a deadline at .* must fire \(/sg/clock\) before a command at .*",
     "сначала истекает отсчёт времени: повторите команду"),
    (r"nothing to undo", "отменять нечего"),
    (r"not now: the game is in (\w+), this needs (.+)", "не сейчас: идёт {phase}"),
    (r"not now: the game is in (\w+)", "не сейчас: идёт {phase}"),
    (r"no next step in (\w+)", "дальше нельзя: идёт {phase}"),
    (r"no seat (\d+): this game has seats 1–(\d+)", r"нет места \1: места 1–\2"),
    (r"seat (\d+) is not playing this round", r"место \1 не играет в этом раунде"),
    (r"a name is at most 80 characters", "имя — не длиннее 80 знаков"),
    (r"seat (\d+) is named (.+) already", r"у места \1 уже имя \2"),
    (r"the game is paused already", "игра уже на паузе"),
    (r"the game is not paused", "игра не на паузе"),
    (r"the game is paused: no clock runs", "пауза: время не идёт"),
    (r"the audience screen shows (.+) already", r"на экране зала уже \1"),
    (r"no deadline has passed|no deadline to fire", "время ещё не вышло"),
    (r"(/sg/\S+) is internal to the board", "эта команда — только для самого табло"),
    # --- packs and topics (P, G3) -------------------------------------------------------------------------------
    (r"packs are not available in this build.*", "пакеты недоступны в этой сборке"),
    (r"a pack can be loaded only before the game starts or while the first board is full",
     "пакет можно загрузить только до начала игры или пока не сыгран первый вопрос"),
    (r"a pack can be loaded only before.*", "пакет можно загрузить только до начала игры"),
    (r"pack (.+?): (.*)", r"пакет \1: \2"),
    (r"(.+?): no such pack file", r"нет файла пакета \1"),
    (r"topics can be named only while the round's board is still full",
     "темы можно назвать, только пока в раунде не сыграно ни одного вопроса"),
    (r"/sg/topics needs at least one name", "нужно хотя бы одно название темы"),
    (r"two topics of one round share a name", "у двух тем раунда одинаковое название"),
    (r"this round needs at least (\d+) topics, got (\d+)", r"в этом раунде нужно не меньше \1 тем, а не \2"),
    (r"this round has (\d+) topics, got (\d+) names", r"в этом раунде \1 тем, а названий \2"),
    # --- choosing and playing a question (G4, G5, BZ) -----------------------------------------------------------
    (r"this regulation plays topics in order: use /sg/next \(G4\)",
     "темы идут по порядку: нажмите «Дальше» (G4)"),
    (r"this regulation plays topics in order: there is no chooser \(G4\)",
     "темы идут по порядку: выбирающего нет (G4)"),
    (r"nobody holds the choice: the host sets the chooser first \(/sg/chooser, G5\)",
     "никто не выбирает: сначала назначьте выбирающего (G5)"),
    (r"seat (\d+) already holds the choice", r"место \1 уже выбирает"),
    (r"no topic (\d+): this round has topics 1–(\d+)", r"нет темы \1: в раунде темы 1–\2"),
    (r"no question (\d+): a topic has questions 1–(\d+)", r"нет вопроса \1: в теме вопросы 1–\2"),
    (r"topic (\d+) question (\d+) has been played", r"тема \1, вопрос \2 уже сыгран"),
    (r"topic (\d+) question (\d+) is an empty cell of the pack: nothing to play there",
     r"тема \1, вопрос \2 — пустая клетка пакета: играть нечего"),
    (r"select a cell \(/sg/select\)", "выберите вопрос на табло"),
    (r"judge the answer first", "сначала оцените ответ"),
    (r"a player is answering: judge the answer \(/sg/judge/right or /sg/judge/wrong\)",
     "игрок отвечает: оцените ответ («Верно» или «Неверно»)"),
    (r"this regulation has no «Уточните»: judge the answer \(BZ10\)",
     "в этом регламенте нет «Уточните»: оцените ответ (BZ10)"),
    (r"buttons are live: switch to manual mode first \(/sg/buttons/manual 1, BZ9\)",
     "кнопки работают: сначала включите ручной режим (BZ9)"),
    (r"seat (\d+) has answered this question \(BZ4\)", r"место \1 уже отвечало на этот вопрос (BZ4)"),
    # the photo finish (BZ11): naming the other player of a close call
    (r"seat (\d+) is answering already", r"место \1 уже отвечает"),
    (r"seat (\d+) has no close call with seat (\d+) in this window: .*\(BZ11\)",
     r"у места \1 нет спорного нажатия с местом \2: их метки дальше друг от друга, чем их погрешности (BZ11)"),
    (r"the other player of a close call can be named only while the press's winner is answering, before the "
     r"verdict \(BZ11\)", "назвать другого игрока спорного нажатия можно, только пока отвечает победитель "
                          "нажатия, до вердикта (BZ11)"),
    # the photo finish on the hall's screens (BZ11, issue 27 item 2)
    (r"no press to show: the photo finish of this question \(or, between questions, the last one\) is empty "
     r"\(BZ11\)", "показывать нечего: в этом вопросе (между вопросами — и в прошлом) никто не нажимал (BZ11)"),
    (r"the photo finish is on the hall's screens already", "фотофиниш уже на экране зала"),
    (r"the photo finish is not on the hall's screens", "фотофиниша нет на экране зала"),
    (r"the buttons are live: the photo finish goes on the hall's screens once a player answers or the race stops "
     r"\(BZ11\)", "кнопки работают: фотофиниш можно вывести в зал, когда игрок отвечает или гонка остановлена (BZ11)"),
    (r"the photo finish goes on the hall's screens only during a question that takes presses or between questions "
     r"\(BZ11\)", "фотофиниш выводится в зал только в вопросе с кнопками или между вопросами (BZ11)"),
    (r"manual mode is on already", "ручной режим уже включён"),
    (r"manual mode is off already", "ручной режим уже выключен"),
    (r"no answer clock is running: nothing to extend \(BZ5\)", "время ответа не идёт: продлевать нечего (BZ5)"),
    (r"extension must be more than 0 and at most 600 seconds, got (.+)",
     r"продление — больше 0 и не больше 600 секунд, а не \1"),
    (r"no question with a video or a sound is open", "нет открытого вопроса с видео или звуком"),
    (r"the open question has no video or sound", "в открытом вопросе нет видео или звука"),
    (r"the question's media is paused already", "видео или звук уже на паузе"),
    (r"the question's media is playing already", "видео или звук уже играет"),
    # --- auctions (AU) --------------------------------------------------------------------------------------------
    (r"the auction is on: bid or pass", "идёт аукцион: ставка или пас"),
    (r"seat (\d+) has passed in this auction \(AU3\)", r"место \1 уже спасовало на этом аукционе (AU3)"),
    (r"it is seat (\d+)'s turn to bid \(AU3\)", r"сейчас ставит место \1 (AU3)"),
    (r"seat (\d+) can bid at most its score (-?\d+) \(AU2, AU3\)",
     r"место \1 может поставить не больше своего счёта \2 (AU2, AU3)"),
    (r"a bid must be above the stake (-?\d+) \(AU3\)", r"ставка должна быть выше \1 (AU3)"),
    (r"only a larger all-in beats an all-in \(AU4\)", "ва-банк перебивает только больший ва-банк (AU4)"),
    (r"all-in needs a score above the nominal (-?\d+) \(AU4\)", r"ва-банк — только при счёте выше номинала \1 (AU4)"),
    (r"all-in of (-?\d+) does not beat the stake (-?\d+) \(AU4\)", r"ва-банк \1 не перебивает ставку \2 (AU4)"),
    (r"the auction of this round is waived already \(AU1\)", "этот раунд уже идёт без аукциона (AU1)"),
    (r"this round has its auction question: nothing to waive \(AU1\)",
     "аукцион в этом раунде уже был: отменять нечего (AU1)"),
    (r"the third argument may only be 'auction', got .*", "третий параметр может быть только «auction»"),
    (r"topic (\d+) question (\d+) is an auction already \(AU1\)", r"тема \1, вопрос \2 уже аукцион (AU1)"),
    (r"this round has its (\d+) auction question\(s\) already \(AU1\)",
     r"в этом раунде уже есть аукцион (вопросов: \1) (AU1)"),
    (r"the pack sets the auction cells of this round: it has its (\d+) already \(AU1\)",
     r"аукционы этого раунда заданы пакетом (их \1) (AU1)"),
    (r"the auction question has been read already", "вопрос аукциона уже прочитан"),
    (r"this round has had no auction question yet \(AU1\).*",
     "в раунде ещё не было аукциона (AU1): откройте этот вопрос как аукцион или подтвердите «Без аукциона», "
     "затем выберите снова"),
    (r"the round has had no auction question \(AU1\).*",
     "в раунде не было аукциона (AU1): подтвердите «Без аукциона» или отмените до последнего вопроса и откройте "
     "его как аукцион"),
    # --- the final round (FN) -----------------------------------------------------------------------------------
    (r"the final topic can be set only before the final question", "тему финала можно задать только до вопроса"),
    (r"seat (\d+) is not in the final round \(FN1\)", r"место \1 не играет в финале (FN1)"),
    (r"seat (\d+) is not in the final round", r"место \1 не играет в финале"),
    (r"seat (\d+) may stake from (-?\d+) to (-?\d+), got (-?\d+) \(FN2, FN3\)",
     r"место \1 может поставить от \2 до \3, а не \4 (FN2, FN3)"),
    (r"stakes missing from seat\(s\) (.+) \(FN2\)", r"нет ставок мест \1 (FN2)"),
    (r"seat (\d+) has been revealed (.+)", r"ответ места \1 уже раскрыт"),
    (r"judge seat (\d+)'s answer first \(/sg/final/judge\)", r"сначала оцените ответ места \1"),
    # --- corrections (G8, G9) -----------------------------------------------------------------------------------
    (r"an adjustment of 0 changes nothing", "поправка 0 ничего не меняет"),
    (r"adjustment (.+) is out of range \(at most ±100000\)", r"поправка \1 вне пределов (не больше ±100000)"),
    (r"only the last resolved question can be re-judged, before the next one opens \(G8\)",
     "пересудить можно только последний вопрос и только до следующего (G8)"),
    (r"seat (\d+) did not answer this question", r"место \1 не отвечало на этот вопрос"),
    (r"seat (\d+)'s answer is judged right already", r"ответ места \1 уже засчитан верным"),
    (r"seat (\d+)'s answer is judged wrong already", r"ответ места \1 уже признан неверным"),
    (r"topic (.+) has no reserve question left \(G9\)", r"в теме \1 не осталось запасного вопроса (G9)"),
    (r"no question to replace: only the open or the last resolved question \(G9\)",
     "заменять нечего: только открытый или последний сыгранный вопрос (G9)"),
    (r"the pack has no reserve question for topic (.+) \(G9\)", r"в пакете нет запасного вопроса темы \1 (G9)"),
    # --- malformed commands (the parser) ------------------------------------------------------------------------
    (r"unknown address (.+)", r"неизвестная команда \1"),
    (r"(/sg/\S+) needs (\d+) to (\d+) argument\(s\), got (\d+)",
     r"команде нужно параметров: от \2 до \3, а пришло \4"),
    (r"(/sg/\S+) needs (\d+) argument\(s\), got (\d+)", r"команде нужно параметров: \2, а пришло \3"),
    (r"(/sg/\S+) takes (\d+) to (\d+) argument\(s\), got (\d+)",
     r"у команды параметров от \2 до \3, а пришло \4"),
    (r"(/sg/\S+) takes (\d+) argument\(s\), got (\d+)", r"у команды параметров: \2, а пришло \3"),
    (r"argument (\d+): expected an integer, got (.+)", r"параметр \1: нужно целое число, а не \2"),
    (r"argument (\d+): a seat is 1 or more, got (.+)", r"параметр \1: место — от 1, а не \2"),
    (r"argument (\d+): milliseconds are 0 or more, got (.+)", r"параметр \1: миллисекунд — от 0, а не \2"),
    (r"argument (\d+): expected a number, got (.+)", r"параметр \1: нужно число, а не \2"),
    (r"argument (\d+): expected a finite number >= 0, got (.+)", r"параметр \1: нужно число не меньше 0, а не \2"),
    (r"argument (\d+): expected a string, got (.+)", r"параметр \1: нужен текст, а не \2"),
    (r"argument (\d+): must not be empty", r"параметр \1 не может быть пустым"),
    (r"argument (\d+): expected right or wrong, got (.+)", r"параметр \1: нужно right или wrong, а не \2"),
    (r"argument (\d+): expected 0 or 1, got (.+)", r"параметр \1: нужно 0 или 1, а не \2"),
    (r"argument (\d+): expected one of (.+), got (.+)", r"параметр \1: нужно одно из: \2; а не \3"),
    (r"time must be a (?:finite )?number >= 0, got (.+)", r"время — число не меньше 0, а не \1"),
    # --- the board and its links --------------------------------------------------------------------------------
    (r"board busy.*", "табло занято, повторите"),
    (r"not journaled, not done: (.+)", r"не записано в журнал — не сделано: \1"),
    (r"internal error on (/sg/\S+): (.+)", r"внутренняя ошибка табло: \2"),
    (r"a view session may not.*", "пульт только для просмотра"),
    (r"the first argument of /sg/cmd/\.\.\. must be an int id", "первый параметр команды — её номер"),
    (r"this board takes signed commands only .*", "табло принимает только подписанные команды"),
    (r"bad signature", "неверная подпись команды"),
    # --- the protocol of a game (app/protocol_desk.py, issue 27 item 1) ------------------------------------------
    (r"the protocol is given once the game is over", "протокол боя выдаётся после окончания игры"),
    (r"the protocol is opened on the board's page, and \[remote_web\] is off: on the board, `(.+)`",
     r"протокол открывается на странице табло, а она выключена ([remote_web]); на табло: \1"),
    (r"usage: /sg/protocol.*", "протокол: команда без параметров"),
    (r"protocol: (.+)", r"протокол не собран: \1"),
    # --- players' phones (issue 26, docs/PHONE_BUTTONS.md) ------------------------------------------------------
    (r"usage: /sg/seat/admit seat", "нужен номер места"),
    (r"usage: /sg/phone/time .*", "ошибка синхронизации часов телефона"),
    (r"usage: /sg/press .*", "ошибка нажатия: обновите страницу"),
    (r"touch: not a number", "ошибка нажатия: время касания"),
    (r"this phone presses for seat (\d+) only", r"этот телефон — кнопка места \1"),
    (r"no phone is waiting for seat (\d+)", r"никакой телефон не ждёт места \1"),
    (r"not a seat's phone", "это не телефон игрока"),
    (r"sent: not a number", "ошибка синхронизации часов телефона: время отправки"),
    (r"a clock sample seen before", "повтор уже полученного замера часов"),
    (r"seat (\d+) is held by another phone: .*", r"место \1 занято другим телефоном: ведущий может пустить этот"),
    (r"more than (\d+) presses a second", r"больше \1 нажатий в секунду"),
    (r"a phone sends its press only", "телефон игрока только нажимает кнопку"),
    (r"only the host admits a phone", "пустить телефон может только ведущий"),
    (r"only a seat's phone presses .*", "нажимает только телефон игрока"),
]

DENIALS_RU: list[tuple[str, str]] = [
    (r"not connected: .*", "нет соединения: подключитесь заново"),
    (r"usage: /sg/connect passcode \[host\|view\]", "нужен код доступа"),
    (r"usage: /sg/auth/connect .*", "ошибка защищённого подключения: повторите"),
    (r"unknown role (.+) \(host or view\)", r"неизвестная роль \1 (ведущий или просмотр)"),
    (r"too many wrong passcodes from this address: one try a second",
     "слишком много неверных кодов с этого адреса: одна попытка в секунду"),
    (r"the board has no passcode set \(osc\.passcode\)", "на табло не задан код доступа (config init)"),
    (r"wrong passcode", "неверный код доступа"),
    (r"too many sessions", "слишком много подключений"),
    (r"too many view sessions .*", "слишком много зрительских подключений: места оставлены ведущему"),
    (r"this board takes the authenticated connect only .*", "табло принимает только защищённое подключение"),
    (r"stale or foreign challenge: .*", "подключение устарело: повторите"),
    (r"a seat connects by its link only .*", "место подключается только по своей ссылке (QR-код)"),
    (r"wrong seat key", "неверный ключ места: отсканируйте код снова"),
]

_COMPILED: dict[int, list[tuple[re.Pattern, str]]] = {}


def _table(rules: list[tuple[str, str]]) -> list[tuple[re.Pattern, str]]:
    compiled = _COMPILED.get(id(rules))
    if compiled is None:
        compiled = _COMPILED[id(rules)] = [(re.compile(p, re.S), phrase) for p, phrase in rules]
    return compiled


def _say(rules: list[tuple[str, str]], text: str) -> str | None:
    for pattern, phrase in _table(rules):
        found = pattern.fullmatch(text)
        if found:
            if "{phase}" in phrase:
                return phrase.format(phase=PHASES_RU.get(found.group(1), found.group(1)))
            return found.expand(phrase)
    return None


def refusal(reason: str) -> str | None:
    """The board's refusal in Russian, or None when the table has no line for it."""
    return _say(REFUSALS_RU, reason)


def denial(reason: str) -> str | None:
    """A refused connect in Russian, or None."""
    return _say(DENIALS_RU, reason)


def for_the_page() -> dict:
    """The tables as the browser remote reads them: JavaScript's `$1` for Python's `\\1`."""
    def js(rules):
        return [[p, re.sub(r"\\(\d)", r"$\1", phrase)] for p, phrase in rules]
    return {"refusals": js(REFUSALS_RU), "denials": js(DENIALS_RU), "phases": PHASES_RU}
