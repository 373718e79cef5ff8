// The set-up panel, from the board's catalogue (/sg/setup/catalog): regulation, stage and seats, a new game, the
// pack from the board's pack folders (its topics when it holds more than the stage needs), the tournament's next
// game, and every seat's name (80 characters).
"use strict";

const Setup = (() => {
  let T, catalog, state, players, sync, setStatus;   // the page's current language, data and helpers (use())
  const $ = (id) => document.getElementById(id);
  function use(c) { ({ T, catalog, state, players, sync, setStatus } = c); }

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
    const seats = String(((state && state.players) || []).length);        // the game's own seat count
    if ([...$("seats-count").options].some((o) => o.value === seats)) $("seats-count").value = seats;
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

  return { use, wire: wireSetup, draw: drawSetup };
})();
