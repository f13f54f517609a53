#!/usr/bin/env python3
"""The first screen on a mid-range phone: Largest Contentful Paint and
Cumulative Layout Shift of the home, album, moments and item pages, each
loaded cold (no cache) over HTTP in headless Chromium under Chromium's own
emulation of a mid-range phone: 4x CPU slowdown, 1.6 Mbps down / 750 kbps up,
150 ms round trip, 390x844 CSS px at 2 device pixels per px, touch.

    python3 scripts/bench_phone.py [LIBRARY] [--photos N] [--runs R] [--binary PATH]

Without LIBRARY it makes one of N 12-MP photos (default 24) with the
benchmarks' own generator. The figures come from the page
itself (PerformanceObserver: largest-contentful-paint, layout-shift), read
through selenium; the targets are LCP <= 2.5 s and CLS <= 0.1 (Core Web
Vitals' "good"). Needs Debian's chromium + chromedriver and selenium (the
browser tests' .build/venv has them)."""
import argparse
import functools
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

OBSERVE = """
window.__vitals = {lcp: 0, cls: 0};
new PerformanceObserver(function (list) {
  list.getEntries().forEach(function (e) { window.__vitals.lcp = e.renderTime || e.loadTime || e.startTime; });
}).observe({type: 'largest-contentful-paint', buffered: true});
new PerformanceObserver(function (list) {
  list.getEntries().forEach(function (e) { if (!e.hadRecentInput) window.__vitals.cls += e.value; });
}).observe({type: 'layout-shift', buffered: true});
"""


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


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
    return vitals["lcp"] / 1000, vitals["cls"]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("library", nargs="?")
    parser.add_argument("--photos", type=int, default=24)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--binary")
    args = parser.parse_args()
    binary = args.binary or binary_under_test()
    work = tempfile.mkdtemp(prefix="gallerygen-phone-")
    try:
        library = args.library
        if not library:
            library = os.path.join(work, "library")
            benchlib.make_photo_library(library, args.photos)
        out = os.path.join(work, "site")
        subprocess.run([binary, "build", library, "--output", out, "--quiet"], check=True)
        # The first album with photos of its own, and its first photo's page.
        album = item = None
        for folder, _, names in sorted(os.walk(os.path.join(out, "albums"))):
            pages = sorted(n for n in names if n.endswith(".html") and n != "index.html" and not n.startswith("index-"))
            if pages and "index.html" in names:
                album = os.path.relpath(os.path.join(folder, "index.html"), out)
                item = os.path.relpath(os.path.join(folder, pages[0]), out)
                break
        assert album, "no album with photos in the site"
        httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=out))
        threading.Thread(target=httpd.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{httpd.server_address[1]}/"
        driver = phone()
        try:
            print(f"First screen on an emulated mid-range phone (4x CPU, 1.6 Mbps, 150 ms RTT, 390x844 @2x), cold, median of {args.runs}:")
            print()
            print("| page | LCP (s) | CLS | LCP <= 2.5 s, CLS <= 0.1 |")
            print("| --- | --- | --- | --- |")
            for name, path in [("home", "index.html"), ("album", album), ("moments", "moments/index.html"), ("item", item)]:
                runs = [measure(driver, base + path) for _ in range(args.runs)]
                lcp = statistics.median(r[0] for r in runs)
                cls = statistics.median(r[1] for r in runs)
                print(f"| {name} | {lcp:.2f} | {cls:.3f} | {'yes' if lcp <= 2.5 and cls <= 0.1 else 'NO'} |")
        finally:
            driver.quit()
            httpd.shutdown()
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
