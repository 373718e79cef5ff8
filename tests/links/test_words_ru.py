"""Issue 9 item 4: one language for all operator text, refusals included — every reason the board can give reaches
the host in Russian (the protocol keeps the English words for third-party controllers)."""
import ast
import glob
import os
import re

import pytest

from scoreboard.engine import phases
from scoreboard.links import words_ru

ROOT = os.path.join(os.path.dirname(__file__), "..", "..", "scoreboard")
RAISERS = {"Refused": "refusal", "BadCommand": "refusal", "PermissionError": "refusal", "Denied": "denial"}


def _sample(node: ast.expr) -> str | None:
    """The text a raise site's message literal gives with plausible values in its fields (None: not a literal)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if not isinstance(node, ast.JoinedStr):
        return None
    out = []
    for part in node.values:
        if isinstance(part, ast.Constant):
            out.append(part.value)
            continue
        expr = ast.unparse(part.value)
        if "_arity" in expr:
            out.append("1 to 2 argument(s)" if "takes" in out[-1] else "2 argument(s)")
        elif "phase" in expr:
            out.append("reading" if "join" in expr else "choosing")
        elif "address" in expr:
            out.append("/sg/select")
        elif "verdict" in expr or "already" in expr:
            out.append("right")
        elif "'on' if" in expr:
            out.append("on")
        elif "where" in expr:
            out.append("argument 2")
        elif part.conversion == ord("r"):
            out.append("'Вера Смирнова-Оболенская'")
        else:
            out.append("7")
    return "".join(out)


def _reasons():
    """(file:line, kind, sample) for every literal reason raised or sent by the engine, the session and the links."""
    files = glob.glob(os.path.join(ROOT, "engine", "*.py")) + [os.path.join(ROOT, "session.py")] + glob.glob(
        os.path.join(ROOT, "links", "**", "*.py"), recursive=True)
    for path in sorted(files):
        tree = ast.parse(open(path, encoding="utf-8").read())
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", getattr(node.func, "attr", None))
            where = f"{os.path.relpath(path, ROOT)}:{node.lineno}"
            if name in RAISERS and node.args:
                text = _sample(node.args[0])
                if text is not None:
                    yield where, RAISERS[name], text
            elif name == "build" and node.args and isinstance(node.args[0], ast.Constant) \
                    and node.args[0].value in ("/sg/denied", "/sg/error"):
                text = _sample(node.args[-1])
                if text is not None:
                    yield where, "denial" if node.args[0].value == "/sg/denied" else "refusal", text
            elif name == "on_result" and len(node.args) == 2 and isinstance(node.args[0], ast.Constant) \
                    and node.args[0].value is False:
                text = _sample(node.args[1])
                if text is not None:
                    yield where, "refusal", text


REASONS = list(_reasons())


def test_the_scan_finds_the_board_s_reasons():
    """GIVEN the sources WHEN scanned THEN the scan sees the engine's, the parser's and the links' reasons (a scan
    that found nothing would pass every check below)."""
    assert len(REASONS) > 90
    kinds = {kind for _, kind, _ in REASONS}
    assert kinds == {"refusal", "denial"}


@pytest.mark.parametrize("where,kind,text", REASONS, ids=[w for w, _, _ in REASONS])
def test_every_reason_the_board_gives_has_russian_words(where, kind, text):
    """GIVEN a reason the board can raise or send (sampled with plausible values) WHEN the remote puts it in the
    operator's language THEN the table has a line for it, and no English is left in the Russian."""
    said = getattr(words_ru, kind)(text)
    assert said is not None, f"{where}: no Russian words for {text!r}"
    assert not re.search(r"\b(the|is|not|has|must|only|already|got|seat)\b", said), (where, said)


# The phase table's refusals are data, not raise sites: the scan above does not see them (issue 11 item 4).
TABLE_REFUSALS = sorted(set(phases.NOT_NOW.values()) | set(phases.OUTSIDE_PLAY.values())
                        | {row.reason for row in phases.NEEDS if not row.ignored}
                        | {phases.not_now(address, phase) for phase in phases.Phase for address in ("/sg/judge/right",)
                           if address not in phases.ACCEPTS[phase]})


@pytest.mark.parametrize("text", TABLE_REFUSALS)
def test_the_phase_table_refusals_are_in_russian(text):
    """GIVEN every refusal of the engine's phase table («Дальше» in each phase, «not now», what a command needs)
    WHEN translated THEN it is Russian."""
    said = words_ru.refusal(text)
    assert said is not None, f"no Russian words for {text!r}"
    assert not re.search(r"\b(the|is|not|has|must|only|already|got|seat)\b", said), said


def test_phase_names_and_values_are_carried_into_the_words():
    """GIVEN refusals with a phase, seats and values WHEN translated THEN the phase is named in Russian and the
    numbers are kept."""
    assert words_ru.refusal("not now: the game is in auction, this needs choosing") == "не сейчас: идёт аукцион"
    assert words_ru.refusal("seat 2 can bid at most its score 1200 (AU2, AU3)") == \
        "место 2 может поставить не больше своего счёта 1200 (AU2, AU3)"
    assert words_ru.refusal("something the table has never heard of") is None


def test_the_page_gets_javascript_replacements():
    """GIVEN the tables WHEN served to the browser remote THEN group references are JavaScript's `$1`, and every
    pattern uses only syntax JavaScript shares (no named groups, no inline flags, no possessive or atomic groups)."""
    page = words_ru.for_the_page()
    assert all("\\1" not in phrase for _, phrase in page["refusals"])
    assert any("$1" in phrase for _, phrase in page["refusals"])
    for pattern, _ in page["refusals"] + page["denials"]:
        assert not re.search(r"\(\?P|\(\?[aiLmsux]|\(\?>|[*+?]\+", pattern.replace(r"\+", "")), pattern


def test_every_phase_has_its_russian_words():
    """GIVEN the engine's phases WHEN a refusal names one («не сейчас: …») THEN the host reads it in Russian: the table
    has every phase, keyed by the engine's Phase (a phase added to the engine fails here, not on the remote)."""
    assert set(words_ru.PHASES_RU) == set(phases.Phase) and all(words_ru.PHASES_RU.values())
