// What the host sees and taps, drawn from the board's snapshot alone: the actions of each phase come from
// slots.js, the set-up panel from setup.js. Elements are kept by key and updated, never rebuilt under a finger.
"use strict";

const UI = (() => {
  // Russian unless the host picked English on this phone (only that choice is stored: never the game's content).
  let lang = localStorage.getItem("sg-lang") === "en" ? "en" : "ru";
  let T = STRINGS[lang];
  let markAuction = false;          // AU1: the host marks the auction cell when the pack has none
  const judgedHere = new Map();     // seat -> the final verdict this page gave (in memory only, never stored)
  let protocolPath = null;           // /protocol/TOKEN: the board's answer to this page's «Протокол»
  let state = null, stateRev = -1, question = null, catalog = null, offset = 0, status = "", statusKind = "";
  const actions = new Map();        // key -> the action its element stands for now

  const $ = (id) => document.getElementById(id);
  const FINAL_PHASES = ["final_stakes", "final_answer", "final_reveal"];
  const name = (p) => (p && p.name) || `${T.seat} ${p.seat}`;
  const players = () => ((state && state.players) || []).filter((p) => p && Number.isInteger(p.seat));

  // --- elements kept by key -------------------------------------------------------------------------------
  function sync(container, items, make) {
    const keep = new Map();
    for (const el of container.children) keep.set(el.dataset.key, el);
    const order = [];
    for (const item of items) {
      let el = keep.get(item.key);
      if (!el) el = make(item);
      keep.delete(item.key);
      order.push([el, item]);
    }
    for (const el of keep.values()) el.remove();
    order.forEach(([el, item], i) => {
      if (container.children[i] !== el) container.insertBefore(el, container.children[i] || null);
      fill(el, item);
    });
  }

  function button(item) {
    const el = document.createElement("button");
    el.dataset.key = item.key;
    el.type = "button";
    el.addEventListener("click", () => tap(el.dataset.key));
    return el;
  }

  function fill(el, item) {
    if (el.tagName !== "BUTTON") return;
    if (el.textContent !== item.label) el.textContent = item.label;
    el.disabled = !item.enabled;
    el.className = item.cls || "";
    actions.set(item.key, item);
  }

  // --- tapping --------------------------------------------------------------------------------------------
  function tap(key) {
    const a = actions.get(key);
    if (!a || !a.enabled || Link.role !== "host") return;
    if (a.local) { markAuction = !markAuction; draw(); return; }
    if (a.amount) { askAmount(a); return; }
    if (a.address === "/sg/select") markAuction = false;
    send(a, a.args);
  }

  function send(a, args) {
    Link.command(a.address, args, a.said || a.label);
    setStatus(`${a.said || a.label}: ${T.waiting}`, "wait");
  }

  function askAmount(a) {
    const dialog = $("amount");
    $("amount-title").textContent = a.amount.who ? `${a.label} — ${a.amount.who}` : a.label;
    const input = $("amount-input"), text = !!a.amount.text;     // a number, or a line of text (a topic)
    input.value = "";
    input.type = a.amount.secret ? "password" : "text";       // FN4: a stake is typed unseen
    input.inputMode = text ? "text" : "numeric";
    if (text) input.removeAttribute("pattern"); else input.setAttribute("pattern", "-?[0-9]*");
    input.maxLength = text ? 80 : 9;
    input.placeholder = text ? "" : `${a.amount.low} … ${a.amount.high}`;
    dialog.dataset.key = a.key;
    dialog.showModal();
    input.focus();
  }

  function amountDone(ok) {
    const dialog = $("amount");
    const a = actions.get(dialog.dataset.key);
    const typed = $("amount-input").value.trim();
    const value = a && a.amount.text ? typed : Number.parseInt(typed, 10);
    $("amount-input").value = "";
    dialog.close();
    if (ok && a && (a.amount.text ? value !== "" : Number.isInteger(value))) send(a, [...a.args, value]);
  }

  function setStatus(text, kind) { status = text; statusKind = kind || ""; }

  // --- drawing --------------------------------------------------------------------------------------------
  function draw() {
    Slots.use({ T, markAuction, name, players, scene: $("scene").value, judgedHere });
    Setup.use({ T, catalog, state, players, sync, setStatus });
    document.documentElement.lang = lang;
    $("lang").textContent = T.lang;
    $("scene-label").textContent = T.screen;
    for (const o of $("scene").options) o.textContent = T.screens[o.value] || o.value;
    const online = Link.online();
    const conn = $("conn");
    conn.textContent = online ? T.online : T.offline;
    conn.className = online ? "ok" : "bad";
    $("connect").hidden = Link.session !== null;
    $("game").hidden = Link.session === null;
    if (!state) return;
    if (!FINAL_PHASES.includes(state.phase) && state.phase !== "game_over") judgedHere.clear();
    const st = state.status || {};
    const box = (st.box || {}).state;
    $("box").textContent = box ? T[`box_${box}`] || box : "";
    $("box").className = box === "online" || box === "none" ? "ok" : box ? "bad" : "";
    const journal = st.journal || {};
    $("journal").textContent = journal.ok === false ? `${T.journal_bad}: ${journal.error || ""}` : "";
    $("journal").className = journal.ok === false ? "bad" : "";
    const finalPhase = FINAL_PHASES.includes(state.phase);
    const tiebreak = !!(state.round || {}).tiebreak && !finalPhase;
    const superq = finalPhase && (state.final || {}).kind === "super_question";
    $("phase").textContent = (T.phase[state.phase] || state.phase) + (tiebreak ? ` · ${T.tiebreak}` : "") +
      (superq ? ` · ${T.super_question}` : "") + (state.paused ? ` · ${T.paused}` : "");
    $("status").textContent = Link.pending ? `${status} (${Link.pending})` : status;
    $("status").className = statusKind;
    drawPlayers();
    drawTimer();
    drawQuestion();
    // the photo finish (BZ11): the host's question carries it; a view session has none
    try {     // a record the page cannot read never stops the rest of the page from drawing
      Photo.draw($("photo"), Link.role === "host" ? question : null, state,
        (seat) => name(players().find((p) => p.seat === seat) || { seat }), lang,
        (seat, label) => { if (Link.role === "host") send({ address: "/sg/answerer", label }, [seat]); },
        Link.role === "host" ? (address, label) => send({ address, label }, []) : null);
      // the bar says so in its fixed place: on a phone the panel is below the slots (they never move)
      if (Link.role === "host" && Photo.closeCall(question)) $("phase").textContent += ` · ${Photo.word(lang)} ↓`;
    } catch (e) { $("photo").hidden = true; }
    sync($("flow"), Slots.flow(state), button);
    const showProtocol = state.phase === "game_over" && !!protocolPath;
    $("protocol").hidden = !showProtocol;
    if (showProtocol && $("protocol-link").getAttribute("href") !== protocolPath) {
      $("protocol-link").setAttribute("href", protocolPath);
    }
    $("protocol-link").textContent = T.open_protocol;
    sync($("grid"), Slots.grid(state), (item) => {
      if (!item.topic) return button(item);
      const el = document.createElement("div");
      el.dataset.key = item.key;
      el.className = "topic";
      return el;
    });
    for (const el of $("grid").querySelectorAll(".topic")) {
      const t = Number(el.dataset.key.split(":")[1]);
      const topic = ((state.round || {}).topics || [])[t - 1] || {};
      el.textContent = topic.name || String(t);
    }
    $("grid").style.setProperty("--cells", String(Math.max(1, ...(((state.round || {}).topics || []).map((t) => (t.cells || []).length)))));
    $("seats").hidden = state.phase === "setup";
    sync($("seats"), players().map((p) => ({ key: `seat:${p.seat}`, p })), (item) => {
      const row = document.createElement("div");
      row.dataset.key = item.key;
      row.className = "seat";
      row.innerHTML = '<span class="who"></span><span class="acts"></span>';
      return row;
    });
    for (const row of $("seats").children) {
      const p = players().find((x) => `seat:${x.seat}` === row.dataset.key);
      if (!p) continue;
      row.querySelector(".who").textContent = name(p);
      sync(row.querySelector(".acts"), Slots.seat(state, p), button);
    }
    sync($("tools"), Slots.tools(state), button);
    $("setup").hidden = state.phase !== "setup";
    if (state.phase === "setup") Setup.draw();
  }

  function drawPlayers() {
    const q = state.question || {};
    // The marks of what is being judged now: the open question's, else the last one's while it is shown, else the
    // final's reveals (kept to the end of the game unless a tie-break question came after them).
    const verdicts = q.answered || (state.phase === "reveal" ? (state.last || {}).answers : null) ||
      (FINAL_PHASES.includes(state.phase) || (state.phase === "game_over" && !(state.round || {}).tiebreak)
        ? (state.final || {}).revealed : null) || [];
    const marks = new Map(verdicts.map((a) => [a.seat, a.verdict === "right" ? "✓" : "✗"]));
    sync($("players"), players().map((p) => ({ key: `p:${p.seat}`, p })), (item) => {
      const el = document.createElement("div");
      el.dataset.key = item.key;
      el.innerHTML = '<span class="name"></span><span class="score"></span><span class="mark"></span><span class="extra"></span>';
      return el;
    });
    for (const el of $("players").children) {
      const p = players().find((x) => `p:${x.seat}` === el.dataset.key);
      if (!p) continue;
      el.className = "player" + (state.answering === p.seat ? " answering" : "") + (state.chooser === p.seat ? " chooser" : "") +
        (p.in_play === false ? " out" : "");
      el.title = p.in_play === false ? T.out_of_play : "";
      el.querySelector(".name").textContent = name(p);
      // TB3: the extra topic's points decide the winner only and are kept apart from the score.
      el.querySelector(".score").textContent = String(p.score);
      el.querySelector(".extra").textContent =
        (state.round || {}).tiebreak && p.in_play !== false && (!state.game_over || p.tiebreak_score)
          ? `${T.tiebreak}: ${p.tiebreak_score || 0}` : "";      // at the end: only who scored in it
      el.querySelector(".mark").textContent = state.winner === p.seat && state.game_over ? "★"
        : marks.get(p.seat) || (p.pressed ? "●" : "");
    }
  }

  function engineNow() { return performance.now() / 1000 + offset; }

  function drawTimer() {
    const q = state.question || {}, f = state.final || {};
    const deadline = q.deadline != null ? q.deadline : f.deadline;
    const el = $("timer");
    if (deadline == null || state.paused) { el.textContent = ""; return; }
    const left = Math.max(0, deadline - engineNow());
    el.textContent = `${left.toFixed(1)} с`;
  }

  function drawQuestion() {
    const box = $("question");
    const q = question;
    box.hidden = Link.role !== "host";
    if (!q || !q.text && !q.answer && !q.topic_name) {
      $("q-head").textContent = T.no_question; $("q-text").textContent = ""; $("q-answer").textContent = "";
      $("q-more").textContent = ""; $("q-special").textContent = ""; drawOptions([]); return;
    }
    const auction = state.auction;
    const stake = auction && state.phase === "auction" ? `${T.stake}: ${auction.stake}${auction.allin ? ` (${T.allin})` : ""}` : null;
    // P3: a game without a pack names its topics by number; «4» alone would read as a value
    const topic = /^\d+$/.test(String(q.topic_name || "")) ? `${T.topic} ${q.topic_name}` : q.topic_name;
    $("q-head").textContent = [topic, q.value, stake].filter((x) => x != null && x !== "").join(" · ");
    $("q-special").textContent = special(q);
    // A select question's options are part of its text (the hall sees them so); the card lists them apart.
    const options = (q.options || []).map(String);
    let text = q.text || q.topic_explanation || "";
    const listed = options.join("\n");
    if (options.length && text.endsWith(listed)) text = text.slice(0, text.length - listed.length).trimEnd();
    $("q-text").textContent = text;
    drawOptions(options);
    $("q-answer").textContent = q.answer ? `${T.answer}: ${q.answer}` : "";
    const more = [];
    if ((q.accepts || []).length) more.push(`${T.accepts}: ${q.accepts.join("; ")}`);
    if ((q.wrong || q.wrongs || []).length) more.push(`${T.wrongs}: ${(q.wrong || q.wrongs).join("; ")}`);
    if (q.comment) more.push(`${T.comment}: ${q.comment}`);
    if (q.source) more.push(`${T.source}: ${q.source}`);
    $("q-more").textContent = more.join("\n");
  }

  // A cat in the bag's own topic and price, and what the host must know of a SIGame kind played here otherwise.
  function special(q) {
    const parts = [];
    const secret = q.secret || null;
    if (secret) {
      const bits = [];
      if (secret.topic) bits.push(`${T.cat_topic} «${secret.topic}»`);
      if (secret.price) bits.push(`${T.cat_price} ${price(secret.price)}`);
      parts.push(bits.length ? `${T.cat}: ${bits.join(", ")}` : T.cat);
    }
    const kind = q.pack_kind;
    if (kind && kind !== "stake" && kind !== "secret") {
      parts.push(T.kinds[kind] || T.kind_other.replace("{kind}", kind));
    }
    if (q.empty) parts.push(T.empty_cell);
    return parts.join("\n");
  }

  // The plan's price: fixed (min = max), one of the two ends (step = max − min), a choice by steps, or any.
  function price(p) {
    if (p.min === p.max) return String(p.min);
    if (p.step === p.max - p.min) return `${p.min} ${T.or} ${p.max}`;
    return p.step ? `${p.min}…${p.max}, ${T.step} ${p.step}` : `${p.min}…${p.max}`;
  }

  function drawOptions(options) {
    const list = $("q-options"), joined = options.join("\n");
    if (list.dataset.shown === joined) return;
    list.dataset.shown = joined;
    list.replaceChildren(...options.map((o) => { const li = document.createElement("li"); li.textContent = o; return li; }));
    list.setAttribute("aria-label", T.options);
  }

  // --- wiring ---------------------------------------------------------------------------------------------
  function start() {
    $("passcode-where").textContent = T.passcode_where;
    $("connect-form").addEventListener("submit", (e) => {
      e.preventDefault();
      const view = $("view").checked;
      Link.open({ passcode: $("passcode").value }, view ? "view" : "host");
    });
    // The QR code's link: http://BOARD:8080/#k=KEY. The key leaves the address bar at once (onlookers, history) and
    // stays with this tab only (sessionStorage: gone when the tab closes), so a reloaded page connects again.
    const linked = new URLSearchParams(location.hash.slice(1)).get("k");
    if (linked) {
      sessionStorage.setItem("sg-key", linked);
      history.replaceState(null, "", location.pathname + location.search);
    }
    const key = Keys.fromKeyText(sessionStorage.getItem("sg-key"));
    if (key) Link.open({ key }, "host");
    if (new URLSearchParams(location.search).has("view")) $("view").checked = true;
    $("lang").addEventListener("click", () => {
      lang = lang === "ru" ? "en" : "ru"; T = STRINGS[lang]; localStorage.setItem("sg-lang", lang);
      $("passcode-where").textContent = T.passcode_where; draw();
    });
    Setup.use({ T, catalog, state, players, sync, setStatus });
    Setup.wire();
    for (const scene of ["scores", "chart", "logo", "winner", "bracket", "standings", "board"]) {
      const o = document.createElement("option"); o.value = scene; o.textContent = T.screens[scene]; $("scene").append(o);
    }
    $("scene").addEventListener("change", draw);
    $("amount-ok").addEventListener("click", () => amountDone(true));
    $("amount-cancel").addEventListener("click", () => amountDone(false));
    $("amount-form").addEventListener("submit", (e) => { e.preventDefault(); amountDone(true); });
    Link.on("connected", () => { Link.request("/sg/setup/catalog"); wakeLock(); });
    Link.on("denied", (reason, byKey) => {
      if (byKey) sessionStorage.removeItem("sg-key");     // not this board's key (a new one since): the form
      $("connect-error").textContent = byKey ? T.key_refused : `${T.denied}: ${boardWords("denials", reason, lang)}`;
    });
    Link.on("state", (rev, json) => {
      if (rev < stateRev) return;                  // highest rev wins
      let s;
      try { s = JSON.parse(json); } catch (e) { return; }
      if (rev !== stateRev && typeof s.time === "number") offset = s.time - performance.now() / 1000;
      stateRev = rev; state = s;
    });
    Link.on("question", (json) => { try { question = JSON.parse(json); } catch (e) { question = null; } });
    Link.on("catalog", (json) => { try { catalog = JSON.parse(json); } catch (e) { catalog = null; } });
    // the game's protocol: a link on this board only (a path the board gave), shown while the game is over
    Link.on("protocol", (path) => { if (/^\/protocol\/[A-Za-z0-9_-]{16,64}$/.test(path)) protocolPath = path; });
    Link.on("ack", (p, ok) => { if (ok && p.address === "/sg/final/judge") judgedHere.set(p.args[0], p.args[1]); });
    Link.on("ack", (p, ok, reason) => setStatus(ok ? `${p.label}: ${T.done}` : `${p.label}: ${T.refused} — ${boardWords("refusals", reason, lang)}`, ok ? "ok" : "bad"));
    Link.on("refused", (address, reason) => {
      if (address === "/sg/setup/catalog") return;       // a board without the set-up catalogue: names only
      setStatus(`${T.refused} — ${boardWords("refusals", reason, lang)}`, "bad");
    });
    Link.on("unconfirmed", (p) => setStatus(`${p.label}: ${T.unconfirmed}`, "bad"));
    Link.on("change", draw);
    Link.on("tick", draw);
    document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") wakeLock(); });
    draw();
  }

  let lock = null;
  async function wakeLock() {        // the phone stays awake while connected, where the browser allows it
    try { if ("wakeLock" in navigator && !lock) { lock = await navigator.wakeLock.request("screen"); lock.addEventListener("release", () => { lock = null; }); } }
    catch (e) { lock = null; }
  }

  return { start, get catalog() { return catalog; } };
})();

window.addEventListener("DOMContentLoaded", UI.start);
