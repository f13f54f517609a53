"""Stacks in headless Chromium: a burst and an edit are one tile each with a
count badge, two different scenes a second apart stay two tiles; the viewer
opens a stack on its cover and steps through it with its strip, the Up and
Down keys (Escape goes back to the cover, then closes); each item's page has
the stack's strip, reached by keyboard; axe finds nothing on any of these."""
import os
import shutil
import subprocess
import tempfile

import pytest
from PIL import Image
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import gallerygen, make_driver, serve, wait
from test_accessibility import violations

BURST = ["IMG_20240501_100000_BURST001.jpg", "IMG_20240501_100000_BURST002_COVER.jpg",
         "IMG_20240501_100000_BURST003.jpg", "IMG_20240501_100000_BURST004.jpg"]


def photo(path, colour, when, number=None):
    Image.new("RGB", (480, 360), colour).save(path, quality=90)
    subprocess.run(["exiftool", "-q", "-overwrite_original", f"-DateTimeOriginal={when}", "-Make=SONY", "-Model=ILCE-7", path], check=True)


@pytest.fixture(scope="module")
def stacked_site():
    work = tempfile.mkdtemp(prefix="gallerygen-stacks-")
    trip = os.path.join(work, "library", "Trip")
    os.makedirs(trip)
    for n, name in enumerate(BURST):
        photo(os.path.join(trip, name), (200, 40 + 40 * n, 40), "2024:05:01 10:00:00")
    photo(os.path.join(trip, "IMG_1234.jpg"), (40, 40, 200), "2024:05:01 11:00:00")
    photo(os.path.join(trip, "IMG_E1234.jpg"), (20, 20, 120), "2024:05:01 11:00:00")
    # Two different scenes a second apart, numbered in sequence: two tiles.
    photo(os.path.join(trip, "DSC01010.jpg"), (40, 160, 40), "2024:05:01 12:00:00")
    photo(os.path.join(trip, "DSC01011.jpg"), (240, 240, 240), "2024:05:01 12:00:01")
    out = os.path.join(work, "site")
    subprocess.run([gallerygen(), "build", os.path.join(work, "library"), "--output", out, "--quiet",
                    "--thumbnail-size", "280x210", "--preview-size", "640x480"], check=True)
    yield out
    shutil.rmtree(work, ignore_errors=True)


@pytest.fixture(scope="module")
def stacks_server(stacked_site):
    yield from serve(stacked_site)


@pytest.fixture(params=[390, 1280])
def driver(request):
    d = make_driver(request.param, 844 if request.param < 600 else 800)
    yield d
    d.quit()


def tiles(driver):
    return driver.execute_script(
        "return Array.from(document.querySelectorAll('.photo-grid > li > a')).map(a => "
        "[a.getAttribute('href'), (a.querySelector('.badge-stack') || {}).textContent || null])")


def test_each_stack_is_one_tile_with_its_count(driver, stacks_server):
    driver.get(stacks_server + "/albums/trip/index.html")
    assert tiles(driver) == [["img-20240501-100000-burst002-cover.html", "4"], ["img-e1234.html", "2"],
                             ["dsc01010.html", None], ["dsc01011.html", None]]
    # A screen reader hears the count with the photo.
    label = driver.execute_script("return document.querySelector('.photo-grid a .visually-hidden').textContent")
    assert label == ", stack of 4 photos"
    assert "8 photos, 4 shown" in driver.find_element(By.CSS_SELECTOR, "main, body").text
    # Moments: fewer tiles than photos by exactly the stacked count (8 photos, 4 of them behind covers).
    driver.get(stacks_server + "/moments/index.html")
    assert len(tiles(driver)) == 4
    assert not violations(driver)


def test_the_viewer_steps_into_a_stack_and_back(driver, stacks_server):
    driver.get(stacks_server + "/albums/trip/index.html")
    driver.find_element(By.CSS_SELECTOR, ".photo-grid > li > a").click()
    wait(driver, "return !document.querySelector('.viewer').hidden")
    strip = driver.find_element(By.CSS_SELECTOR, ".viewer-strip")
    assert strip.is_displayed()
    buttons = strip.find_elements(By.CSS_SELECTOR, "button")
    assert len(buttons) == 4
    assert buttons[0].get_attribute("aria-current") == "true"
    assert buttons[1].get_attribute("aria-label").startswith("2 of 4 in this stack")

    def shown():
        return driver.execute_script("return document.querySelectorAll('.viewer-slide')[1].querySelector('img').getAttribute('srcset')")

    cover = shown()
    body = driver.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.ARROW_DOWN)
    wait(driver, "return document.querySelector('.viewer-strip [aria-current]') === document.querySelectorAll('.viewer-strip button')[1]")
    second = shown()
    assert second != cover
    assert "2/4" in driver.find_element(By.CSS_SELECTOR, ".viewer-count").text
    assert "2 of 4 in this stack" in driver.execute_script("return document.querySelector('.viewer-status').textContent")
    # The strip by keyboard: focus a frame and press it.
    third = driver.find_elements(By.CSS_SELECTOR, ".viewer-strip button")[3]
    driver.execute_script("arguments[0].focus()", third)
    third.send_keys(Keys.ENTER)
    wait(driver, "return document.querySelectorAll('.viewer-strip button')[3].getAttribute('aria-current') === 'true'")
    assert driver.execute_script("return document.activeElement === document.querySelectorAll('.viewer-strip button')[3]")
    assert not violations(driver)
    # Escape goes back to the cover, then closes.
    body.send_keys(Keys.ESCAPE)
    wait(driver, "return document.querySelectorAll('.viewer-strip button')[0].getAttribute('aria-current') === 'true'")
    assert shown() == cover
    assert driver.execute_script("return !document.querySelector('.viewer').hidden")
    # Right goes on to the next tile (the edit's stack, on its cover), never into this stack's items.
    body.send_keys(Keys.ARROW_DOWN)
    body.send_keys(Keys.ARROW_RIGHT)
    wait(driver, "return document.querySelectorAll('.viewer-strip button').length === 2")
    assert driver.find_elements(By.CSS_SELECTOR, ".viewer-strip button")[0].get_attribute("aria-current") == "true"
    body.send_keys(Keys.ARROW_RIGHT)
    wait(driver, "return document.querySelector('.viewer-strip').hidden")
    body.send_keys(Keys.ESCAPE)
    wait(driver, "return document.querySelector('.viewer').hidden")


def test_each_item_page_has_the_stacks_strip(driver, stacks_server):
    driver.get(stacks_server + "/albums/trip/img-20240501-100000-burst003.html")
    links = driver.find_elements(By.CSS_SELECTOR, ".stack-strip a")
    assert [a.get_attribute("href").rsplit("/", 1)[1] for a in links] == [
        "img-20240501-100000-burst002-cover.html", "img-20240501-100000-burst001.html",
        "img-20240501-100000-burst003.html", "img-20240501-100000-burst004.html"]
    assert links[2].get_attribute("aria-current") == "page"
    assert driver.find_element(By.CSS_SELECTOR, ".stack-position").text == "3 of 4"
    # Reached by Tab; each frame says where it is in the stack.
    driver.find_element(By.TAG_NAME, "body").send_keys(Keys.TAB)
    for _ in range(30):
        if driver.execute_script("return !!document.activeElement.closest('.stack-strip')"):
            break
        driver.switch_to.active_element.send_keys(Keys.TAB)
    assert driver.execute_script("return !!document.activeElement.closest('.stack-strip')")
    assert links[0].find_element(By.TAG_NAME, "img").get_attribute("alt").startswith("1 of 4")
    # Previous and next step over the stack: on to the edit's cover.
    assert driver.find_element(By.CSS_SELECTOR, "a[rel=next]").get_attribute("href").endswith("/img-e1234.html")
    assert not violations(driver)
