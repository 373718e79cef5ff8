// The hall's feed from the watch relay (links/watch/server.py): the view key from the link's #k=, one WebSocket,
// states applied in the relay's order (seq) — an older one is never drawn over a newer — and drawn once a frame,
// the latest wins. `HALL.now()` is the board's engine clock (from the relay's stamps) for the timers.
"use strict";
const HALL = (() => {
  const params = new URLSearchParams(location.hash.slice(1));
  const key = params.get("k") || sessionStorage.getItem("sg-view-key") || "";
  if (params.get("k")) sessionStorage.setItem("sg-view-key", key);
  let offset = 0, seq = 0, state = null, tournament = null, link = "connecting", drawn = true, backoff = 500;
  const seen = [];              // the seqs applied, in order (the tests read them: window.HALL.seen)
  const listeners = [];
  const now = () => performance.now() / 1000 + offset;
  const clock = (t) => { if (typeof t === "number") offset = t - performance.now() / 1000; };
  function changed() {
    if (!drawn) return;
    drawn = false;
    requestAnimationFrame(() => { drawn = true; for (const f of listeners) f(state, tournament, link); });
  }
  function receive(text) {
    let m;
    try { m = JSON.parse(text); } catch (e) { return; }
    if (m.t === "state" && typeof m.seq === "number") {
      if (m.seq <= seq) return;                  // never go back: an older state after a newer one is dropped
      seq = m.seq; state = m.state; clock(m.now);
      seen.push(m.seq); if (seen.length > 5000) seen.shift();
      link = "ok";
    } else if (m.t === "tick") {
      clock(m.now); link = m.link === "ok" ? "ok" : "lost";
    } else if (m.t === "tournament") {
      tournament = m.views || null;
    } else return;
    changed();
  }
  function open() {
    if (!key) { link = "nokey"; changed(); return; }
    const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws?k=${encodeURIComponent(key)}`);
    let heard = Date.now();
    const quiet = setInterval(() => { if (Date.now() - heard > 3500 && link === "ok") { link = "lost"; changed(); } }, 1000);
    // a new connection's first state is the relay's latest: a relay started again (a new game) counts from 1
    ws.onopen = () => { seq = 0; };
    ws.onmessage = (e) => { heard = Date.now(); backoff = 500; receive(e.data); };
    ws.onclose = () => {
      clearInterval(quiet);
      if (link !== "nokey") { link = "lost"; changed(); }
      setTimeout(open, backoff);
      backoff = Math.min(backoff * 2, 5000);
    };
  }
  const words = {
    setup: "Игра скоро начнётся", round_intro: "Темы раунда", choosing: "Выбор вопроса", topic_intro: "Тема",
    reading: "Читается вопрос", buzz_window: "Жмите!", answering: "Отвечает", after_wrong: "Неверно",
    reveal: "Ответ", auction: "Аукцион", auction_answer: "Отвечает", final_stakes: "Финал: ставки",
    final_answer: "Финал: пишут ответ", final_reveal: "Финал: ответы", game_over: "Игра окончена",
  };
  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function player(s, seat) { return ((s && s.players) || []).find((p) => p.seat === seat) || null; }
  // the running clock of the hall's screen: what is left of a deadline, or the answer's elapsed time
  function timer(s) {
    if (!s || s.paused) return null;
    const q = s.question || {}, f = s.final || {};
    const deadline = s.phase === "final_answer" ? f.deadline : q.deadline;
    const total = s.phase === "final_answer" ? f.duration : q.duration;
    if (typeof deadline === "number") {
      const left = Math.max(0, deadline - now());
      return { left, share: total ? Math.min(1, left / total) : null, text: left.toFixed(left < 10 ? 1 : 0) };
    }
    if ((s.phase === "answering" || s.phase === "auction_answer") && typeof q.answer_started === "number") {
      const since = Math.max(0, now() - q.answer_started);
      return { left: null, share: null, text: since.toFixed(0) + " с" };
    }
    return null;
  }
  function topic(s) {
    const q = s && s.question;
    if (!q) return null;
    const name = q.secret && q.secret.topic ? `Кот в мешке: ${q.secret.topic}` : q.topic_name;
    const value = s.phase === "auction_answer" && s.auction ? s.auction.stake : q.value;
    return { name, value };
  }
  // the picture the hall's screens show now (the question's; at the reveal, the answer's), with the view key
  function picture(s) {
    const url = (s && s.question && s.question.picture) || (s && s.phase === "reveal" && s.last && s.last.picture);
    return typeof url === "string" && url.startsWith("/picture/") ? `${url}?k=${encodeURIComponent(key)}` : null;
  }
  function showPicture(img, url) {          // set once per picture: the same URL is not fetched again
    img.hidden = !url;
    if (url && img.getAttribute("src") !== url) img.src = url;
    if (!url) img.removeAttribute("src");
  }
  function status(s) {
    if (!s) return "";
    if (s.paused) return "Пауза";
    const who = player(s, s.answering);
    if ((s.phase === "answering" || s.phase === "auction_answer") && who) return `Отвечает ${who.name}`;
    if (s.phase === "buzz_window" && s.buttons_live === false) return "Ждём ведущего";
    return words[s.phase] || "";
  }
  document.addEventListener("DOMContentLoaded", open);
  return { now, seen, el, player, timer, topic, status, words, picture, showPicture,
           onState: (f) => listeners.push(f), get state() { return state; }, get link() { return link; },
           get seq() { return seq; } };
})();
window.HALL = HALL;
