"""People (publish_people) in headless Chromium, on photos whose faces were
tagged with exiftool (one of them stored turned, Orientation 6): the viewer's
outlines, turned on with the button or F, stand over the faces they name at
390 and 1280 px; the People page's filter box finds a person; no axe
violations on the People page, a person's page and a photo page, in both
themes, light and dark. Screenshots go to $GALLERYGEN_SCREENSHOTS when set."""
import io
import os
import shutil
import subprocess
import tempfile

import pytest
from PIL import Image, ImageDraw
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import gallerygen, make_driver, serve_each, wait
from test_accessibility import violations
from test_places import shoot

# Two faces per photo: name, box in the stored picture (left, top, right, bottom), colour.
FACES = [("Marie Curie", (120, 100, 260, 280), (220, 40, 40)), ("Pierre Curie", (380, 80, 520, 260), (40, 70, 220))]


def tagged_photo(path, orientation, day, names_suffix=""):
    # Each picture its own (a mark by its day): the timeline shows one photo once, whatever its name.
    """A 640 × 480 picture with two coloured faces, tagged in MWG regions, stored under `orientation`."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    image = Image.new("RGB", (640, 480), (190, 190, 180))
    draw = ImageDraw.Draw(image)
    draw.rectangle((600, 440, 639, 479), fill=(day * 10 % 256, 120, 60))
    regions = []
    for name, (left, top, right, bottom), colour in FACES:
        draw.rectangle((left, top, right - 1, bottom - 1), fill=colour)
        x, y = (left + right) / 2 / 640, (top + bottom) / 2 / 480
        w, h = (right - left) / 640, (bottom - top) / 480
        regions.append(f"{{Area={{X={x},Y={y},W={w},H={h},Unit=normalized}},Name={name}{names_suffix},Type=Face}}")
    image.save(path, quality=92)
    subprocess.run(["exiftool", "-q", "-overwrite_original", f"-Orientation#={orientation}", f"-DateTimeOriginal=2024:05:{day:02d} 12:00:00",
                    f"-XMP-mwg-rs:RegionInfo={{RegionList=[{','.join(regions)}]}}", path], check=True)


@pytest.fixture(scope="module")
def people_sites():
    work = tempfile.mkdtemp(prefix="gallerygen-people-")
    library = os.path.join(work, "library")
    tagged_photo(os.path.join(library, "Lab", "upright.jpg"), 1, 3)
    tagged_photo(os.path.join(library, "Lab", "turned.jpg"), 6, 4)
    for i, name in enumerate(["Irène Joliot-Curie", "Ève Curie", "Paul Langevin"]):
        path = os.path.join(library, "Friends", f"f{i}.jpg")
        tagged_photo(path, 1, 10 + i)
        subprocess.run(["exiftool", "-q", "-overwrite_original",
                        f"-XMP-mwg-rs:RegionInfo={{RegionList=[{{Area={{X=0.3,Y=0.4,W=0.2,H=0.3,Unit=normalized}},Name={name},Type=Face}}]}}",
                        path], check=True)
    sites = {}
    for theme in ["default", "slate"]:
        with open(os.path.join(work, f"{theme}.yml"), "w") as f:
            f.write(f"title: People\npublish_people: true\ntheme: {theme}\nbase_url: https://photos.example.org/\n"
                    "thumbnail_sizes: [280x210]\npreview_sizes: [640x480, 1280x960]\n")
        out = os.path.join(work, "site-" + theme)
        subprocess.run([gallerygen(), "build", library, "--output", out, "--config", os.path.join(work, f"{theme}.yml"), "--quiet"],
                       check=True)
        sites[theme] = out
    yield sites
    shutil.rmtree(work, ignore_errors=True)


@pytest.fixture(scope="module")
def people_servers(people_sites):
    yield from serve_each(people_sites)


def outlines(driver):
    return driver.execute_script(
        "return Array.from(document.querySelectorAll('.viewer-face')).map(function (o) {"
        "  var r = o.getBoundingClientRect(); return [o.textContent, r.left, r.top, r.width, r.height]; });")


@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("photo", ["upright", "turned"])
def test_the_viewers_outlines_stand_over_the_faces(people_servers, width, photo):
    driver = make_driver(width, 844 if width < 600 else 800)
    try:
        driver.get(people_servers["default"] + "/albums/lab/index.html")
        link = driver.find_element(By.CSS_SELECTOR, f'.photo-grid a[href$="{photo}.html"]')
        link.click()
        wait(driver, "return !document.querySelector('.viewer').hidden")
        wait(driver, "var i = document.querySelector('.viewer-slide:not([hidden]) img, .viewer img'); return i && i.complete")
        button = driver.find_element(By.CSS_SELECTOR, ".viewer-faces")
        assert button.get_attribute("aria-pressed") == "false" and not outlines(driver), "off until asked for"
        # Reached by keyboard: F toggles it, and the button says so.
        driver.find_element(By.TAG_NAME, "body").send_keys("f")
        wait(driver, "return document.querySelectorAll('.viewer-face').length === 2")
        assert button.get_attribute("aria-pressed") == "true"
        wait(driver, "return Array.from(document.querySelectorAll('.viewer-track img')).every(function (i) { return i.complete; })")
        found = outlines(driver)
        shoot(driver, f"people-viewer-{photo}-{width}")
        screen = Image.open(io.BytesIO(driver.get_screenshot_as_png())).convert("RGB")
        for name, _, colour in FACES:
            label, left, top, w, h = next(o for o in found if o[0] == name)
            assert w > 10 and h > 10, (name, w, h)
            # Inside the outline, a little in from its edge, is the face's colour; well outside it is not.
            for fx, fy in [(0.5, 0.5), (0.25, 0.3), (0.75, 0.7)]:
                pixel = screen.getpixel((int(left + fx * w), int(top + fy * h)))
                assert all(abs(a - b) < 40 for a, b in zip(pixel, colour)), (photo, width, name, fx, fy, pixel)
        button.click()
        wait(driver, "return document.querySelectorAll('.viewer-face').length === 0")
    finally:
        driver.quit()


def test_the_people_page_lists_and_filters(people_servers, browser):
    browser.get(people_servers["default"] + "/people/index.html")
    names = [e.text for e in browser.find_elements(By.CSS_SELECTOR, ".people-list .person-name")]
    assert names[:2] == ["Marie Curie", "Pierre Curie"], names     # most photos first
    assert set(names) == {"Marie Curie", "Pierre Curie", "Irène Joliot-Curie", "Ève Curie", "Paul Langevin"}
    faces = browser.find_elements(By.CSS_SELECTOR, ".people-list img.person-face")
    assert len(faces) == 5 and all(f.get_attribute("width") == "112" for f in faces)
    assert all(browser.execute_script("return arguments[0].complete && arguments[0].naturalWidth > 0", f) for f in faces)
    shoot(browser, "people-index-1280")
    box = browser.find_element(By.ID, "people-filter")
    box.send_keys("eve")
    shown = [e.text for e in browser.find_elements(By.CSS_SELECTOR, ".people-list li:not([hidden]) .person-name")]
    assert shown == ["Ève Curie"], shown                            # accents folded
    box.send_keys(Keys.BACKSPACE * 3 + "nobody")
    assert browser.find_element(By.CSS_SELECTOR, ".people-none").is_displayed()
    browser.get(people_servers["default"] + "/people/marie-curie/index.html")
    assert browser.find_element(By.CSS_SELECTOR, "h1").text == "Marie Curie"
    assert len(browser.find_elements(By.CSS_SELECTOR, ".photo-grid li")) == 2
    shoot(browser, "people-person-1280")
    # Search offers her page.
    browser.get(people_servers["default"] + "/search/index.html?q=marie")
    wait(browser, "return document.querySelector('.search-places a')")
    assert any(a.text == "Marie Curie" for a in browser.find_elements(By.CSS_SELECTOR, ".search-places a"))


@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("theme", ["default", "slate"])
def test_no_axe_violations_on_people_pages(people_servers, theme, width):
    found = []
    for scheme in ["light", "dark"]:
        driver = make_driver(width, 844 if width < 600 else 800)
        try:
            driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
            for path in ["people/index.html", "people/marie-curie/index.html", "albums/lab/turned.html"]:
                driver.get(people_servers[theme] + "/" + path)
                wait(driver, "return document.readyState === 'complete'")
                found += [f"{theme} {scheme} {width}px {path}: {v}" for v in violations(driver)]
                if width == 390 and scheme == "light":
                    shoot(driver, f"people-{theme}-{path.replace('/', '-')}-390")
        finally:
            driver.quit()
    assert not found, "\n".join(found)
