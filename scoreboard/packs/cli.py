"""`scoreboard pack check|show|convert` and the `packs` benchmark.

check   — every error and warning (structure, rule P2, import notes), topic and question named; exit 1 on errors.
show    — the pack as the host will see it: rounds, topics, questions with answers, pack prices, media.
convert — any supported pack to the native TOML format, media copied beside it.

Converted media keep the pack's own base names (made safe), `-2`, `-3`… added only when two would clash, so a
converted pack converted again keeps the same names instead of stacking prefixes.
"""
from __future__ import annotations

import copy
import os
import shutil
import sys
import tempfile
from pathlib import Path, PurePosixPath
from urllib.parse import unquote

from . import native
from .cache import NAME_LIMIT, safe_name
from .errors import ERROR, INFO, WARNING, PackError
from .load import Loaded, load
from .plan import build
from .progress import ProgressBar

FORMATS = {"toml": "native TOML", "siq4": "SIGame 4", "siq5": "SIGame 5", "chgk": "ChGK-database text"}


def register(subparsers) -> None:
    pack = subparsers.add_parser("pack", help="check, show or convert a question pack")
    sub = pack.add_subparsers(dest="pack_command", metavar="ACTION")
    sub.required = True
    check = sub.add_parser("check", help="list every error and warning; exit 1 on errors")
    check.add_argument("file")
    check.add_argument("--quiet-info", action="store_true", help="leave out info lines (pack prices…)")
    check.add_argument("--topics", help="the topics a game will use, comma-separated: names, numbers or R.N; "
                                        "checks that the board can play them")
    check.set_defaults(func=cmd_check)
    show = sub.add_parser("show", help="print rounds, topics, questions and answers")
    show.add_argument("file")
    show.set_defaults(func=cmd_show)
    convert = sub.add_parser("convert", help="write the pack in the native TOML format (media beside it)")
    convert.add_argument("source")
    convert.add_argument("target", help="OUT.toml")
    convert.add_argument("--force", action="store_true", help="overwrite OUT.toml")
    convert.set_defaults(func=cmd_convert)


def _load(path: str, cache_dir: str) -> Loaded:
    bar = ProgressBar(f"importing {os.path.basename(path)}")
    try:
        return load(path, cache_dir=cache_dir, progress=bar)
    finally:
        bar.close()


def _summary(loaded: Loaded) -> str:
    pack = loaded.pack
    topics = sum(len(r.topics) for r in pack.rounds)
    questions = sum(len(t.questions) for r in pack.rounds for t in r.topics)
    parts = [f"{FORMATS.get(loaded.format, loaded.format)} pack «{pack.title}»", f"{len(pack.rounds)} rounds",
             f"{topics} topics", f"{questions} questions"]
    if pack.final:
        parts.append(f"final «{pack.final.topic}»")
    if pack.extra:
        parts.append(f"{len(pack.extra)} extra topics")
    if loaded.media:
        parts.append(f"{len(loaded.media)} media files ({loaded.media_bytes / 1e6:.1f} MB)")
    return ", ".join(parts)


def cmd_check(args) -> int:
    with tempfile.TemporaryDirectory(prefix="svoya-pack-check-") as cache:
        try:
            loaded = _load(args.file, cache)
        except PackError as error:
            print(f"error: {error}")
            return 1
    print(f"{args.file}: {_summary(loaded)}")
    order = {ERROR: 0, WARNING: 1, INFO: 2}
    shown = [i for i in loaded.issues if not (args.quiet_info and i.level == INFO)]
    for issue in sorted(shown, key=lambda i: order[i.level]):
        print(issue.report(args.file))
    errors = sum(1 for i in loaded.issues if i.level == ERROR)
    warnings = sum(1 for i in loaded.issues if i.level == WARNING)
    print(f"{errors} error{'s' * (errors != 1)}, {warnings} warning{'s' * (warnings != 1)}")
    if args.topics is not None:
        chosen = [t for t in args.topics.split(",") if t.strip()]
        try:
            plan = build(loaded.pack, loaded.issues, loaded.media, args.file, args.file, chosen)
        except PackError as error:
            print(f"the chosen topics cannot be played:\n{error}")
            return 1
        for round_ in plan["rounds"]:
            print(f"plays {round_['name']}: {', '.join(t['name'] for t in round_['topics'])}")
        print(f"extra topics: {', '.join(t['name'] for t in plan['extra']) or 'none'}")
        return 0
    return 1 if errors else 0


def _question_line(prefix: str, q, value: str = "") -> list[str]:
    marks = [m.kind for m in q.media]
    if q.auction:
        marks.insert(0, "auction")
    text = " ".join(q.text.split()) or "(no text)"
    lines = [f"{prefix}{value}{text}" + (f"  [{', '.join(marks)}]" if marks else "")]
    answer = q.answer + (f" (зачёт: {'; '.join(q.accepts)})" if q.accepts else "")
    lines.append(" " * len(prefix) + f"→ {answer or '(no answer)'}")
    return lines


def cmd_show(args) -> int:
    with tempfile.TemporaryDirectory(prefix="svoya-pack-show-") as cache:
        try:
            loaded = _load(args.file, cache)
        except PackError as error:
            print(f"error: {error}", file=sys.stderr)
            return 1
    pack = loaded.pack
    out = [_summary(loaded)]
    if pack.author:
        out.append(f"author: {pack.author}")
    for r, round_ in enumerate(pack.rounds, 1):
        out.append(f"\nRound {r} «{round_.name}»")
        for t, topic in enumerate(round_.topics, 1):
            who = f" — {topic.author}" if topic.author else ""
            out.append(f"  {t}. {topic.name}{who}")
            if topic.explanation:
                out.append(f"     ({' '.join(topic.explanation.split())})")
            for n, q in enumerate(topic.questions, 1):
                value = f"[{q.price}] " if q.price is not None else ""
                out.extend(_question_line(f"     {n}. ", q, value))
            if topic.reserve is not None:
                out.extend(_question_line("     R. ", topic.reserve))
    if pack.final:
        out.append(f"\nFinal «{pack.final.topic}»")
        out.extend(_question_line("     ", pack.final.question))
    for t, topic in enumerate(pack.extra, 1):
        out.append(f"\nExtra {t}. {topic.name}")
        for n, q in enumerate(topic.questions, 1):
            out.extend(_question_line(f"     {n}. ", q))
    print("\n".join(out))
    return 0


def cmd_convert(args) -> int:
    target = Path(args.target)
    if target.suffix.lower() != ".toml":
        print(f"error: {target}: the output must be a .toml file", file=sys.stderr)
        return 2
    if target.exists() and not args.force:
        print(f"error: {target} exists (use --force to overwrite)", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory(prefix="svoya-pack-convert-") as cache:
        try:
            loaded = _load(args.source, cache)
        except PackError as error:
            print(f"error: {error}", file=sys.stderr)
            return 1
        pack = copy.deepcopy(loaded.pack)
        folder = target.parent / f"{target.stem}_media"
        renamed: dict[str, str] = {}
        for ref, name in media_names(sorted(loaded.media), escaped=loaded.format.startswith("siq")).items():
            folder.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(loaded.media[ref], folder / name)
            renamed[ref] = f"{folder.name}/{name}"
    for question in pack.questions():
        question.media = [m for m in question.media if m.ref in renamed]
        question.answer_media = [m for m in question.answer_media if m.ref in renamed]
        for m in question.media + question.answer_media:
            m.ref = renamed[m.ref]
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(native.dumps(pack), encoding="utf-8")
    errors = sum(1 for i in loaded.issues if i.level == ERROR)
    warnings = sum(1 for i in loaded.issues if i.level == WARNING)
    print(f"{target}: written ({_summary(loaded)}); {errors} errors, {warnings} warnings "
          f"(`scoreboard pack check {args.source}` lists them)")
    return 0


def media_names(refs: list[str], escaped: bool) -> dict[str, str]:
    """A file name for each media ref: its own base name made safe (SIGame names are URL-escaped), with `-2`, `-3`…
    before the extension only when it would clash with one already given (case ignored, for every file system)."""
    names: dict[str, str] = {}
    taken: set[str] = set()
    for ref in refs:
        base = PurePosixPath(ref).name
        name = safe_name(unquote(base) if escaped else base)
        stem, dot, ext = name.rpartition(".")
        if not dot:
            stem, ext = name, ""
        n = 1
        while name.casefold() in taken:      # the stem gives way to the suffix, so the name stays safe as it is
            n += 1
            tail = f"-{n}.{ext}" if dot else f"-{n}"
            name = stem[: NAME_LIMIT - len(tail)].rstrip(" .") + tail
        taken.add(name.casefold())
        names[ref] = name
    return names


def _bench(args) -> int:
    from .bench import run
    return run(args)


BENCHES = {"packs": _bench}
