"""`scoreboard bench packs`: import a 3 MB SIGame .siq with media, cold cache each time (budget: 1 s median).

The pack is generated here (4 rounds × 6 topics × 5 questions, v5 schema, 60 incompressible 50 KB images),
so the figure does not depend on any file on the machine. Each repetition loads it into a fresh, empty cache
folder: open and check the zip, parse content.xml, validate, copy every image, build the plan.
"""
from __future__ import annotations

import json
import os
import random
import statistics
import tempfile
import time
import xml.etree.ElementTree as ET
import zipfile

from . import load_plan

NS = "http://vladimirkhil.com/siq_5.xsd"
BUDGET = 1.0


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

    def figures(samples):
        ordered = sorted(samples)
        p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
        return {"median_s": statistics.median(samples), "p99_s": p99, "max_s": ordered[-1]}

    result = {"pack_bytes": size, "media_files": media, "repeats": repeats, "budget_s": BUDGET,
              "cold": figures(cold), "warm": figures(warm)}
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
    return 0 if result["cold"]["median_s"] <= BUDGET else 1
