"""Sharing in a real browser: a French site (language: fr) reads French in
the pages and in the scripts' words, album downloads are real ZIPs of the
size the button says, and feed.xml is a feed as feed readers parse it."""
import io
import os
import shutil
import subprocess
import tempfile
import zipfile

import feedparser
import pytest
from selenium.webdriver.common.by import By

from conftest import gallerygen, make_driver, serve, wait
from test_search import photo

BASE = "https://example.org/nos%20photos/"


@pytest.fixture(scope="module")
def french_site():
    work = tempfile.mkdtemp(prefix="gallerygen-sharing-")
    library = os.path.join(work, "library")
    photo(os.path.join(library, "Bretagne", "port.jpg"), "navy", **{
        "XMP-dc:Title": "Au port", "DateTimeOriginal": "2019:05:03 07:00:00"})
    photo(os.path.join(library, "Bretagne", "creperie.jpg"), "orange", **{"DateTimeOriginal": "2019:05:04 20:00:00"})
    photo(os.path.join(library, "Alpes", "sommet.jpg"), "white", **{"DateTimeOriginal": "2021:08:01 12:00:00"})
    with open(os.path.join(work, "gallery.yml"), "w") as f:
        f.write("title: Nos photos\nlanguage: fr\nalbum_downloads: true\nbase_url: " + BASE + "\n"
                "thumbnail_sizes: [280x210]\npreview_sizes: [640x480]\n")
    out = os.path.join(work, "site")
    subprocess.run([gallerygen(), "build", library, "--output", out, "--config", os.path.join(work, "gallery.yml"), "--quiet"],
                   check=True)
    yield out
    shutil.rmtree(work, ignore_errors=True)


@pytest.fixture(scope="module")
def french_server(french_site):
    yield from serve(french_site)


@pytest.mark.parametrize("width,height", [(390, 844), (1280, 800)])
def test_album_download_button_fetches_the_zip_it_describes(french_site, french_server, width, height):
    driver = make_driver(width, height)
    try:
        driver.get(french_server + "/albums/bretagne/index.html")
        assert driver.execute_script("return document.documentElement.lang") == "fr"
        link = driver.find_element(By.CSS_SELECTOR, ".album-download a")
        text = " ".join(link.get_attribute("textContent").split())
        assert text.startswith("Télécharger l’album (ZIP, ") and text.endswith(" Ko)"), text
        assert link.get_attribute("download") == "Bretagne.zip"
        box = driver.execute_script("var r = arguments[0].getBoundingClientRect(); return [r.left, r.right, r.top, innerWidth];", link)
        assert box[0] >= 0 and box[1] <= box[3] and box[2] > 0, "the button is on screen"
        assert driver.execute_script("return document.documentElement.scrollWidth <= innerWidth"), "no sideways scroll"
        # The bytes the button names: a ZIP with both photos, stored, of that size.
        body = driver.execute_async_script("""
            var done = arguments[arguments.length - 1];
            fetch(arguments[0]).then(r => r.arrayBuffer()).then(b => done(Array.from(new Uint8Array(b))));
        """, link.get_attribute("href"))
        data = bytes(body)
        archive = zipfile.ZipFile(io.BytesIO(data))
        assert archive.testzip() is None
        assert sorted(archive.namelist()) == ["creperie.webp", "port.webp"]
        assert all(i.compress_type == zipfile.ZIP_STORED for i in archive.infolist())
        kilobytes = round(len(data) / 1000)
        assert text == f"Télécharger l’album (ZIP, {kilobytes} Ko)", (text, len(data))
    finally:
        driver.quit()


def test_the_viewer_and_search_speak_french(french_server):
    driver = make_driver(1280, 800)
    try:
        driver.get(french_server + "/albums/bretagne/index.html")
        driver.find_elements(By.CSS_SELECTOR, ".photo-grid a")[0].click()
        wait(driver, "return !document.querySelector('.viewer').hidden")
        labels = driver.execute_script("""
            return [document.querySelector('.viewer').getAttribute('aria-label'),
                    document.querySelector('.viewer-close').getAttribute('aria-label'),
                    document.querySelector('.viewer-next').getAttribute('aria-label')];""")
        assert labels == ["Visionneuse de photos", "Fermer la visionneuse", "Photo suivante"]
        driver.find_element(By.CSS_SELECTOR, ".viewer-info").click()
        facts = wait(driver, "var d = document.querySelector('.viewer dt'); return d && d.textContent")
        assert facts == "Prise le"
        driver.get(french_server + "/search/index.html")
        box = driver.find_element(By.CSS_SELECTOR, ".search-input")
        assert box.get_attribute("placeholder").startswith("Titres, légendes")
        box.send_keys("zzzz")
        wait(driver, "return document.querySelector('.search-status').textContent === 'Aucun résultat.'")
        box.clear()
        box.send_keys("mai 2019")
        wait(driver, "return document.querySelector('.search-status').textContent === '2 photos'")
        box.clear()
        box.send_keys("sommet")
        wait(driver, "return document.querySelector('.search-status').textContent === '1 photo'")
    finally:
        driver.quit()


def test_the_feed_reads_as_a_feed(french_site, french_server):
    parsed = feedparser.parse(os.path.join(french_site, "feed.xml"))
    assert not parsed.bozo, parsed.get("bozo_exception")
    assert parsed.version == "atom10"
    assert parsed.feed.title == "Nos photos"
    assert parsed.feed.id.startswith("urn:uuid:")
    assert parsed.feed.get("language") == "fr"
    assert [e.title for e in parsed.entries] == ["Alpes", "Bretagne"], "newest first"
    for entry in parsed.entries:
        assert entry.link.startswith(BASE), entry.link
        path = entry.link[len(BASE):].replace("%20", " ")
        assert os.path.exists(os.path.join(french_site, path)), path
        assert entry.updated_parsed and entry.published_parsed
        thumbnail = entry.media_thumbnail[0]
        assert thumbnail["url"].startswith(BASE + "media/") and int(thumbnail["width"]) > 0
        assert "<img" in entry.content[0].value and BASE in entry.content[0].value
    assert parsed.entries[1].summary.startswith("2 photos · ")
    # The browser finds it from a page.
    driver = make_driver(1280, 800)
    try:
        driver.get(french_server + "/albums/alpes/index.html")
        href = driver.execute_script("return document.querySelector('link[rel=alternate][type=\"application/atom+xml\"]').href")
        assert href == french_server + "/feed.xml"
        title = driver.execute_script("return document.querySelector('link[rel=alternate][type=\"application/atom+xml\"]').title")
        assert title == "Nos photos (flux Atom)"
    finally:
        driver.quit()
