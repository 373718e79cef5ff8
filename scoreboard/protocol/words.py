"""The protocol's words in Russian, as a tournament's secretary writes them (the style of links/words_ru.py).

`say(line, names)` is one line of the protocol as text; the HTML and the CSV's `text` column both use it, so the two
never disagree. Names are never formatted into markup here: the HTML escapes what this returns.
"""
from __future__ import annotations

import re

KINDS = {"normal": "", "round_start": "", "auction": "аукцион", "cat": "кот в мешке", "super": "супервопрос", "final": "финал",
         "reserve": "резервный вопрос", "tiebreak": "перестрелка"}
ROUND_KINDS = {"blue": "синий раунд", "red": "красный раунд", "tiebreak": "перестрелка", "final": "финал"}
SOURCES = {"box": "пульт", "key": "клавиатура", "phone": "телефон", "remote": "пульт ведущего"}
VERDICTS = {"right": "верно", "wrong": "неверно"}
COMMANDS = {"/sg/select": "выбор вопроса", "/sg/judge/right": "«верно»", "/sg/judge/wrong": "«неверно»",
            "/sg/score/adjust": "поправку счёта", "/sg/rejudge": "переоценку", "/sg/question/replace": "замену вопроса",
            "/sg/auction/bid": "ставку на аукционе", "/sg/auction/pass": "пас", "/sg/auction/allin": "ва-банк",
            "/sg/final/stake": "ставку финала", "/sg/final/judge": "оценку финала", "/sg/final/reveal": "вскрытие",
            "/sg/time": "«Время»", "/sg/resume": "продолжение", "/sg/reading/done": "конец чтения",
            "/sg/next": "следующий шаг", "/sg/assign": "назначение отвечающего", "/sg/chooser": "выбор выбирающего",
            "/sg/final/start": "начало финала", "/sg/answer/extend": "продление времени", "/sg/game/start": "начало игры"}
# The engine's reasons for an ignored press (BZ4, BZ7, BZ8), said in Russian; another reason is shown as it is.
IGNORED = ((re.compile(r"locked out after a false start"), "заблокирован после фальстарта (BZ7)"),
           (re.compile(r"has answered this question"), "уже отвечал на этот вопрос (BZ4)"),
           (re.compile(r"has pressed on this question already"), "уже нажимал на этот вопрос (BZ4)"),
           (re.compile(r"not playing this round"), "не играет в этом раунде"),
           (re.compile(r"paused"), "игра на паузе"),
           (re.compile(r"manual"), "ручной режим кнопок (BZ9)"),
           (re.compile(r"not live|BZ8"), "кнопки не активны (BZ8)"))
NO_WINNER = {"no_positive": "ни у кого нет положительного счёта", "shared_first": "первое место поделено",
             "still_tied": "равенство не разрешено перестрелкой"}

LABELS = {"title": "Протокол боя", "tournament": "Турнир", "stage": "Этап", "regulation": "Регламент",
          "players": "Игроки", "pack": "Пакет", "date": "Дата", "host": "Ведущий", "journal": "Журнал",
          "time": "Время", "ms": "мс", "player": "Игрок", "event": "Событие", "points": "Очки",
          "question": "Вопрос", "round": "Раунд", "topic": "Тема", "value": "Цена", "kind": "Вид",
          "after": "Счёт после вопроса", "result": "Итог", "winner": "Победитель", "place": "Место",
          "score": "Счёт", "rights": "Верных", "how": "Как решено", "corrections": "Поправки счёта",
          "ignored": "Нажатий, не принятых правилами", "before": "До первого вопроса", "round_start": "Начало раунда",
          "legend": "Время — от начала игры (мин:с). мс — от открытия окна для ответа (до конца чтения: от начала "
                    "чтения); у фальстарта — сколько мс до окна. ± — погрешность метки нажатия. Зачёркнуто — отменено "
                    "ведущим (строка «отмена» называет, что отменено).",
          "tiebreak_scores": "очки перестрелки", "undone": "отменено", "digest": "отпечаток", "events": "записей",
          "no_game_over": "Игра не окончена: протокол по журналу на момент чтения."}


LOTS = ((re.compile(r"^first chooser$"), "первый выбирающий"),
        (re.compile(r"^chooser of round (\d+)$"), r"выбирающий в раунде \1"),
        (re.compile(r"^extra topic of tie-break (\d+)$"), r"тема перестрелки \1"),
        (re.compile(r"^chooser of tie-break (\d+)$"), r"выбирающий в перестрелке \1"),
        (re.compile(r"^winner \(tie after the tie-break\)$"), "победитель (равенство после перестрелки, TB4)"))


def lot_what(what) -> str:
    for pattern, words in LOTS:
        if pattern.match(str(what)):
            return pattern.sub(words, str(what))
    return str(what)


def seat_name(names: dict[int, str], seat) -> str:
    if seat is None:
        return ""
    return f"{seat} · {names.get(seat, f'Игрок {seat}')}"


def clock(at: float | None) -> str:
    """Game time as м:сс.д (a tenth of a second: what a secretary can check against a video)."""
    if at is None:
        return ""
    tenths = round(at * 10)
    return f"{tenths // 600}:{tenths // 10 % 60:02d}.{tenths % 10}"


def points(deltas: list[dict] | None, seat=None) -> str:
    """The points a line moved: `+20`, or with the seat when it is another's than the line's (`2: −20, 3: +20`)."""
    deltas = deltas or []
    if len(deltas) == 1 and deltas[0]["seat"] == seat:
        return f"{deltas[0]['delta']:+d}"
    return ", ".join(f"{d['seat']}: {d['delta']:+d}" for d in deltas)


def ignored_reason(reason: str) -> str:
    for pattern, words in IGNORED:
        if pattern.search(reason or ""):
            return words
    return reason or "не принято"


def press_detail(line: dict) -> str:
    parts = []
    if line.get("source"):
        parts.append(SOURCES.get(line["source"], line["source"]))
    if line.get("bound_ms") is not None:
        parts.append(f"±{line['bound_ms']} мс")
    return f" ({', '.join(parts)})" if parts else ""


def say(line: dict, names: dict[int, str]) -> str:
    """One line of the protocol in words (without its time, seat column and points)."""
    what = line.get("what")
    amount = line.get("amount")
    verdict = VERDICTS.get(line.get("verdict"), line.get("verdict") or "")
    text = {
        "press": lambda: "нажатие — право ответа" + press_detail(line),
        "press_late": lambda: "нажатие после соперника (право нажатия использовано)" + press_detail(line),
        "false_start": lambda: f"фальстарт — блокировка {line['locked_s']:g} с (BZ7)" + press_detail(line)
        if line.get("locked_s") else "фальстарт" + press_detail(line),
        "ignored": lambda: ("нажатие не принято: " if line.get("address") == "/sg/button"
                            else f"{line.get('address')} не принято: ") + ignored_reason(line.get("reason"))
        + press_detail(line),
        "verdict": lambda: f"ответ: {verdict}",
        "timeout": lambda: "время ответа вышло — считается неверным (BZ5)",
        "window_closed": lambda: "время окна вышло, никто не нажал",
        "final_time": lambda: "время на запись ответа вышло",
        "final_time_host": lambda: "«Время» — запись ответов окончена ведущим",
        "reading_done": lambda: "чтение окончено — окно открыто",
        "resume": lambda: "продолжение после неверного ответа",
        "time": lambda: "«Время» — вопрос закрыт ведущим",
        "replace": lambda: "вопрос снят, играется резервный (G9)",
        "pause": lambda: "пауза", "unpause": lambda: "пауза снята",
        "clarify": lambda: "«Уточните» (BZ10)",
        "waive": lambda: "раунд без аукциона (решение ведущего)",
        "final_start": lambda: "вопрос финала прочитан, пошло время",
        "start": lambda: "начало игры",
        "chooser": lambda: f"выбирает вопрос: {seat_name(names, line.get('seat'))}",
        "assign": lambda: "ведущий дал слово (ручной режим)",
        "answerer": lambda: ("близкие нажатия — ведущий назвал отвечающим этого игрока вместо "
                             f"{seat_name(names, line.get('instead'))} (BZ11)"),
        "name": lambda: f"имя игрока {line.get('seat')}: {line.get('name')}",
        "pack": lambda: f"пакет: {line.get('name')}",
        "topics": lambda: f"темы: {line.get('name')}",
        "final_topic": lambda: f"тема финала: {line.get('name')}",
        "extend": lambda: f"время ответа продлено на {amount:g} с",
        "manual": lambda: "ручной режим кнопок " + ("включён" if line.get("on") else "выключен"),
        "new_game": lambda: "новая игра",
        "bid": lambda: f"ставка {amount}",
        "allin": lambda: f"ва-банк ({amount})",
        "pass": lambda: "пас" + (" (не может перебить ставку, AU6)" if line.get("auto") else ""),
        "auction_won": lambda: f"аукцион выигран, ставка {amount}",
        "stake": lambda: f"ставка {amount}" if amount is not None else "ставка сделана (не вскрыта)",
        "final_judge": lambda: f"ответ оценён: {verdict}" if verdict else "ответ оценён (не вскрыт)",
        "reveal": lambda: f"вскрытие: ставка {amount}, {verdict}, счёт {line.get('score')}",
        "adjust": lambda: f"поправка счёта {amount:+d}" + (f": {line['reason']}" if line.get("reason") else ""),
        "rejudge": lambda: f"переоценка: ответ засчитан как «{verdict}» (G8)",
        "undo": lambda: "отмена: снято — " + COMMANDS.get(line.get("undone_address"), line.get("undone_address") or "?")
        + (f" от {clock(line.get('undone_at'))}" if line.get("undone_at") is not None else ""),
        "lot": lambda: f"жребий — {lot_what(line['lot'].get('what'))}: "
                       + (f"тема «{line['lot']['choice']}»" if line["lot"].get("choice")
                          else seat_name(names, line["lot"].get("result"))),
        "game_over": lambda: ("игра окончена — победитель " + seat_name(names, line.get("seat"))) if line.get("seat")
        else "игра окончена без победителя" + (f": {line['reason']}" if line.get("reason") else ""),
        "other": lambda: str(line.get("address")),
    }.get(what)
    return text() if text else str(what)


def how_decided(result: dict, names: dict[int, str]) -> str:
    """How the game was decided: the winner on points, after a tie-break, by lot, or why nobody won."""
    if not result.get("game_over"):
        return LABELS["no_game_over"]
    parts = []
    if result.get("winner"):
        parts.append(f"победитель {seat_name(names, result['winner'])}")
    else:
        parts.append("без победителя: " + NO_WINNER.get(result.get("no_winner"), result.get("no_winner_reason") or ""))
    if result.get("shared_first"):
        parts.append("первое место делят " + ", ".join(seat_name(names, s) for s in result["shared_first"]))
    if result.get("tiebreaks"):
        parts.append(f"равенство решалось перестрелкой ({result['tiebreaks']})")
    for lot in result.get("lots") or []:
        if str(lot.get("what", "")).startswith("winner"):
            parts.append(f"жребий — {lot_what(lot.get('what'))}: {seat_name(names, lot.get('result'))}")
    return "; ".join(parts)
