"""Keyboard, screen reader, motion and the slideshow in headless Chromium:
the skip link, every control reached by Tab with a visible focus indicator
and no trap, the viewer keeping focus inside, announcing "3 of 9: <title>"
and giving focus back on close; animations that can be paused (and start
paused under prefers-reduced-motion); the slideshow's timing, its pauses
(hidden tab, pointer on the controls, but not a focused play button), the
next photo loaded before it is due, videos played to their end, no sliding
under reduced motion, and all of it from file:// too."""
import os
import re
import shutil
import subprocess
import tempfile
import time

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import gallerygen, make_driver, serve, wait
from test_accessibility import make_library


@pytest.fixture(scope="module")
def keyboard_site():
    work = tempfile.mkdtemp(prefix="gallerygen-keys-")
    library = os.path.join(work, "library")
    make_library(library)
    with open(os.path.join(work, "gallery.yml"), "w") as f:
        f.write("title: Keyboard test\nslideshow_interval: 1\nthumbnail_sizes: [280x210]\npreview_sizes: [640x480]\n")
    out = os.path.join(work, "site")
    subprocess.run([gallerygen(), "build", library, "--output", out, "--quiet", "--config", os.path.join(work, "gallery.yml")], check=True)
    yield out
    shutil.rmtree(work, ignore_errors=True)


@pytest.fixture(scope="module")
def keyboard_server(keyboard_site):
    yield from serve(keyboard_site)


def reduced_motion(driver):
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-reduced-motion", "value": "reduce"}]})


def active(driver):
    return driver.execute_script("var a = document.activeElement; return a ? (a.className || a.tagName) + '|' + (a.getAttribute('href') || a.textContent).slice(0, 60) : ''")


def test_the_skip_link_comes_first_and_moves_focus_to_the_content(browser, keyboard_server):
    browser.get(keyboard_server + "/albums/coolpix-walk/index.html")
    body = browser.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.TAB)
    assert browser.execute_script("return document.activeElement.className") == "skip-link"
    assert browser.execute_script("return document.activeElement.getBoundingClientRect().top >= 0"), "the skip link shows when focused"
    browser.switch_to.active_element.send_keys(Keys.ENTER)
    wait(browser, "return document.activeElement.id === 'content'")


@pytest.mark.parametrize("page", ["albums/coolpix-walk/index.html", "albums/coolpix-walk/dscn0010.html", "moments/index.html",
                                  "tags/index.html", "albums/animations/index.html"])
@pytest.mark.parametrize("width", [390, 1280])
def test_every_control_is_reached_with_a_visible_focus_and_no_trap(keyboard_server, page, width):
    browser = make_driver(width, 844 if width < 600 else 800)
    try:
        reach_every_control(browser, keyboard_server + "/" + page)
    finally:
        browser.quit()


def reach_every_control(browser, url):
    browser.get(url)
    wanted = browser.execute_script(
        "return Array.from(document.querySelectorAll('a[href], button, input, video[controls]'))"
        ".filter(e => !e.hidden && e.checkVisibility() && !e.closest('.viewer')).length")
    seen, order = set(), []
    body = browser.find_element(By.TAG_NAME, "body")
    for _ in range(wanted * 2 + 10):
        ActionChains(browser).send_keys(Keys.TAB).perform()
        info = browser.execute_script(
            "var a = document.activeElement; if (!a || a === document.body) return null;"
            "var s = getComputedStyle(a); var r = a.getBoundingClientRect();"
            "var x = Math.min(Math.max(r.left + r.width / 2, 0), innerWidth - 1), y = Math.min(Math.max(r.top + r.height / 2, 0), innerHeight - 1);"
            "var hit = document.elementFromPoint(x, y);"
            "return {key: a.outerHTML.slice(0, 120), outline: s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2,"
            " visible: r.width > 0 && r.height > 0, unobscured: !!hit && (a.contains(hit) || hit.contains(a))}")
        if info is None:
            continue
        if info["key"] in seen and len(seen) >= wanted:
            break
        seen.add(info["key"])
        order.append(info["key"])
        assert info["outline"], f"no visible focus indicator on {info['key']}"
        assert info["visible"], f"focus on something not shown: {info['key']}"
        # WCAG 2.4.11: nothing of the page's own (a sticky bar) lies over what has focus.
        assert info["unobscured"], f"focused control hidden under something: {info['key']}"
    assert len(seen) >= wanted, f"reached {len(seen)} of {wanted} controls: {order}"


def test_the_viewer_keeps_focus_announces_and_gives_it_back(browser, keyboard_server):
    browser.get(keyboard_server + "/albums/coolpix-walk/index.html")
    link = browser.find_elements(By.CSS_SELECTOR, ".photo-grid a")[1]
    browser.execute_script("arguments[0].focus()", link)
    link.send_keys(Keys.ENTER)
    wait(browser, "return !document.querySelector('.viewer').hidden")
    status = browser.find_element(By.CSS_SELECTOR, ".viewer [role=status]")
    wait(browser, "return /^2 of 5: River bank$/.test(document.querySelector('.viewer [role=status]').textContent)")
    assert status.get_attribute("aria-live") == "polite"
    for _ in range(15):
        ActionChains(browser).send_keys(Keys.TAB).perform()
        assert browser.execute_script("return document.querySelector('.viewer').contains(document.activeElement)"), active(browser)
    step_back_and_close(browser, 2, then="/^3 of 5: Photo, /")
    assert browser.execute_script("return document.activeElement === arguments[0]", link), "focus back on the thumbnail"


def step_back_and_close(driver, shown, then=None):
    """In the open viewer on photo `shown` of 5: Right, Left (announced each time), Escape."""
    status = "document.querySelector('.viewer [role=status]').textContent"
    ActionChains(driver).send_keys(Keys.ARROW_RIGHT).perform()
    wait(driver, f"return {then or '/^' + str(shown + 1) + ' of 5/'}.test({status})")
    ActionChains(driver).send_keys(Keys.ARROW_LEFT).perform()
    wait(driver, f"return {status}.startsWith('{shown} of 5')")
    ActionChains(driver).send_keys(Keys.ESCAPE).perform()
    wait(driver, "return document.querySelector('.viewer').hidden")


def counter(driver):
    return driver.execute_script("return document.querySelector('.viewer-count').textContent")


def open_viewer(driver, base, album="coolpix-walk", selector=".photo-grid a"):
    driver.get(base + f"/albums/{album}/index.html")
    driver.find_element(By.CSS_SELECTOR, selector).click()
    wait(driver, "return !document.querySelector('.viewer').hidden")


def test_the_slideshow_plays_pauses_and_loads_ahead(browser, keyboard_server):
    open_viewer(browser, keyboard_server)
    assert counter(browser) == "1 / 5"
    # Started from the keyboard: focus stays on the play button, and that does not pause it.
    play = browser.find_element(By.CSS_SELECTOR, ".viewer-play")
    browser.execute_script("arguments[0].focus()", play)
    ActionChains(browser).send_keys("p").perform()
    assert browser.find_element(By.CSS_SELECTOR, ".viewer [role=status]").get_attribute("aria-live") == "off"
    assert play.get_attribute("aria-label").startswith("Pause")
    assert browser.execute_script("return !document.querySelector('.viewer-progress').hidden")
    wait(browser, "return document.querySelector('.viewer-count').textContent === '2 / 5'", timeout=3)
    # The photo now shown was loaded before it was due.
    assert browser.execute_script("var i = document.querySelectorAll('.viewer-slide')[1].querySelector('img'); return i.complete && i.naturalWidth > 0")
    wait(browser, "return document.querySelector('.viewer-count').textContent === '3 / 5'", timeout=3)
    # A hidden tab: nothing moves; visible again: it goes on.
    browser.execute_script("Object.defineProperty(document, 'hidden', {value: true, configurable: true}); document.dispatchEvent(new Event('visibilitychange'))")
    shown = counter(browser)
    time.sleep(2.5)
    assert counter(browser) == shown, "advanced while the tab was hidden"
    browser.execute_script("Object.defineProperty(document, 'hidden', {value: false, configurable: true}); document.dispatchEvent(new Event('visibilitychange'))")
    wait(browser, "return document.querySelector('.viewer-count').textContent !== %r" % shown, timeout=3)
    # The pointer resting on the controls: paused until it leaves.
    ActionChains(browser).move_to_element(browser.find_element(By.CSS_SELECTOR, ".viewer-close")).perform()
    shown = counter(browser)
    time.sleep(2.5)
    assert counter(browser) == shown, "advanced under the pointer"
    ActionChains(browser).move_to_element(browser.find_element(By.CSS_SELECTOR, ".viewer-slide:nth-child(2) img")).perform()
    wait(browser, "return document.querySelector('.viewer-count').textContent !== %r" % shown, timeout=3)
    # Past the last photo it goes round; P stops it.
    wait(browser, "return document.querySelector('.viewer-count').textContent === '1 / 5'", timeout=8)
    ActionChains(browser).send_keys("p").perform()
    shown = counter(browser)
    time.sleep(2)
    assert counter(browser) == shown
    assert browser.execute_script("return document.querySelector('.viewer-progress').hidden")


def test_the_slideshow_plays_a_video_to_its_end(browser, keyboard_server):
    open_viewer(browser, keyboard_server, album="clips", selector=".photo-grid a[data-video]")
    start = counter(browser)
    ActionChains(browser).send_keys("p").perform()
    wait(browser, "return document.querySelectorAll('.viewer-slide')[1].querySelector('video').currentTime > 0.3", timeout=8)
    time.sleep(1.5)
    assert counter(browser) == start, "a 3 s video was cut at the 1 s interval"
    wait(browser, "return document.querySelector('.viewer-count').textContent !== %r" % start, timeout=10)


def test_under_reduced_motion_nothing_slides_and_animations_start_paused(keyboard_server):
    driver = make_driver(1280, 800)
    try:
        reduced_motion(driver)
        driver.get(keyboard_server + "/albums/animations/index.html")
        toggle = driver.find_element(By.CSS_SELECTOR, ".animation-toggle")
        assert toggle.text == "Play animations"
        assert driver.execute_script("return Array.from(document.querySelectorAll('.photo-grid source')).every(s => s.media === 'all')")
        toggle.click()
        assert toggle.text == "Pause animations"
        assert driver.execute_script("return Array.from(document.querySelectorAll('.photo-grid source')).every(s => s.media === 'not all')")
        # The choice holds on the item page, which has its own button.
        item = driver.find_element(By.CSS_SELECTOR, ".photo-grid a[data-animated]").get_attribute("href")
        driver.get(item)
        button = driver.find_element(By.CSS_SELECTOR, ".photo .animation-toggle")
        assert button.is_displayed() and button.text == "Pause animations"
        button.click()
        assert driver.execute_script("return document.querySelector('.photo source').media === 'all'")
        # A Live Photo does not move under a passing pointer, only when its button is held.
        driver.get(keyboard_server + "/albums/clips/img-0001.html")
        ActionChains(driver).move_to_element(driver.find_element(By.CSS_SELECTOR, ".live-frame img")).perform()
        time.sleep(1)
        assert driver.execute_script("return document.querySelector('video.live-motion').paused")
        ActionChains(driver).move_to_element(driver.find_element(By.CSS_SELECTOR, ".live-button")).click_and_hold().perform()
        wait(driver, "return document.querySelector('video.live-motion').currentTime > 0.2")
        ActionChains(driver).release().perform()
        # The slideshow does not slide.
        open_viewer(driver, keyboard_server)
        ActionChains(driver).send_keys("p").perform()
        wait(driver, "return document.querySelector('.viewer-count').textContent === '2 / 5'", timeout=3)
        assert driver.execute_script("return document.querySelector('.viewer-track').style.transition") in ("none", "")
    finally:
        driver.quit()


def test_an_animation_can_be_paused_without_reduced_motion(browser, keyboard_server):
    browser.get(keyboard_server + "/albums/animations/index.html")
    item = browser.find_element(By.CSS_SELECTOR, ".photo-grid a[data-animated]").get_attribute("href")
    browser.get(item)
    button = browser.find_element(By.CSS_SELECTOR, ".photo .animation-toggle")
    assert button.text == "Pause animations"
    assert browser.execute_script("return document.querySelector('.photo source').media === 'not all'")
    button.click()
    assert button.text == "Play animations"
    assert browser.execute_script("return document.querySelector('.photo source').media === 'all'")


def test_the_slideshow_works_from_file(keyboard_site):
    driver = make_driver(390, 844)
    try:
        driver.get("file://" + keyboard_site + "/albums/coolpix-walk/index.html")
        driver.find_element(By.CSS_SELECTOR, ".photo-grid a").click()
        wait(driver, "return !document.querySelector('.viewer').hidden")
        driver.find_element(By.CSS_SELECTOR, ".viewer-play").click()
        ActionChains(driver).move_by_offset(5, 400).perform()
        wait(driver, "return document.querySelector('.viewer-count').textContent === '2 / 5'", timeout=4)
    finally:
        driver.quit()


def tab_until(driver, script, limit=80, backwards=False):
    """Presses Tab (or Shift+Tab) until `script` is true of the focused element."""
    for _ in range(limit):
        if driver.execute_script("var a = document.activeElement; return !!a && (" + script + ")"):
            return
        chord = ActionChains(driver)
        if backwards:
            chord = chord.key_down(Keys.SHIFT).send_keys(Keys.TAB).key_up(Keys.SHIFT)
        else:
            chord = chord.send_keys(Keys.TAB)
        chord.perform()
    raise AssertionError(f"Tab never reached {script}; at {active(driver)}")


def test_a_keyboard_only_walk_album_viewer_close_search(browser, keyboard_server):
    browser.get(keyboard_server + "/albums/coolpix-walk/index.html")
    tab_until(browser, "a.closest('.photo-grid') !== null")
    first = browser.execute_script("return document.activeElement.getAttribute('href')")
    ActionChains(browser).send_keys(Keys.ENTER).perform()
    wait(browser, "return !document.querySelector('.viewer').hidden")
    assert browser.execute_script("return document.querySelector('.viewer').contains(document.activeElement)")
    step_back_and_close(browser, 1)
    assert browser.execute_script("return document.activeElement.getAttribute('href')") == first
    # Back up to the search box in the header, a query, Enter.
    tab_until(browser, "a.matches('.site-search input')", backwards=True)
    ActionChains(browser).send_keys("river" + Keys.ENTER).perform()
    wait(browser, "return location.pathname.endsWith('/search/index.html') || location.pathname.endsWith('/search/')")
    wait(browser, "return document.querySelectorAll('.search-results a').length === 1", timeout=15)
    tab_until(browser, "a.closest('.search-results') !== null")
    ActionChains(browser).send_keys(Keys.ENTER).perform()
    wait(browser, "return !document.querySelector('.viewer').hidden")
    wait(browser, "return /River bank/.test(document.querySelector('.viewer [role=status]').textContent)")
    ActionChains(browser).send_keys(Keys.ESCAPE).perform()
    wait(browser, "return document.querySelector('.viewer').hidden")
    assert browser.execute_script("return document.activeElement.closest('.search-results') !== null")
