// OSC 1.0 messages as the board's UDP transport carries them (PROTOCOL.md §2): int32 'i', float32 'f',
// string 's', blob 'b' (a Uint8Array), true/false 'T'/'F', and on decoding also int64 'h' and double 'd'.
"use strict";

const OSC = (() => {
  const utf8 = new TextEncoder();
  const fromUtf8 = new TextDecoder("utf-8", { fatal: false });

  function padded(bytes) {
    const out = new Uint8Array((bytes.length + 4) & ~3);   // at least one NUL, then to a multiple of 4
    out.set(bytes);
    return out;
  }

  function encode(address, args) {
    const parts = [padded(utf8.encode(address))];
    let tags = ",";
    for (const arg of args) {
      if (typeof arg === "number" && Number.isInteger(arg) && arg >= -2147483648 && arg <= 2147483647) {
        tags += "i";
        const b = new Uint8Array(4); new DataView(b.buffer).setInt32(0, arg); parts.push(b);
      } else if (typeof arg === "number") {
        tags += "f";
        const b = new Uint8Array(4); new DataView(b.buffer).setFloat32(0, arg); parts.push(b);
      } else if (typeof arg === "boolean") {
        tags += arg ? "T" : "F";
      } else if (arg instanceof Uint8Array) {
        tags += "b";                           // a signature (/sg/sig/...): int32 size, bytes, padding
        const b = new Uint8Array(4 + ((arg.length + 3) & ~3));
        new DataView(b.buffer).setInt32(0, arg.length); b.set(arg, 4); parts.push(b);
      } else {
        tags += "s";
        parts.push(padded(utf8.encode(String(arg))));
      }
    }
    parts.splice(1, 0, padded(utf8.encode(tags)));
    const total = parts.reduce((n, p) => n + p.length, 0);
    const out = new Uint8Array(total);
    let at = 0;
    for (const p of parts) { out.set(p, at); at += p.length; }
    return out.buffer;
  }

  function readString(view, bytes, at) {
    let end = at;
    while (end < bytes.length && bytes[end] !== 0) end++;
    if (end >= bytes.length) throw new Error("unterminated string");
    return [fromUtf8.decode(bytes.subarray(at, end)), (end + 4) & ~3];
  }

  function decode(buffer) {
    const bytes = new Uint8Array(buffer);
    const view = new DataView(buffer);
    let [address, at] = readString(view, bytes, 0);
    if (address === "#bundle") throw new Error("bundles are not expected from the board");
    let tags;
    [tags, at] = readString(view, bytes, at);
    if (!tags.startsWith(",")) throw new Error("no type tags");
    const args = [];
    for (const tag of tags.slice(1)) {
      if (tag === "i") { args.push(view.getInt32(at)); at += 4; }
      else if (tag === "f") { args.push(view.getFloat32(at)); at += 4; }
      else if (tag === "h") { args.push(Number(view.getBigInt64(at))); at += 8; }
      else if (tag === "d") { args.push(view.getFloat64(at)); at += 8; }
      else if (tag === "s") { let s; [s, at] = readString(view, bytes, at); args.push(s); }
      else if (tag === "b") { const n = view.getInt32(at); at += 4; args.push(bytes.slice(at, at + n)); at += (n + 3) & ~3; }
      else if (tag === "T") args.push(true);
      else if (tag === "F") args.push(false);
      else if (tag === "N") args.push(null);
      else throw new Error("unknown type tag " + tag);
    }
    return { address, args };
  }

  return { encode, decode };
})();
