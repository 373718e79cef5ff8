// The hall's phones: the scores, the current topic and value, the chart of the scores, and the tournament's bracket
// and standings when the board has a tournament file (hall.js brings the hall's view; nothing else is read).
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  const el = (...a) => HALL.el(...a);
  let running = false;

  function scores(s) {
    const root = $("scores");
    root.replaceChildren();
    const players = [...((s && s.players) || [])].sort((a, b) => b.score - a.score || a.seat - b.seat);
    for (const p of players) {
      const row = el("div", "seat");
      row.style.setProperty("--c", `var(--sg-player-${((p.seat - 1) % 4) + 1})`);
      if (s.answering === p.seat) row.classList.add("answering");
      row.append(el("span", "dot"), el("span", "name", p.name), el("span", "score" + (p.score < 0 ? " negative" : ""), p.score));
      row.dataset.seat = p.seat;
      root.append(row);
    }
    root.hidden = !players.length;
  }
  function chart(s) {
    const svg = $("chart"), ns = "http://www.w3.org/2000/svg";
    svg.replaceChildren();
    const rows = ((s && s.history) || []).filter(Array.isArray);
    const players = (s && s.players) || [];
    if (!rows.length || !players.length) return;
    const all = rows.flat().filter((v) => typeof v === "number").concat([0]);
    const low = Math.min(...all), high = Math.max(...all), span = high - low || 1;
    const x = (k) => (rows.length > 1 ? (k * 360) / (rows.length - 1) : 180);
    const y = (v) => 175 - ((v - low) / span) * 170;
    const zero = document.createElementNS(ns, "line");
    zero.setAttribute("class", "zero");
    zero.setAttribute("x1", 0); zero.setAttribute("x2", 360); zero.setAttribute("y1", y(0)); zero.setAttribute("y2", y(0));
    svg.append(zero);
    players.forEach((p, i) => {
      const line = document.createElementNS(ns, "polyline");
      line.setAttribute("points", rows.map((r, k) => `${x(k).toFixed(1)},${y(r[i] ?? 0).toFixed(1)}`).join(" "));
      line.style.setProperty("stroke", `var(--sg-player-${((p.seat - 1) % 4) + 1})`);
      svg.append(line);
    });
  }
  function table(view) {
    const box = el("div", "scroll"), t = el("table");
    const head = el("tr");
    (view.columns || []).forEach((c, i) => head.append(el("th", i === 0 || i > 1 ? "num" : "", c)));
    t.append(head);
    (view.rows || []).forEach((row, r) => {
      const tr = el("tr", r < (view.highlight || 0) ? "top" : "");
      row.forEach((v, i) => tr.append(el("td", i === 0 || i > 1 ? "num" : "", v)));
      t.append(tr);
    });
    box.append(t);
    return box;
  }
  function games(list) {
    const out = [];
    for (const g of list || []) {
      const box = el("div", "game");
      box.append(el("h3", "", g.number ? `Игра ${g.number}` : g.id === "final" ? "" : g.id));
      for (const p of g.players || []) {
        const who = el("div", "who" + (p.won ? " won" : ""));
        who.append(el("span", "", p.name), el("span", "", p.score ?? ""));
        box.append(who);
      }
      out.push(box);
    }
    return out;
  }
  function tournament(views) {
    const root = $("tournament");
    root.replaceChildren();
    root.hidden = !views || !Object.keys(views).length;
    if (root.hidden) return;
    for (const [name, view] of Object.entries(views)) {
      const card = el("section", "card");
      card.id = `t-${name}`;
      card.append(el("h2", "", view.title || (name === "bracket" ? "Сетка" : "Таблица")));
      if (view.kind === "standings") card.append(table(view));
      else if (view.kind === "bracket") {
        for (const column of view.columns || []) {
          const c = el("div", "column");
          c.append(el("h3", "", column.title), ...games(column.games));
          card.append(c);
        }
        if (view.champion) card.append(el("div", "", `Чемпион: ${view.champion}`));
      } else if (view.games) card.append(...games(view.games));
      else if (view.rows) card.append(table(view));
      root.append(card);
    }
  }
  function tick() {
    const t = HALL.timer(HALL.state);
    $("timer").hidden = !t;
    if (t) {
      $("seconds").textContent = t.text;
      $("bar").hidden = t.share === null;           // no limit (BZ5): the elapsed seconds alone
      $("timer").classList.toggle("elapsed", t.share === null);
      $("bar").style.transform = `scaleX(${t.share === null ? 1 : t.share})`;
    }
    running = !!t;
    if (running) requestAnimationFrame(tick);
  }
  function draw(s, views, link) {
    $("link").textContent = link === "ok" ? "на связи" : link === "nokey" ? "нет ключа: откройте по QR-коду" : "нет связи";
    $("link").className = link === "ok" ? "" : "lost";
    if (s) {
      $("title").textContent = s.title || "Своя игра";
      $("stage").textContent = [s.stage, s.round ? `раунд ${s.round.index + 1}` : ""].filter(Boolean).join(" · ");
      const tp = HALL.topic(s);
      $("topic").textContent = tp ? tp.name : "";
      $("value").textContent = tp && tp.value != null ? tp.value : "";
      $("status").textContent = HALL.status(s);
      HALL.showPicture($("picture"), HALL.picture(s));
      scores(s);
      chart(s);
    }
    tournament(views);
    if (!running) tick();
  }
  document.addEventListener("DOMContentLoaded", () => HALL.onState(draw));
})();
