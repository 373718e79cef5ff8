// The photo finish on the host's page (issue 27 item 2, BZ11): the presses of the newest window — order, gaps in ms,
// each press's source and ± bound, the close call — from `/sg/host/question`'s `presses`, which only a host session
// receives (a view session never gets it). Built with textContent only (names are the host's input, never markup),
// and rebuilt only when the record changes, so the «name instead» button never moves under a finger.
"use strict";

const Photo = (() => {
  const WORDS = {
    ru: { title: "Нажатия", last: "прошлый вопрос", close: "СПОРНО", live: "старт кнопок", bound: "погрешность",
      name: "Назвать", named: "Ведущий назвал", instead: "вместо",
      show: "На экран зала", hide: "Убрать с экрана зала", onHall: "на экране зала",
      sources: { box: "кнопка", key: "клавиша", phone: "телефон", remote: "пульт" },
      outcomes: { won: "первый", too_late: "позже", false_start: "фальстарт", locked_out: "блокирован", ignored: "не в счёт" } },
    en: { title: "Presses", last: "last question", close: "CLOSE CALL", live: "buttons live", bound: "bound",
      name: "Name", named: "The host named", instead: "instead of",
      show: "To the hall's screens", hide: "Off the hall's screens", onHall: "on the hall's screens",
      sources: { box: "box", key: "key", phone: "phone", remote: "remote" },
      outcomes: { won: "first", too_late: "later", false_start: "false start", locked_out: "locked out", ignored: "ignored" } },
  };

  // ("current" | "last", the newest window with presses), as the board's own screen picks it (photo_finish.py).
  function shown(presses) {
    if (!presses || typeof presses !== "object") return null;
    for (const which of ["current", "last"]) {
      const windows = ((presses[which] || {}).windows) || [];
      for (let i = windows.length - 1; i >= 0; i--) if ((windows[i].presses || []).length) return [which, windows[i]];
      if (which === "current" && windows.length) return null;
    }
    return null;
  }

  function ms(v) {
    if (typeof v !== "number") return "—";
    if (Math.abs(v) >= 1000) return `${v >= 0 ? "+" : ""}${(v / 1000).toFixed(2)} с`;
    return `${v >= 0 ? "+" : ""}${v.toFixed(1)} мс`;
  }

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text != null) e.textContent = text;
    return e;
  }

  // box: the #photo element; hq: the host's question (null for a view session); nameOf(seat) → a name;
  // onName(seat, label): send /sg/answerer (the host's tap); onHall(address, label): send /sg/photo/show or
  // /sg/photo/hide — the photo finish on the hall's screens (the state's `photo` says whether it is there).
  function draw(box, hq, state, nameOf, lang, onName, onHall) {
    const W = WORDS[lang] || WORDS.ru;
    const picked = shown(hq && hq.presses);
    const answering = state && state.phase === "answering" ? state.answering : null;
    const onScreen = !!(state && state.photo);
    const key = JSON.stringify([picked, answering, lang, onScreen]);
    if (box.dataset.shown === key) return;
    box.dataset.shown = key;
    box.hidden = !picked;
    if (!picked) { box.replaceChildren(); return; }
    const [which, win] = picked;
    const title = (which === "last" ? `${W.title} — ${W.last}` : W.title) + (onScreen ? ` · ${W.onHall}` : "");
    const parts = [el("div", `photo-title${onScreen ? " on-hall" : ""}`, title)];
    const rows = win.presses || [];
    const close = rows.find((p) => p.close);
    if (close) {
      const c = close.close, other = c.with === "live" ? W.live : nameOf(c.with);
      parts.push(el("div", "photo-close", `${W.close}: ${nameOf(close.seat)} · ${other} — ${Number(c.gap_ms).toFixed(1)} мс, ${W.bound} ±${c.bounds_ms} мс`));
    }
    if (win.named) parts.push(el("div", "photo-named", `${W.named}: ${nameOf(win.named.seat)} ${W.instead} ${nameOf(win.named.instead_of)}`));
    const list = el("ol", "photo-rows");
    rows.forEach((p, i) => {
      const li = el("li", `photo-row ${p.outcome}${p.close ? " close" : ""}`);
      li.dataset.seat = String(p.seat);
      const when = i === 0 || p.gap_ms == null ? p.after_ms : p.gap_ms;
      li.append(el("span", "who", `${i + 1}. ${nameOf(p.seat)}`), el("span", "gap", ms(when)),
        el("span", "src", `${W.sources[p.source] || p.source} ±${p.bound_ms == null ? "?" : p.bound_ms}`),
        el("span", "out", `${p.close ? "≈ " : ""}${W.outcomes[p.outcome] || p.outcome}`));
      list.append(li);
    });
    parts.push(list);
    // BZ11: before the verdict, the host may name the other player of the close call
    if (answering != null && which === "current") {
      const seats = [...new Set(rows.filter((p) => p.close && p.seat !== answering).map((p) => p.seat))];
      for (const seat of seats) {
        const b = el("button", "wide photo-name", `${W.name}: ${nameOf(seat)}`);
        b.type = "button";
        b.dataset.key = `answerer:${seat}`;
        b.addEventListener("click", () => onName(seat, b.textContent));
        parts.push(b);
      }
    }
    // issue 27 item 2: the host sends it to the hall's screens, and takes it away (it goes by itself with the next race)
    if (onHall) {
      const b = el("button", "wide photo-hall", onScreen ? W.hide : W.show);
      b.type = "button";
      b.dataset.key = onScreen ? "photo:hide" : "photo:show";
      b.addEventListener("click", () => onHall(onScreen ? "/sg/photo/hide" : "/sg/photo/show", b.textContent));
      parts.push(b);
    }
    box.replaceChildren(...parts);
  }

  // a close call in this question's newest window (the bar's «СПОРНО ↓»)
  function closeCall(hq) {
    const picked = shown(hq && hq.presses);
    return !!picked && picked[0] === "current" && !!picked[1].close;
  }

  return { draw, shown, closeCall, word: (lang) => (WORDS[lang] || WORDS.ru).close };
})();
