// The page's cryptography, every function of it from the audited noble-hashes (vendor/noble-hashes/: its LICENSE
// and VENDORED.md, the npm package's files unchanged): HMAC-SHA256 for the authenticated OSC mode and scrypt for a
// typed passcode (docs/LINKS.md "Authenticated mode", docs/SECURITY.md). A page opened at http://192.168.x.y:8080/
// is not a secure context: the browser offers no crypto.subtle there, so nothing here relies on it. Checked against
// RFC 4231 (HMAC), FIPS 180 (SHA-256) and the board's own scrypt in a real browser (tests/links/test_web_remote_auth.py).
import { hmac as nobleHmac } from "./vendor/noble-hashes/hmac.js";
import { sha256 as nobleSha256 } from "./vendor/noble-hashes/sha2.js";
import { scryptAsync } from "./vendor/noble-hashes/scrypt.js";

const KDF = "scrypt-32768-8-1";                       // osc/auth.py KDF: the one stretch the page takes
const utf8 = new TextEncoder();
const bytes = (x) => (typeof x === "string" ? utf8.encode(x) : x);
const hex = (b) => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");

function fromHex(text) {
  if (!/^(?:[0-9a-f]{2})*$/i.test(text)) return null;
  return Uint8Array.from(text.match(/../g) || [], (x) => parseInt(x, 16));
}

// The board's key as the link carries it (base64url, no padding: osc/auth.py key_text); null unless ≥ 128 bits.
function fromKeyText(text) {
  if (typeof text !== "string" || !/^[A-Za-z0-9_-]+$/.test(text)) return null;
  let raw;
  try { raw = atob(text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4)); }
  catch (e) { return null; }
  return raw.length >= 16 ? Uint8Array.from(raw, (c) => c.charCodeAt(0)) : null;
}

function randomHex(n) {
  const b = new Uint8Array(n);
  crypto.getRandomValues(b);             // getRandomValues is offered in every context, secure or not
  return hex(b);
}

window.Keys = Object.freeze({
  KDF, hex, fromHex, fromKeyText, randomHex,
  sha256: (message) => nobleSha256(bytes(message)),
  // HMAC-SHA256(key, message), 32 bytes; key and message are bytes or text (UTF-8)
  hmac: (key, message) => nobleHmac(nobleSha256, bytes(key), bytes(message)),
  // The secret of a typed passcode (osc/auth.py stretch): a Promise of 32 bytes; it yields to the page as it works.
  stretch: (passcode, saltHex) => scryptAsync(bytes(passcode), fromHex(saltHex), { N: 2 ** 15, r: 8, p: 1, dkLen: 32 }),
});
