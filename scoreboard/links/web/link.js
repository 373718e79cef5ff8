// The page's OSC session over the board's WebSocket: connect, commands with ids retried until acked,
// reconnection with the same peer token (so the board keeps the session and its acked ids), liveness.
"use strict";

const Link = (() => {
  const listeners = {};
  const pending = new Map();          // id -> {id, address, args, label, tries, due}
  let ws = null, session = null, passcode = "", role = "host", wanted = false;
  let nextId = 1, lastHeard = -1e9, lastPing = -1e9, backoff = 250;
  const peer = (() => {
    const bytes = new Uint8Array(12);
    crypto.getRandomValues(bytes);
    return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  })();

  function on(name, fn) { (listeners[name] ||= []).push(fn); }
  function emit(name, ...args) { for (const fn of listeners[name] || []) fn(...args); }

  function open(code, asRole) {
    passcode = code; role = asRole; wanted = true;
    if (ws) sendRaw("/sg/connect", [passcode, role]); else dial();
  }

  function dial() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    ws = new WebSocket(`${scheme}://${location.host}/osc?peer=${peer}`);
    ws.binaryType = "arraybuffer";
    ws.onopen = () => { backoff = 250; if (wanted) sendRaw("/sg/connect", [passcode, role]); };
    ws.onmessage = (event) => {
      if (!(event.data instanceof ArrayBuffer)) return;
      let message;
      try { message = OSC.decode(event.data); } catch (e) { return; }
      lastHeard = performance.now();
      handle(message);
    };
    ws.onclose = () => {
      ws = null;
      emit("change");
      setTimeout(dial, backoff);                 // back by itself when the Wi-Fi returns
      backoff = Math.min(backoff * 2, 2000);
    };
  }

  function sendRaw(address, args) {
    if (ws && ws.readyState === WebSocket.OPEN) ws.send(OSC.encode(address, args));
  }

  function handle({ address, args }) {
    switch (address) {
      case "/sg/connected": {
        const sid = args[0];
        if (session !== null && sid !== session) {
          // A new session: the old one's commands may or may not have been applied; re-sending them under new
          // ids could apply them twice, so the host is told to check instead.
          for (const p of pending.values()) emit("unconfirmed", p);
          pending.clear();
        }
        session = sid;
        emit("connected", sid);
        for (const p of pending.values()) p.due = 0;
        break;
      }
      case "/sg/denied": {
        const reason = String(args[0] || "");
        if (reason.startsWith("not connected") && wanted) sendRaw("/sg/connect", [passcode, role]);
        else { wanted = false; session = null; emit("denied", reason); }
        break;
      }
      case "/sg/state": emit("state", Number(args[0]), String(args[1])); break;
      case "/sg/host/question": emit("question", String(args[0]), Number(args[1])); break;
      case "/sg/ack": {
        const p = pending.get(args[0]);
        if (p) { pending.delete(args[0]); emit("ack", p, args[1] === "ok", args[2] || ""); }
        break;
      }
      case "/sg/error": emit("refused", String(args[0]), String(args[1] || "")); break;
      case "/sg/setup/catalog": emit("catalog", String(args[0])); break;
      default: break;
    }
    emit("change");
  }

  function command(address, args, label) {
    const p = { id: nextId++, address, args, label, tries: 0, due: 0 };
    pending.set(p.id, p);
    flush(p, performance.now());
    emit("change");
    return p.id;
  }

  function request(address, args) { sendRaw(address, args || []); }

  function flush(p, now) {
    if (!ws || ws.readyState !== WebSocket.OPEN || session === null) return;
    sendRaw("/sg/cmd" + p.address.slice(3), [p.id, ...p.args]);
    p.tries += 1;
    p.due = now + Math.min(250 * 2 ** (p.tries - 1), 2000);
  }

  setInterval(() => {
    const now = performance.now();
    for (const p of pending.values()) if (now >= p.due) flush(p, now);
    if (ws && ws.readyState === WebSocket.OPEN && session !== null && now - lastPing > 2000) {
      lastPing = now;
      sendRaw("/sg/ping", []);
    }
    emit("tick");
  }, 100);

  function online() {
    return !!ws && ws.readyState === WebSocket.OPEN && session !== null && performance.now() - lastHeard < 2500;
  }

  return {
    on, open, command, request, online,
    get session() { return session; },
    get pending() { return pending.size; },
    get role() { return role; },
    disconnect() { sendRaw("/sg/disconnect", []); wanted = false; session = null; emit("change"); },
  };
})();
