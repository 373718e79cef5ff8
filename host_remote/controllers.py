"""Third-party controllers: an Open Stage Control session and a TouchOSC / Bitfocus Companion command table.

Both are generated from one table (`BUTTONS`) so that they cannot drift from the command vocabulary; a test
checks every entry against `scoreboard.engine.commands.SPEC` and that the committed files are what this writes.

    python -m host_remote.controllers docs/controllers

Third-party controllers send the plain `/sg/...` form (no command ids, no retries): a lost datagram is a lost tap.
They need a session first (`/sg/connect passcode host`) from the same IP and port they send commands from.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

SEATS = 4
GRID_TOPICS = 6        # the largest choice-mode board (novosibirsk final, G3)
GRID_QUESTIONS = 5

# (tab, label, address, args) — args may hold "{amount}" / "{passcode}" placeholders filled from input fields.
BUTTONS: list[tuple[str, str, str, tuple]] = [
    ("Игра", "Вопрос прочитан", "/sg/reading/done", ()),
    ("Игра", "Верно", "/sg/judge/right", ()),
    ("Игра", "Неверно", "/sg/judge/wrong", ()),
    ("Игра", "Продолжить", "/sg/resume", ()),
    ("Игра", "Время", "/sg/time", ()),
    ("Игра", "Дальше", "/sg/next", ()),
    ("Игра", "+3 с на ответ", "/sg/answer/extend", (3,)),
    ("Игра", "Отменить", "/sg/undo", ()),
    ("Игра", "Пауза", "/sg/pause", ()),
    ("Игра", "Снять паузу", "/sg/unpause", ()),
    ("Игра", "Кнопки вручную", "/sg/buttons/manual", (1,)),
    ("Игра", "Кнопки включить", "/sg/buttons/manual", (0,)),
    ("Игра", "Заменить вопрос", "/sg/question/replace", ()),
    ("Игра", "Старт финала", "/sg/final/start", ()),
    ("Игра", "Начать игру", "/sg/game/start", ()),
    ("Экран", "Табло", "/sg/screen", ("board",)),
    ("Экран", "Счёт", "/sg/screen", ("scores",)),
    ("Экран", "График", "/sg/screen", ("chart",)),
    ("Экран", "Логотип", "/sg/screen", ("logo",)),
    ("Экран", "Победитель", "/sg/screen", ("winner",)),
]
for _seat in range(1, SEATS + 1):
    BUTTONS += [
        (f"Игрок {_seat}", "Кнопка", "/sg/button", (_seat,)),
        (f"Игрок {_seat}", "Отвечает (вручную)", "/sg/assign", (_seat,)),
        (f"Игрок {_seat}", "Выбирает", "/sg/chooser", (_seat,)),
        (f"Игрок {_seat}", "Аукцион: ставка", "/sg/auction/bid", (_seat, "{amount}")),
        (f"Игрок {_seat}", "Аукцион: ва-банк", "/sg/auction/allin", (_seat,)),
        (f"Игрок {_seat}", "Аукцион: пас", "/sg/auction/pass", (_seat,)),
        (f"Игрок {_seat}", "Финал: ставка", "/sg/final/stake", (_seat, "{amount}")),
        (f"Игрок {_seat}", "Финал: верно", "/sg/final/judge", (_seat, "right")),
        (f"Игрок {_seat}", "Финал: неверно", "/sg/final/judge", (_seat, "wrong")),
        (f"Игрок {_seat}", "Финал: открыть", "/sg/final/reveal", (_seat,)),
        (f"Игрок {_seat}", "Перерешить: верно", "/sg/rejudge", (_seat, "right")),
        (f"Игрок {_seat}", "Перерешить: неверно", "/sg/rejudge", (_seat, "wrong")),
        (f"Игрок {_seat}", "Поправка счёта", "/sg/score/adjust", (_seat, "{amount}")),
    ]
for _topic in range(1, GRID_TOPICS + 1):
    for _question in range(1, GRID_QUESTIONS + 1):
        BUTTONS.append(("Сетка", f"{_topic}·{_question}", "/sg/select", (_topic, _question)))

CONNECT = ("Связь", "Подключиться", "/sg/connect", ("{passcode}", "host"))


def _js_arg(arg, amount_id: str = "amount") -> str:
    """One argument of an Open Stage Control `send()` call, typed explicitly (ints as 'i')."""
    if arg == "{amount}":
        return f"{{type: 'i', value: parseInt(get('{amount_id}'))}}"
    if arg == "{passcode}":
        return "{type: 's', value: String(get('passcode'))}"
    if isinstance(arg, int):
        return f"{{type: 'i', value: {arg}}}"
    return f"{{type: 's', value: {json.dumps(arg, ensure_ascii=False)}}}"


def _button(widget_id: str, label: str, address: str, args: tuple, left: str, top: str, width: str, height: str,
            amount_id: str = "amount"):
    # The widget's own message would carry its value (1) as an extra argument, which the board refuses;
    # `bypass` silences it and the script sends the exact command on the press only.
    call = ", ".join([json.dumps(address)] + [_js_arg(a, amount_id) for a in args])
    return {"type": "button", "id": widget_id, "label": label, "mode": "tap", "on": 1, "off": 0,
            "left": left, "top": top, "width": width, "height": height, "address": address, "preArgs": "",
            "typeTags": "", "target": "", "bypass": True, "interaction": True, "visible": True,
            "onValue": f"if (value === 1) send({call})", "css": "font-size: 18px"}


def _tab(number: int, label: str, widgets: list) -> dict:
    return {"type": "tab", "id": f"tab_{number}", "label": label, "widgets": widgets,
            "tabs": [], "layout": "default", "visible": True, "interaction": True}


def _input(widget_id: str, label: str, left: str, top: str, default: str) -> dict:
    return {"type": "input", "id": widget_id, "label": label, "left": left, "top": top, "width": "30%",
            "height": "10%", "value": default, "default": default, "address": f"/local/{widget_id}",
            "bypass": True, "visible": True, "interaction": True}


def _text(widget_id: str, address: str, left: str, top: str) -> dict:
    # Receives what the board answers (connected / denied / error) and shows its arguments.
    return {"type": "text", "id": widget_id, "label": address, "left": left, "top": top, "width": "60%",
            "height": "10%", "address": address, "preArgs": "", "visible": True, "interaction": False}


def open_stage_control_session() -> dict:
    tabs: dict[str, list] = {}
    for tab, label, address, args in BUTTONS:
        tabs.setdefault(tab, []).append((label, address, args))
    built = []
    connect_tab = [
        _input("passcode", "Пароль табло", "0%", "0%", ""),
        _button("connect", CONNECT[1], CONNECT[2], CONNECT[3], "32%", "0%", "30%", "10%"),
        _text("connected", "/sg/connected", "0%", "15%"),
        _text("denied", "/sg/denied", "0%", "27%"),
        _text("error", "/sg/error", "0%", "39%"),
    ]
    built.append(_tab(0, "Связь", connect_tab))
    for number, (tab, entries) in enumerate(tabs.items(), start=1):
        widgets = []
        amount_id = f"amount_{number}"
        if tab.startswith("Игрок"):
            widgets.append(_input(amount_id, "Сумма", "0%", "0%", "10"))
        columns = GRID_QUESTIONS if tab == "Сетка" else 4
        offset = 1 if tab.startswith("Игрок") else 0
        for i, (label, address, args) in enumerate(entries):
            row, col = divmod(i + offset * columns, columns)
            widgets.append(_button(f"button_{number}_{i}", label, address, args, f"{col * 100 // columns}%",
                                   f"{row * 13}%", f"{100 // columns - 1}%", "12%", amount_id))
        built.append(_tab(number, tab, widgets))
    return {"createdWith": "Open Stage Control", "version": "1.14.4", "type": "session",
            "content": {"type": "root", "id": "root", "widgets": [], "tabs": built, "layout": "default",
                        "visible": True, "interaction": True}}


def command_table() -> str:
    """Markdown: every button as an OSC message a TouchOSC control or a Companion action can send."""
    lines = ["| group | label | OSC address | arguments (type) |", "|---|---|---|---|"]
    for tab, label, address, args in [CONNECT] + BUTTONS:
        if tab == "Сетка" and args != (1, 1) or tab.startswith("Игрок") and tab != "Игрок 1":
            continue   # one row stands for the whole grid, one for every seat
        typed = " ".join(_md_arg(a) for a in args) or "—"
        if tab == "Сетка":
            label, typed = "клетка тема·вопрос", "topic (int 1–6) question (int 1–5), e.g. `2` `3`"
        elif tab == "Игрок 1":
            tab = "Игрок N"
            typed = " ".join(["seat (int 1–4)"] + [_md_arg(a) for a in args[1:]])
        lines.append(f"| {tab} | {label} | `{address}` | {typed} |")
    return "\n".join(lines) + "\n"


def _md_arg(arg) -> str:
    if arg == "{amount}":
        return "amount (int)"
    if arg == "{passcode}":
        return "passcode (string)"
    return f"`{arg}` ({'int' if isinstance(arg, int) else 'string'})"


def write(directory: Path) -> list[Path]:
    directory.mkdir(parents=True, exist_ok=True)
    session = directory / "open-stage-control.json"
    session.write_text(json.dumps(open_stage_control_session(), ensure_ascii=False, indent=1) + "\n",
                       encoding="utf-8")
    table = directory / "commands-table.md"
    table.write_text("# Plain /sg/ commands for TouchOSC and Bitfocus Companion\n\n"
                     "Generated by `python -m host_remote.controllers docs/controllers`; see docs/REMOTE.md "
                     "(\"Third-party controllers\") for how to set a controller up.\n\n" + command_table(),
                     encoding="utf-8")
    return [session, table]


if __name__ == "__main__":
    for path in write(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/controllers")):
        print(path)
