"""Search in a real browser: the index made at build time finds photos by
title, caption, keyword, album and date, accent- and case-insensitively,
over HTTP and from file://; results open in the viewer; words stay text."""
import os
import shutil
import subprocess
import tempfile
import time

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import gallerygen, serve, wait

XSS = 'Hut <img src=x onerror="window.pwned=1">'


def photo(path, colour, **tags):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", f"color=c={colour}:s=320x240", "-frames:v", "1", path],
                   check=True)
    arguments = [f"-{key}={value}" for key, value in tags.items()]
    subprocess.run(["exiftool", "-q", "-overwrite_original", *arguments, path], check=True)


@pytest.fixture(scope="module")
def search_site():
    work = tempfile.mkdtemp(prefix="gallerygen-search-")
    library = os.path.join(work, "library")
    photo(os.path.join(library, "Brittany", "harbour.jpg"), "navy", **{
        "XMP-dc:Title": "At the harbour", "XMP-dc:Description": "Boats at dawn", "XMP-dc:Subject": "boats",
        "DateTimeOriginal": "2019:05:03 07:00:00"})
    photo(os.path.join(library, "Brittany", "creperie.jpg"), "orange", **{
        "XMP-dc:Title": "Crème brûlée", "XMP-dc:Subject": "food", "DateTimeOriginal": "2019:05:04 20:00:00"})
    photo(os.path.join(library, "Alps", "summit.jpg"), "white", **{
        "XMP-dc:Title": "Summit", "XMP-dc:Subject": "mountains", "DateTimeOriginal": "2021:08:01 12:00:00"})
    photo(os.path.join(library, "Alps", "hut.jpg"), "brown", **{"DateTimeOriginal": "2021:08:02 12:00:00"})
    with open(os.path.join(library, "Alps", "hut.md"), "w") as f:
        f.write("Title: " + XSS + "\n\nThe hut where we slept.\n")
    out = os.path.join(work, "site")
    subprocess.run([gallerygen(), "build", library, "--output", out, "--quiet", "--thumbnail-size", "280x210",
                    "--preview-size", "640x480"], check=True)
    yield out
    shutil.rmtree(work, ignore_errors=True)


@pytest.fixture(scope="module")
def search_server(search_site):
    yield from serve(search_site)


def results(driver, query):
    box = driver.find_element(By.CSS_SELECTOR, ".search-input")
    box.clear()
    box.send_keys(query)
    wait(driver, "return document.querySelector('.search-status').textContent !== ''")
    wait(driver, "return document.querySelector('.search-input').value === %r" % query)
    time.sleep(0.5)
    return [img.get_attribute("alt") for img in driver.find_elements(By.CSS_SELECTOR, ".search-results img")]


def check_queries(driver):
    assert results(driver, "harbour") == ["At the harbour"]
    assert results(driver, "BOATS") == ["At the harbour"], "keywords, any case"
    assert results(driver, "dawn") == ["At the harbour"], "captions"
    assert results(driver, "creme brulee") == ["Crème brûlée"], "accents ignored"
    assert sorted(results(driver, "brittany")) == ["At the harbour", "Crème brûlée"], "album names"
    assert sorted(results(driver, "may 2019")) == ["At the harbour", "Crème brûlée"], "month and year"
    assert sorted(results(driver, "2021")) == [XSS, "Summit"]
    assert results(driver, "mount") == ["Summit"], "prefixes match as you type"
    assert results(driver, "zebra") == []
    assert "Nothing found" in driver.find_element(By.CSS_SELECTOR, ".search-status").text
    assert results(driver, "slept") == [XSS], "a Markdown sidecar's caption"
    assert not driver.execute_script("return window.pwned"), "words are text, never markup"


def test_search_over_http_opens_results_in_the_viewer(browser, search_server):
    browser.get(search_server + "/index.html")
    header_box = browser.find_element(By.CSS_SELECTOR, ".site-search input")
    header_box.send_keys("harbour", Keys.ENTER)
    wait(browser, "return location.pathname.endsWith('/search/index.html')")
    wait(browser, "return document.querySelectorAll('.search-results img').length === 1")
    check_queries(browser)
    # What the first keystrokes loaded: the manifest, one token file, one item file.
    loaded = browser.execute_script(
        "return performance.getEntriesByType('resource').filter(function (e) { return e.name.indexOf('/search/') > 0 && /\\.js$/.test(e.name); })"
        ".map(function (e) { return [e.name.split('/search/')[1], e.transferSize || e.encodedBodySize]; })")
    assert any(name == "index.js" for name, _ in loaded)
    assert sum(size for _, size in loaded) < 100_000, loaded
    results(browser, "summit")
    browser.find_element(By.CSS_SELECTOR, ".search-results a").click()
    wait(browser, "return !document.querySelector('.viewer').hidden")
    wait(browser, "return document.querySelector('.viewer-caption').textContent === 'Summit'")


def test_search_from_file_urls(browser, search_site):
    browser.get("file://" + os.path.join(search_site, "search", "index.html") + "?q=harbour")
    wait(browser, "return document.querySelectorAll('.search-results img').length === 1")
    check_queries(browser)
