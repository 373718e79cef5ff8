// What the host sees and taps: drawn from the board's snapshot alone (as host_remote/actions.py decides for the
// laptop remote). Every action has a fixed slot within a phase: an action that does not apply is disabled in its
// place, never removed, so a thumb's second tap lands where the first did. Elements are kept and updated, never
// rebuilt under a finger.
"use strict";

const UI = (() => {
  // Russian unless the host picked English on this phone (only that choice is stored: never the game's content).
  let lang = localStorage.getItem("sg-lang") === "en" ? "en" : "ru";
  let T = STRINGS[lang];
  let markAuction = false;          // AU1: the host marks the auction cell when the pack has none
  let state = null, stateRev = -1, question = null, catalog = null, offset = 0, status = "", statusKind = "";
  const actions = new Map();        // key -> the action its element stands for now

  const $ = (id) => document.getElementById(id);
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

  function act(key, label, address, args, enabled, extra) {
    return Object.assign({ key, label, address, args: args || [], enabled: !!enabled }, extra || {});
  }

  // --- the phase's slots ----------------------------------------------------------------------------------
  const QUESTION_PHASES = ["reading", "buzz_window", "answering", "after_wrong", "auction_answer"];

  function flowSlots(s) {
    const phase = s.phase, q = s.question || {};
    if (QUESTION_PHASES.includes(phase)) {
      const answering = phase === "answering" || phase === "auction_answer";
      return [
        act("read", T.read, "/sg/reading/done", [], phase === "reading" || (phase === "auction_answer" && q.reading)),
        act("right", T.right, "/sg/judge/right", [], answering, { cls: "right" }),
        act("wrong", T.wrong, "/sg/judge/wrong", [], answering, { cls: "wrong" }),
        act("time", T.time, "/sg/time", [], ["reading", "buzz_window", "after_wrong"].includes(phase)),
        act("resume", T.resume, "/sg/resume", [], phase === "after_wrong"),
        act("extend", T.extend, "/sg/answer/extend", [3], answering && q.deadline != null),
        act("clarify", T.clarify, "/sg/answer/clarify", [], phase === "answering" && q.deadline != null),
        act("replace", T.replace, "/sg/question/replace", [], phase === "reading" || phase === "buzz_window"),
      ];
    }
    if (phase === "setup") return [act("start", T.start, "/sg/game/start", [], true, { cls: "wide" })];
    if (phase === "final_stakes") {
      const f = s.final || {};
      const all = (f.eligible || []).every((seat) => (f.stakes_in || []).includes(seat));
      return [act("final_start", T.final_start, "/sg/final/start", [], all && (f.eligible || []).length)];
    }
    if (phase === "final_answer") return [act("end_writing", T.end_writing, "/sg/next", [], true)];
    if (phase === "reveal") {
      const sequential = s.order === "sequential";
      return [act("next", T.next, "/sg/next", [], sequential || boardEmpty(s)),
              act("replace", T.replace, "/sg/question/replace", [], true)];
    }
    if (phase === "round_intro" || phase === "topic_intro") {
      const choice = s.order !== "sequential";
      return [act("next", T.next, "/sg/next", [], !choice || phase === "round_intro")];
    }
    return [];
  }

  function boardEmpty(s) {
    return (((s.round || {}).topics) || []).every((t) => (t.cells || []).every((c) => c.played));
  }

  function gridCells(s) {
    const choice = s.order !== "sequential";
    if (!choice || !["round_intro", "choosing", "reveal"].includes(s.phase)) return [];
    const open = s.chooser != null;     // G5: nobody selects before the chooser is named
    const cells = [];
    ((s.round || {}).topics || []).forEach((topic, t) => {
      cells.push({ key: `topic:${t + 1}`, label: topic.name || String(t + 1), topic: true });
      (topic.cells || []).forEach((cell, q) => {
        const args = markAuction ? [t + 1, q + 1, "auction"] : [t + 1, q + 1];
        cells.push(act(`select:${t + 1}:${q + 1}`, String(cell.value), "/sg/select", args,
                       open && !cell.played, { cls: cell.played ? "played" : "", said: `${topic.name} ${cell.value}` }));
      });
    });
    return cells;
  }

  function seatSlots(s, p) {
    const phase = s.phase, seat = p.seat, q = s.question || {};
    const answered = new Set((q.answered || []).map((a) => a.seat));
    const slots = [];
    if (["round_intro", "choosing", "reveal"].includes(phase) && s.order !== "sequential") {
      slots.push(act(`chooser:${seat}`, T.chooser, "/sg/chooser", [seat], s.chooser !== seat));
    }
    if (["reading", "buzz_window", "after_wrong"].includes(phase) && s.buttons_manual) {
      slots.push(act(`assign:${seat}`, T.assign, "/sg/assign", [seat], !answered.has(seat)));
    }
    if (phase === "auction") {
      const a = s.auction || {};
      const mine = a.turn === seat && !(a.passed || []).includes(seat);
      slots.push(act(`bid:${seat}`, T.bid, "/sg/auction/bid", [seat], mine,
                     { amount: { low: (a.stake || 0) + 1, high: Math.max(p.score || 0, a.stake || 0), who: name(p) } }));
      slots.push(act(`allin:${seat}`, T.allin, "/sg/auction/allin", [seat], mine));
      slots.push(act(`pass:${seat}`, T.pass, "/sg/auction/pass", [seat], mine));
    }
    const f = s.final || {};
    const eligible = (f.eligible || []).includes(seat);
    if (phase === "final_stakes") {
      const low = f.kind === "super_question" || (p.score || 0) <= 0 ? 0 : 1;
      const inn = (f.stakes_in || []).includes(seat);
      slots.push(act(`stake:${seat}`, inn ? `${T.stake} ✓` : T.stake, "/sg/final/stake", [seat], eligible,
                     { amount: { low, high: Math.max(p.score || 0, low), who: name(p), secret: true } }));
    }
    if (phase === "final_reveal") {
      const judged = (f.judged || []).includes(seat);
      const revealed = (f.revealed || []).some((r) => r.seat === seat);
      slots.push(act(`final_right:${seat}`, T.right, "/sg/final/judge", [seat, "right"], eligible && !judged, { cls: "right" }));
      slots.push(act(`final_wrong:${seat}`, T.wrong, "/sg/final/judge", [seat, "wrong"], eligible && !judged, { cls: "wrong" }));
      slots.push(act(`final_reveal:${seat}`, T.reveal_seat, "/sg/final/reveal", [seat], eligible && judged && !revealed));
    }
    if (phase === "reveal" || phase === "game_over") {
      const last = s.last || {};
      const mine = (last.answers || []).find((a) => a.seat === seat);
      const other = mine && mine.verdict === "right" ? "wrong" : "right";
      slots.push(act(`rejudge:${seat}`, mine ? (other === "right" ? T.rejudge_right : T.rejudge_wrong) : "—",
                     "/sg/rejudge", [seat, other], !!(mine && last.rejudgeable)));
    }
    if (phase !== "setup" && phase !== "game_over") {
      slots.push(act(`adjust:${seat}`, T.adjust, "/sg/score/adjust", [seat], true,
                     { amount: { low: -100000, high: 100000, who: name(p), signed: true } }));
    }
    return slots;
  }

  function toolSlots(s) {
    const during = !["setup", "game_over"].includes(s.phase);
    const q = s.question || {};
    const media = q.media && q.media.length;
    return [
      act("undo", undoLabel(s), "/sg/undo", [], true, { cls: "wide" }),
      s.paused ? act("pause", T.unpause, "/sg/unpause", [], during) : act("pause", T.pause, "/sg/pause", [], during),
      act("manual", s.buttons_manual ? T.manual_off : T.manual_on, "/sg/buttons/manual", [s.buttons_manual ? 0 : 1], during),
      act("media_pause", T.media_pause, "/sg/media/pause", [], !!media),
      act("media_play", T.media_play, "/sg/media/play", [], !!media),
      act("media_replay", T.media_replay, "/sg/media/replay", [], !!media),
      act("mark_auction", markAuction ? T.auction_marked : T.mark_auction, null, [],
          ["round_intro", "choosing", "reveal"].includes(s.phase) && s.order !== "sequential", { local: true }),
      act("waive", T.waive, "/sg/auction/waive", [],
          ["round_intro", "choosing", "reveal"].includes(s.phase) && !!(s.round || {}).auctions_missing && !(s.round || {}).auction_waived),
      act("show_board", T.show_board, "/sg/screen", ["board"], during && s.screen !== "board"),
      act("show_scene", `${T.screen}: ${T.screens[$("scene").value] || $("scene").value}`, "/sg/screen",
          [$("scene").value], s.phase !== "setup" && s.screen !== $("scene").value),
    ];
  }

  function undoLabel(s) {
    const last = s.last || s.question || {};
    const answers = last.answers || last.answered || [];
    const a = answers[answers.length - 1];
    if (!a) return T.undo;
    const p = players().find((x) => x.seat === a.seat);
    const delta = a.delta > 0 ? `+${a.delta}` : String(a.delta);
    return `${T.undo}: ${a.verdict === "right" ? T.right : T.wrong} — ${p ? name(p) : a.seat}, ${delta}`;
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
    $("amount-title").textContent = `${a.label} — ${a.amount.who}`;
    const input = $("amount-input");
    input.value = "";
    input.type = a.amount.secret ? "password" : "text";       // FN4: a stake is typed unseen
    input.placeholder = `${a.amount.low} … ${a.amount.high}`;
    dialog.dataset.key = a.key;
    dialog.showModal();
    input.focus();
  }

  function amountDone(ok) {
    const dialog = $("amount");
    const a = actions.get(dialog.dataset.key);
    const value = Number.parseInt($("amount-input").value, 10);
    $("amount-input").value = "";
    dialog.close();
    if (ok && a && Number.isInteger(value)) send(a, [...a.args, value]);
  }

  function setStatus(text, kind) { status = text; statusKind = kind || ""; }

  // --- drawing --------------------------------------------------------------------------------------------
  function draw() {
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
    const st = state.status || {};
    const box = (st.box || {}).state;
    $("box").textContent = box ? T[`box_${box}`] || box : "";
    $("box").className = box === "online" || box === "none" ? "ok" : box ? "bad" : "";
    const journal = st.journal || {};
    $("journal").textContent = journal.ok === false ? `${T.journal_bad}: ${journal.error || ""}` : "";
    $("journal").className = journal.ok === false ? "bad" : "";
    $("phase").textContent = (T.phase[state.phase] || state.phase) + (state.paused ? ` · ${T.paused}` : "");
    $("status").textContent = Link.pending ? `${status} (${Link.pending})` : status;
    $("status").className = statusKind;
    drawPlayers();
    drawTimer();
    drawQuestion();
    sync($("flow"), flowSlots(state), button);
    sync($("grid"), gridCells(state), (item) => {
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
      sync(row.querySelector(".acts"), seatSlots(state, p), button);
    }
    sync($("tools"), toolSlots(state), button);
    $("setup").hidden = state.phase !== "setup";
    if (state.phase === "setup") drawSetup();
  }

  function drawPlayers() {
    const q = state.question || {};
    const marks = new Map((q.answered || []).map((a) => [a.seat, a.verdict === "right" ? "✓" : "✗"]));
    for (const r of ((state.final || {}).revealed || [])) marks.set(r.seat, r.verdict === "right" ? "✓" : "✗");
    sync($("players"), players().map((p) => ({ key: `p:${p.seat}`, p })), (item) => {
      const el = document.createElement("div");
      el.dataset.key = item.key;
      el.innerHTML = '<span class="name"></span><span class="score"></span><span class="mark"></span>';
      return el;
    });
    for (const el of $("players").children) {
      const p = players().find((x) => `p:${x.seat}` === el.dataset.key);
      if (!p) continue;
      el.className = "player" + (state.answering === p.seat ? " answering" : "") + (state.chooser === p.seat ? " chooser" : "");
      el.querySelector(".name").textContent = name(p);
      el.querySelector(".score").textContent = String(p.score);
      el.querySelector(".mark").textContent = marks.get(p.seat) || (p.pressed ? "●" : "");
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
      $("q-more").textContent = ""; return;
    }
    const auction = state.auction;
    const stake = auction && state.phase === "auction" ? `${T.stake}: ${auction.stake}${auction.allin ? ` (${T.allin})` : ""}` : null;
    $("q-head").textContent = [q.topic_name, q.value, stake].filter((x) => x != null && x !== "").join(" · ");
    $("q-text").textContent = q.text || q.topic_explanation || "";
    $("q-answer").textContent = q.answer ? `${T.answer}: ${q.answer}` : "";
    const more = [];
    if ((q.accepts || []).length) more.push(`${T.accepts}: ${q.accepts.join("; ")}`);
    if ((q.wrong || q.wrongs || []).length) more.push(`${T.wrongs}: ${(q.wrong || q.wrongs).join("; ")}`);
    if (q.comment) more.push(`${T.comment}: ${q.comment}`);
    if (q.source) more.push(`${T.source}: ${q.source}`);
    $("q-more").textContent = more.join("\n");
  }

  // --- set-up from the board's catalogue (/sg/setup/catalog) -------------------------------------------------
  let catalogShown = null, packLoaded = null;

  function options(select, items, keep) {
    const old = select.value;
    select.replaceChildren(...items.map(([value, text]) => { const o = document.createElement("option"); o.value = value; o.textContent = text; return o; }));
    if (keep && items.some(([v]) => v === old)) select.value = old;
  }

  function currentRegulation() {
    return ((catalog || {}).regulations || []).find((r) => r.name === $("reg").value) || null;
  }

  function currentStage() {
    const reg = currentRegulation();
    return reg ? (reg.stages || []).find((st) => st.name === $("stage").value) || null : null;
  }

  function fillStages() {
    const reg = currentRegulation();
    options($("stage"), reg ? (reg.stages || []).map((st) => [st.name, st.name]) : [], true);
    const players = (reg && reg.players) || { min: 3, max: 3, default: 3 };
    const counts = [];
    for (let n = players.min; n <= players.max; n++) counts.push([String(n), String(n)]);
    options($("seats-count"), counts, true);
    if (!counts.some(([v]) => v === $("seats-count").value)) $("seats-count").value = String(players.default);
    fillPack();
  }

  function currentPack() {
    return ((catalog || {}).packs || []).find((p) => p.path === $("pack").value) || null;
  }

  function fillPack() {
    const pack = currentPack(), stage = currentStage();
    const info = $("pack-info"), topics = $("pack-topics");
    topics.replaceChildren();
    if (!pack) { info.textContent = T.no_pack_note; $("loadpack").disabled = true; return; }
    const lines = [`${pack.title} · ${pack.format} · ${T.rounds}: ` +
                   (pack.rounds || []).map((r) => `${r.name} (${Array.isArray(r.topics) ? r.topics.length : r.topics})`).join(", ")];
    if ((pack.errors || []).length) lines.push(`${T.pack_errors}: ${pack.errors.join("; ")}`);
    if ((pack.warnings || []).length) lines.push(`${T.pack_warnings}: ${pack.warnings.join("; ")}`);
    info.textContent = lines.join("\n");
    info.className = (pack.errors || []).length ? "bad" : "";
    $("loadpack").disabled = !pack.ok;
    const needed = stage ? (stage.rounds || []).reduce((n, r) => n + (r.topics || 0), 0) : 0;
    const all = [];
    (pack.rounds || []).forEach((r, ri) => (Array.isArray(r.topics) ? r.topics : []).forEach((name, ti) => all.push([`${ri + 1}.${ti + 1}`, `${r.name}: ${name}`])));
    if (needed && all.length > needed) {
      const head = document.createElement("p");
      head.textContent = `${T.choose_topics} — ${T.topics_needed}: ${needed}`;
      topics.append(head);
      all.forEach(([key, text], i) => {
        const label = document.createElement("label");
        label.className = "check";
        label.innerHTML = '<input type="checkbox"><span></span>';
        label.querySelector("input").value = key;
        label.querySelector("input").checked = i < needed;
        label.querySelector("span").textContent = text;
        topics.append(label);
      });
    }
  }

  function drawCatalog() {
    if (!catalog || catalogShown === catalog) return;
    catalogShown = catalog;
    options($("reg"), (catalog.regulations || []).map((r) => [r.name, r.title || r.name]), true);
    if (state && state.regulation && (catalog.regulations || []).some((r) => r.name === state.regulation)) $("reg").value = state.regulation;
    fillStages();
    if (state && state.stage) $("stage").value = state.stage;
    options($("pack"), [["", `— ${T.no_pack} —`], ...(catalog.packs || []).map((p) => [p.path, `${p.title || p.file}${p.ok ? "" : " ⚠"}`])], true);
    fillPack();
    const next = catalog.next_game;
    $("nextgame").hidden = !(next && next.game);
    if (next && next.game) $("nextgame").textContent = `${T.next_game}: ${next.game} (${next.regulation} ${next.stage})`;
    const notes = [...(catalog.problems || []), ...(catalog.regulation_problems || [])];
    if (next && next.error) notes.push(next.error);
    $("setup-notes").textContent = notes.length ? `${T.folder_problems}: ${notes.join("; ")}` : "";
  }

  function wireSetup() {
    $("reg").addEventListener("change", fillStages);
    $("stage").addEventListener("change", fillPack);
    $("pack").addEventListener("change", fillPack);
    $("newgame").addEventListener("click", () => {
      if (Link.role !== "host" || !$("reg").value || !$("stage").value) return;
      Link.command("/sg/game/new", [$("reg").value, $("stage").value, Number($("seats-count").value)], T.new_game);
      setStatus(`${T.new_game}: ${T.waiting}`, "wait");
    });
    $("nextgame").addEventListener("click", () => {
      const next = (catalog || {}).next_game;
      if (Link.role === "host" && next && next.game) Link.command("/sg/setup/game", [next.game], T.next_game);
    });
    $("loadpack").addEventListener("click", () => {
      const pack = currentPack();
      if (!pack || Link.role !== "host") return;
      const picked = [...$("pack-topics").querySelectorAll("input:checked")].map((i) => i.value);
      Link.command("/sg/pack/load", [pack.path, ...picked], `${T.load_pack}: ${pack.title || pack.file}`);
      packLoaded = pack.path;
      setStatus(`${T.load_pack}: ${T.waiting}`, "wait");
    });
  }

  function drawSetup() {
    for (const [id, key] of [["reg-label", "regulation"], ["stage-label", "stage"], ["seats-label", "seats_count"],
                             ["pack-label", "pack"], ["newgame", "new_game"], ["loadpack", "load_pack"]]) $(id).textContent = T[key];
    drawCatalog();
    const list = $("names");
    sync(list, players().map((p) => ({ key: `n:${p.seat}`, p })), (item) => {
      const row = document.createElement("form");
      row.dataset.key = item.key;
      row.className = "name-row";
      row.innerHTML = '<label></label><input maxlength="80" autocomplete="off"><button type="submit"></button>';
      row.addEventListener("submit", (e) => {
        e.preventDefault();
        const seat = Number(row.dataset.key.split(":")[1]);
        const value = row.querySelector("input").value.trim();
        if (value && Link.role === "host") {
          Link.command("/sg/player/name", [seat, value], `${T.names} ${seat}`);
          setStatus(`${T.names}: ${T.waiting}`, "wait");
        }
      });
      return row;
    });
    for (const row of list.children) {
      const seat = Number(row.dataset.key.split(":")[1]);
      const p = players().find((x) => x.seat === seat);
      row.querySelector("label").textContent = `${T.seat} ${seat}`;
      row.querySelector("button").textContent = T.set_name;
      const input = row.querySelector("input");
      if (document.activeElement !== input && !input.value && p && p.name) input.placeholder = p.name;
    }
  }

  // --- wiring ---------------------------------------------------------------------------------------------
  function start() {
    $("passcode-where").textContent = T.passcode_where;
    $("connect-form").addEventListener("submit", (e) => {
      e.preventDefault();
      const view = $("view").checked;
      Link.open($("passcode").value, view ? "view" : "host");
    });
    if (new URLSearchParams(location.search).has("view")) $("view").checked = true;
    $("lang").addEventListener("click", () => {
      lang = lang === "ru" ? "en" : "ru"; T = STRINGS[lang]; localStorage.setItem("sg-lang", lang);
      $("passcode-where").textContent = T.passcode_where; draw();
    });
    wireSetup();
    for (const scene of ["scores", "chart", "logo", "winner", "bracket", "standings", "board"]) {
      const o = document.createElement("option"); o.value = scene; o.textContent = T.screens[scene]; $("scene").append(o);
    }
    $("scene").addEventListener("change", draw);
    $("amount-ok").addEventListener("click", () => amountDone(true));
    $("amount-cancel").addEventListener("click", () => amountDone(false));
    $("amount-form").addEventListener("submit", (e) => { e.preventDefault(); amountDone(true); });
    Link.on("connected", () => { Link.request("/sg/setup/catalog"); wakeLock(); });
    Link.on("denied", (reason) => { $("connect-error").textContent = `${T.denied}: ${boardWords("denials", reason, lang)}`; });
    Link.on("state", (rev, json) => {
      if (rev < stateRev) return;                  // highest rev wins
      let s;
      try { s = JSON.parse(json); } catch (e) { return; }
      if (rev !== stateRev && typeof s.time === "number") offset = s.time - performance.now() / 1000;
      stateRev = rev; state = s;
    });
    Link.on("question", (json) => { try { question = JSON.parse(json); } catch (e) { question = null; } });
    Link.on("catalog", (json) => { try { catalog = JSON.parse(json); } catch (e) { catalog = null; } });
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
