// A seat's page keeps its WebSocket token across reloads (link.js reads window.SEAT_PEER): the board then sees the
// same phone coming back, never a second phone for the seat (which would wait for the host's tap).
"use strict";
(() => {
  const seat = (/[#&]s=(\d+)/.exec(location.hash) || [])[1] || "0";
  const name = "sg-seat-peer-" + seat;
  let token = null;
  try { token = localStorage.getItem(name); } catch (e) { token = null; }
  if (!token || !/^[A-Za-z0-9_-]{8,64}$/.test(token)) {
    const bytes = new Uint8Array(12);
    crypto.getRandomValues(bytes);
    token = btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    try { localStorage.setItem(name, token); } catch (e) { /* private mode: this page's life only */ }
  }
  window.SEAT_PEER = token;
})();
