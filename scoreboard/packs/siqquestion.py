"""One SIGame question, as SIGame's reader (SIPackages/Question.cs, StepParameter.cs) reads it: by local names.

v5: `<params>` with `param name="question"|"answer"` (content: items), `theme` and `price` (cat in the bag),
`answerType` (text, number, point, select), `answerOptions` (a group of content params A, B, C…); the type is
the `type` attribute. v4 (and v3): `<type name>` with `<param>`s and a `<scenario>` of atoms, the answer side
after the `marker` atom. `<right>` answers are the answer and accepted alternatives, `<wrong>` the wrong ones.
Special types are kept (`kind`) and played as the nearest of our rules allows; each gets one warning saying how.
"""
from __future__ import annotations

import re

from .model import Question

KIND = {"image": "image", "audio": "audio", "voice": "audio", "video": "video"}
# question types that play as a plain question here, with the reason the host reads in the warning
PLAIN = {
    "noRisk": "no risk: SIGame doubles a right answer and takes nothing for a wrong one; here it scores as usual",
    "sponsored": "no risk: SIGame doubles a right answer and takes nothing for a wrong one; here it scores as usual",
    "forAll": "for all: SIGame has everyone answer in writing; here the buttons decide",
    "stakeAll": "stakes from all: SIGame has everyone stake; here it scores its value",
    "forYourself": "for yourself: SIGame plays it for the chooser only; here the buttons decide",
    "withButton": "",
}
SECRET = {"secret", "cat", "bagcat", "secretPublicPrice", "secretNoQuestion"}
ANSWER_TYPES = {"number": "a number", "point": "a point on the picture"}


def local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def ns_prefix(tag: str) -> str:
    return tag[:tag.index("}") + 1] if tag[:1] == "{" else ""


def kids(element, name: str) -> list:
    """The children named `name`, in the element's own namespace (as SIQuester writes every element)."""
    return element.findall(ns_prefix(element.tag) + name) if element is not None else []


def kid(element, name: str):
    return element.find(ns_prefix(element.tag) + name) if element is not None else None


def text_of(element) -> str:
    if element is None:
        return ""
    if len(element):                      # markup inside: all of its text, as XmlReader's content does
        return "".join(element.itertext()).strip()
    return (element.text or "").strip()


def texts_of(element) -> list[str]:
    """The non-empty texts of the element's children (answers, authors, sources)."""
    found = []
    for child in element:
        text = text_of(child) if len(child) else (child.text or "").strip()
        if text:
            found.append(text)
    return found


def info_of(info) -> dict:
    """An `<info>` element's authors, sources and comments."""
    found = {"authors": [], "sources": [], "comments": ""}
    for child in info:
        tag = child.tag
        name = tag[tag.find("}") + 1:]
        if name == "authors" or name == "sources":
            found[name] = texts_of(child)
        elif name == "comments":
            found["comments"] = text_of(child)
    return found


NO_INFO = {"authors": [], "sources": [], "comments": ""}   # for every question without an <info>: only read


def number_set(text: str) -> str:
    """SIGame's NumberSet notation ("500", "[100;500]", "[100;500]/400") checked and normalised, or ""."""
    text = (text or "").strip()
    if re.fullmatch(r"-?\d+", text):
        return str(int(text))
    match = re.fullmatch(r"\[\s*(-?\d+)\s*;\s*(-?\d+)\s*\](?:\s*/\s*(\d+))?", text)
    if not match:
        return ""
    low, high, step = int(match.group(1)), int(match.group(2)), int(match.group(3) or 0)
    return number_set_text(low, high, step)


def number_set_text(low: int, high: int, step: int) -> str:
    if low == high:
        return str(low)
    return f"[{low};{high}]" if step in (0, high - low) else f"[{low};{high}]/{step}"


def price_dict(notation: str) -> dict | None:
    """{"min", "max", "step"} for the plan (step 0: any value in the range; min = max: fixed)."""
    notation = number_set(notation)
    if not notation:
        return None
    if re.fullmatch(r"-?\d+", notation):
        return {"min": int(notation), "max": int(notation), "step": 0}
    low, high, step = re.fullmatch(r"\[(-?\d+);(-?\d+)\](?:/(\d+))?", notation).groups()
    low, high = int(low), int(high)
    return {"min": low, "max": high, "step": int(step) if step else high - low}


class QuestionReader:
    """Reads question elements; `media(kind, name, internal)` resolves a file, `html(name)` an HTML file's text,
    `warn(message)` reports for the question being read."""

    def __init__(self, media, html, warn):
        self.media, self.html, self.warn = media, html, warn

    def read(self, element) -> tuple[Question, str, dict]:
        """The question, its SIGame type ("" for a plain one) and its own info (authors, sources, comments)."""
        q = Question()
        raw_price = element.get("price")
        try:
            q.price = int(raw_price)          # int() takes the spaces around the digits itself
        except (TypeError, ValueError):
            q.price = None
            if raw_price is not None:
                self.warn(f"price {raw_price!r} is not a number")
        qtype = element.get("type") or ""
        info, info_tag = None, ns_prefix(element.tag) + "info"     # kid(element, "info"): in its own namespace
        v4_params: dict[str, str] = {}
        texts: list[str] = []
        after: list[str] = []
        options: list[tuple[str, str]] = []
        answers: list[str] = []
        v5: dict[str, str] = {}
        for child in element:                 # one pass over the children, by local name (the hot path)
            tag = child.tag
            name = tag[tag.find("}") + 1:]
            if name == "params":
                self._params(child, q, texts, after, options, v5)
            elif name == "right":
                answers += texts_of(child)
            elif name == "wrong":
                q.wrong += texts_of(child)
            elif name == "info":
                if info is None and tag == info_tag:
                    info = info_of(child)
            elif name == "type":
                qtype = qtype or child.get("name", "")
                v4_params = {x.get("name", ""): text_of(x) for x in child}
            elif name == "scenario":
                self._atoms(child, texts, after, q)
        if info is None:
            info = NO_INFO
        answer_type = v5.get("answerType", "")
        if options:
            q.options = [f"{label}. {text}" if text else label for label, text in options]
            texts.append("\n".join(q.options))     # the hall sees the options with the question
            by_label = dict(options)
            answers = [f"{a}. {by_label[a]}" if by_label.get(a) else a for a in answers]
        if not answers and after:
            answers = [after.pop(0)]
        if answers:
            q.answer, q.accepts = answers[0], answers[1:]
        q.text = texts[0] if len(texts) == 1 else "\n".join([x for x in texts if x])   # one item: most questions
        if after:
            q.comment = "\n".join([x for x in after if x])
        if answer_type in ANSWER_TYPES:
            extra = f" (within {v5['answerDeviation']})" if v5.get("answerDeviation") else ""
            self.warn(f"the answer is {ANSWER_TYPES[answer_type]}{extra}; kept as text «{q.answer}» for the host "
                      "to judge")
        elif answer_type and answer_type not in ("text", "select"):
            self.warn(f"answer type «{answer_type}» is played as a spoken answer")
        if q.price == -1:                      # SIGame's empty cell (Question.InvalidPrice): nothing to play there
            q.empty = True
            return q, "", info
        self._type(q, qtype, v5, v4_params)
        return q, qtype, info

    def _params(self, params, q: Question, texts: list, after: list, options: list, v5: dict) -> None:
        for param in params:
            name = param.get("name", "")
            if name == "question":
                self._items(param, texts, q.media)
            elif name == "answer":
                self._items(param, after, q.answer_media)
            elif name == "answerOptions":
                for option in param:
                    words: list[str] = []
                    self._items(option, words, q.media)
                    options.append((option.get("name", ""), " ".join(w for w in words if w)))
            elif name == "price":
                numbers = kid(param, "numberSet")
                v5["price"] = _numbers(numbers) if numbers is not None else number_set(text_of(param))
            elif name:
                v5[name] = text_of(param)

    def _type(self, q: Question, qtype: str, v5: dict, v4: dict) -> None:
        if qtype in ("", "simple"):
            return
        if qtype in ("stake", "auction"):
            q.auction, q.kind = True, "stake"
            return
        if qtype in SECRET:
            knows = v4.get("knows", "after") if qtype == "bagcat" else "after"
            kind = {"cat": "secret", "bagcat": "secret"}.get(qtype, qtype)
            if qtype in ("cat", "bagcat"):
                kind = {"never": "secretNoQuestion", "before": "secretPublicPrice"}.get(knows, "secret")
            q.kind = kind
            q.secret_topic = (v5.get("theme") or v4.get("theme") or "").strip()
            q.secret_price = v5.get("price") or number_set(v4.get("cost", ""))
            shown = ", ".join(x for x in (f"topic «{q.secret_topic}»" if q.secret_topic else "",
                                          f"price {q.secret_price}" if q.secret_price else "") if x)
            if kind == "secretNoQuestion":
                self.warn(f"SIGame «{qtype}» (a cat in the bag with no question: SIGame just gives its price"
                          f"{' ' + q.secret_price if q.secret_price else ''}); the host awards it by a score "
                          "correction (G8)")
            else:
                self.warn(f"SIGame «{qtype}» (cat in the bag{': ' + shown if shown else ''}) is played by the "
                          "buttons here" + ("; the board and the host's screen show its own "
                                            f"{'topic and price' if q.secret_topic and q.secret_price else 'topic' if q.secret_topic else 'price'}"
                                            if shown else ""))
            return
        q.kind = qtype
        reason = PLAIN.get(qtype)
        if reason == "":
            q.kind = ""
            return
        self.warn(f"SIGame question type «{qtype}» ({reason or 'unknown type'}) is played as a normal question")

    def _items(self, param, texts: list[str], media: list) -> None:
        for item in param:
            kind = item.get("type", "text")
            if kind == "text" or kind == "say":
                texts.append((item.text or "").strip())
                continue
            value = (item.text or "").strip()
            internal = (item.get("isRef") or "").lower() == "true"
            if kind == "html":
                texts.append(self._html(value, internal))
            elif kind in KIND:
                found = self.media(kind, value, internal)
                if found:
                    media.append(found)
            else:
                self.warn(f"content item of type «{kind}» is not shown by the board; skipped")

    def _atoms(self, scenario, texts: list[str], after: list[str], q: Question) -> None:
        marker = False
        for atom in kids(scenario, "atom"):
            kind = atom.get("type", "text")
            value = (atom.text or "").strip()
            if kind == "marker":
                marker = True
            elif kind in ("text", "say"):
                (after if marker else texts).append(value)
            elif kind == "html":
                (after if marker else texts).append(self._html(value.removeprefix("@"), value.startswith("@")))
            elif kind in KIND:
                found = self.media(kind, value.removeprefix("@"), value.startswith("@"))
                if found:
                    (q.answer_media if marker else q.media).append(found)

    def _html(self, value: str, internal: bool) -> str:
        markup = self.html(value) if internal else value
        if markup is None:
            self.warn(f"HTML item {value!r} is not in the archive; skipped")
            return ""
        from .htmltext import html_text   # lazy: 8 ms at import; most packs have no HTML item
        text = html_text(markup)
        self.warn("an HTML item is shown as its text (the board runs no web page)" if text else
                  "an HTML item has no text to show (the board runs no web page); skipped")
        return text


def _numbers(element) -> str:
    def number(name):
        try:
            return int(element.get(name, "0"))
        except ValueError:
            return 0
    return number_set_text(number("minimum"), number("maximum"), number("step"))
