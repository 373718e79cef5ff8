// HMAC-SHA256 for the board's authenticated OSC mode (docs/LINKS.md, "Authenticated mode").
// A phone opens the page at http://BOARD:8080/, a LAN address: not a secure context, so the browser offers no
// crypto.subtle there. The page then uses the small SHA-256 below (FIPS 180-4) and HMAC (RFC 2104); where
// crypto.subtle exists (https, localhost) the browser's own is used. Checked against RFC 4231 in a real browser
// (tests/links/test_web_remote_auth.py).
"use strict";

const HMAC = (() => {
  const K = new Uint32Array([
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2]);
  const utf8 = new TextEncoder();
  const rotr = (x, n) => (x >>> n) | (x << (32 - n));

  function sha256(bytes) {
    // The message, a 1 bit, zeros, and the bit length as 64 bits: a whole number of 64-byte blocks.
    const blocks = Math.ceil((bytes.length + 9) / 64);
    const data = new Uint8Array(blocks * 64);
    data.set(bytes);
    data[bytes.length] = 0x80;
    const view = new DataView(data.buffer);
    view.setUint32(data.length - 8, Math.floor(bytes.length / 0x20000000));
    view.setUint32(data.length - 4, (bytes.length * 8) >>> 0);
    const h = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                               0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
    const w = new Uint32Array(64);
    for (let block = 0; block < blocks; block++) {
      for (let i = 0; i < 16; i++) w[i] = view.getUint32(block * 64 + i * 4);
      for (let i = 16; i < 64; i++) {
        const s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >>> 3);
        const s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >>> 10);
        w[i] = (w[i - 16] + s0 + w[i - 7] + s1) >>> 0;
      }
      let [a, b, c, d, e, f, g, k] = h;
      for (let i = 0; i < 64; i++) {
        const t1 = (k + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i]) >>> 0;
        const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
        k = g; g = f; f = e; e = (d + t1) >>> 0; d = c; c = b; b = a; a = (t1 + t2) >>> 0;
      }
      [a, b, c, d, e, f, g, k].forEach((x, i) => { h[i] = (h[i] + x) >>> 0; });
    }
    const out = new Uint8Array(32);
    const outView = new DataView(out.buffer);
    h.forEach((x, i) => outView.setUint32(i * 4, x));
    return out;
  }

  function concat(a, b) {
    const out = new Uint8Array(a.length + b.length);
    out.set(a); out.set(b, a.length);
    return out;
  }

  function hmacSync(key, message) {
    let k = key.length > 64 ? sha256(key) : key;
    const block = new Uint8Array(64);
    block.set(k);
    const inner = block.map((x) => x ^ 0x36), outer = block.map((x) => x ^ 0x5c);
    return sha256(concat(outer, sha256(concat(inner, message))));
  }

  const subtle = () => (typeof crypto !== "undefined" && crypto.subtle) || null;

  // HMAC-SHA256(key, message) as a Promise of 32 bytes; key and message are bytes or text (UTF-8).
  async function hmac(key, message) {
    const k = typeof key === "string" ? utf8.encode(key) : key;
    const m = typeof message === "string" ? utf8.encode(message) : message;
    const s = subtle();
    if (!s) return hmacSync(k, m);
    const imported = await s.importKey("raw", k, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    return new Uint8Array(await s.sign("HMAC", imported, m));
  }

  const hex = (bytes) => Array.from(bytes, (x) => x.toString(16).padStart(2, "0")).join("");

  function randomHex(n) {
    const bytes = new Uint8Array(n);
    crypto.getRandomValues(bytes);         // getRandomValues is offered in every context, secure or not
    return hex(bytes);
  }

  return { sha256, hmacSync, hmac, hex, randomHex, get native() { return !!subtle(); } };
})();
