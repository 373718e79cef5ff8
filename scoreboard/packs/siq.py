"""SIGame .siq import, as SIGame reads it: by element local names, whatever the namespace, versions 3, 4 and 5.

A .siq is a zip with content.xml and media in Images/, Audio/, Video/, Html/ (names may be URL-escaped).
content.xml is streamed (safexml.growing): each round is read once it is complete and then dropped, so a
30 MB file never becomes one tree. The namespace does not matter (SIGame's own `siq_5.xsd` on GitHub, the older
`ygpackage3.0.xsd`, a third party's, none): SIGame's reader matches local names only, and so does this one.
The mapping (docs/PACKS.md has the table):
- rounds of type `standart`/`table` (or none) become our rounds; every theme of the `final` rounds is a final
  topic (the first is played unless the host chooses another); a theme's questions 1–5 are the topic, a 6th the
  reserve, more are dropped (warned);
- question content and special types: siqquestion.py;
- `info` gives authors, sources and comments; a question without its own authors / sources inherits the
  theme's, the round's, the package's, as SIGame does; `@id` links resolve to `<global>`, authors formatted as
  SIGame formats them («Имя Фамилия (Город, Страна)»);
- the package's `logo` and the pack's and rounds' comments are kept; prices are listed (info).
Media on the internet are never fetched (warned). A media file missing from the archive is a warning.
"""
from __future__ import annotations

from urllib.parse import unquote

from . import safexml
from .errors import INFO, WARNING, Issue, PackError, place
from .model import Final, Media, Pack, Question, Round, Topic
from .safezip import DEFAULT_LIMITS, Limits, SafeZip
from .siqquestion import KIND, QuestionReader, info_of, kid, kids, local, ns_prefix, text_of

FOLDERS = {"image": "images", "audio": "audio", "voice": "audio", "video": "video", "html": "html"}
NAMESPACE_VERSIONS = {"https://github.com/VladimirKhil/SI/blob/master/assets/siq_5.xsd": 5,
                      "http://vladimirkhil.com/siq_5.xsd": 5, "http://vladimirkhil.com/ygpackage3.0.xsd": 4}
HTML_LIMIT = 1 << 20


def _info(element) -> dict:
    info = kid(element, "info")
    return info_of(info) if info is not None else {"authors": [], "sources": [], "comments": ""}


def _theme_parts(theme) -> tuple[dict, list]:
    """A theme's info and its question elements (kid/kids in one pass over its children: the first of each, in the
    theme's own namespace)."""
    prefix = ns_prefix(theme.tag)
    info_tag, questions_tag, question_tag = prefix + "info", prefix + "questions", prefix + "question"
    info, questions = None, None
    for child in theme:
        tag = child.tag
        if tag == info_tag and info is None:
            info = info_of(child)
        elif tag == questions_tag and questions is None:
            questions = [q for q in child if q.tag == question_tag]
    return info or {"authors": [], "sources": [], "comments": ""}, questions or []


class _Reader:
    def __init__(self, path: str, archive: SafeZip):
        self.path = path
        self.archive = archive
        self.issues: list[Issue] = []
        self.pack = Pack()
        self.version = 5
        self.head = {"authors": [], "sources": [], "comments": ""}
        self.globals: dict[str, str] = {}
        # (question, its own info, its theme's info, its round's info): authors and sources are settled at the end,
        # when every `info` and `<global>` has been read, whatever order the file gives them in
        self.pending: list[tuple[Question, dict, dict, dict]] = []
        self.pending_topics: list[tuple[Topic, dict]] = []
        self.round_info: dict = {}
        self.round_type = ""
        self.round_name = ""
        self.round: Round | None = None
        self.final_rounds = 0
        # (folder, unescaped base name) → real entry name; SIGame may URL-escape names inside the zip
        # where the question being read is: (a place, or None to make it from the rest only for a warning, which
        # is rare), round and topic index, question number, topic name
        self.at: tuple = ("", None, None, None, "")
        self.questions = QuestionReader(self._question_media, self._html, self._question_warn)
        self.entries: dict[tuple[str, str], str] = {}
        for name in archive.names:
            folder, _, base = name.partition("/")
            if base:
                self.entries.setdefault((folder.lower(), unquote(base)), name)

    def warn(self, where: str, message: str, level: str = WARNING, r=None, t=None) -> None:
        self.issues.append(Issue(level, where, message, r, t))

    def _where(self) -> str:
        where, r, t, n, topic = self.at
        return where if where is not None else place(r, self.round_name, t, topic, n)

    def _question_warn(self, message: str) -> None:
        self.warn(self._where(), message, r=self.at[1], t=self.at[2])

    def _question_media(self, kind: str, name: str, internal: bool) -> Media | None:
        return self._media(kind, name, internal, self._where, self.at[1], self.at[2])

    # --- the stream ----------------------------------------------------------------------------------------
    def read(self, trees) -> Pack:
        """Each round is read once complete (a sibling follows it, or the document has ended) and then deleted
        from the tree; the package itself at the very end."""
        root = None
        for root, done in trees:
            if root is None:
                continue
            last = len(root) - 1
            for n, child in enumerate(root):
                if child.tag.endswith("rounds") and local(child.tag) == "rounds":
                    complete = len(child) if done or n < last else len(child) - 1
                    for round_ in child[:complete]:
                        if local(round_.tag) == "round":
                            self._round(round_)
                    del child[:complete]
        rounds_issues, self.issues = self.issues, []
        self._root(root)                   # its notes (namespace, logo) come first, as the file has them
        root_issues, self.issues = self.issues, []
        self.head = _info(root)
        glob = kid(root, "global")
        if glob is not None:
            self._globals(glob)
        self._settle()
        self.issues = self.pack.issues = root_issues + rounds_issues + self.issues
        return self.pack

    def _round(self, element) -> None:
        self._round_start(element)
        self.round_info.update(_info(element))
        for theme in kids(kid(element, "themes"), "theme"):
            self._theme(theme)
        self._round_end()

    def _root(self, root) -> None:
        tag = root.tag
        ns = tag[1:].split("}", 1)[0] if tag.startswith("{") else ""
        if local(tag) != "package":
            raise PackError(f"{self.path}: content.xml: the root element is <{local(tag)}>, not <package>")
        try:
            self.version = int(root.get("version", ""))
        except ValueError:
            self.version = NAMESPACE_VERSIONS.get(ns, 4)
        if ns not in NAMESPACE_VERSIONS:
            self.warn("", f"content.xml {'in namespace ' + repr(ns) if ns else 'has no namespace'}; read by element "
                          f"names as SIGame reads it (version {self.version})", INFO)
        self.pack.title = (root.get("name") or "").strip()
        logo = (root.get("logo") or "").strip()
        if logo:
            self.pack.logo = self._media("image", logo.removeprefix("@"), logo.startswith("@"), "the pack's logo",
                                         None, None)

    # --- rounds and themes ---------------------------------------------------------------------------------
    def _round_start(self, element) -> None:
        self.round_name = (element.get("name") or "").strip()
        self.round_type = element.get("type") or "standart"
        self.round_info = {"authors": [], "sources": [], "comments": ""}
        if self.round_type == "final":
            self.final_rounds += 1
            self.round = None
        else:
            self.round = Round(self.round_name)
            self.pack.rounds.append(self.round)

    def _round_end(self) -> None:
        if self.round is not None:
            self.round.comment = self.round_info["comments"]
            self._prices(self.round, len(self.pack.rounds) - 1)
        elif self.round_type == "final" and not self.pack.finals():
            self.warn(f"final round «{self.round_name}»", "has no topic with a question; the pack has no final")
        self.round_type = ""
        self.round = None

    def _theme(self, element) -> None:
        name = (element.get("name") or "").strip()
        info, questions = _theme_parts(element)
        if self.round is None:
            self._final_theme(questions, name, info)
            return
        r, t = len(self.pack.rounds) - 1, len(self.round.topics)
        topic = Topic(name=name, explanation=info["comments"])
        self.pending_topics.append((topic, info))      # its author is settled (links resolved) at the end
        for n, qel in enumerate(questions, 1):
            self.at = (None, r, t, n, name)
            question = self._question(qel, info)
            if n <= 5:
                topic.questions.append(question)
            elif n == 6:
                topic.reserve = question
                self.warn(place(r, self.round_name, t, name, n), "a 6th question becomes the topic's reserve",
                          INFO, r, t)
            else:
                self.warn(place(r, self.round_name, t, name, n), "a topic has 5 questions and a reserve; this one "
                          "is dropped", r=r, t=t)
        self.round.topics.append(topic)

    def _final_theme(self, questions: list, name: str, info: dict) -> None:
        where = f"final topic «{name}»"
        if not questions:
            self.warn(where, "has no question; not a final topic")
            return
        self.at = (where, None, None, None, name)
        question = self._question(questions[0], info)
        if question.empty:
            self.warn(where, "its question is an empty cell; not a final topic")
            return
        final = Final(name, question, info["comments"])
        if self.pack.final is None:
            self.pack.final = final
        else:
            self.pack.other_finals.append(final)

    def _question(self, element, theme_info: dict) -> Question:
        question, _, own = self.questions.read(element)
        if own["comments"]:
            question.comment = own["comments"] + "\n" + question.comment if question.comment else own["comments"]
        self.pending.append((question, own, theme_info, self.round_info))
        return question

    # --- media --------------------------------------------------------------------------------------------
    def _entry(self, kind: str, name: str) -> str | None:
        wanted = unquote(name)
        entry = self.entries.get((FOLDERS[kind], wanted))
        if entry is None:   # some packs put a file in another media folder
            entry = next((e for (f, b), e in self.entries.items() if b == wanted), None)
        return entry

    def _media(self, kind: str, name: str, internal: bool, where, r, t) -> Media | None:
        """`where` is the place, or a function giving it (made only for a warning)."""
        if not internal:
            self.warn(where if isinstance(where, str) else where(),
                      f"{KIND[kind]} {name!r} is on the internet; the board never fetches it (skipped)", r=r, t=t)
            return None
        entry = self._entry(kind, name)
        if entry is None:
            self.warn(where if isinstance(where, str) else where(),
                      f"{KIND[kind]} {name!r} is not in the archive; the question plays without it", r=r, t=t)
            return None
        return Media(KIND[kind], entry)

    def _html(self, name: str) -> str | None:
        entry = self._entry("html", name)
        if entry is None:
            return None
        return self.archive.read(entry, HTML_LIMIT).decode("utf-8", errors="replace")

    # --- info: authors and sources with SIGame's inheritance ---------------------------------------------
    def _globals(self, element) -> None:
        # siq_5.xsd puts the fields in <Authors id>, SIQuester writes <Authors><Author id>: take any element with an id
        for entry in element.iter():
            ident = entry.get("id")
            if not ident or entry is element:
                continue
            fields = {local(child.tag).lower(): text_of(child) for child in entry}
            kind = local(entry.tag).lower()
            self.globals[ident] = _author(fields) if kind in ("author", "authors") else _source(fields)

    def _resolve(self, value: str) -> str:
        value = value.strip()
        if not value.startswith("@"):
            return value
        ident, _, spec = value[1:].partition("#")
        text = self.globals.get(ident)
        if text is None:
            return value[1:]
        return f"{text}, {spec}" if spec else text

    def _joined(self, values: list[str], separator: str) -> str:
        if len(values) == 1 and not values[0].startswith("@"):     # most: one name, no link (already stripped)
            return values[0]
        return separator.join([self._resolve(v) for v in values])

    def _settle(self) -> None:
        head = self.head
        self.pack.author = self._joined(head["authors"], ", ")
        self.pack.comment = head["comments"]
        joined = self._joined
        for question, own, theme, round_ in self.pending:
            question.author = joined(own["authors"] or theme["authors"] or round_["authors"] or head["authors"], ", ")
            question.source = joined(own["sources"] or theme["sources"] or round_["sources"] or head["sources"], "; ")
        for topic, info in self.pending_topics:
            topic.author = joined(info["authors"], ", ")
        stakes = sum(1 for q, *_ in self.pending if q.kind == "stake")
        if stakes:
            self.warn("", f"{stakes} SIGame stake question{'s' * (stakes > 1)}: the auction (AU1) where the "
                          "regulation has auctions, a plain question where it has none")

    def _prices(self, round_: Round, r: int) -> None:
        rows = []
        for topic in round_.topics:
            row = " ".join(str(q.price) if q.price is not None else "?" for q in topic.questions)
            if row and row not in rows:
                rows.append(row)
        if rows:
            self.warn(place(r, round_.name), f"pack prices {'; '.join(rows)} (in play the regulation's values apply)",
                      INFO)


def _author(f: dict) -> str:
    """SIGame's AuthorInfo.ToString: «Имя Отчество Фамилия (Город, Страна)»."""
    name = " ".join(x for x in (f.get("name", ""), f.get("secondname", ""), f.get("surname", "")) if x)
    where = ", ".join(x for x in (f.get("city", ""), f.get("country", "")) if x)
    return f"{name} ({where})" if where else name


def _source(f: dict) -> str:
    """SIGame's SourceInfo.ToString: «Автор. Название.: Город - Издательство, Год»."""
    text = (f"{f['author']}. " if f.get("author") else "") + f.get("title", "")
    if f.get("city"):
        text += f".: {f['city']}"
    if f.get("publish"):
        text += f" - {f['publish']}"
    if f.get("year", "").strip() not in ("", "0"):
        text += f", {f['year'].strip()}"
    return text


def read(path: str, limits: Limits = DEFAULT_LIMITS) -> tuple[Pack, SafeZip, int]:
    """The pack, the open, checked archive its media refs name (the caller closes it), the SIGame version."""
    archive = SafeZip(path, limits)
    reader = None
    try:
        if "content.xml" not in archive.infos:
            raise PackError(f"{path}: refused: no content.xml in the archive (is this a SIGame .siq pack?)")
        reader = _Reader(path, archive)
        pack = reader.read(safexml.growing(archive.chunks("content.xml", limits.max_content_bytes),
                                           f"{path}: content.xml"))
        if reader.final_rounds > 1:
            reader.warn("", f"{reader.final_rounds} final rounds; the topics of all of them are final topics", INFO)
        return pack, archive, reader.version
    except BaseException:
        archive.close()
        raise
    finally:
        # the question reader's callbacks close over the reader: a cycle that would keep the whole pack alive
        # until a full garbage collection (0.4 s over a 30 MB pack) instead of freeing it when the caller drops it
        if reader is not None:
            reader.questions = None
