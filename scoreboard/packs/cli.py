"""`scoreboard pack check|show|convert` (the `packs` benchmark is scoreboard/bench/packs.py).

check   — every error and warning (structure, rule P2, import notes), topic and question named; exit 1 on errors.
show    — the pack as the host will see it: rounds, topics, questions with answers, pack prices, media.
convert — any supported pack to the native TOML format, media copied beside it.

Converted media keep the pack's own base names (made safe), `-2`, `-3`… added only when two would clash, so a
converted pack converted again keeps the same names instead of stacking prefixes.
"""
from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path, PurePosixPath
from urllib.parse import unquote

from . import native
from .cache import NAME_LIMIT, safe_name
from .errors import ERROR, INFO, WARNING, PackError
from .load import Loaded, load, quiet_gc
from .progress import ProgressBar

FORMATS = {"toml": "native TOML", "siq3": "SIGame 3", "siq4": "SIGame 4", "siq5": "SIGame 5",
           "chgk": "ChGK-database text"}


def register(subparsers) -> None:
    pack = subparsers.add_parser("pack", help="check, show or convert a question pack")
    sub = pack.add_subparsers(dest="pack_command", metavar="ACTION")
    sub.required = True
    check = sub.add_parser("check", help="list every error and warning; exit 1 on errors")
    check.add_argument("file")
    check.add_argument("--quiet-info", action="store_true", help="leave out info lines (pack prices…)")
    check.add_argument("--topics", help="the topics a game will use, comma-separated: names, numbers or R.N; "
                                        "checks that the board can play them")
    check.set_defaults(func=_one_shot(cmd_check))
    show = sub.add_parser("show", help="print rounds, topics, questions and answers")
    show.add_argument("file")
    show.set_defaults(func=_one_shot(cmd_show))
    convert = sub.add_parser("convert", help="write the pack in the native TOML format (media beside it)")
    convert.add_argument("source")
    convert.add_argument("target", help="OUT.toml")
    convert.add_argument("--force", action="store_true", help="overwrite OUT.toml and the files in OUT_media/")
    convert.set_defaults(func=_one_shot(cmd_convert))


def _one_shot(command):
    """A command that reads one pack and exits: no cyclic garbage collection at all (the pack's objects hold no
    cycles; a full collection over a large pack's objects cost more than a second of a conversion)."""
    def run(args) -> int:
        with quiet_gc():
            return command(args)
    return run


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
        parts.append(f"final «{pack.final.topic}»" + (f" (+{len(pack.other_finals)} more final topics)"
                                                      if pack.other_finals else ""))
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
        from .plan import build   # lazy: 8 ms at import; only `check --topics` builds a plan
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
    if q.empty:
        return [f"{prefix}{value}(empty cell)"]
    marks = [m.kind for m in q.media]
    if q.auction:
        marks.insert(0, "auction")
    elif q.kind:
        marks.insert(0, q.kind)
    secret = ", ".join(x for x in (f"topic «{q.secret_topic}»" if q.secret_topic else "",
                                   f"price {q.secret_price}" if q.secret_price else "") if x)
    if secret:
        marks.insert(1, secret)
    text = " ".join(q.text.split()) or "(no text)"
    lines = [f"{prefix}{value}{text}" + (f"  [{', '.join(marks)}]" if marks else "")]
    answer = q.answer + (f" (зачёт: {'; '.join(q.accepts)})" if q.accepts else "")
    pad = " " * len(prefix)
    lines.append(pad + f"→ {answer or '(no answer)'}")
    if q.wrong:
        lines.append(pad + f"✗ {'; '.join(q.wrong)}")
    if q.answer_media:
        lines.append(pad + f"  with the answer: {', '.join(m.kind for m in q.answer_media)}")
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
    if pack.logo is not None:
        out.append(f"logo: {PurePosixPath(pack.logo.ref).name}")
    if pack.comment:
        out.append(f"comment: {' '.join(pack.comment.split())}")
    for r, round_ in enumerate(pack.rounds, 1):
        out.append(f"\nRound {r} «{round_.name}»")
        if round_.comment:
            out.append(f"  ({' '.join(round_.comment.split())})")
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
    for k, final in enumerate(pack.finals()):
        out.append(f"\nFinal «{final.topic}»" + (" (another final topic the host may choose)" if k else ""))
        out.extend(_question_line("     ", final.question))
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
    folder = target.parent / f"{target.stem}_media"
    refusal = _refuse_output(target, folder, args.force)
    if refusal:
        print(f"error: {refusal}", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory(prefix="svoya-pack-convert-") as cache:
        try:
            loaded = _load(args.source, cache)
            pack = loaded.pack          # ours to change: refs become the converted pack's own paths
            renamed = _write_media(loaded, folder)
            for m in _all_media(pack):
                m.ref = renamed.get(m.ref, "")
            for question in pack.questions():
                question.media = [m for m in question.media if m.ref]
                question.answer_media = [m for m in question.answer_media if m.ref]
            if pack.logo is not None and not pack.logo.ref:
                pack.logo = None
            _write_new(target, (part.encode("utf-8") for part in native.parts(pack)))
        except PackError as error:
            print(f"error: {error}", file=sys.stderr)
            return 1
    errors = sum(1 for i in loaded.issues if i.level == ERROR)
    warnings = sum(1 for i in loaded.issues if i.level == WARNING)
    print(f"{target}: written ({_summary(loaded)}); {errors} errors, {warnings} warnings "
          f"(`scoreboard pack check {args.source}` lists them)")
    return 0


def _all_media(pack):
    for question in pack.questions():
        yield from question.media
        yield from question.answer_media
    if pack.logo is not None:
        yield pack.logo


def _refuse_output(target: Path, folder: Path, force: bool) -> str | None:
    """Why convert may not write OUT.toml and OUT_media/ (None: it may). Nothing is ever written through a link."""
    parent = target.parent
    if parent.is_symlink() and not parent.is_dir():
        return f"{target}: its folder {parent} is a broken symbolic link"
    try:
        parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        return f"{target}: cannot create its folder {parent} ({error.strerror or error})"
    if not os.access(parent, os.W_OK | os.X_OK):
        return f"{target}: cannot write in {parent} (permission denied)"
    if target.is_symlink():
        return f"{target}: refused: it is a symbolic link"
    if target.is_dir():
        return f"{target}: is a folder"
    if target.exists() and not force:
        return f"{target} exists (use --force to overwrite)"
    if folder.is_symlink():
        return f"{folder}: refused: the media folder is a symbolic link"
    if folder.exists() and not folder.is_dir():
        return f"{folder}: exists and is not a folder"
    if folder.exists() and not force:
        return f"{folder} exists (use --force to write into it)"
    return None


def _write_media(loaded: Loaded, folder: Path) -> dict[str, str]:
    """Copies every media file into `folder` (only there: no name from the pack reaches the path, no link is
    followed); returns ref → the path the TOML names."""
    renamed: dict[str, str] = {}
    names = media_names(sorted(loaded.media), escaped=loaded.format.startswith("siq"))
    if not names:
        return renamed
    try:
        folder.mkdir(exist_ok=True)
    except OSError as error:
        raise PackError(f"{folder}: cannot create ({error.strerror})") from None
    real = os.path.realpath(folder)
    if folder.is_symlink() or os.path.dirname(real) != os.path.realpath(folder.parent):
        raise PackError(f"{folder}: refused: the media folder is (or goes through) a symbolic link")
    for ref, name in names.items():
        with open(loaded.media[ref], "rb") as handle:
            _write_new(folder / name, iter(lambda: handle.read(1 << 20), b""))
        renamed[ref] = f"{folder.name}/{name}"
    return renamed


def _write_new(path: Path, data) -> None:
    """Writes the byte pieces `data` to `path` by a temporary file renamed over it, never following a link planted
    at either name."""
    temporary = path.with_name(f".{path.name}.part")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    try:
        if temporary.is_symlink() or temporary.exists():
            temporary.unlink()
        with os.fdopen(os.open(temporary, flags, 0o644), "wb") as out:
            for piece in data:
                out.write(piece)
        os.replace(temporary, path)          # replaces a link itself, never what it points to
    except OSError as error:
        raise PackError(f"{path}: cannot write ({error.strerror or error})") from None


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
