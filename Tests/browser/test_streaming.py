"""A long page that arrives slowly, a few hundred bytes at a time as over a
phone's link, is painted while it streams in: no tile that has shown may move
(cumulative layout shift 0), on a desktop and on a phone, for an album page
and for the moments page, with landscape, portrait, square and panoramic
photos in the rows. One of them is an animation: the button that pauses it
comes with the page, so the script that makes it work moves nothing either;
without a script it is not shown."""
import functools
import http.server
import os
import shutil
import subprocess
import tempfile
import threading
import time

import pytest
from PIL import Image

from conftest import QuietHandler, gallerygen, make_driver, wait

SHAPES = [(640, 480), (480, 640), (500, 500), (960, 320), (640, 360), (360, 640)]


@pytest.fixture(scope="module")
def long_site():
    work = tempfile.mkdtemp(prefix="gallerygen-streaming-")
    album = os.path.join(work, "library", "Long walk")
    os.makedirs(album)
    for n in range(48):
        width, height = SHAPES[n * 7 % len(SHAPES)]
        path = os.path.join(album, f"IMG_{n:04d}.jpg")
        Image.new("RGB", (width, height), (40 + n * 4, 120, 200 - n * 3)).save(path, quality=80)
        day = 1_700_000_000 + n // 6 * 86_400 + n * 60
        os.utime(path, (day, day))
    # An animation on the first day (two frames, a second apart).
    frames = [Image.new("RGB", (400, 300), colour) for colour in ((200, 60, 60), (60, 60, 200))]
    path = os.path.join(album, "IMG_0048.gif")
    frames[0].save(path, save_all=True, append_images=frames[1:], duration=1000, loop=0)
    os.utime(path, (1_700_000_030, 1_700_000_030))
    out = os.path.join(work, "site")
    subprocess.run([gallerygen(), "build", os.path.join(work, "library"), "--output", out, "--quiet"], check=True)
    yield out
    shutil.rmtree(work, ignore_errors=True)


class TricklingHandler(QuietHandler):
    """Sends HTML in pieces of 700 bytes, 25 ms apart; everything else at once."""

    def copyfile(self, source, outputfile):
        if not self.path.split("?")[0].endswith(".html"):
            return super().copyfile(source, outputfile)
        while True:
            piece = source.read(700)
            if not piece:
                return
            outputfile.write(piece)
            outputfile.flush()
            time.sleep(0.025)


@pytest.fixture(scope="module")
def trickling_server(long_site):
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(TricklingHandler, directory=long_site))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()


OBSERVER = """
    window.__shift = 0; window.__moved = [];
    new PerformanceObserver(function (list) {
      list.getEntries().forEach(function (e) {
        if (e.hadRecentInput) return;
        window.__shift += e.value;
        (e.sources || []).forEach(function (s) {
          window.__moved.push(s.node && s.node.closest ? (s.node.closest('li') || s.node).id || s.node.nodeName : '?');
        });
      });
    }).observe({type: 'layout-shift', buffered: true});"""


@pytest.mark.parametrize("width,height", [(1280, 800), (390, 844)])
@pytest.mark.parametrize("path", ["/albums/long-walk/index.html", "/moments/index.html"])
def test_no_tile_moves_while_a_long_page_streams_in(trickling_server, width, height, path):
    driver = make_driver(width, height)
    try:
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": OBSERVER})
        driver.get(trickling_server + path)
        tiles = wait(driver, "return document.readyState === 'complete' && document.querySelectorAll('.photo-grid img').length")
        assert tiles == 49
        # Every tile shows once the page is in.
        assert driver.execute_script(
            "return Array.from(document.querySelectorAll('.photo-grid > li')).every(li => getComputedStyle(li).visibility === 'visible')")
        time.sleep(0.3)
        shift, moved = driver.execute_script("return [window.__shift, window.__moved]")
        assert shift == 0, (path, width, shift, moved)
    finally:
        driver.quit()


@pytest.mark.parametrize("path", ["albums/long-walk/index.html", "moments/index.html"])
def test_the_pause_button_comes_with_the_page_and_is_not_shown_without_a_script(long_site, trickling_server, path):
    with open(os.path.join(long_site, path), encoding="utf-8") as page:
        assert page.read().count('<button class="animation-toggle" type="button">Pause animations</button>') == 1
    driver = make_driver(1280, 800, javascript=False)
    try:
        driver.get(trickling_server + "/" + path)
        wait(driver, "return document.readyState === 'complete'")
        assert not driver.find_element("css selector", ".animation-toggle").is_displayed()
    finally:
        driver.quit()
