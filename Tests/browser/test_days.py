""""On this day" on the home page, in headless Chromium: photos taken on
today's month and day in earlier years appear under their year ("3 years
ago · Kyoto"), chosen in the browser from this month's moments/days-MM.js, over HTTP and
from file://; this year's photo, another day's and a photo dated only by
its file are not; a site with none shows nothing."""
import datetime
import os
import shutil
import subprocess
import tempfile

import pytest
from selenium.webdriver.common.by import By

from conftest import gallerygen, make_driver, serve, wait
from test_accessibility import violations


def photo(path, colour, when, gps=None):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", f"color=c={colour}:s=320x240", "-frames:v", "1", path], check=True)
    tags = [] if when is None else [f"-DateTimeOriginal={when:%Y:%m:%d} 12:00:00"]
    if gps:
        tags += [f"-GPSLatitude={gps[0]}", "-GPSLatitudeRef=N", f"-GPSLongitude={gps[1]}", "-GPSLongitudeRef=E"]
    if tags:
        subprocess.run(["exiftool", "-q", "-overwrite_original", *tags, path], check=True)


def years_back(today, n):
    try:
        return today.replace(year=today.year - n)
    except ValueError:   # 29 February
        return today.replace(year=today.year - n, day=28)


@pytest.fixture(scope="module")
def days_site():
    work = tempfile.mkdtemp(prefix="gallerygen-days-")
    library = os.path.join(work, "library")
    today = datetime.date.today()
    photo(os.path.join(library, "Trips", "kyoto.jpg"), "red", years_back(today, 3), gps=(35.0116, 135.7681))
    photo(os.path.join(library, "Trips", "kyoto2.jpg"), "orange", years_back(today, 3), gps=(35.0116, 135.7681))
    photo(os.path.join(library, "Home", "old.jpg"), "blue", years_back(today, 10))
    photo(os.path.join(library, "Home", "now.jpg"), "green", today)
    photo(os.path.join(library, "Home", "other-day.jpg"), "gray", years_back(today, 2) + datetime.timedelta(days=3))
    photo(os.path.join(library, "Home", "undated.jpg"), "white", None)
    with open(os.path.join(library, "gallery.yml"), "w") as f:
        f.write("title: Days\nmoment_places: true\nthumbnail_sizes: [280x210]\npreview_sizes: [640x480]\n")
    out = os.path.join(work, "site")
    subprocess.run([gallerygen(), "build", library, "--output", out, "--quiet"], check=True)
    yield out
    shutil.rmtree(work, ignore_errors=True)


def days_file(site):
    """This month's file: the one the home page loads today."""
    return os.path.join(site, "moments", "days-%02d.js" % datetime.date.today().month)


def groups(driver):
    wait(driver, "return !document.querySelector('.on-this-day').hidden", timeout=10)
    return [(g.find_element(By.TAG_NAME, "h3").text, len(g.find_elements(By.CSS_SELECTOR, "img")))
            for g in driver.find_elements(By.CSS_SELECTOR, ".on-this-day-years > li")]


def test_on_this_day_shows_earlier_years_of_today(browser, days_site):
    for base in ["file://" + days_site]:
        browser.get(base + "/index.html")
        assert groups(browser) == [("3 years ago · Kyoto", 2), ("10 years ago", 1)]
        wait(browser, "return Array.from(document.querySelectorAll('.on-this-day img')).every(i => i.complete && i.naturalWidth > 0)")
        link = browser.find_element(By.CSS_SELECTOR, ".on-this-day a").get_attribute("href")
        assert "kyoto" in link
    with open(days_file(days_site), encoding="utf-8") as f:
        days = f.read()
    # Every month has its file (none is missing for the script to ask for), each only its own days.
    assert all(os.path.exists(os.path.join(days_site, "moments", "days-%02d.js" % m)) for m in range(1, 13))
    assert '"%02d-' % datetime.date.today().month in days
    # No photo's coordinates are published, only the place's name.
    assert "35.01" not in days and "135.7" not in days and "Kyoto" in days
    assert "undated" not in days
    # With the section shown, the home page still has no axe violation.
    browser.get("file://" + days_site + "/index.html")
    groups(browser)
    assert violations(browser) == []


@pytest.fixture(scope="module")
def days_server(days_site):
    yield from serve(days_site)


def test_on_this_day_over_http_and_nothing_when_there_is_none(browser, days_server, days_site):
    browser.get(days_server + "/index.html")
    assert groups(browser)[0] == ("3 years ago · Kyoto", 2)
    # A library with nothing of today's date: the section stays hidden.
    with open(days_file(days_site), encoding="utf-8") as f:
        original = f.read()
    try:
        with open(days_file(days_site), "w", encoding="utf-8") as f:
            f.write("gallerygenDays({});\n")
        # The first visit's copy must not come from the cache, and the
        # check waits for the script to have run (its onload removes it),
        # not only for its fetch to end.
        browser.execute_cdp_cmd("Network.clearBrowserCache", {})
        browser.get(days_server + "/index.html")
        wait(browser, "return performance.getEntriesByType('resource').some(e => /days-\\d\\d\\.js$/.test(e.name))"
                      " && !document.querySelector('script[src*=\"days-\"]')")
        assert browser.execute_script("return document.querySelector('.on-this-day').hidden")
    finally:
        with open(days_file(days_site), "w", encoding="utf-8") as f:
            f.write(original)
