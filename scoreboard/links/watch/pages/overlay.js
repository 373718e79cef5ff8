// The stream's overlay: ?parts=scores,question,timer,answerer,picture &pos=bottom|top|bottom-left|top-right… &scale=0.5–3
// (docs/STREAMING.md). It draws only the hall's view (hall.js): the scores, who answers, the clock, the topic and
// value, the question's picture once the hall's screens show it — the relay never carries an answer before the hall sees it.
"use strict";
(() => {
  const q = new URLSearchParams(location.search);
  const parts = new Set((q.get("parts") || "scores,question,timer,answerer,picture").split(",").map((p) => p.trim()));
  const pos = (q.get("pos") || "bottom").split("-");
  const scale = Math.min(3, Math.max(0.5, parseFloat(q.get("scale")) || 1));
  let running = false;

  function scores(root, s) {
    root.replaceChildren();
    for (const p of (s && s.players) || []) {
      const card = HALL.el("div", "seat");
      card.style.setProperty("--c", `var(--sg-player-${((p.seat - 1) % 4) + 1})`);
      if (parts.has("answerer") && s.answering === p.seat && (s.phase === "answering" || s.phase === "auction_answer")) card.classList.add("answering");
      if (p.in_play === false) card.classList.add("out");
      card.append(HALL.el("div", "name", p.name), HALL.el("div", "score" + (p.score < 0 ? " negative" : ""), p.score));
      card.dataset.seat = p.seat;
      root.append(card);
    }
  }
  function tick() {
    const t = HALL.timer(HALL.state);
    const box = document.getElementById("timer");
    box.hidden = !(parts.has("timer") && t);
    if (t) {
      document.getElementById("seconds").textContent = t.text;
      const bar = document.getElementById("bar");
      bar.hidden = t.share === null;                 // no limit (BZ5): the elapsed seconds alone
      box.classList.toggle("elapsed", t.share === null);
      bar.style.transform = `scaleX(${t.share === null ? 1 : t.share})`;
      bar.classList.toggle("low", t.left !== null && t.left < 3);
    }
    running = !!t;
    if (running) requestAnimationFrame(tick);
  }
  function draw(s) {
    const question = document.getElementById("question");
    const tp = HALL.topic(s);
    question.hidden = !(parts.has("question") && s && (tp || HALL.timer(s)));
    document.getElementById("topic").textContent = tp ? tp.name : "";
    document.getElementById("value").textContent = tp && tp.value !== null && tp.value !== undefined ? tp.value : "";
    document.getElementById("status").textContent = HALL.status(s);
    const options = document.getElementById("options");
    options.replaceChildren(...(((s && s.question && s.question.options) || []).map((o) => HALL.el("li", "", o))));
    const url = parts.has("picture") ? HALL.picture(s) : null;
    HALL.showPicture(document.getElementById("picture"), url);
    document.getElementById("pictured").hidden = !url;
    const sc = document.getElementById("scores");
    sc.hidden = !(parts.has("scores") && s && (s.players || []).length);
    if (!sc.hidden) scores(sc, s);
    document.getElementById("link").hidden = HALL.link === "ok" || HALL.link === "connecting";
    if (!running) tick();
  }
  document.addEventListener("DOMContentLoaded", () => {
    const root = document.getElementById("overlay");
    root.classList.add(pos[0] === "top" ? "top" : "bottom");
    if (pos[1] === "left" || pos[1] === "right") root.classList.add(pos[1]);
    root.style.transform = `scale(${scale})`;
    HALL.onState((s) => draw(s));
  });
})();
