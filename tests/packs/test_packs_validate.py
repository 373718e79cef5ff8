"""Validation: structure errors, rule P2 (sources), P1 (reserve), AU1 (one auction a round), with places named."""
from scoreboard.packs import ERROR, WARNING
from scoreboard.packs.model import Final, Pack, Question, Round, Topic
from scoreboard.packs.validate import check


def _topic(name="Реки", sources=("А", "Б", "В", "Г", "Д"), reserve=True, **kw):
    questions = [Question(text=f"в{n}", answer=f"о{n}", source=s) for n, s in enumerate(sources, 1)]
    return Topic(name, questions=questions, reserve=Question("р", "о", source="Е") if reserve else None, **kw)


def _pack(*topics, **kw):
    return Pack("П", rounds=[Round("Синий", list(topics))], **kw)


def test_p2_a_clean_topic_has_no_issue():
    """GIVEN a topic with 5 sourced questions and a reserve WHEN checked THEN nothing is reported."""
    assert check(_pack(_topic())) == []


def test_p2_question_without_source_is_warned_by_place():
    """GIVEN question 3 with no source WHEN checked THEN one P2 warning naming round, topic and question 3."""
    issues = check(_pack(_topic(sources=("А", "Б", "", "Г", "Д"))))
    assert [(i.level, i.where, i.message) for i in issues] == [
        (WARNING, "round 1 «Синий», topic 1 «Реки», question 3", "P2: the question has no source")]


def test_p2_two_may_share_a_source_three_may_not():
    """GIVEN two questions sharing a source, then three WHEN checked THEN only the three are warned, listing them."""
    assert check(_pack(_topic(sources=("А", "А", "В", "Г", "Д")))) == []
    issues = check(_pack(_topic(sources=("БСЭ", "Б", "бсэ.", "Г", " БСЭ "))))
    assert len(issues) == 1 and issues[0].where.endswith("questions 1, 3, 5")
    assert "P2: 3 questions share the source «бсэ»" in issues[0].message


def test_p2_reference_work_may_be_shared_by_any_number():
    """GIVEN five questions from a source listed as a reference work (topic or pack) WHEN checked THEN no warning."""
    assert check(_pack(_topic(sources=("БСЭ",) * 5, reference_works=["БСЭ"]))) == []
    assert check(_pack(_topic(sources=("БСЭ",) * 5), reference_works=["бсэ"])) == []


def test_p1_structure_errors_name_topic_and_question():
    """GIVEN a topic of 4 questions, a nameless topic and a question with no answer and no text WHEN checked
    THEN errors name each place; a missing reserve is a warning (samara requires one)."""
    short = _topic("Короткая", sources=("А", "Б", "В", "Г"))
    blank = _topic("")
    blank.questions[1] = Question(source="Б")
    issues = check(_pack(short, blank, _topic("Без резерва", reserve=False)))
    errors = {(i.where, i.message) for i in issues if i.level == ERROR}
    assert errors == {("round 1 «Синий», topic 1 «Короткая»", "the topic has 4 questions; it needs 5"),
                      ("round 1 «Синий», topic 2", "the topic has no name"),
                      ("round 1 «Синий», topic 2, question 2", "the question has no answer"),
                      ("round 1 «Синий», topic 2, question 2", "the question has no text and no media")}
    assert [(i.where, i.level) for i in issues if "reserve" in i.message] == [
        ("round 1 «Синий», topic 3 «Без резерва»", WARNING)]


def test_au1_two_auctions_in_one_round_are_warned():
    """GIVEN two auction cells in one round WHEN checked THEN an AU1 warning lists both."""
    a, b = _topic("А"), _topic("Б")
    a.questions[2].auction = b.questions[4].auction = True
    issues = check(_pack(a, b))
    assert [i.message for i in issues] == ["AU1: 2 auction cells (topic 1 question 3; topic 2 question 5); "
                                           "a round has one"]


def test_final_and_empty_pack():
    """GIVEN a final question without answer, then a pack with no rounds WHEN checked THEN an error each."""
    issues = check(_pack(_topic(), final=Final("Физика", Question("в", "", source="И"))))
    assert [(i.where, i.message) for i in issues] == [("final topic «Физика»", "the question has no answer")]
    assert [i.message for i in check(Pack("П"))] == ["the pack has no round with topics"]
