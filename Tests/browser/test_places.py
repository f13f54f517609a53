"""Places and the map (moment_places, map) in headless Chromium, on a library
with GPS photos in several countries: the places page lists them by country
with their regions, the map draws markers on the bundled world, zooms (the
buttons, the keyboard, the wheel) until clusters part, opens a place's page
when a marker is clicked, asks nothing of any other host, and works from
file://; no photo coordinate is anywhere in OUT; every new page has its
sharing tags; no axe violations on the places and map pages, light and dark,
at 390 and 1280 px. Screenshots go to $GALLERYGEN_SCREENSHOTS when set."""
import os
import re
import shutil
import subprocess
import tempfile

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import gallerygen, make_driver, serve, wait
from test_accessibility import violations
from test_days import photo

# name: (album, colour, latitude, longitude); west and south as negative numbers.
PHOTOS = {
    "springfield-il": ("USA", "red", 39.8017, -89.6437),
    "springfield-ma": ("USA", "orange", 42.1015, -72.5898),
    "kyoto-1": ("Japan", "green", 35.0394, 135.7292),
    "kyoto-2": ("Japan", "teal", 35.0260, 135.7806),
    "osaka": ("Japan", "blue", 34.6873, 135.5262),
    "nara": ("Japan", "navy", 34.6851, 135.8048),
    "paris": ("France", "purple", 48.8584, 2.2945),
    "sydney": ("Australia", "yellow", -33.8568, 151.2153),
}


def gps_photo(path, colour, latitude, longitude):
    photo(path, colour, None)
    subprocess.run(["exiftool", "-q", "-overwrite_original", "-DateTimeOriginal=2024:05:03 12:00:00",
                    f"-GPSLatitude={abs(latitude)}", f"-GPSLatitudeRef={'N' if latitude >= 0 else 'S'}",
                    f"-GPSLongitude={abs(longitude)}", f"-GPSLongitudeRef={'E' if longitude >= 0 else 'W'}", path], check=True)


@pytest.fixture(scope="module")
def places_site():
    work = tempfile.mkdtemp(prefix="gallerygen-places-")
    library = os.path.join(work, "library")
    for name, (album, colour, latitude, longitude) in PHOTOS.items():
        gps_photo(os.path.join(library, album, name + ".jpg"), colour, latitude, longitude)
    with open(os.path.join(library, "gallery.yml"), "w") as f:
        f.write("title: Places\nmoment_places: true\nmap: true\nbase_url: https://photos.example.org/\n"
                "thumbnail_sizes: [280x210]\npreview_sizes: [640x480]\n")
    out = os.path.join(work, "site")
    subprocess.run([gallerygen(), "build", library, "--output", out, "--quiet"], check=True)
    yield out
    shutil.rmtree(work, ignore_errors=True)


@pytest.fixture(scope="module")
def places_server(places_site):
    yield from serve(places_site)


def shoot(driver, name):
    folder = os.environ.get("GALLERYGEN_SCREENSHOTS")
    if folder:
        os.makedirs(folder, exist_ok=True)
        driver.save_screenshot(os.path.join(folder, name + ".png"))


def markers(driver):
    return driver.execute_script(
        "return Array.from(document.querySelectorAll('.map-marker, .map-cluster')).map(function (m) {"
        "  return [m.getAttribute('class'), m.getAttribute('aria-label'), m.getAttribute('href')]; });")


def test_the_places_page_lists_countries_and_regions(places_server, browser):
    browser.get(places_server + "/places/index.html")
    countries = [h.text for h in browser.find_elements(By.CSS_SELECTOR, ".place-country-name")]
    assert [c.split(" ")[0] for c in countries] == ["Australia", "France", "Japan", "United"], countries
    names = [a.text for a in browser.find_elements(By.CSS_SELECTOR, ".tag-list .tag-name")]
    assert "Springfield, Illinois" in names and "Springfield, Massachusetts" in names, names
    assert "Kyoto" in names and "Sydney, New South Wales" in names, names
    # A place page: its photos, its full name.
    browser.find_element(By.XPATH, "//a[.//span[text()='Kyoto']]").click()
    wait(browser, "return location.pathname.indexOf('/places/kyoto') >= 0")
    assert browser.find_element(By.CSS_SELECTOR, "h1").text == "Kyoto, Japan"
    assert len(browser.find_elements(By.CSS_SELECTOR, ".photo-grid img")) == 2


def test_the_map_draws_zooms_and_opens_a_place(places_server, places_site):
    for width, height in [(1280, 800), (390, 844)]:
        driver = make_driver(width, height)
        try:
            driver.get(places_server + "/places/map.html")
            wait(driver, "return document.querySelectorAll('.map-marker, .map-cluster').length > 0")
            assert driver.execute_script("return document.querySelector('.map-land path').getAttribute('d').length") > 30000
            first = markers(driver)
            shoot(driver, f"map-{width}")
            level = driver.execute_script("return gallerygenMap.view().level")
            # The Japanese cities are one cluster at the world's scale; zooming in parts them.
            clusters = [m for m in first if "map-cluster" in m[0]]
            assert clusters, first
            driver.find_element(By.CSS_SELECTOR, ".map-zoom-in").click()
            assert driver.execute_script("return gallerygenMap.view().level") == min(12, level + 1)
            # A cluster opened from the keyboard lists its places, focus on the
            # first; Escape closes the list; its button zooms until it parts.
            driver.find_element(By.CSS_SELECTOR, ".map-reset").click()
            cluster = driver.find_element(By.CSS_SELECTOR, ".map-cluster")
            label = cluster.get_attribute("aria-label")
            members = len(cluster.get_attribute("data-members").split(","))
            driver.execute_script("arguments[0].focus()", cluster)
            cluster.send_keys(Keys.ENTER)
            wait(driver, "return document.querySelector('.map-popup')")
            listed = [a.text for a in driver.find_elements(By.CSS_SELECTOR, ".map-popup a")]
            assert len(listed) == members and driver.switch_to.active_element.text == listed[0], listed
            shoot(driver, f"map-list-{width}")
            driver.switch_to.active_element.send_keys(Keys.ESCAPE)
            wait(driver, "return !document.querySelector('.map-popup') && document.activeElement.classList.contains('map-canvas')")
            driver.find_element(By.CSS_SELECTOR, ".map-cluster").click()
            driver.find_element(By.CSS_SELECTOR, ".map-popup-zoom").click()
            wait(driver, "return gallerygenMap.view().level > arguments[0]", level)
            after = markers(driver)
            assert len(after) > 0 and label not in [m[1] for m in after], (label, after)
            # A place in a cluster's list opens its page.
            driver.find_element(By.CSS_SELECTOR, ".map-reset").click()
            driver.find_element(By.CSS_SELECTOR, ".map-cluster").click()
            first = driver.find_element(By.CSS_SELECTOR, ".map-popup a")
            name = first.text.split(":")[0]
            first.click()
            wait(driver, "return location.pathname.indexOf('/places/') >= 0 && location.pathname.indexOf('map.html') < 0")
            assert driver.find_element(By.CSS_SELECTOR, "h1").text == name
            driver.back()
            wait(driver, "return window.gallerygenMap && document.querySelectorAll('.map-marker, .map-cluster').length > 0")
            # The keyboard moves and zooms the map itself.
            canvas = driver.find_element(By.CSS_SELECTOR, ".map-canvas")
            before = driver.execute_script("return gallerygenMap.view()")
            canvas.send_keys("+")
            assert driver.execute_script("return gallerygenMap.view().s") > before["s"]
            canvas.send_keys("+")
            canvas.send_keys("-")
            assert before["s"] < driver.execute_script("return gallerygenMap.view().s") < 4 * before["s"]
            before = driver.execute_script("return gallerygenMap.view()")
            canvas.send_keys(Keys.ARROW_RIGHT)
            assert driver.execute_script("return gallerygenMap.view().x") != before["x"]
            shoot(driver, f"map-zoomed-{width}")
            # Every request went to this site: the world is in it.
            hosts = driver.execute_script("return performance.getEntriesByType('resource').map(function (e) { return e.name; })")
            assert hosts and all(h.startswith(places_server) for h in hosts), hosts
            # A marker is a link to its place's page.
            driver.find_element(By.CSS_SELECTOR, ".map-reset").click()
            for _ in range(8):
                if driver.find_elements(By.CSS_SELECTOR, "a.map-marker"):
                    break
                driver.find_element(By.CSS_SELECTOR, ".map-zoom-in").click()
            marker = driver.find_element(By.CSS_SELECTOR, "a.map-marker")
            name = marker.get_attribute("aria-label").split(":")[0]
            driver.execute_script("arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true, cancelable: true}))", marker)
            wait(driver, "return location.pathname.indexOf('/places/') >= 0 && location.pathname.indexOf('map.html') < 0")
            assert driver.find_element(By.CSS_SELECTOR, "h1").text == name
        finally:
            driver.quit()


def test_search_offers_the_places_it_matches(places_server, browser):
    browser.get(places_server + "/search/index.html?q=springfield")
    wait(browser, "return document.querySelectorAll('.search-places a').length > 0")
    links = [a.text for a in browser.find_elements(By.CSS_SELECTOR, ".search-places a")]
    assert sorted(links) == ["Springfield, Illinois, United States", "Springfield, Massachusetts, United States"], links
    wait(browser, "return document.querySelectorAll('.search-results a').length === 2")
    browser.find_element(By.LINK_TEXT, "Springfield, Illinois, United States").click()
    wait(browser, "return location.pathname.indexOf('/places/springfield-illinois') >= 0")
    browser.get(places_server + "/search/index.html?q=japan")
    wait(browser, "return document.querySelectorAll('.search-results a').length === 4")
    assert len(browser.find_elements(By.CSS_SELECTOR, ".search-places a")) == 3


def test_the_map_works_from_file(places_site, phone):
    phone.get("file://" + os.path.join(places_site, "places", "map.html"))
    wait(phone, "return document.querySelectorAll('.map-marker, .map-cluster').length > 0")
    assert all(not h.startswith("http") for h in phone.execute_script(
        "return performance.getEntriesByType('resource').map(function (e) { return e.name; })"))


def test_no_photo_coordinate_is_published(places_site):
    patterns = []
    for _, _, latitude, longitude in PHOTOS.values():
        for value in (latitude, longitude):
            for digits in (2, 3, 4):
                patterns.append(f"{value:.{digits}f}")
                patterns.append(f"{abs(value):.{digits}f}")
    for base, _, names in os.walk(places_site):
        for name in names:
            data = open(os.path.join(base, name), "rb").read()
            for text in patterns:
                assert text.encode() not in data, f"{text} in {os.path.relpath(os.path.join(base, name), places_site)}"
            if name.endswith(".jpg") or name.endswith(".webp"):
                assert b"GPS" not in data


def test_every_new_page_shares(places_site):
    sitemap = open(os.path.join(places_site, "sitemap.xml"), encoding="utf-8").read()
    assert "https://photos.example.org/places/index.html" in sitemap and "https://photos.example.org/places/map.html" in sitemap
    for base, _, names in os.walk(os.path.join(places_site, "places")):
        for name in names:
            if name.endswith(".html"):
                html = open(os.path.join(base, name), encoding="utf-8").read()
                assert 'property="og:title"' in html and 'rel="canonical"' in html, name
                assert re.search(r'<link rel="canonical" href="https://photos\.example\.org/places/', html), name


@pytest.mark.parametrize("width", [390, 1280])
def test_no_axe_violations_on_places_and_the_map(places_server, width):
    found = []
    for scheme in ["light", "dark"]:
        driver = make_driver(width, 844 if width < 600 else 800)
        try:
            driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
            for path in ["places/index.html", "places/map.html"]:
                driver.get(places_server + "/" + path)
                wait(driver, "return document.readyState === 'complete'")
                if "map" in path:
                    wait(driver, "return document.querySelectorAll('.map-marker, .map-cluster').length > 0")
                found += [f"{scheme} {width}px {path}: {v}" for v in violations(driver)]
                if scheme == "light":
                    shoot(driver, path.replace("/", "-").replace(".html", "") + f"-{width}")
        finally:
            driver.quit()
    assert not found, "\n".join(found)
