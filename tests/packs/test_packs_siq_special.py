"""SIGame features beyond plain questions, each from a small content.xml the test writes in SIGame's own shape
(siq_5.xsd / ygpackage3.1.xsd, the element names SIQuester writes): special question types, cat in the bag with
its own topic and price, every final theme, wrong answers, select options, number answers, empty cells, HTML
items, the logo, comments and authors from <global>."""
import pytest

from scoreboard.engine.commands import make
from scoreboard.packs import ERROR, WARNING, load, load_plan
from scoreboard.session import Session
from siqbuild import NS4, NS5, png_bytes, write_siq


def q5(body: str, price: int = 100, qtype: str = "", answers=("Ответ",), wrong=(), info="") -> str:
    kind = f' type="{qtype}"' if qtype else ""
    right = "".join(f"<answer>{a}</answer>" for a in answers)
    bad = f"<wrong>{''.join(f'<answer>{a}</answer>' for a in wrong)}</wrong>" if wrong else ""
    return f'<question price="{price}"{kind}>{info}<params>{body}</params><right>{right}</right>{bad}</question>'


def text(t: str) -> str:
    return f'<param name="question" type="content"><item>{t}</item></param>'


def plain(n: int, theme: str = "Т") -> str:
    return q5(text(f"{theme} {n}"), 100 * n, info=f"<info><sources><source>Источник {n}</source></sources></info>")


def theme(name: str, questions: list[str], info: str = "") -> str:
    return f'<theme name="{name}">{info}<questions>{"".join(questions)}</questions></theme>'


def pack5(themes: list[str], finals=(), head: str = "", attrs: str = "", ns: str = NS5, rounds: int = 1) -> bytes:
    body = "".join(f'<round name="Раунд {r + 1}"><themes>{"".join(themes)}</themes></round>' for r in range(rounds))
    if finals:
        body += f'<round name="Финал" type="final"><themes>{"".join(finals)}</themes></round>'
    return (f'<?xml version="1.0" encoding="utf-8"?><package name="П" version="5" id="x" {attrs} xmlns="{ns}">'
            f'{head}<rounds>{body}</rounds></package>').encode()


def five(name: str, replace: dict[int, str] | None = None) -> str:
    return theme(name, [(replace or {}).get(n) or plain(n, name) for n in range(1, 6)])


def test_au1_stake_is_the_auction_and_the_plan_says_how_it_plays_without_auctions(tmp_path):
    """GIVEN a v5 stake question WHEN loaded THEN the cell is the auction (AU1) and one pack warning says it is an
    auction where the regulation has auctions and a plain question where it has none."""
    xml = pack5([five("А", {2: q5(text("ставка"), 200, "stake")})] + [five(f"Б{i}") for i in range(3)])
    plan = load_plan(str(write_siq(tmp_path / "p.siq", content=xml)))
    q = plan["rounds"][0]["topics"][0]["questions"][1]
    assert q["auction"] and q["kind"] == "stake"
    assert [w for w in plan["warnings"] if "stake" in w] == [
        "1 SIGame stake question: the auction (AU1) where the regulation has auctions, a plain question where it "
        "has none"]


SECRET = ('<param name="theme">Кошки</param><param name="price" type="numberSet">'
          '<numberSet minimum="{lo}" maximum="{hi}" step="{step}" /></param>'
          '<param name="selectionMode">exceptCurrent</param>')


@pytest.mark.parametrize("lo,hi,step,price", [(2000, 2000, 0, {"min": 2000, "max": 2000, "step": 0}),
                                              (100, 500, 0, {"min": 100, "max": 500, "step": 400}),
                                              (100, 500, 400, {"min": 100, "max": 500, "step": 400}),
                                              (100, 500, 100, {"min": 100, "max": 500, "step": 100})])
def test_p1_cat_in_the_bag_keeps_its_own_topic_and_price_on_the_board_and_the_host_screen(tmp_path, lo, hi, step,
                                                                                           price):
    """GIVEN a v5 «secret» question whose own topic is «Кошки» and whose price is fixed, a range or a selection
    WHEN the pack is played and that cell opens THEN the plan, the hall's snapshot and the host's question carry
    the topic and the price (never the answer to the hall), with one warning naming the cell."""
    body = SECRET.format(lo=lo, hi=hi, step=step) + text("Кто мурлычет?")
    xml = pack5([five("Звери", {1: q5(body, 100, "secret", answers=("Кошка",))})] + [five(f"Т{i}") for i in range(3)],
                rounds=2)
    path = str(write_siq(tmp_path / "p.siq", content=xml))
    plan = load_plan(path)
    secret = plan["rounds"][0]["topics"][0]["questions"][0]["secret"]
    assert secret == {"topic": "Кошки", "price": price, "public": False, "no_question": False}
    assert sum("«secret» (cat in the bag: topic «Кошки»" in w for w in plan["warnings"]) == 2   # both rounds
    session, t = Session(), 0.0
    for command in (("/sg/game/new", "novosibirsk-2007", "1/9", "3"), ("/sg/pack/load", path), ("/sg/game/start",),
                    ("/sg/chooser", "1"), ("/sg/next",), ("/sg/select", "1", "1")):
        t += 1
        snap = session.submit(make(t, *command))
    assert snap["question"]["secret"] == {"topic": "Кошки", "price": price}
    assert "Кошка" not in str(snap)
    host = session.host_question()
    assert host["secret"]["topic"] == "Кошки" and host["answer"] == "Кошка" and host["pack_kind"] == "secret"


def test_p1_v4_bagcat_keeps_topic_and_cost_and_knows_never_is_a_secret_without_question(tmp_path):
    """GIVEN v4 `<type name="bagcat">` with theme/cost params (knows after), and one with knows=never WHEN loaded
    THEN the first is a cat in the bag with topic and price, the second a secret with no question: not an error,
    one warning saying the host awards its price."""
    def v4(n, kind="", params="", body="Вопрос"):
        t = f'<type name="{kind}">{params}</type>' if kind else ""
        return (f'<question price="{100 * n}">{t}<scenario><atom>{body} {n}</atom></scenario>'
                f'<right><answer>О{n}</answer></right></question>')
    cat = '<param name="theme">Кино</param><param name="cost">[100;500]</param><param name="knows">after</param>' \
          '<param name="self">false</param>'
    never = cat.replace("after", "never")
    questions = [v4(1, "bagcat", cat), v4(2, "bagcat", never, body=""), v4(3), v4(4), v4(5)]
    xml = (f'<?xml version="1.0" encoding="utf-8"?><package name="П" version="4" xmlns="{NS4}"><rounds>'
           f'<round name="Р"><themes>{theme("Кот", questions)}</themes></round></rounds></package>').encode()
    loaded = load(str(write_siq(tmp_path / "p.siq", content=xml)))
    first, second = loaded.pack.rounds[0].topics[0].questions[:2]
    assert (first.kind, first.secret_topic, first.secret_price) == ("secret", "Кино", "[100;500]")
    assert second.kind == "secretNoQuestion"
    assert not [i for i in loaded.issues if i.level == ERROR]
    assert sum("score correction" in i.message for i in loaded.issues if i.level == WARNING) == 1


def test_secret_no_question_in_a_topic_nobody_plays_never_blocks_a_game(tmp_path):
    """GIVEN a `secretNoQuestion` cell with no text and an empty answer (as SIQuester writes it) in a topic WHEN the
    pack is loaded by default and with that topic chosen THEN both load; the cell is marked in the plan."""
    cell = q5('<param name="price" type="numberSet"><numberSet minimum="700" maximum="700" step="0" /></param>',
              700, "secretNoQuestion", answers=("",))
    xml = pack5([five("Подарок", {4: cell})] + [five(f"Т{i}") for i in range(3)])
    path = str(write_siq(tmp_path / "p.siq", content=xml))
    assert load_plan(path)["rounds"][0]["topics"][0]["questions"][3]["secret"]["no_question"] is True
    assert load_plan(path, topics=["Подарок"])["rounds"][0]["topics"][0]["name"] == "Подарок"


@pytest.mark.parametrize("qtype", ["noRisk", "forAll", "forYourself", "stakeAll", "madeUpType"])
def test_other_special_types_play_as_normal_questions_with_one_warning(tmp_path, qtype):
    """GIVEN a v5 question of type noRisk / forAll / forYourself / stakeAll / an unknown type WHEN loaded THEN it
    plays as a normal question (not the auction), its kind is kept, exactly one warning names the cell."""
    xml = pack5([five("Особые", {3: q5(text("особый"), 300, qtype)})])
    loaded = load(str(write_siq(tmp_path / "p.siq", content=xml)))
    q = loaded.pack.rounds[0].topics[0].questions[2]
    assert q.kind == qtype and not q.auction and q.text == "особый"
    warned = [i for i in loaded.issues if f"«{qtype}»" in i.message]
    assert len(warned) == 1 and warned[0].level == WARNING and warned[0].where.endswith("question 3")


def final_theme(name: str, answer: str) -> str:
    return theme(name, [q5(text(f"Вопрос {name}"), 0, answers=(answer,),
                           info="<info><sources><source>С</source></sources></info>")],
                 info=f"<info><comments>Про {name}</comments></info>")


def test_fn2_every_final_theme_is_kept_and_the_host_question_follows_the_chosen_topic(tmp_path):
    """GIVEN a final round of three themes WHEN played under novosibirsk and the host names the third with
    /sg/final/topic THEN the plan lists all three (the first is the default), and the host's question during the
    stakes is the third theme's question and explanation."""
    xml = pack5([five(f"Т{i}") for i in range(4)],
                finals=[final_theme("Физика", "Ампер"), final_theme("Химия", "Натрий"), final_theme("Кино", "Чаплин")],
                rounds=2)
    path = str(write_siq(tmp_path / "p.siq", content=xml))
    plan = load_plan(path)
    assert [f["topic"] for f in plan["finals"]] == ["Физика", "Химия", "Кино"]
    assert plan["final"]["topic"] == "Физика"
    session, t = Session(), 0.0

    def send(*command):
        nonlocal t
        t += 1
        return session.submit(make(t, *command))
    send("/sg/game/new", "novosibirsk-2007", "1/9", "3")
    send("/sg/pack/load", path)
    send("/sg/final/topic", "Кино")
    snap = send("/sg/game/start")
    opened = 0
    for _ in range(400):           # play both rounds: seats 1 and 2 take turns answering right (FN1: both go on)
        phase = snap["phase"]
        if phase.startswith("final") or snap["game_over"]:
            break
        if phase == "choosing" and snap["round"]["auctions_missing"]:
            snap = send("/sg/auction/waive")            # AU1 Decision: this pack marks no auction; the host waives
        elif phase == "choosing":
            cell = next((k + 1, c + 1) for k, tp in enumerate(snap["round"]["topics"])
                        for c, cell in enumerate(tp["cells"]) if not cell["played"])
            snap = send("/sg/select", *map(str, cell))
        elif phase == "reading":
            opened += 1
            snap = send("/sg/button", str(opened % 2 + 1))
        elif phase == "answering":
            snap = send("/sg/judge/right")
        elif phase == "auction":
            a = snap["auction"]
            snap = send("/sg/auction/pass", str(a["turn"]))
        elif phase == "auction_answer":
            snap = send("/sg/judge/right")
        elif phase == "round_intro" and snap["chooser"] is None:
            low = min(snap["players"], key=lambda p: (p["score"], p["seat"]))      # G5: the lowest score chooses
            send("/sg/chooser", str(low["seat"]))
            snap = send("/sg/next")
        else:
            snap = send("/sg/next")
    assert snap["phase"] == "final_stakes", snap["phase"]
    host = session.host_question()
    assert (host["topic_name"], host["text"], host["answer"]) == ("Кино", "Вопрос Кино", "Чаплин")
    assert host["topic_explanation"] == "Про Кино"


def test_a_broken_final_theme_the_host_could_choose_does_not_block(tmp_path):
    """GIVEN three final themes, the second with no answer WHEN loaded THEN the pack loads, the plan offers the other
    two, and `pack check` still reports the broken one as an error."""
    broken = theme("Пусто", [q5(text("?"), 0, answers=())])
    xml = pack5([five(f"Т{i}") for i in range(4)], finals=[final_theme("А", "1"), broken, final_theme("В", "3")])
    path = str(write_siq(tmp_path / "p.siq", content=xml))
    assert [f["topic"] for f in load_plan(path)["finals"]] == ["А", "В"]
    errors = [i for i in load(path).issues if i.level == ERROR]
    assert [(e.where, e.message) for e in errors] == [("final topic «Пусто»", "the question has no answer")]


def test_p1_right_accepted_and_wrong_answers_reach_the_host_question(tmp_path):
    """GIVEN a question with two right answers and two `<wrong>` ones WHEN it is opened in a game THEN the host's
    question has the answer, the accepted alternative and both wrong answers; the hall's snapshot has none."""
    cell = q5(text("Столица Австралии"), 100, answers=("Канберра", "Canberra"), wrong=("Сидней", "Мельбурн"))
    xml = pack5([five("Города", {1: cell})] + [five(f"Т{i}") for i in range(3)], rounds=2)
    path = str(write_siq(tmp_path / "p.siq", content=xml))
    session, t = Session(), 0.0
    for command in (("/sg/game/new", "novosibirsk-2007", "1/9", "3"), ("/sg/pack/load", path), ("/sg/game/start",),
                    ("/sg/chooser", "1"), ("/sg/next",), ("/sg/select", "1", "1")):
        t += 1
        snap = session.submit(make(t, *command))
    host = session.host_question()
    assert (host["answer"], host["accepts"], host["wrong"]) == ("Канберра", ["Canberra"], ["Сидней", "Мельбурн"])
    assert "Сидней" not in str(snap) and "Канберра" not in str(snap)


def test_p1_select_question_keeps_its_options_as_the_hall_sees_them(tmp_path):
    """GIVEN an answerType=select question with options A–D and the right answer «C» WHEN loaded THEN the options are
    kept in order, shown as the question's content, and the answer names the option."""
    options = "".join(f'<param name="{k}" type="content"><item>Вариант {n}</item></param>'
                      for n, k in enumerate("ABCD", 1))
    body = text("Выберите") + '<param name="answerType">select</param>' + \
        f'<param name="answerOptions" type="group">{options}</param>'
    xml = pack5([five("Выбор", {1: q5(body, 100, answers=("C",))})])
    q = load_plan(str(write_siq(tmp_path / "p.siq", content=xml)))["rounds"][0]["topics"][0]["questions"][0]
    assert q["options"] == ["A. Вариант 1", "B. Вариант 2", "C. Вариант 3", "D. Вариант 4"]
    assert q["text"] == "Выберите\nA. Вариант 1\nB. Вариант 2\nC. Вариант 3\nD. Вариант 4"
    assert q["answer"] == "C. Вариант 3"


@pytest.mark.parametrize("answer_type,answer,said", [("number", "100", "a number (within 5)"),
                                                     ("point", "0.5,0.3", "a point on the picture")])
def test_number_and_point_answers_are_kept_as_text_with_a_warning(tmp_path, answer_type, answer, said):
    """GIVEN answerType number (deviation 5) / point WHEN loaded THEN the answer is kept as text and one warning says
    what kind of answer the host judges."""
    body = text("Сколько?") + f'<param name="answerType">{answer_type}</param>' + \
        ('<param name="answerDeviation">5</param>' if answer_type == "number" else "")
    xml = pack5([five("Числа", {2: q5(body, 200, answers=(answer,))})])
    loaded = load(str(write_siq(tmp_path / "p.siq", content=xml)))
    assert loaded.pack.rounds[0].topics[0].questions[1].answer == answer
    warned = [i for i in loaded.issues if "kept as text" in i.message]
    assert len(warned) == 1 and said in warned[0].message and warned[0].where.endswith("question 2")


def test_empty_cell_is_an_empty_cell_not_an_error(tmp_path):
    """GIVEN a theme whose 4th question is SIGame's empty cell (price −1, no content) WHEN loaded THEN the topic is
    playable, the cell is marked empty in the plan and the host's screen, and one warning names it."""
    empty = '<question price="-1"><params /><right><answer /></right></question>'
    xml = pack5([five("Дырка", {4: empty})] + [five(f"Т{i}") for i in range(3)])
    path = str(write_siq(tmp_path / "p.siq", content=xml))
    loaded = load(path)
    assert not [i for i in loaded.issues if i.level == ERROR]
    assert [i.where for i in loaded.issues if "empty cell" in i.message] == ["round 1 «Раунд 1», topic 1 «Дырка», "
                                                                             "question 4"]
    assert [q["empty"] for q in load_plan(path)["rounds"][0]["topics"][0]["questions"]] == [False] * 3 + [True, False]


def test_html_items_give_their_text(tmp_path):
    """GIVEN an inline HTML item and one referring to Html/page.html (with a script) WHEN loaded THEN the question's
    text is the pages' readable text, scripts left out, with a warning each."""
    inline = '<param name="question" type="content"><item type="html">&lt;p&gt;Абзац &lt;b&gt;жирный&lt;/b&gt;' \
             '&lt;/p&gt;</item></param>'
    ref = '<param name="question" type="content"><item type="html" isRef="True">page.html</item></param>'
    xml = pack5([five("Веб", {1: q5(inline), 2: q5(ref, 200)})])
    page = "<html><script>alert(1)</script><body><h1>Заголовок</h1><p>Текст страницы</p></body></html>"
    loaded = load(str(write_siq(tmp_path / "p.siq", content=xml, files={"Html/page.html": page.encode()})))
    first, second = loaded.pack.rounds[0].topics[0].questions[:2]
    assert first.text == "Абзац жирный" and second.text == "Заголовок\nТекст страницы"
    assert sum("HTML item is shown as its text" in i.message for i in loaded.issues) == 2


def test_logo_comments_and_authors_formatted_as_sigame_does(tmp_path):
    """GIVEN a pack with a logo, pack and round comments and an author given as @id of <global> with city and country
    WHEN loaded THEN the plan has the logo (in the cache), the comments, and the author «Борис Шойхет
    (Франкфурт-на-Майне, Германия)» on the pack and on every question that inherits it."""
    glob = ('<global><Authors><Author id="b1"><Name>Борис</Name><SecondName /><Surname>Шойхет</Surname>'
            '<Country>Германия</Country><City>Франкфурт-на-Майне</City></Author></Authors></global>')
    head = glob + "<info><authors><author>@b1</author></authors><comments>О пакете</comments></info>"
    themes = [five(f"Т{i}") for i in range(4)]
    xml = pack5(themes, head=head, attrs='logo="@logo.png"').replace(
        '<round name="Раунд 1">'.encode(), '<round name="Раунд 1"><info><comments>Обычный раунд</comments></info>'.encode())
    plan = load_plan(str(write_siq(tmp_path / "p.siq", content=xml, files={"Images/logo.png": png_bytes()})))
    author = "Борис Шойхет (Франкфурт-на-Майне, Германия)"
    assert plan["author"] == author and plan["comment"] == "О пакете"
    assert plan["rounds"][0]["comment"] == "Обычный раунд"
    assert open(plan["logo"], "rb").read() == png_bytes()
    assert {q["author"] for t in plan["rounds"][0]["topics"] for q in t["questions"]} == {author}


def test_v3_package_without_a_version_attribute_imports(tmp_path):
    """GIVEN a version-3 style content.xml (ygpackage3.0 namespace, no `version` attribute, atoms) WHEN loaded THEN
    it reads as a v4 scenario pack."""
    def v3(n):
        return f'<question price="{n}00"><scenario><atom>В{n}</atom></scenario><right><answer>О{n}</answer></right>' \
               f'</question>'
    xml = (f'<?xml version="1.0" encoding="utf-8"?><package name="Старый" xmlns="{NS4}"><rounds><round name="Р">'
           f'<themes>{theme("Т", [v3(n) for n in range(1, 6)])}</themes></round></rounds></package>').encode()
    loaded = load(str(write_siq(tmp_path / "p.siq", content=xml)))
    assert [q.text for q in loaded.pack.rounds[0].topics[0].questions] == [f"В{n}" for n in range(1, 6)]
    assert loaded.format == "siq4"
