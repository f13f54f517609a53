"""AVIF and placeholders in headless Chromium, on a site built with
`formats: [avif, webp]`: the browser fetches the AVIF of every still (grid,
photo page, viewer); a browser that does not take the AVIF `<source>` gets
the WebP, in the viewer too; every tile paints its placeholder while its
image has not arrived (here: never arrives) and drops it once it has; the
album page does not shift (CLS 0); a photo page preloads its neighbours
only once its own photo has arrived."""
import os
import re
import shutil
import subprocess
import tempfile

import pytest
from PIL import Image, ImageDraw

from conftest import gallerygen, make_driver, serve, wait


def photo(path, seed, when):
    image = Image.new("RGB", (640, 480), (30 + 40 * seed % 200, 90, 160 - 20 * seed % 120))
    draw = ImageDraw.Draw(image)
    for k in range(12):
        draw.ellipse([40 * k + seed * 7 % 60, 30 * k % 400, 40 * k + 90, 30 * k % 400 + 70], fill=(250 - 15 * k, 20 * k % 255, 60 + seed * 30 % 190))
    image.save(path, quality=92)
    subprocess.run(["exiftool", "-q", "-overwrite_original", f"-DateTimeOriginal={when}", path], check=True)


@pytest.fixture(scope="module")
def avif_site():
    work = tempfile.mkdtemp(prefix="gallerygen-avif-")
    trip = os.path.join(work, "library", "Trip")
    os.makedirs(trip)
    for n in range(6):
        photo(os.path.join(trip, f"DSC_{n:04d}.jpg"), n, f"2024:05:0{n + 1} 10:00:00")
    out = os.path.join(work, "site")
    subprocess.run([gallerygen(), "build", os.path.join(work, "library"), "--output", out, "--quiet", "--formats", "avif,webp",
                    "--thumbnail-size", "280x210,560x420", "--preview-size", "640x480,1280x960"], check=True)
    # The same album page with its AVIF sources in a type no browser takes: what a browser without AVIF sees.
    page = os.path.join(out, "albums", "trip", "index.html")
    with open(page) as f:
        html = f.read()
    assert 'type="image/avif"' in html
    with open(os.path.join(out, "albums", "trip", "no-avif.html"), "w") as f:
        f.write(html.replace('type="image/avif"', 'type="image/x-not-shown"'))
    yield out
    shutil.rmtree(work, ignore_errors=True)


@pytest.fixture(scope="module")
def avif_server(avif_site):
    yield from serve(avif_site)


@pytest.fixture
def driver():
    d = make_driver(1280, 800)
    yield d
    d.quit()


def loaded_sources(driver):
    wait(driver, "return Array.from(document.querySelectorAll('.photo-grid img')).every(i => i.complete && i.naturalWidth)")
    return driver.execute_script("return Array.from(document.querySelectorAll('.photo-grid img')).map(i => i.currentSrc)")


def viewer_source(driver):
    driver.execute_script("document.querySelector('.photo-grid a').click()")
    return wait(driver, "var i = document.querySelectorAll('.viewer-slide img')[1];"
                        "return i && i.complete && i.naturalWidth && i.currentSrc")


def test_the_browser_fetches_avif_and_the_viewer_shows_it(driver, avif_server):
    driver.get(avif_server + "/albums/trip/index.html")
    sources = loaded_sources(driver)
    assert len(sources) == 6 and all(s.endswith(".avif") for s in sources), sources
    fetched = driver.execute_script("return performance.getEntriesByType('resource').map(e => e.name)")
    assert not [name for name in fetched if name.endswith(".webp")], "a WebP was fetched beside the AVIFs"
    assert viewer_source(driver).endswith(".avif")
    # The photo page's picture, and the neighbours' preloads, are AVIF too.
    driver.get(avif_server + "/albums/trip/dsc-0002.html")
    wait(driver, "var i = document.querySelector('.photo img'); return i.complete && i.naturalWidth")
    assert driver.execute_script("return document.querySelector('.photo img').currentSrc").endswith(".avif")
    preloads = wait(driver, "var l = Array.from(document.querySelectorAll('link[rel=preload]')); return l.length && l.map(l => [l.type, l.href])")
    assert preloads and all(kind == "image/avif" and href.endswith(".avif") for kind, href in preloads), preloads


def test_a_browser_without_avif_gets_webp(driver, avif_server):
    driver.get(avif_server + "/albums/trip/no-avif.html")
    sources = loaded_sources(driver)
    assert len(sources) == 6 and all(s.endswith(".webp") for s in sources), sources
    assert viewer_source(driver).endswith(".webp")


def test_every_tile_paints_its_placeholder_until_its_image_arrives(driver, avif_server):
    # No image arrives: every tile shows its placeholder (a picture drawn from the inlined hash).
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*.avif", "*.webp"]})
    driver.get(avif_server + "/albums/trip/index.html")
    painted = wait(driver, "var imgs = Array.from(document.querySelectorAll('.photo-grid img'));"
                           "return imgs.length && imgs.every(i => /^url\\(\"data:image\\/png/.test(i.style.backgroundImage)) && imgs.length")
    assert painted == 6
    # The sketch has the photo's colours: not grey, not blank.
    colour = driver.execute_script("""
        var img = document.querySelector('.photo-grid img');
        var probe = new Image(); probe.src = img.style.backgroundImage.slice(5, -2);
        return new Promise(function (done) { probe.onload = function () {
          var c = document.createElement('canvas'); c.width = probe.width; c.height = probe.height;
          var x = c.getContext('2d'); x.drawImage(probe, 0, 0);
          var d = x.getImageData(0, 0, c.width, c.height).data, s = [0, 0, 0];
          for (var i = 0; i < d.length; i += 4) { s[0] += d[i]; s[1] += d[i + 1]; s[2] += d[i + 2]; }
          done(s.map(function (v) { return v / (d.length / 4); }));
        }; });""")
    assert max(colour) - min(colour) > 20, colour
    # The photo page's picture too, filling its box (not a 32 px tile repeated).
    driver.get(avif_server + "/albums/trip/dsc-0002.html")
    fill = wait(driver, "var i = document.querySelector('.photo img'), s = getComputedStyle(i);"
                        "return /^url\\(\"data:image\\/png/.test(i.style.backgroundImage) && [s.backgroundSize, s.backgroundRepeat]")
    assert fill == ["cover", "no-repeat"], fill
    # Throttled instead of blocked: the placeholders are there before the images, and gone once they have come.
    driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})
    driver.execute_cdp_cmd("Network.emulateNetworkConditions",
                           {"offline": False, "latency": 400, "downloadThroughput": 60_000, "uploadThroughput": 60_000})
    driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": True})
    driver.get(avif_server + "/albums/trip/index.html")
    loaded_sources(driver)
    assert driver.execute_script("return Array.from(document.querySelectorAll('.photo-grid img')).map(i => i.style.backgroundImage)") == [""] * 6


def test_the_album_page_does_not_shift(driver, avif_server, avif_site):
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.emulateNetworkConditions",
                           {"offline": False, "latency": 150, "downloadThroughput": 200_000, "uploadThroughput": 90_000})
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": """
        window.__cls = 0;
        new PerformanceObserver(function (list) { list.getEntries().forEach(function (e) { if (!e.hadRecentInput) window.__cls += e.value; }); })
          .observe({type: 'layout-shift', buffered: true});"""})
    driver.get(avif_server + "/albums/trip/index.html")
    loaded_sources(driver)
    assert driver.execute_script("return window.__cls") == 0
    # Every tile has its size and its placeholder in the page itself (no request of its own).
    with open(os.path.join(avif_site, "albums", "trip", "index.html")) as f:
        html = f.read()
    tiles = re.findall(r'<img [^>]*>', html[html.index('<ul class="photo-grid"'):])
    assert len(tiles) == 6
    assert all(re.search(r' width="\d+" height="\d+"', t) and re.search(r' data-ph="[A-Za-z0-9+/=]{20,}"', t) for t in tiles), tiles


def test_the_neighbours_are_preloaded_once_the_photo_has_arrived(driver, avif_server):
    # Throttled as a slow phone: the neighbours must not share the photo's bandwidth.
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": True})
    driver.execute_cdp_cmd("Network.emulateNetworkConditions",
                           {"offline": False, "latency": 150, "downloadThroughput": 200_000, "uploadThroughput": 90_000})
    driver.get(avif_server + "/albums/trip/dsc-0002.html")
    # In the page they wait in a <template>: nothing is preloaded before the script says so.
    assert driver.execute_script("return document.querySelectorAll('template#neighbour-preloads').length") == 1
    links = wait(driver, "var l = document.querySelectorAll('head > link[rel=preload][as=image]'); return l.length == 3 && l.length")
    assert links == 3
    timing = wait(driver, """
        var photo = document.querySelector('.photo img').currentSrc;
        var entries = performance.getEntriesByType('resource');
        var own = entries.filter(e => e.name === photo)[0];
        var neighbours = entries.filter(e => e.initiatorType === 'link' && /\\.(avif|webp)$/.test(e.name));
        return own && neighbours.length == 3 && {photoEnd: own.responseEnd, starts: neighbours.map(e => e.startTime)};""")
    assert all(start >= timing["photoEnd"] for start in timing["starts"]), timing
