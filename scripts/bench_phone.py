#!/usr/bin/env python3
"""The first screen on a mid-range phone: Largest Contentful Paint,
Cumulative Layout Shift, the bytes transferred before LCP, and when every
picture of the first screen first shows something (its placeholder or
itself), for the home, album, moments and item pages, each loaded cold (no
cache) over HTTP in headless Chromium under Chromium's own emulation of a
mid-range phone: 4x CPU slowdown, 1.6 Mbps down / 750 kbps up, 150 ms round
trip, 390x844 CSS px at 2 device pixels per px, touch. The site is built
once per `--formats` entry (default: WebP alone, then AVIF before WebP) and
the builds are measured side by side in one run.

    python3 scripts/bench_phone.py [LIBRARY] [--photos N] [--runs R] [--binary PATH] [--formats webp,avif+webp] [--gzip]

Without LIBRARY it makes one of N 12-MP photos (default 24) with the
benchmarks' own generator. The figures come from the page
itself (PerformanceObserver: largest-contentful-paint, layout-shift), read
through selenium; the targets are LCP <= 2.5 s and CLS <= 0.1 (Core Web
Vitals' "good"). Needs Debian's chromium + chromedriver and selenium (the
browser tests' .build/venv has them)."""
import argparse
import functools
import gzip
import http.server
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402
from benchlib import binary_under_test  # noqa: E402

OBSERVE = r"""
window.__vitals = {lcp: 0, cls: 0, fcp: 0, filled: 0};
new PerformanceObserver(function (list) {
  list.getEntries().forEach(function (e) { window.__vitals.lcp = e.renderTime || e.loadTime || e.startTime; });
}).observe({type: 'largest-contentful-paint', buffered: true});
new PerformanceObserver(function (list) {
  list.getEntries().forEach(function (e) { if (e.name === 'first-contentful-paint') window.__vitals.fcp = e.startTime; });
}).observe({type: 'paint', buffered: true});
/* When every picture of the first screen first shows something: its photo, or its placeholder. */
(function watch() {
  var imgs = Array.prototype.filter.call(document.querySelectorAll('.photo-grid img, .photo img, .album-card img'), function (i) {
    var r = i.getBoundingClientRect(); return r.bottom > 0 && r.top < innerHeight && r.width > 0;
  });
  var shown = imgs.length > 0 && imgs.every(function (i) {
    return (i.complete && i.naturalWidth > 0) || /^url\(/.test(i.style.backgroundImage);
  });
  if (shown && document.readyState !== 'loading') { window.__vitals.filled = performance.now(); return; }
  requestAnimationFrame(watch);
})();
new PerformanceObserver(function (list) {
  list.getEntries().forEach(function (e) { if (!e.hadRecentInput) window.__vitals.cls += e.value; });
}).observe({type: 'layout-shift', buffered: true});
"""


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


class Compressing(Quiet):
    """Sends HTML, CSS, JavaScript and JSON gzip-compressed, as GitHub Pages,
    Netlify, Cloudflare and most configured web servers do (pictures as
    they are: they are compressed already)."""
    TEXT = (".html", ".css", ".js", ".json", ".xml", ".svg")

    def do_GET(self):
        path = self.translate_path(self.path)
        if not path.endswith(self.TEXT) or not os.path.isfile(path) or "gzip" not in self.headers.get("Accept-Encoding", ""):
            return super().do_GET()
        with open(path, "rb") as f:
            body = gzip.compress(f.read(), 6)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(path))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def phone():
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service
    options = Options()
    for arg in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]:
        options.add_argument(arg)
    binary = shutil.which("chromium") or shutil.which("chromium-browser")
    if binary:
        options.binary_location = binary
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=options)
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True})
    driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True})
    driver.execute_cdp_cmd("Emulation.setCPUThrottlingRate", {"rate": 4})
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": True})
    driver.execute_cdp_cmd("Network.emulateNetworkConditions", {
        "offline": False, "latency": 150, "downloadThroughput": 1_600_000 / 8, "uploadThroughput": 750_000 / 8})
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": OBSERVE})
    return driver


def measure(driver, url):
    driver.get("about:blank")
    driver.get(url)
    end = time.time() + 30
    while time.time() < end and driver.execute_script("return document.readyState") != "complete":
        time.sleep(0.1)
    time.sleep(2.5)   # late shifts and a late largest paint are counted too
    vitals = driver.execute_script("return window.__vitals")
    # Bytes that arrived before the largest paint: the page and every resource finished by then.
    before = driver.execute_script("""
        var lcp = window.__vitals.lcp, n = performance.getEntriesByType('navigation')[0];
        return (n ? n.transferSize : 0) + performance.getEntriesByType('resource')
          .filter(function (e) { return e.responseEnd <= lcp; }).reduce(function (s, e) { return s + e.transferSize; }, 0);""")
    # Everything the first screen fetched (lazy images below it are not fetched).
    total = driver.execute_script("""
        var n = performance.getEntriesByType('navigation')[0];
        return (n ? n.transferSize : 0) + performance.getEntriesByType('resource').reduce(function (s, e) { return s + e.transferSize; }, 0);""")
    return vitals["lcp"] / 1000, vitals["cls"], before / 1024, vitals["filled"] / 1000, vitals["fcp"] / 1000, total / 1024


def measure_site(driver, out, runs, compress=False):
    """Medians of `measure` for the site's home, first album, moments and that album's first item page."""
    album = item = None
    for folder, _, names in sorted(os.walk(os.path.join(out, "albums"))):
        pages = sorted(n for n in names if n.endswith(".html") and n != "index.html" and not n.startswith("index-"))
        if pages and "index.html" in names:
            album = os.path.relpath(os.path.join(folder, "index.html"), out)
            item = os.path.relpath(os.path.join(folder, pages[0]), out)
            break
    assert album, "no album with photos in the site"
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Compressing if compress else Quiet, directory=out))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{httpd.server_address[1]}/"
    try:
        result = {}
        for name, path in [("home", "index.html"), ("album", album), ("moments", "moments/index.html"), ("item", item)]:
            measured = [measure(driver, base + path) for _ in range(runs)]
            result[name] = tuple(statistics.median(r[k] for r in measured) for k in range(6))
        return result
    finally:
        httpd.shutdown()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("library", nargs="?")
    parser.add_argument("--photos", type=int, default=24)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--binary")
    parser.add_argument("--formats", default="webp,avif+webp", help="sites to compare: each a `formats` value, + between formats")
    parser.add_argument("--gzip", action="store_true", help="serve HTML, CSS and scripts gzip-compressed, as most hosts do")
    args = parser.parse_args()
    binary = args.binary or binary_under_test()
    work = tempfile.mkdtemp(prefix="gallerygen-phone-")
    try:
        library = args.library
        if not library:
            library = os.path.join(work, "library")
            benchlib.make_photo_library(library, args.photos)
        variants = args.formats.split(",")
        rows = {}
        driver = phone()
        try:
            for variant in variants:
                out = os.path.join(work, "site-" + variant)
                subprocess.run([binary, "build", library, "--output", out, "--quiet", "--formats", variant.replace("+", ",")], check=True)
                rows[variant] = measure_site(driver, out, args.runs, compress=args.gzip)
        finally:
            driver.quit()
        served = "HTML, CSS and scripts gzip-compressed" if args.gzip else "every file as it is (no compression)"
        print(f"First screen on an emulated mid-range phone (4x CPU, 1.6 Mbps, 150 ms RTT, 390x844 @2x), cold, median of {args.runs};")
        print(f"served over HTTP/1.1, {served}.")
        print("KB before LCP: the page and every resource finished before the largest paint; KB loaded: all it fetched once")
        print("settled; all shown: when every picture of the first screen shows its placeholder or itself (at or before first")
        print("paint: no blank tile).")
        print()
        print("| page | formats | LCP (s) | CLS | KB before LCP | KB loaded | first paint (s) | all shown (s) | LCP <= 2.5 s, CLS <= 0.1 |")
        print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
        for page in ["home", "album", "moments", "item"]:
            for variant in variants:
                lcp, cls, kb, filled, fcp, total = rows[variant][page]
                print(f"| {page} | {variant.replace('+', ', ')} | {lcp:.2f} | {cls:.3f} | {kb:.0f} | {total:.0f} | {fcp:.2f} | {filled:.2f} | "
                      f"{'yes' if lcp <= 2.5 and cls <= 0.1 else 'NO'} |")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
