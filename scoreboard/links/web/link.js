// The page's OSC session over the board's WebSocket: the authenticated connect, signed commands with ids retried
// until acked, reconnection with the same peer token (so the board keeps the session and its acked ids), liveness.
//
// The page always connects the authenticated way (docs/LINKS.md, "Authenticated mode"): it proves a secret by HMAC
// and never sends it — the board's key when the page was opened from the QR code's link (…/#k=KEY: a fragment, which
// the browser never sends), else the typed passcode stretched by scrypt with the board's salt (keys.js) — every
// command goes as /sg/sig/... signed with the session's key, and an ack counts only when its signature checks. A
// sniffed frame can then be neither altered nor replayed, nor turned into the passcode but by scrypt per guess; the
// board may require it (`[osc] require_auth`).
// What the board sends is signed too (docs/LINKS.md, "Signed both ways"): the connect's answer, every state, question
// and error count only when their MAC checks, a state more than REV_JUMP revisions ahead is refused, and the page
// ends its session by a signed disconnect.
"use strict";

const Link = (() => {
  const listeners = {};
  const pending = new Map();          // id -> {id, address, args, label, tries, due, frame, epoch, signing}
  let ws = null, session = null, credential = null, role = "host", wanted = false;   // credential: {key} | {passcode}
  let nextId = 1, lastHeard = -1e9, lastPing = -1e9, backoff = 250;
  let cnonce = "", seenAs = "", secret = null, key = null, epoch = 0, forged = 0, lastRev = -1;
  const REV_JUMP = 100000;            // a state this far ahead is not the board's (osc/client_rx.py)
  let stretched = new Map();          // salt -> Promise of the typed passcode's secret (one scrypt per board)
  let chain = Promise.resolve();      // the stretch is asynchronous: what follows it keeps the host's order
  const later = (job) => { chain = chain.then(job).catch((e) => console.error(e)); };
  // A seat's page (seat.js) keeps its token across reloads (window.SEAT_PEER, seatpeer.js): the same phone, not a second.
  const peer = (typeof window.SEAT_PEER === "string" && window.SEAT_PEER) || (() => {
    const bytes = new Uint8Array(12);
    crypto.getRandomValues(bytes);
    return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  })();

  function on(name, fn) { (listeners[name] ||= []).push(fn); }
  function emit(name, ...args) { for (const fn of listeners[name] || []) fn(...args); }

  // credential: {key: Uint8Array} (the link's) or {passcode: "..."} (typed)
  function open(given, asRole) {
    credential = given; role = asRole; wanted = true; stretched = new Map();
    if (ws) hello(); else dial();
  }

  function hello() {
    cnonce = Keys.randomHex(16);
    sendRaw("/sg/auth/hello", []);
  }

  function secretFor(salt) {
    if (credential.key) return Promise.resolve(credential.key);
    if (!stretched.has(salt)) stretched.set(salt, Keys.stretch(credential.passcode, salt));
    return stretched.get(salt);
  }

  function dial() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    ws = new WebSocket(`${scheme}://${location.host}/osc?peer=${peer}`);
    ws.binaryType = "arraybuffer";
    ws.onopen = () => { backoff = 250; if (wanted) hello(); };
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
      if (!wanted) return;                       // no socket held open while no one is connecting
      setTimeout(() => { if (wanted && !ws) dial(); }, backoff);    // back by itself when the Wi-Fi returns
      backoff = Math.min(backoff * 2, 2000);
    };
  }

  function sendRaw(address, args) {
    if (ws && ws.readyState === WebSocket.OPEN) ws.send(OSC.encode(address, args));
  }

  function sendFrame(frame) {
    if (ws && ws.readyState === WebSocket.OPEN) ws.send(frame);
  }

  const lines = (...parts) => parts.join("\n");

  function challenged(bnonce, seen, salt, kdf) {
    if (kdf !== Keys.KDF || (Keys.fromHex(salt) || []).length !== 16 || credential === null) return;   // older, forged
    const mine = cnonce;
    later(async () => {
      const s = await secretFor(salt);
      if (mine !== cnonce) return;               // a new hello meanwhile
      const proof = Keys.hex(Keys.hmac(s, lines("sg-connect", role, bnonce, mine, seen)));
      seenAs = seen; secret = s;
      sendRaw("/sg/auth/connect", [role, bnonce, mine, proof, salt]);
    });
  }

  // Does `mac` (a 16-byte blob) sign these lines with key `k`?
  function signedBy(k, mac, ...parts) {
    const want = Keys.hmac(k, lines(...parts)).slice(0, 16);
    return mac instanceof Uint8Array && mac.length === want.length && mac.every((x, i) => x === want[i]);
  }

  // A signed session takes what the board sends only when its key signed it: `label sid rest…` (osc/auth.py).
  function trusted(mac, label, rest, then) {
    if (key === null) { then(); return; }
    const k = key, sid = session;
    later(async () => {
      if (signedBy(k, mac, label, sid, ...rest)) { then(); emit("change"); } else forged += 1;
    });
  }

  function takeState(rev, json) {
    if (lastRev >= 0 && rev > lastRev + REV_JUMP) { forged += 1; return; }    // beyond reason
    lastRev = Math.max(lastRev, rev);
    emit("state", rev, json);
  }

  function connected(sid, snonce, mac) {
    const mine = cnonce;
    later(async () => {
      const k = snonce && secret ? Keys.hmac(secret, lines("sg-session", sid, snonce, mine)) : null;
      // The board shows it knows the secret: its answer is signed with the session's key (not a spoofer's).
      if (k !== null && !signedBy(k, mac, "sg-connected", sid, snonce)) { forged += 1; return; }
      key = k;
      epoch += 1;                                 // every pending command is signed again with this key
      if (session !== null && sid !== session) {
        // A new session: the old one's commands may or may not have been applied; re-sending them under new
        // ids could apply them twice, so the host is told to check instead.
        for (const p of pending.values()) emit("unconfirmed", p);
        pending.clear();
      }
      if (sid !== session) lastRev = -1;          // a new session may count revisions from scratch
      session = sid;
      emit("connected", sid);
      for (const p of pending.values()) p.due = 0;
      emit("change");
    });
  }

  function acked(args) {
    const p = pending.get(args[0]);
    if (!p) return;
    const ok = args[1] === "ok", reason = typeof args[2] === "string" ? args[2] : "";
    const mac = args[args.length - 1];
    const settle = () => {
      if (!pending.delete(p.id)) return;
      emit("ack", p, ok, reason);
      emit("change");
    };
    if (key === null) { settle(); return; }
    const k = key, sid = session;
    later(async () => {
      if (signedBy(k, mac, "sg-ack", sid, p.id, ok ? "ok" : "error", reason)) settle();
      else forged += 1;                           // not the board's: the command stays pending and is re-sent
    });
  }

  function handle({ address, args }) {
    switch (address) {
      case "/sg/auth/challenge": if (wanted) challenged(String(args[0]), String(args[1]), String(args[2]), args[3]); break;
      case "/sg/connected": connected(args[0], typeof args[1] === "string" ? args[1] : "", args[2]); break;
      case "/sg/denied": {
        const reason = String(args[0] || "");
        if ((reason.startsWith("not connected") || reason.startsWith("stale")) && wanted) hello();
        else { wanted = false; session = null; key = null; emit("denied", reason, credential && !!credential.key); }
        break;
      }
      case "/sg/state":
        trusted(args[2], "sg-state", [args[0], args[1]], () => takeState(Number(args[0]), String(args[1])));
        break;
      case "/sg/host/question":
        trusted(args[2], "sg-question", [args[1], args[0]], () => emit("question", String(args[0]), Number(args[1])));
        break;
      case "/sg/ack": acked(args); break;
      case "/sg/error":
        trusted(args[2], "sg-error", [args[0], args[1]], () => emit("refused", String(args[0]), String(args[1] || "")));
        break;
      case "/sg/setup/catalog": emit("catalog", String(args[0])); break;
      case "/sg/protocol/link": emit("protocol", String(args[0])); break;
      case "/sg/host/seats": trusted(args[1], "sg-seats", [args[0]], () => emit("seats", String(args[0]))); break;
      default: emit("message", address, args); break;     // e.g. a seat's clock samples (seat.js)
    }
    emit("change");
  }

  function command(address, args, label) {
    const p = { id: nextId++, address, args, label, tries: 0, due: 0, frame: null, epoch: -1, signing: -1 };
    pending.set(p.id, p);
    flush(p, performance.now());
    emit("change");
    return p.id;
  }

  function request(address, args) { sendRaw(address, args || []); }

  // An uncounted message signed with the session's key, `label sid args…` (a seat's clock samples: osc/auth.py
  // time_mac), sent in its turn after the signed commands before it (the board reads the stream in the page's order).
  function signedRequest(address, label, args) {
    const k = key, sid = session;
    if (k === null) return false;
    later(async () => {
      if (k !== key) return;                       // a new session meanwhile: this sample is not its
      sendRaw(address, [...args, Keys.hmac(k, lines(label, sid, ...args)).slice(0, 16)]);
    });
    return true;
  }

  // The text the board signs (osc_auth.canonical): JSON of [sid, id, address, peer, args], floats as float32.
  function canonical(sid, id, address, args) {
    const exact = args.map((a) => (typeof a === "number" && !Number.isInteger(a) ? Math.fround(a) : a));
    return JSON.stringify([sid, id, address, seenAs, exact]);
  }

  function flush(p, now) {
    if (!ws || ws.readyState !== WebSocket.OPEN || session === null) return;
    p.tries += 1;
    p.due = now + Math.min(250 * 2 ** (p.tries - 1), 2000);
    if (key === null) { sendRaw("/sg/cmd" + p.address.slice(3), [p.id, ...p.args]); return; }
    if (p.epoch === epoch) { sendFrame(p.frame); return; }
    if (p.signing === epoch) return;
    const e = epoch, k = key, sid = session;
    p.signing = e;
    later(async () => {
      const mac = Keys.hmac(k, lines("sg-sig", canonical(sid, p.id, p.address, p.args))).slice(0, 16);
      if (e !== epoch) return;                   // a new key meanwhile: the next flush signs again
      p.frame = OSC.encode("/sg/sig" + p.address.slice(3), [sid, p.id, ...p.args, mac]);
      p.epoch = e;
      if (pending.has(p.id)) sendFrame(p.frame);
    });
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
    on, open, command, request, signedRequest, online,
    get session() { return session; },
    get pending() { return pending.size; },
    get role() { return role; },
    get signed() { return key !== null; },
    get forged() { return forged; },
    disconnect() {
      if (key !== null) {                          // a signed session ends by a signed disconnect only
        const k = key, sid = session, id = nextId++;
        later(async () => {
          const mac = Keys.hmac(k, lines("sg-sig", canonical(sid, id, "/sg/disconnect", []))).slice(0, 16);
          sendRaw("/sg/sig/disconnect", [sid, id, mac]);
        });
      } else sendRaw("/sg/disconnect", []);
      wanted = false; session = null; key = null; emit("change");
    },
  };
})();
