"""`scoreboard bench remote-web`: the browser remote's figures on the real board.

The real `scoreboard run` process on an Xvfb display (an audience window at 1920×1080, 60 fps), the page in Debian's
Chromium (headless, driven by selenium, phone viewport), connected over loopback. The page itself sends commands
at 10 a second (`/sg/player/name 1 bench-N`, each a state change the board journals and draws) and times, with
`performance.now()` in the page:
- tap → `/sg/ack` for that id (target p99 ≤ 30 ms);
- tap → the first `/sg/state` showing the new name, i.e. the page updated (target p99 ≤ 50 ms).
Exit status 1 when a target is missed, 2 when a tool is missing.
"""
from __future__ import annotations

import json
import statistics
import sys
import time
import urllib.request
from pathlib import Path

from scoreboard.bench.figures import percentile
from scoreboard.bench.real_board import real_board
from scoreboard.bench.xdisplay import NoXvfb

TARGETS = {"ack_p99_ms": 30.0, "state_p99_ms": 50.0}
PASSCODE = "bench-web"

PAGE_SCRIPT = """
const [count, gap, done] = [arguments[0], arguments[1], arguments[arguments.length - 1]];
const sent = new Map(), acks = [], states = [];
Link.on("ack", (p) => { const t = sent.get(p.id); if (t !== undefined) acks.push(performance.now() - t.at); });
Link.on("state", (rev, json) => {
  const now = performance.now();
  let name; try { name = JSON.parse(json).players[0].name; } catch (e) { return; }
  const shown = [...sent.values()].find((t) => t.name === name);
  if (!shown) return;
  // A state carries every command applied before it: the page is up to date for all of them at once.
  for (const t of sent.values()) if (!t.seen && t.index <= shown.index) { t.seen = true; states.push(now - t.at); }
});
let i = 0;
const timer = setInterval(() => {
  if (i >= count) {
    clearInterval(timer);
    setTimeout(() => done({acks, states}), 1500);
    return;
  }
  const name = "bench-" + (i++);
  const at = performance.now();
  const id = Link.command("/sg/player/name", [1, name], name);
  sent.set(id, {at, name, index: i, seen: false});
}, gap);
"""


# The page signs every command and checks every ack (HMAC-SHA256, keys.js: noble-hashes, as on a phone at
# http://LAN-ADDRESS, which has no crypto.subtle): what one signature costs in the page, and what one stretch of a
# typed passcode costs (scrypt N=2**15, r=8, p=1: once a connect; the QR code's key needs none).
HMAC_SCRIPT = """
const done = arguments[arguments.length - 1];
(async () => {
  const key = new Uint8Array(32).fill(7), n = 2000;
  const msg = new TextEncoder().encode('sg-sig [123456,42,"/sg/score/adjust","192.168.1.20:abcdefghijklmnop",[2,100]]');
  let t = performance.now();
  for (let i = 0; i < n; i++) Keys.hmac(key, msg);
  const hmacUs = (performance.now() - t) * 1000 / n;
  t = performance.now();
  await Keys.stretch("bench-passcode", "00".repeat(16));
  done({hmac_us: hmacUs, stretch_ms: performance.now() - t, signed: Link.signed});
})();
"""


def _figures(values: list[float]) -> dict:
    return {"n": len(values), "median_ms": round(statistics.median(values), 2),
            "p99_ms": round(percentile(values, 0.99), 2), "max_ms": round(max(values), 2)}


def _browser(folder: Path):
    # lazy: selenium is the test extra's, not the board's (bench() says how to install it)
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service
    options = Options()
    options.binary_location = "/usr/bin/chromium"
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage",
                f"--user-data-dir={folder / 'chromium'}"):
        options.add_argument(arg)
    options.add_experimental_option("mobileEmulation", {"deviceMetrics": {"width": 390, "height": 844,
                                                                          "pixelRatio": 1.0}})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def run(count: int = 300, out=print) -> dict:
    from selenium.webdriver.common.by import By  # lazy: as in _browser
    with real_board(PASSCODE, web=True) as real:
        board, folder, web_port = real.process, real.folder, real.web_port
        driver = None
        try:
            url = f"http://127.0.0.1:{web_port}/"
            deadline = time.monotonic() + 60
            while True:
                if board.poll() is not None:
                    raise RuntimeError(f"the board exited: {board.stderr.read()}")
                try:
                    with urllib.request.urlopen(url, timeout=2):
                        break
                except OSError:
                    if time.monotonic() > deadline:
                        raise RuntimeError("the board's page did not come up in 60 s") from None
                    time.sleep(0.1)
            driver = _browser(folder)
            driver.set_script_timeout(count * 0.1 + 60)
            driver.get(url)
            driver.find_element(By.ID, "passcode").send_keys(PASSCODE)
            driver.find_element(By.CSS_SELECTOR, "#connect-form button").click()
            deadline = time.monotonic() + 30
            while not driver.execute_script("return Link.online()"):
                if time.monotonic() > deadline:
                    raise RuntimeError("the page did not connect in 30 s")
                time.sleep(0.05)
            raw = driver.execute_async_script(PAGE_SCRIPT, count, 100)
            hmac = driver.execute_async_script(HMAC_SCRIPT)
        finally:
            if driver is not None:
                driver.quit()
    figures = {"commands": count, "rate_per_s": 10, "ack": _figures(raw["acks"]), "state": _figures(raw["states"])}
    figures["hmac_us"] = {"page": round(hmac["hmac_us"], 1), "page_signs": hmac["signed"]}
    figures["stretch_ms"] = round(hmac["stretch_ms"], 1)
    figures["ok"] = (figures["ack"]["p99_ms"] <= TARGETS["ack_p99_ms"]
                     and figures["state"]["p99_ms"] <= TARGETS["state_p99_ms"]
                     and figures["ack"]["n"] == count and figures["state"]["n"] == count)
    return figures


def bench(args) -> int:
    try:
        import selenium  # noqa: F401  # lazy: the optional dependency this bench checks for
    except ImportError:
        print("bench remote-web needs selenium: pip install -e '.[test]'", file=sys.stderr)
        return 2
    for tool, package in (("/usr/bin/chromium", "chromium"), ("/usr/bin/chromedriver", "chromium-driver")):
        if not Path(tool).exists():
            print(f"bench remote-web needs Debian's {package}: apt-get install -y {package}", file=sys.stderr)
            return 2
    try:
        figures = run(60 if getattr(args, "quick", False) else 300)
    except NoXvfb as error:
        print(f"bench remote-web: {error}", file=sys.stderr)
        return 2
    if getattr(args, "json", False):
        print(json.dumps(figures, indent=2))
    else:
        a, s = figures["ack"], figures["state"]
        print(f"remote-web on the real board (Xvfb 1920×1080, 60 fps), Chromium over loopback, "
              f"{figures['commands']} commands at 10/s")
        print(f"  tap → ack:          median {a['median_ms']} ms, p99 {a['p99_ms']} ms, max {a['max_ms']} ms "
              f"({a['n']} acks; target p99 ≤ {TARGETS['ack_p99_ms']:.0f} ms)")
        print(f"  tap → page updated: median {s['median_ms']} ms, p99 {s['p99_ms']} ms, max {s['max_ms']} ms "
              f"({s['n']} states; target p99 ≤ {TARGETS['state_p99_ms']:.0f} ms)")
        h = figures["hmac_us"]
        print(f"  one HMAC in the page: {h['page']} µs (keys.js: noble-hashes); one stretch of a typed passcode "
              f"(scrypt N=2^15, r=8): {figures['stretch_ms']} ms; the page signs: {'yes' if h['page_signs'] else 'NO'}")
        print("  all targets met" if figures["ok"] else "  TARGET MISSED")
    return 0 if figures["ok"] else 1
