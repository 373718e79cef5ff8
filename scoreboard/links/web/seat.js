// A player's button on their own phone (issue 26, docs/PHONE_BUTTONS.md). Opened from the seat's link
// (…/seat.html#s=N&k=SEATKEY, the QR code on the host's screen): the page proves the seat's key by the signed
// handshake (link.js, role seat:N), samples the board's clock over its WebSocket, and sends each touch as a signed
// `/sg/press seat touch`, the touch event's own timeStamp mapped onto the board's clock. The board clamps it to
// what the link allows and orders it with the box's and the keys' presses (links/phones/).
"use strict";

(() => {
  const params = new URLSearchParams(location.hash.slice(1));
  const seat = Number(params.get("s"));
  const key = Keys.fromKeyText(params.get("k") || "");
  history.replaceState(null, "", location.pathname + "#s=" + seat);   // the key leaves the address bar
  const $ = (id) => document.getElementById(id);
  const ARMED = new Set(["reading", "buzz_window", "answering", "after_wrong"]);   // links/phones/seats.py ARMED
  const WORDS = { press: "ЖМИ", wait: "ждите", off: "кнопки не активны", won: "ВЫ ОТВЕЧАЕТЕ", lost: "отвечает другой",
    waiting: "место занято другим телефоном: ведущий может пустить этот", bad: "ссылка неверна — отсканируйте код снова",
    online: "на связи", offline: "нет связи", synced: "часы ±", syncing: "синхронизация…" };

  // The board's clock (links/phones/clock.py ClockFit does the same sums): NTP-style samples, the quarter with the
  // best round trips fitted for offset, and drift once they span 4 s.
  const Clock = (() => {
    const KEPT = 64, BEST = 0.25, SPAN = 4000, MAX_DRIFT = 1e-3, SYNCED = 5;
    let samples = [], offset = null, drift = 0, x0 = 0, best = null;
    function add(t0, t1, t2, t3) {            // phone ms, board s, board s, phone ms
      const rtt = (t3 - t0) - (t2 - t1) * 1000;
      if (rtt < 0) return;
      samples.push([(t0 + t3) / 2, ((t1 * 1000 - t0) + (t2 * 1000 - t3)) / 2, rtt]);
      if (samples.length > KEPT) samples.shift();
      const ranked = samples.slice().sort((a, b) => a[2] - b[2]);
      const good = ranked.slice(0, Math.max(3, Math.floor(ranked.length * BEST)));
      best = ranked[0][2];
      x0 = good.reduce((s, g) => s + g[0], 0) / good.length;
      const mean = good.reduce((s, g) => s + g[1], 0) / good.length;
      const xs = good.map((g) => g[0]);
      drift = 0;
      if (good.length >= 3 && Math.max(...xs) - Math.min(...xs) >= SPAN) {
        const sxx = good.reduce((s, g) => s + (g[0] - x0) ** 2, 0);
        drift = good.reduce((s, g) => s + (g[0] - x0) * (g[1] - mean), 0) / sxx;
        drift = Math.min(MAX_DRIFT, Math.max(-MAX_DRIFT, drift));
      }
      offset = mean;
    }
    const synced = () => offset !== null && samples.length >= SYNCED;
    // board seconds of a phone time (ms, performance.now()'s timeline), or null
    const board = (t) => (synced() ? (t + offset + drift * (t - x0)) / 1000 : null);
    let taken = 0;                              // samples ever taken (the tests wait on it)
    const counted = (t0, t1, t2, t3) => { taken += 1; add(t0, t1, t2, t3); };
    return { add: counted, synced, board, get best() { return best; }, get taken() { return taken; } };
  })();

  let state = null, me = null, n = 0, prev = -1, heardAt = 0, asked = new Map(), lastAsk = -1e9;
  let waiting = false, lastAnswering = null;

  // One clock sample: /sg/phone/time n prev hold_us sent mac — `sent` this moment on the board's clock (empty while
  // not synced): the stream keeps the page's order, so it tells the board every earlier press has arrived.
  function ask() {
    const now = performance.now();
    const armed = state !== null && ARMED.has(state.phase);
    if (!Link.online() || now - lastAsk < (armed ? 100 : 500)) return;
    const hold = prev >= 0 ? Math.max(0, Math.round((now - heardAt) * 1000)) : 0;
    const sent = Clock.board(now);
    const next = (n + 1) % 2147483647;
    if (!Link.signedRequest("/sg/phone/time", "sg-time", [next, prev, hold, sent === null ? "" : sent.toFixed(6)])) return;
    lastAsk = now;
    n = next;
    asked.set(n, now);
    if (asked.size > 64) asked.delete(asked.keys().next().value);
  }

  Link.on("message", (address, args) => {
    if (address === "/sg/phone/time") {
      const t3 = performance.now(), t0 = asked.get(args[0]);
      if (t0 === undefined) return;
      asked.delete(args[0]);
      Clock.add(t0, args[1], args[2], t3);
      prev = args[0]; heardAt = t3;
    } else if (address === "/sg/phone/seat") {
      waiting = args[1] === "waiting";
      draw();
    }
  });
  Link.on("state", (rev, json) => {
    try { state = JSON.parse(json); } catch (e) { return; }
    me = (state.players || []).find((p) => p.seat === seat) || null;
    if (state.answering === seat && lastAnswering !== seat && navigator.vibrate) navigator.vibrate([120, 60, 120]);
    lastAnswering = state.answering;
    draw();
  });
  Link.on("denied", (reason) => { $("link").textContent = WORDS.bad + " (" + reason + ")"; $("link").className = "bad"; });
  Link.on("connected", () => { prev = -1; asked.clear(); });

  function press(event) {
    event.preventDefault();
    const touch = Clock.board(event.timeStamp);   // the input's own time: the handler's delay is not counted
    Link.command("/sg/press", [seat, touch === null ? "" : touch.toFixed(6)], "press");
    $("press").classList.add("down");
    setTimeout(() => $("press").classList.remove("down"), 120);
  }
  const button = $("press");
  if (window.PointerEvent) button.addEventListener("pointerdown", press);
  else button.addEventListener("touchstart", press, { passive: false });
  button.addEventListener("click", (e) => e.preventDefault());         // never the press: it comes ~100 ms late
  button.addEventListener("contextmenu", (e) => e.preventDefault());

  function draw() {
    const body = document.body, now = Clock.board(performance.now());
    $("name").textContent = me ? me.name || ("Место " + seat) : "Место " + seat;
    $("score").textContent = me ? String(me.score) : "";
    const armed = state !== null && state.buttons_live && !state.buttons_manual;
    const locked = me && me.locked_until !== null && now !== null && now < me.locked_until;
    const won = state !== null && state.answering === seat;
    body.className = waiting ? "waiting" : won ? "won" : locked ? "locked" : armed ? "armed" : "off";
    $("word").textContent = waiting ? WORDS.waiting : won ? WORDS.won : armed ? WORDS.press
      : state !== null && state.answering !== null ? WORDS.lost : WORDS.off;
    $("lock").textContent = locked ? (me.locked_until - now).toFixed(1) + " с" : "";
    const online = Link.online();
    $("link").textContent = online ? WORDS.online : WORDS.offline;
    $("link").className = online ? "" : "bad";
    $("sync").textContent = Clock.synced() ? WORDS.synced + Math.ceil(Clock.best / 2) + " мс" : WORDS.syncing;
  }

  // The phone stays awake where it can (a secure context's Wake Lock); it is asked again when the page returns.
  let lock = null;
  async function awake() {
    try { if (navigator.wakeLock && !lock && document.visibilityState === "visible") lock = await navigator.wakeLock.request("screen"); }
    catch (e) { lock = null; }
    if (lock) lock.addEventListener("release", () => { lock = null; });
  }
  document.addEventListener("visibilitychange", awake);

  // Exposed for the tests and the bench: the page's own figures.
  window.Seat = { seat, get synced() { return Clock.synced(); }, board: (t) => Clock.board(t), get best() { return Clock.best; },
    get samples() { return Clock.taken; } };

  if (!key || !(seat >= 1)) { $("link").textContent = WORDS.bad; $("link").className = "bad"; return; }
  Link.open({ key }, "seat:" + seat);
  setInterval(() => { ask(); draw(); }, 20);
  awake();
})();
