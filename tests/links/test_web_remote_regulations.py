"""The browser remote drives what only some regulations have (issue 13 item 3): sequential play, the answer clock's
extension and «Уточните», the super-question and its tie-break (america, G4, BZ5, BZ10, FN3, TB2), and samara's
extra topic (TB3).
Each board is the real `scoreboard run` under Xvfb resuming a hand-checked example script's journal near the
moment the test is about; one Chromium at a phone's size serves the module."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from scoreboard.session import replay_snapshot
from webhelp import (PASSCODE, PHONE, TABLET, Osc, Page, assert_fixed, browser, journal_commands, layout, real_board,
                     resize, scripted_journal, wait_for)

SHOTS = Path(os.environ["SG_SCREENSHOTS"]) if os.environ.get("SG_SCREENSHOTS") else None


@pytest.fixture(scope="module")
def phone(tmp_path_factory):
    driver = browser(PHONE, tmp_path_factory.mktemp("chromium"))
    yield driver
    driver.quit()


def look(page: Page, name: str) -> dict:
    """THEN no text leaves its element, at the phone's size and at the tablet's (the same page turned into a
    landscape tablet and back); the screenshots when SG_SCREENSHOTS is set. Returns the phone's layout."""
    points = {}
    for size, (w, h) in (("tablet", TABLET), ("phone", PHONE)):
        resize(page.d, (w, h))
        wait_for(lambda: page.d.execute_script("return window.innerWidth") == w, 10, f"{size} size")
        points[size] = point = layout(page.d)
        assert not point["overflow"], f"{name} on the {size}: {point['overflow']}"
        if SHOTS is not None:
            page.d.save_screenshot(str(SHOTS / f"{size}-{name}.png"))
    return points["phone"]


def test_g4_bz5_bz10_fn3_tb2_america_sequential_play_extension_super_question_and_tie_break(phone, tmp_path):
    """G4, BZ5, BZ10, FN3, TB2: GIVEN the real board resuming america's final (examples/america-2005-final.txt) at the
    end of a red topic WHEN the page goes on to the next topic and its first question (sequential: «Дальше», never
    a cell), ends the reading, extends seat 1's 3 s answer and asks it to clarify, judges it right, and (the
    topic's other questions fast-forwarded over OSC) types the super-question's topic, takes its stakes, starts it, ends the
    writing, judges and reveals — a 270–270 tie — and plays the extra question among the tied two
    THEN the journal holds each tap once in that order, the slots of the answer stay put while the clock is
    extended, the countdown shows the 20 s of the super-question, seat 3 is out of the extra question, and the
    game ends with its winner, the scores untouched by it."""
    journal = scripted_journal(tmp_path / "game.sqlite", "america-2005-final.txt", lambda line: line.at == 186.5)
    scripted = len(journal_commands(journal))
    with real_board(tmp_path, journal) as (url, osc_port, journal, _):
        osc = Osc(osc_port)
        try:
            page = Page(phone, journal)
            page.connect(url)
            page.tap("pause", "/sg/unpause")
            assert phone.find_elements("css selector", '#grid [data-key^="select:"]') == []   # no cells to pick
            page.tap("next", "/sg/next", "тема")
            look(page, "sequential-topic")
            page.tap("next", "/sg/next", "чтение")
            page.tap("read", "/sg/reading/done", "жмите")
            osc.press(1)
            wait_for(lambda: page._enabled("extend"), 20, "seat 1 answering on the clock")
            before = layout(phone)
            page.tap("extend", "/sg/answer/extend")
            page.tap("clarify", "/sg/answer/clarify")
            after = look(page, "america-answering-extended")
            assert_fixed([("answering", before), ("extended and clarified", after)],
                         ("read", "right", "wrong", "time", "resume", "extend", "clarify", "replace"))
            page.tap("right", "/sg/judge/right", "ответ показан")
            for _ in range(4):
                osc.command("/sg/next")
                osc.command("/sg/reading/done")
                osc.command("/sg/time")
            osc.command("/sg/next")
            wait_for(lambda: page.phase().startswith("ставки · суперфинал"), 20, "the super-question's stakes")
            assert page.amount("final_topic", "Литература", "/sg/final/topic") == ("Литература",)   # typed
            wait_for(lambda: page.el('[data-key="final_topic"]').text.endswith("Литература"), 20, "the topic shown")
            for seat, stake in ((1, 100), (2, 0), (3, 10)):        # FN3: from 0 up to the score; 270–270 after it
                assert page.amount(f"stake:{seat}", stake, "/sg/final/stake") == (seat, stake)
                wait_for(lambda: page.el(f'[data-key="stake:{seat}"]').text.endswith("✓"), 20, "stake in")
            look(page, "super-question-stakes")
            page.tap("final_start", "/sg/final/start", "запись ответов")
            wait_for(lambda: page.el("#timer").text.endswith("с"), 20, "the countdown")
            assert float(page.el("#timer").text.split()[0]) <= 20.0
            look(page, "super-question-writing")
            page.tap("end_writing", "/sg/next", "открытие ответов")
            for key in ("final_right:1", "final_wrong:2", "final_wrong:3"):
                page.tap(key, "/sg/final/judge")
            for seat in (1, 2, 3):
                page.tap(f"final_reveal:{seat}", "/sg/final/reveal")
            # TB2: the tie for first after the super-question: one extra question at a time among the tied.
            wait_for(lambda: page.phase().startswith("начало раунда · доп. тема"), 20, "the extra question")
            assert "out" in page.el('[data-key="p:3"]').get_attribute("class")
            page.tap("next", "/sg/next", "тема")
            page.tap("next", "/sg/next", "чтение")
            page.tap("read", "/sg/reading/done", "жмите")
            osc.press(2)
            page.tap("right", "/sg/judge/right", "ответ показан")
            look(page, "america-tiebreak")
            page.tap("next", "/sg/next", "игра окончена")
            assert page.el('[data-key="p:2"] .mark').text == "★"
            look(page, "america-game-over")
        finally:
            osc.close()
    applied = [a for a, _ in journal_commands(journal)][scripted:]
    applied = applied[applied.index("/sg/unpause"):]
    assert applied[:7] == ["/sg/unpause", "/sg/next", "/sg/next", "/sg/reading/done", "/sg/button",
                           "/sg/answer/extend", "/sg/answer/clarify"], applied
    snapshot = replay_snapshot(journal)
    assert snapshot["game_over"] and snapshot["final"]["kind"] == "super_question" and snapshot["winner"] == 2
    assert [p["score"] for p in snapshot["players"]] == [270, 270, 0]


def test_tb3_samara_tie_break_topic_played_from_the_page(phone, tmp_path):
    """TB3: GIVEN the real board resuming samara's cup game (examples/samara-2003-cup-tiebreak.txt) with seats 1
    and 2 tied at 150 after the last question WHEN the page taps «Дальше», plays the extra topic's first question
    (seat 2 right) and, the other four fast-forwarded over OSC, ends the game THEN the page says it is the extra
    topic, shows seat 3 out of it and the extra points apart from the score, and the board's game ends with seat 2
    the winner and the scores unchanged by the extra topic."""
    journal = scripted_journal(tmp_path / "game.sqlite", "samara-2003-cup-tiebreak.txt", lambda line: line.at == 77.0)
    with real_board(tmp_path, journal, regulation=("samara-2003", "cup")) as (url, osc_port, journal, _):
        osc = Osc(osc_port)
        try:
            page = Page(phone, journal)
            page.connect(url)
            page.tap("pause", "/sg/unpause")
            page.tap("next", "/sg/next", "начало раунда · доп. тема")
            assert "out" in page.el('[data-key="p:3"]').get_attribute("class")
            look(page, "tiebreak")
            page.tap("select:1:1", "/sg/select", "чтение")
            page.tap("read", "/sg/reading/done", "жмите")
            osc.press(2)
            page.tap("right", "/sg/judge/right", "ответ показан")
            wait_for(lambda: page.el('[data-key="p:2"] .extra').text == "доп. тема: 10", 20, "the extra points apart")
            assert page.el('[data-key="p:2"] .score').text == "150"
            for cell in (2, 3, 4, 5):
                osc.command("/sg/select", 1, cell)
                osc.command("/sg/reading/done")
                osc.command("/sg/time")
            page.tap("next", "/sg/next", "игра окончена")
            assert page.el('[data-key="p:2"] .mark').text == "★"
            look(page, "tiebreak-game-over")
        finally:
            osc.close()
    snapshot = replay_snapshot(journal)
    assert snapshot["game_over"] and snapshot["winner"] == 2
    assert [p["score"] for p in snapshot["players"]][:2] == [150, 150]


def test_bz11_the_photo_finish_on_the_hosts_page_and_the_other_player_named(phone, tmp_path):
    """Issue 27 item 2, BZ11: GIVEN the real board and the page in Chromium (the module's phone) WHEN seat 2's key
    and seat 1's phone press 12 ms apart (± 17 and ± 28 ms) and a box press 31 ms later THEN the page lists the three
    presses in order with their gaps, sources and bounds, marks the close call (and the bar says so), and offers to
    name seat 1; WHEN the
    host taps it THEN the journal holds `/sg/answerer 1` and the page says who was named instead of whom; WHEN the
    host taps «На экран», then «Убрать» THEN the journal holds `/sg/photo/show`, the panel says it is on the hall's
    screens, then `/sg/photo/hide` and it no longer does (issue 27 item 2); a view session's page never shows the
    panel."""
    with real_board(tmp_path) as (url, osc_port, journal, _):
        osc = Osc(osc_port)
        try:
            for address, *args in [("/sg/game/start",), ("/sg/chooser", 1), ("/sg/select", 1, 1),
                                   ("/sg/reading/done",), ("/sg/button", 2, "key", 17), ("/sg/button", 1, "phone", 28),
                                   ("/sg/button", 3, "box", 2)]:
                osc.command(address, *args)
            page = Page(phone, journal)
            page.connect(url)
            rows = wait_for(lambda: [r.text for r in phone.find_elements("css selector", "#photo .photo-row")]
                            if len(phone.find_elements("css selector", "#photo .photo-row")) == 3 else None,
                            20, "three presses on the page")
            assert "клавиша ±17" in rows[0] and "первый" in rows[0]
            assert "телефон ±28" in rows[1] and "мс" in rows[1] and "≈ позже" in rows[1]
            assert "кнопка ±2" in rows[2] and "позже" in rows[2]
            assert page.el("#photo .photo-close").text.startswith("СПОРНО")
            assert page.phase().endswith("СПОРНО ↓")         # on the phone the panel is below the slots
            look(page, "photo-finish")
            page.tap("answerer:1", "/sg/answerer")
            wait_for(lambda: "вместо" in page.el("#photo").text, 20, "the named player on the page")
            assert ("/sg/answerer", (1,)) in journal_commands(journal)
            # issue 27 item 2: «На экран» sends it to the hall's screens; the panel says so; «Убрать» takes it away
            title = "return (document.querySelector('#photo .photo-title') || {}).textContent || ''"   # rebuilt
            page.tap("photo:show", "/sg/photo/show")
            wait_for(lambda: "на экране зала" in phone.execute_script(title), 20, "on the hall's screens")
            look(page, "photo-finish-on-the-hall")
            page.tap("photo:hide", "/sg/photo/hide")
            wait_for(lambda: "на экране зала" not in phone.execute_script(title), 20, "taken away")
            phone.get(url + "?view")
            phone.execute_script("sessionStorage.clear()")
            phone.get(url + "?view")
            page.el("#passcode").send_keys(PASSCODE)
            page.el("#connect-form button").click()
            wait_for(lambda: not page.el("#game").get_attribute("hidden"), 20, "the view page")
            wait_for(lambda: page.phase() != "", 20, "a state on the view page")
            assert page.el("#photo").get_attribute("hidden") is not None and page.el("#photo").text == ""
        finally:
            osc.close()
