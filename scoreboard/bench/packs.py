"""`scoreboard bench packs`: two budgets.

1. Import a 3 MB SIGame .siq with media, cold cache each time (budget: 1 s median). The pack is generated here
   (4 rounds × 6 topics × 5 questions, v5 schema, 60 incompressible 50 KB images), so the figure does not depend
   on any file on the machine. Each repetition loads it into a fresh, empty cache folder: open and check the zip,
   parse content.xml, validate, copy every image, build the plan.
2. `scoreboard pack convert` of a generated .siq whose content.xml is 30 MB of text (issue 10: ≤ 2 s and
   ≤ 150 MB peak RSS). Each repetition is a fresh process (`python -m scoreboard pack convert …`), so its peak
   RSS is that of a real conversion; wall time and CPU time (user + system) are both reported, the machine being
   shared.
"""
from __future__ import annotations

import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
import zipfile
from xml.sax.saxutils import escape

from scoreboard.packs import load_plan

NS = "https://github.com/VladimirKhil/SI/blob/master/assets/siq_5.xsd"
BUDGET = 1.0
CONVERT_BUDGET_S = 2.0
CONVERT_BUDGET_RSS_MB = 150.0
WORDS = ["река", "город", "страна", "столица", "поэт", "роман", "картина", "художник", "композитор", "опера",
         "планета", "звезда", "элемент", "кислота", "битва", "император", "открытие", "остров", "гора", "море"]


def _sub(parent, tag, text=None, **attrs):
    element = ET.SubElement(parent, f"{{{NS}}}{tag}", **attrs)
    if text is not None:
        element.text = text
    return element


def _info(parent, source=""):
    info = _sub(parent, "info")
    _sub(_sub(info, "authors"), "author", "Автор")
    sources = _sub(info, "sources")
    if source:
        _sub(sources, "source", source)
    _sub(info, "comments", "")


def make_pack(path: str, rounds: int = 4, topics: int = 6, images: int = 60, image_bytes: int = 50_000) -> int:
    rng = random.Random(7)
    ET.register_namespace("", NS)
    root = ET.Element(f"{{{NS}}}package", name="Бенчмарк", version="5", id="bench")
    _info(root)
    rounds_el = _sub(root, "rounds")
    picture = 0
    names = []
    for r in range(rounds):
        round_el = _sub(rounds_el, "round", name=f"Раунд {r + 1}", type="standart")
        _info(round_el)
        themes = _sub(round_el, "themes")
        for t in range(topics):
            theme = _sub(themes, "theme", name=f"Тема {r + 1}.{t + 1}")
            _info(theme)
            questions = _sub(theme, "questions")
            for n in range(1, 6):
                q = _sub(questions, "question", price=str(100 * n))
                _info(q, source=f"Источник {r}.{t}.{n}")
                param = _sub(_sub(q, "params"), "param", name="question", type="content")
                _sub(param, "item", "Текст вопроса " * 20, type="text")
                if picture < images and n in (1, 3, 5):
                    name = f"картинка {picture:03d}.jpg"
                    names.append(name)
                    _sub(param, "item", name, type="image", isRef="True")
                    picture += 1
                _sub(_sub(q, "right"), "answer", f"Ответ {n}")
                _sub(q, "wrong")
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("content.xml", ET.tostring(root, encoding="utf-8", xml_declaration=True))
        for name in names:
            archive.writestr("Images/" + name, rng.randbytes(image_bytes), compress_type=zipfile.ZIP_STORED)
    return os.path.getsize(path)


def make_big_pack(path: str, target: int = 30_000_000) -> int:
    """A text-only .siq whose content.xml is `target` bytes: 6 topics a round, 5 questions a topic, each question
    60 words with source, comment, two right answers and a wrong one. Returns the size of content.xml.
    Written into the zip a round at a time, so the bench process stays small: a child's peak RSS as getrusage
    reports it is never below its parent's size when it was started, and that would hide the conversion's own."""
    rng = random.Random(5)
    head = (f'<?xml version="1.0" encoding="utf-8"?><package name="Большой" version="5" id="big" xmlns="{NS}">'
            '<info><authors><author>Автор</author></authors></info><rounds>').encode()
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive, archive.open("content.xml", "w") as out:
        out.write(head)
        size, r = len(head), 0
        while size < target:
            r += 1
            chunk = [f'<round name="Раунд {r}"><info><comments>Раунд {r}</comments></info><themes>']
            for t in range(6):
                chunk.append(f'<theme name="Тема {r}.{t + 1}"><info><comments>Пояснение</comments></info><questions>')
                for n in range(1, 6):
                    text = escape(" ".join(rng.choice(WORDS) for _ in range(60)))
                    chunk.append(f'<question price="{n * 100}"><info><sources><source>Источник {n}</source></sources>'
                                 f'<comments>Комментарий {n}</comments></info><params><param name="question" '
                                 f'type="content"><item>{text}</item></param></params><right><answer>Ответ {n}'
                                 '</answer><answer>Вариант</answer></right><wrong><answer>Неверно</answer></wrong>'
                                 '</question>')
                chunk.append("</questions></theme>")
            chunk.append("</themes></round>")
            piece = "".join(chunk).encode()
            out.write(piece)
            size += len(piece)
        tail = b"</rounds></package>"
        out.write(tail)
    return size + len(tail)


def convert_figures(work: str, repeats: int) -> dict:
    """Converts the big pack `repeats` times, each in a fresh process: wall and CPU seconds, peak RSS."""
    try:
        import resource  # lazy: Unix-only: the children's CPU time and peak RSS
    except ImportError:
        raise SystemExit("bench packs: the conversion's CPU time and peak memory are read with Unix's resource "
                         "module, which this system lacks: run `bench packs` on Linux or macOS") from None
    source = os.path.join(work, "big.siq")
    content = make_big_pack(source)
    walls, cpus, peaks = [], [], []
    for n in range(repeats):
        target = os.path.join(work, f"big{n}.toml")
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "scoreboard", "pack", "convert", source, target],
                              capture_output=True, text=True)
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if done.returncode != 0:
            raise RuntimeError(f"pack convert failed: {done.stderr.strip() or done.stdout.strip()}")
        cpus.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
        peaks.append(after.ru_maxrss / 1024)       # KiB → MiB; the largest child so far (every run is the same)
        toml_bytes = os.path.getsize(target)
        os.remove(target)
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024     # a child's figure is never below this
    return {"content_xml_bytes": content, "toml_bytes": toml_bytes, "repeats": repeats, "bench_rss_mb": own,
            "wall_median_s": statistics.median(walls), "wall_max_s": max(walls),
            "cpu_median_s": statistics.median(cpus), "peak_rss_mb": max(peaks),
            "budget_s": CONVERT_BUDGET_S, "budget_rss_mb": CONVERT_BUDGET_RSS_MB}


def run(args) -> int:
    repeats = 5 if getattr(args, "quick", False) else 100
    with tempfile.TemporaryDirectory(prefix="svoya-bench-packs-") as work:
        path = os.path.join(work, "bench.siq")
        size = make_pack(path)
        load_plan(path, cache_dir=os.path.join(work, "warmup"))
        cold, warm = [], []
        for n in range(repeats):
            cache = os.path.join(work, f"cache{n}")
            start = time.perf_counter()
            plan = load_plan(path, cache_dir=cache)
            cold.append(time.perf_counter() - start)
            start = time.perf_counter()
            load_plan(path, cache_dir=cache)
            warm.append(time.perf_counter() - start)
        media = sum(len(q["media"]) for r in plan["rounds"] for t in r["topics"] for q in t["questions"])
        big = convert_figures(work, 1 if getattr(args, "quick", False) else 5)

    def figures(samples):
        ordered = sorted(samples)
        p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
        return {"median_s": statistics.median(samples), "p99_s": p99, "max_s": ordered[-1]}

    result = {"pack_bytes": size, "media_files": media, "repeats": repeats, "budget_s": BUDGET,
              "cold": figures(cold), "warm": figures(warm), "convert_30mb": big}
    result["budget_over_median"] = BUDGET / result["cold"]["median_s"]
    if getattr(args, "json", False):
        print(json.dumps(result, indent=2))
    else:
        print(f"import of a {size / 1e6:.2f} MB .siq with {media} images, {repeats} repeats")
        for label in ("cold", "warm"):
            f = result[label]
            print(f"  {label} cache: median {f['median_s'] * 1000:.1f} ms, p99 {f['p99_s'] * 1000:.1f} ms, "
                  f"max {f['max_s'] * 1000:.1f} ms")
        print(f"  budget {BUDGET:.1f} s = {result['budget_over_median']:.0f}× the cold median")
        print(f"convert of a .siq with a {big['content_xml_bytes'] / 1e6:.1f} MB content.xml "
              f"({big['toml_bytes'] / 1e6:.1f} MB of TOML), {big['repeats']} fresh processes")
        print(f"  wall median {big['wall_median_s']:.2f} s (max {big['wall_max_s']:.2f} s), CPU median "
              f"{big['cpu_median_s']:.2f} s, peak RSS {big['peak_rss_mb']:.0f} MB "
              f"(budget {CONVERT_BUDGET_S:.0f} s, {CONVERT_BUDGET_RSS_MB:.0f} MB; the bench itself "
              f"{big['bench_rss_mb']:.0f} MB)")
    within = (result["cold"]["median_s"] <= BUDGET and big["wall_median_s"] <= CONVERT_BUDGET_S
              and big["peak_rss_mb"] <= CONVERT_BUDGET_RSS_MB)
    return 0 if within else 1
