"""WCAG 2.2 AA, checked by axe-core in headless Chromium: every kind of page
(home, album, photo, video and Live item pages, moments, years, tags, a tag
page, favourites, search with results, the viewer open on a photo and on a
video) in both built-in themes, light and dark, at 390 and 1280 px. axe-core
comes from the axe-playwright-python wheel on PyPI (installed without its
Playwright dependency: only its axe.min.js is used); the version it reports
is checked so an upgrade is a deliberate change. The keyboard half (skip
link, focus order, the viewer's focus and announcements) is
test_keyboard.py."""
import os
import shutil
import subprocess
import tempfile

import axe_playwright_python
import pytest
from PIL import Image
from selenium.webdriver.common.by import By

from conftest import ROOT, gallerygen, make_driver, serve_each, wait

AXE_VERSION = "4.12.1"
AXE = open(os.path.join(os.path.dirname(axe_playwright_python.__file__), "axe.min.js"), encoding="utf-8").read()
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]


def ffmpeg(*arguments):
    subprocess.run(["ffmpeg", "-v", "error", "-y", *arguments], check=True)


def make_library(library):
    """The sample library, plus what the other page kinds need: keywords,
    ratings (favourites), a video and a Live Photo."""
    shutil.copytree(os.path.join(ROOT, "Examples", "sample-library"), library)
    walk = os.path.join(library, "Coolpix walk")
    for name, (title, keywords, rating) in {"DSCN0010.jpg": ("Old town", ["street", "stone"], 5),
                                             "DSCN0021.jpg": ("River bank", ["river"], 4)}.items():
        subject = "".join(f"<rdf:li>{k}</rdf:li>" for k in keywords)
        with open(os.path.join(walk, name[:-4] + ".xmp"), "w") as f:
            f.write('<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
                    f'<rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmp:Rating="{rating}">'
                    f'<dc:title><rdf:Alt><rdf:li xml:lang="x-default">{title}</rdf:li></rdf:Alt></dc:title>'
                    f'<dc:subject><rdf:Bag>{subject}</rdf:Bag></dc:subject></rdf:Description></rdf:RDF></x:xmpmeta>')
    clips = os.path.join(library, "Clips")
    os.makedirs(clips)
    ffmpeg("-f", "lavfi", "-i", "testsrc2=s=640x360:r=25:d=3", "-c:v", "libx264", "-pix_fmt", "yuv420p",
           "-metadata", "creation_time=2024-05-01T10:00:00Z", os.path.join(clips, "harbour.mp4"))
    Image.new("RGB", (640, 480), (40, 120, 200)).save(os.path.join(clips, "IMG_0001.JPG"), quality=90)
    ffmpeg("-f", "lavfi", "-i", "testsrc2=s=640x480:r=25:d=2", "-c:v", "libx264", "-pix_fmt", "yuv420p",
           os.path.join(clips, "IMG_0001.MOV"))
    # A burst: one tile with a count, a strip on each frame's page and in the viewer.
    burst = os.path.join(library, "Burst")
    os.makedirs(burst)
    for n in range(3):
        Image.new("RGB", (640, 480), (200, 60 + 50 * n, 40)).save(os.path.join(burst, f"IMG_20240501_100000_BURST00{n + 1}.jpg"), quality=90)


@pytest.fixture(scope="module")
def sites():
    work = tempfile.mkdtemp(prefix="gallerygen-a11y-")
    library = os.path.join(work, "library")
    make_library(library)
    built = {}
    for theme in ["default", "slate"]:
        out = os.path.join(work, theme)
        subprocess.run([gallerygen(), "build", library, "--output", out, "--quiet", "--theme", theme,
                        "--thumbnail-size", "280x210", "--preview-size", "640x480,1280x960"], check=True)
        built[theme] = out
    yield built
    shutil.rmtree(work, ignore_errors=True)


@pytest.fixture(scope="module")
def servers(sites):
    yield from serve_each(sites)


def page_of(out, folder, contains):
    for base, _, names in os.walk(os.path.join(out, folder)):
        for name in sorted(names):
            if contains in name and name.endswith(".html"):
                return os.path.relpath(os.path.join(base, name), out)
    raise AssertionError(f"no page with {contains!r} under {folder}")


def pages(out):
    """Every kind of page: (name, path, what to do once it is loaded)."""
    return [
        ("home", "index.html", None),
        ("album", "albums/coolpix-walk/index.html", None),
        ("photo", "albums/coolpix-walk/dscn0010.html", None),
        ("video", page_of(out, "albums/clips", "harbour"), None),
        ("live", page_of(out, "albums/clips", "img-0001"), None),
        ("moments", "moments/index.html", None),
        ("years", "moments/years.html", None),
        ("tags", "tags/index.html", None),
        ("tag", "tags/river/index.html", None),
        ("favourites", "favourites/index.html", None),
        ("search", "search/index.html?q=river", "search"),
        ("viewer on a photo", "albums/coolpix-walk/index.html", "viewer-photo"),
        ("viewer on a video", "albums/clips/index.html", "viewer-video"),
        ("stacked album", "albums/burst/index.html", None),
        ("stack item", "albums/burst/img-20240501-100000-burst002.html", None),
        ("viewer in a stack", "albums/burst/index.html", "viewer-stack"),
    ]


def prepare(driver, action):
    if action == "search":
        wait(driver, "return document.querySelectorAll('.search-results a').length > 0", timeout=15)
    elif action == "viewer-photo":
        driver.find_element(By.CSS_SELECTOR, ".photo-grid a:not([data-video])").click()
        wait(driver, "return !document.querySelector('.viewer').hidden")
        wait(driver, "return Array.from(document.querySelectorAll('.viewer img')).some(i => i.complete && i.naturalWidth > 0)")
    elif action == "viewer-stack":
        driver.find_element(By.CSS_SELECTOR, ".photo-grid a").click()
        wait(driver, "return !document.querySelector('.viewer').hidden")
        driver.execute_script("document.querySelectorAll('.viewer-strip button')[1].click()")
        wait(driver, "return document.querySelectorAll('.viewer-strip button')[1].getAttribute('aria-current') === 'true'")
    elif action == "viewer-video":
        driver.find_element(By.CSS_SELECTOR, ".photo-grid a[data-video]").click()
        wait(driver, "return !document.querySelector('.viewer').hidden")
        wait(driver, "return Array.from(document.querySelectorAll('.viewer video')).some(v => v.readyState >= 1)", timeout=15)


def violations(driver):
    driver.execute_script(AXE)
    assert driver.execute_script("return axe.version") == AXE_VERSION
    return driver.execute_async_script(
        "var done = arguments[arguments.length - 1];"
        "axe.run(document, {runOnly: {type: 'tag', values: arguments[0]}}).then(function (r) {"
        "  done(r.violations.map(function (v) { return v.id + ' (' + v.impact + '): ' + v.nodes.slice(0, 3).map(function (n) {"
        "    return n.target.join(' ') + ' ' + (n.failureSummary || '').replace(/\\s+/g, ' ').slice(0, 200); }).join(' | '); })); });",
        TAGS)


@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("theme", ["default", "slate"])
def test_no_axe_violations_on_any_page(sites, servers, theme, width):
    found = []
    for scheme in ["light", "dark"]:
        driver = make_driver(width, 844 if width < 600 else 800)
        try:
            driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
            for name, path, action in pages(sites[theme]):
                driver.get(servers[theme] + "/" + path)
                wait(driver, "return document.readyState === 'complete'")
                if action:
                    prepare(driver, action)
                found += [f"{theme} {scheme} {width}px {name}: {v}" for v in violations(driver)]
        finally:
            driver.quit()
    assert not found, "\n".join(found)
