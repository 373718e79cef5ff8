"""SIGame .siq import, versions 4 (ygpackage3.0.xsd namespace) and 5 (siq_5.xsd namespace).

A .siq is a zip with content.xml and media in Images/, Audio/, Video/ (names may be URL-escaped). The mapping:
- rounds of type `standart` become our rounds; the first round of type `final` gives the final topic (its first
  theme and question); a theme's questions 1–5 are the topic, a 6th becomes the reserve, more are dropped (warned);
- question types `auction` (v4) and `stake` (v5) become our auction; every other special type (cat in a bag /
  secret, sponsored / noRisk, forAll…) is played as a normal question, with a warning that says so;
- the first right answer is the answer, the others are accepted alternatives; `info` gives source, author and
  comment, inherited from theme, round and package the way SIGame inherits them; `@id` links resolve to `global`;
- pack prices are kept on each question and listed in the import report; in play the regulation's values apply.
Media on the internet are never fetched (warned). A media file missing from the archive is a warning.
"""
from __future__ import annotations

from urllib.parse import unquote

from . import safexml
from .errors import ERROR, INFO, WARNING, Issue, PackError, place
from .model import Final, Media, Pack, Question, Round, Topic
from .safezip import DEFAULT_LIMITS, Limits, SafeZip

NAMESPACES = {"http://vladimirkhil.com/ygpackage3.0.xsd": 4, "http://vladimirkhil.com/siq_5.xsd": 5}
FOLDERS = {"image": "images", "audio": "audio", "voice": "audio", "video": "video"}
KIND = {"image": "image", "audio": "audio", "voice": "audio", "video": "video"}
AUCTION_TYPES = {"auction", "stake"}
NORMAL_TYPES = {"", "simple"}
SPECIAL_NAMES = {"cat": "cat in a bag", "bagcat": "cat in a bag", "secret": "cat in a bag",
                 "secretPublicPrice": "cat in a bag with a public price", "secretNoQuestion": "secret, no question",
                 "sponsored": "sponsored (no risk)", "noRisk": "no risk", "forAll": "for all"}


class _Reader:
    def __init__(self, path: str, archive: SafeZip, root):
        self.path = path
        self.archive = archive
        self.issues: list[Issue] = []
        tag = root.tag
        self.ns = tag[1:].split("}", 1)[0] if tag.startswith("{") else ""
        if tag.rsplit("}", 1)[-1] != "package":
            raise PackError(f"{path}: content.xml: the root element is <{tag}>, not <package>")
        if self.ns and self.ns not in NAMESPACES:
            raise PackError(f"{path}: content.xml: unknown namespace {self.ns!r} (SIGame versions 4 and 5 are read)")
        self.version = NAMESPACES.get(self.ns) or _int(root.get("version")) or 4
        if not self.ns:
            self.warn("", f"content.xml has no namespace; read as SIGame version {self.version}")
        self.root = root
        self.globals = self._globals()
        # (folder, unescaped base name) → real entry name; SIGame may URL-escape names inside the zip
        self.entries: dict[tuple[str, str], str] = {}
        for name in archive.names:
            folder, _, base = name.partition("/")
            if base:
                self.entries.setdefault((folder.lower(), unquote(base)), name)

    def q(self, name: str) -> str:
        return f"{{{self.ns}}}{name}" if self.ns else name

    def kids(self, element, *path: str):
        for step in path[:-1]:
            element = element.find(self.q(step)) if element is not None else None
        return element.findall(self.q(path[-1])) if element is not None else []

    def warn(self, where: str, message: str, level: str = WARNING, r=None, t=None) -> None:
        self.issues.append(Issue(level, where, message, r, t))

    # --- info: authors, sources, comments with SIGame's inheritance ------------------------------------
    def _globals(self) -> dict[str, str]:
        found: dict[str, str] = {}
        glob = self.root.find(self.q("global"))
        if glob is None:
            return found
        for element in glob.iter():
            ident = element.get("id")
            if ident:
                parts = [(child.text or "").strip() for child in element]
                found[ident] = " ".join(p for p in parts if p) or (element.text or "").strip()
        return found

    def _resolve(self, value: str) -> str:
        value = value.strip()
        if not value.startswith("@"):
            return value
        ident, _, spec = value[1:].partition("#")
        text = self.globals.get(ident)
        if text is None:
            return value[1:]
        return f"{text}, {spec}" if spec else text

    def info(self, element) -> dict:
        info = element.find(self.q("info")) if element is not None else None
        if info is None:
            return {"authors": [], "sources": [], "comments": ""}
        return {"authors": [self._resolve(a.text or "") for a in self.kids(info, "authors", "author") if a.text],
                "sources": [self._resolve(s.text or "") for s in self.kids(info, "sources", "source") if s.text],
                "comments": (info.findtext(self.q("comments")) or "").strip()}

    # --- media --------------------------------------------------------------------------------------------
    def media(self, kind: str, name: str, internal: bool, where: str, r: int, t: int) -> Media | None:
        if kind == "html":
            self.warn(where, "HTML content is not shown by the board; skipped", r=r, t=t)
            return None
        if not internal:
            self.warn(where, f"{KIND[kind]} {name!r} is on the internet; the board never fetches it (skipped)",
                      r=r, t=t)
            return None
        wanted = unquote(name)
        entry = self.entries.get((FOLDERS[kind], wanted))
        if entry is None:   # some packs put a file in another media folder
            entry = next((e for (f, b), e in self.entries.items() if b == wanted), None)
        if entry is None:
            self.warn(where, f"{KIND[kind]} {name!r} is not in the archive; the question plays without it",
                      r=r, t=t)
            return None
        return Media(KIND[kind], entry)

    # --- questions ----------------------------------------------------------------------------------------
    def question(self, element, inherited: dict, where: str, r: int, t: int) -> Question:
        q = Question()
        q.price = _int(element.get("price"))
        if element.get("price") is not None and q.price is None:
            self.warn(where, f"price {element.get('price')!r} is not a number", r=r, t=t)
        texts, after = [], []
        if self.version >= 5 and element.find(self.q("params")) is not None:
            for param in self.kids(element, "params", "param"):
                name = param.get("name", "")
                if name not in ("question", "answer"):
                    continue
                for item in param.findall(self.q("item")):
                    kind = item.get("type", "text")
                    value = (item.text or "").strip()
                    if kind in ("text", "say"):
                        (texts if name == "question" else after).append(value)
                    elif kind in KIND or kind == "html":
                        internal = (item.get("isRef") or "").lower() == "true"
                        m = self.media(kind, value, internal, where, r, t)
                        if m:
                            (q.media if name == "question" else q.answer_media).append(m)
        else:
            marker = False
            for atom in self.kids(element, "scenario", "atom"):
                kind = atom.get("type", "text")
                value = (atom.text or "").strip()
                if kind == "marker":
                    marker = True
                elif kind in ("text", "say"):
                    (after if marker else texts).append(value)
                elif kind in KIND:
                    m = self.media(kind, value.removeprefix("@"), value.startswith("@"), where, r, t)
                    if m:
                        (q.answer_media if marker else q.media).append(m)
        q.text = "\n".join(x for x in texts if x)
        answers = [(a.text or "").strip() for a in self.kids(element, "right", "answer")]
        answers = [a for a in answers if a]
        if not answers and after:
            answers = [after.pop(0)]
        if answers:
            q.answer, q.accepts = answers[0], answers[1:]
        info = self.info(element)
        comment = [info["comments"]] + [x for x in after if x]
        q.comment = "\n".join(c for c in comment if c)
        q.source = "; ".join(info["sources"] or inherited["sources"])
        q.author = ", ".join(info["authors"] or inherited["authors"])
        qtype = element.get("type")               # v5: an attribute; v4: a <type name=…> element
        if qtype is None:
            type_element = element.find(self.q("type"))
            qtype = type_element.get("name", "") if type_element is not None else ""
        if qtype in AUCTION_TYPES:
            q.auction = True
        elif qtype not in NORMAL_TYPES:
            label = SPECIAL_NAMES.get(qtype, "unknown type")
            self.warn(where, f"SIGame question type «{qtype}» ({label}) is played as a normal question", r=r, t=t)
        return q

    def topic(self, element, inherited: dict, r: int, rname: str, t: int) -> Topic:
        name = (element.get("name") or "").strip()
        info = self.info(element)
        mine = {"authors": info["authors"] or inherited["authors"], "sources": info["sources"] or inherited["sources"]}
        topic = Topic(name=name, explanation=info["comments"], author=", ".join(info["authors"]))
        questions = self.kids(element, "questions", "question")
        for n, qel in enumerate(questions, 1):
            where = place(r, rname, t, name, n)
            question = self.question(qel, mine, where, r, t)
            if n <= 5:
                topic.questions.append(question)
            elif n == 6:
                topic.reserve = question
                self.warn(place(r, rname, t, name, 6), "a 6th question becomes the topic's reserve", INFO, r, t)
            else:
                self.warn(where, "a topic has 5 questions and a reserve; this one is dropped", r=r, t=t)
        return topic

    def pack(self) -> Pack:
        root = self.root
        head = self.info(root)
        pack = Pack(title=(root.get("name") or "").strip(), author=", ".join(head["authors"]))
        final_rounds = 0
        for rel in self.kids(root, "rounds", "round"):
            rname = (rel.get("name") or "").strip()
            rinfo = self.info(rel)
            inherited = {"authors": rinfo["authors"] or head["authors"], "sources": rinfo["sources"] or head["sources"]}
            if rel.get("type", "standart") == "final":
                final_rounds += 1
                self._final(pack, rel, rname, inherited, final_rounds)
                continue
            r = len(pack.rounds)
            round_ = Round(rname)
            pack.rounds.append(round_)
            for t, tel in enumerate(self.kids(rel, "themes", "theme")):
                round_.topics.append(self.topic(tel, inherited, r, rname, t))
            self._prices(round_, r)
        pack.issues = self.issues
        return pack

    def _final(self, pack: Pack, rel, rname: str, inherited: dict, count: int) -> None:
        themes = self.kids(rel, "themes", "theme")
        if count > 1 or not themes:
            self.warn(f"final round «{rname}»", "ignored: " + ("only the first final round is played"
                                                               if count > 1 else "it has no topics"))
            return
        first = themes[0]
        questions = self.kids(first, "questions", "question")
        name = (first.get("name") or "").strip()
        if not questions:
            self.warn(f"final round «{rname}», topic «{name}»", "has no question; no final topic", ERROR)
            return
        question = self.question(questions[0], inherited, f"final topic «{name}»", None, None)
        pack.final = Final(name, question, self.info(first)["comments"])
        if len(themes) > 1:
            self.warn(f"final round «{rname}»", f"{len(themes)} topics; the first («{name}») is the final topic, "
                                                "the others are not played", INFO)

    def _prices(self, round_: Round, r: int) -> None:
        rows = []
        for topic in round_.topics:
            row = " ".join(str(q.price) if q.price is not None else "?" for q in topic.questions)
            if row and row not in rows:
                rows.append(row)
        if rows:
            self.warn(place(r, round_.name), f"pack prices {'; '.join(rows)} (in play the regulation's values apply)",
                      INFO)


def _int(value) -> int | None:
    try:
        return int(str(value).strip())
    except (TypeError, ValueError):
        return None


def read(path: str, limits: Limits = DEFAULT_LIMITS) -> tuple[Pack, SafeZip, int]:
    """The pack, the open, checked archive its media refs name (the caller closes it), the SIGame version."""
    archive = SafeZip(path, limits)
    try:
        if "content.xml" not in archive.infos:
            raise PackError(f"{path}: refused: no content.xml in the archive (is this a SIGame .siq pack?)")
        data = archive.read("content.xml", limits.max_content_bytes)
        root = safexml.parse(data, f"{path}: content.xml")
        reader = _Reader(path, archive, root)
        return reader.pack(), archive, reader.version
    except BaseException:
        archive.close()
        raise
