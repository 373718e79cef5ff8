// The host's remote: the players' phones (issue 26 item 1, docs/PHONE_BUTTONS.md) — a QR code per seat of the game
// (the board's /sg/host/seats, signed, to a host alone), each phone's state, and the tap that lets a second phone
// take a seat (/sg/seat/admit). Asked for when the panel is open, every 2 s.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  let view = null, players = [1, 2, 3], asked = -1e9;
  const STATES = { synced: "часы ±", syncing: "синхронизация", lost: "нет связи", none: "нет телефона" };

  function ask() {
    const now = performance.now();
    if ($("phones").open && Link.online() && Link.role === "host" && now - asked > 2000) {
      asked = now;
      Link.request("/sg/host/seats");
    }
  }
  Link.on("seats", (json) => { try { view = JSON.parse(json); } catch (e) { view = null; } draw(); });
  Link.on("state", (rev, json) => {
    try { const seats = (JSON.parse(json).players || []).map((p) => p.seat); if (seats.length) players = seats; }
    catch (e) { /* the remote's own handler reports it */ }
  });
  Link.on("tick", ask);
  $("phones").addEventListener("toggle", () => { asked = -1e9; ask(); });

  function draw() {
    const box = $("phone-codes");
    if (!view) return;
    const phones = new Map(((view.phones || {}).seats || []).map((s) => [s.seat, s]));
    box.replaceChildren(...(view.seats || []).filter((s) => players.includes(s.seat)).map((s) => {
      const card = document.createElement("div");
      card.className = "phone-card";
      const img = document.createElement("img");
      img.src = s.qr; img.alt = "QR"; img.width = 160; img.height = 160;
      const p = phones.get(s.seat) || { state: "none" };
      const line = document.createElement("div");
      line.textContent = `Место ${s.seat}: ${STATES[p.state] || p.state}` + (p.state === "synced" ? ` ${p.error_ms} мс` : "");
      card.append(img, line);
      if (p.waiting) {
        const admit = document.createElement("button");
        admit.type = "button";
        admit.textContent = "Пустить второй телефон";
        admit.addEventListener("click", () => { Link.command("/sg/seat/admit", [s.seat], admit.textContent); asked = -1e9; });
        card.append(admit);
      }
      return card;
    }));
    const wait = (view.phones || {}).wait_ms;
    $("phones-title").textContent = "Телефоны игроков" + (wait ? ` — ожидание ${wait} мс` : "");
  }
})();
