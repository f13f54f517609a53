#!/usr/bin/env python3
"""The search index at library scale: size, and the first query's bytes and
time in headless Chromium.

It makes a library of COUNT tiny photos (benchlib.tiny_jpeg: a 16x16 JPEG
with EXIF, its own date and pixels per file, spread over ten years)
in albums of 100, each with a `NAME.md` sidecar holding a title, keywords and
a caption drawn from a vocabulary, builds it with gallerygen (small
renditions: the index is what is measured), and reports:

- the index's total size and file count, the largest token file;
- for a few queries typed into the search page over HTTP: the bytes of
  search files loaded and the time from the last keystroke to the results.

usage: scripts/bench_search.py [--count 30000] [--work DIR] [--binary PATH]
Needs selenium (.build/venv).
"""
import argparse
import datetime
import functools
import http.server
import os
import random
import sys
import threading
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.join(ROOT, "Tests", "browser"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402  (what the benchmarks share: the timer, the peers, the libraries)

WORDS = ("harbour boats sea dawn sunset mountain summit hut lake forest river bridge market street cafe bakery "
         "grandma birthday wedding garden roses snow ski beach sand dunes castle museum train station airport "
         "rain storm fog autumn spring summer winter dog cat horse bicycle picnic concert festival fireworks").split()


def make_library(folder, count):
    """COUNT tiny photos (benchlib.tiny_jpeg) in albums of 100 over ten
    years, each with a `NAME.md` sidecar of words from WORDS."""
    random.seed(7)
    for i in range(count):
        album = os.path.join(folder, "library", f"Album {i // 100:03d}")
        if i % 100 == 0:
            os.makedirs(album, exist_ok=True)
        day = i * 3650 // count
        when = datetime.datetime(2015 + day // 365, 1 + day % 365 // 31 % 12, 1 + day % 28, i % 24, i % 60)
        with open(os.path.join(album, f"IMG_{i:05d}.jpg"), "wb") as f:
            f.write(benchlib.tiny_jpeg(i, when))
        words = random.sample(WORDS, 5)
        with open(os.path.join(album, f"IMG_{i:05d}.md"), "w") as f:
            f.write(f"Title: {words[0].title()} {i}\nKeywords: {words[1]}, {words[2]}\n\nA {words[3]} near the {words[4]}.\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=30000)
    parser.add_argument("--work", default="/tmp/gallerygen-search-bench")
    parser.add_argument("--binary", help="default: a release build of this checkout")
    args = parser.parse_args()
    args.binary = args.binary or benchlib.build_binary()
    library = os.path.join(args.work, "library")
    if not os.path.isdir(library):
        make_library(args.work, args.count)
    out = os.path.join(args.work, "site")
    run = benchlib.run_timed([args.binary, "build", library, "--output", out, "--quiet", "--thumbnail-size", "64x48",
                              "--preview-size", "128x96", "--format", "jpeg"])
    print(f"build of {args.count} photos: {run.wall:.1f} s, peak {run.peak_mb:.0f} MB")
    search = os.path.join(out, "search")
    sizes = {name: os.path.getsize(os.path.join(search, name)) for name in os.listdir(search) if name.endswith(".js")}
    tokens = {n: s for n, s in sizes.items() if n.startswith("t-")}
    docs = {n: s for n, s in sizes.items() if n.startswith("d-")}
    print(f"index: {len(sizes)} files, {sum(sizes.values()) / 1e6:.2f} MB (tokens {sum(tokens.values()) / 1e6:.2f} MB in {len(tokens)} files, "
          f"largest {max(tokens.values()) / 1e3:.1f} KB; items {sum(docs.values()) / 1e6:.2f} MB in {len(docs)} files, "
          f"{max(docs.values()) / 1e3:.1f} KB each at most; manifest {sizes['index.js'] / 1e3:.1f} KB)")

    import conftest
    from selenium.webdriver.common.by import By
    handler = functools.partial(conftest.QuietHandler, directory=out)
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{httpd.server_address[1]}"
    driver = conftest.make_driver(1280, 800)
    try:
        for query in ["ha", "harbour", "2019", "may 2019", "boats sunset", "img 12345"]:
            driver.get(base + "/search/index.html")
            conftest.wait(driver, "return window.gallerygenSearch && document.readyState === 'complete'")
            driver.execute_script("performance.clearResourceTimings(); window.__t0 = 0;"
                                  "new MutationObserver(function () { window.__t1 = performance.now(); })"
                                  ".observe(document.querySelector('.search-status'), {childList: true, characterData: true, subtree: true});")
            box = driver.find_element(By.CSS_SELECTOR, ".search-input")
            driver.execute_script("window.__t0 = performance.now();")
            box.send_keys(query)
            conftest.wait(driver, "return window.__t1 > window.__t0 && document.querySelector('.search-status').textContent")
            time.sleep(0.3)
            loaded = driver.execute_script(
                "return performance.getEntriesByType('resource').filter(function (e) { return e.name.indexOf('/search/') > 0; })"
                ".map(function (e) { return e.encodedBodySize || e.transferSize || 0; })")
            elapsed = driver.execute_script("return window.__t1 - window.__t0")
            status = driver.find_element(By.CSS_SELECTOR, ".search-status").text
            print(f"query {query!r}: {status}; {len(loaded)} index files, {sum(loaded) / 1e3:.1f} KB; "
                  f"{elapsed:.0f} ms from the first keystroke to results (120 ms of it is the typing pause)")
    finally:
        driver.quit()
        httpd.shutdown()


if __name__ == "__main__":
    main()
