"""The in-page viewer, driven in a real browser."""
import time

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import wait

ALBUM = "/albums/coolpix-walk/index.html"


def state(driver):
    return driver.execute_script("""
        var v = document.querySelector('.viewer');
        var img = document.querySelectorAll('.viewer-slide img')[1];
        return {open: !v.hidden, count: document.querySelector('.viewer-count').textContent,
                src: img ? img.currentSrc : '', hash: location.hash,
                active: document.activeElement && document.activeElement.className};
    """)


def severe_errors(driver):
    return [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]


def open_album(driver, server, path=ALBUM):
    driver.get(server + path)
    wait(driver, "return document.readyState === 'complete'")


def test_opens_from_a_thumbnail_and_steps_with_keys(browser, server):
    open_album(browser, server)
    browser.find_elements(By.CSS_SELECTOR, ".photo-grid a")[0].click()
    wait(browser, "return !document.querySelector('.viewer').hidden")
    s = state(browser)
    assert s["open"] and s["count"].startswith("1 / ")
    assert s["hash"] == "#view=p-dscn0010"
    assert "/media/" in s["src"]
    assert s["active"] == "viewer-close", "focus moves into the viewer"

    body = browser.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.ARROW_RIGHT)
    wait(browser, "return document.querySelector('.viewer-count').textContent.startsWith('2 / ')")
    assert state(browser)["hash"] == "#view=p-dscn0021"
    body.send_keys(Keys.ARROW_LEFT)
    wait(browser, "return document.querySelector('.viewer-count').textContent.startsWith('1 / ')")
    assert severe_errors(browser) == []


def test_next_photo_is_fetched_before_it_is_shown(browser, server):
    open_album(browser, server)
    browser.find_elements(By.CSS_SELECTOR, ".photo-grid a")[0].click()
    wait(browser, "return !document.querySelector('.viewer').hidden")
    time.sleep(1.0)  # let the neighbour preloads finish
    before = browser.execute_script("""
        return {now: performance.now(),
                done: performance.getEntriesByType('resource')
                         .filter(e => e.responseEnd > 0).map(e => [e.name, e.responseEnd])};
    """)
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_RIGHT)
    wait(browser, "return document.querySelector('.viewer-count').textContent.startsWith('2 / ')")
    shown = wait(browser, "var i = document.querySelectorAll('.viewer-slide img')[1]; return i.complete && i.currentSrc")
    fetched = {name: end for name, end in before["done"]}
    assert shown in fetched, f"{shown} was not requested before it was shown"
    assert fetched[shown] <= before["now"]
    # The one after next was asked for too.
    third = browser.execute_script("return document.querySelectorAll('.viewer-slide img')[2].currentSrc")
    names = browser.execute_script("return performance.getEntriesByType('resource').map(e => e.name)")
    assert third in names


def test_swipe_pages_with_a_visible_gap(browser, server):
    open_album(browser, server)
    browser.find_elements(By.CSS_SELECTOR, ".photo-grid a")[0].click()
    wait(browser, "return !document.querySelector('.viewer').hidden")
    # The viewer's centre is over the current slide, inside the swipeable track.
    track = browser.find_element(By.CSS_SELECTOR, ".viewer")
    actions = ActionChains(browser, duration=50)
    actions.move_to_element(track).click_and_hold()
    for _ in range(6):
        actions.move_by_offset(-60, 0)
    actions.perform()
    gap = browser.execute_script("""
        var s = document.querySelectorAll('.viewer-slide');
        return s[2].getBoundingClientRect().left - s[1].getBoundingClientRect().right;
    """)
    assert gap >= 16, f"slides are {gap}px apart mid-swipe"
    ActionChains(browser).release().perform()
    wait(browser, "return document.querySelector('.viewer-count').textContent.startsWith('2 / ')")
    # A short drag snaps back.
    actions = ActionChains(browser, duration=200)
    actions.move_to_element(track).click_and_hold().move_by_offset(-30, 0).release().perform()
    time.sleep(0.5)
    assert state(browser)["count"].startswith("2 / ")


def test_deep_link_reload_and_back(browser, server):
    open_album(browser, server, ALBUM + "#view=p-dscn0021")
    wait(browser, "return !document.querySelector('.viewer').hidden")
    assert state(browser)["count"].startswith("2 / ")
    browser.refresh()
    wait(browser, "return !document.querySelector('.viewer').hidden")
    assert state(browser)["count"].startswith("2 / ")
    browser.back()
    wait(browser, "return document.querySelector('.viewer').hidden")
    assert state(browser)["hash"] == ""


def test_escape_close_button_and_back_close(browser, server):
    open_album(browser, server)
    links = browser.find_elements(By.CSS_SELECTOR, ".photo-grid a")
    links[1].click()
    wait(browser, "return !document.querySelector('.viewer').hidden")
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ESCAPE)
    wait(browser, "return document.querySelector('.viewer').hidden")
    assert state(browser)["hash"] == ""
    assert browser.execute_script("return document.activeElement === document.querySelectorAll('.photo-grid a')[1]")

    links[0].click()
    wait(browser, "return !document.querySelector('.viewer').hidden")
    browser.find_element(By.CSS_SELECTOR, ".viewer-close").click()
    wait(browser, "return document.querySelector('.viewer').hidden")

    links[0].click()
    wait(browser, "return !document.querySelector('.viewer').hidden")
    browser.back()
    wait(browser, "return document.querySelector('.viewer').hidden")
    assert browser.current_url.endswith(ALBUM)
    assert severe_errors(browser) == []


def test_focus_is_trapped_and_buttons_are_labelled(browser, server):
    open_album(browser, server)
    browser.find_elements(By.CSS_SELECTOR, ".photo-grid a")[0].click()
    wait(browser, "return !document.querySelector('.viewer').hidden")
    for _ in range(12):
        browser.switch_to.active_element.send_keys(Keys.TAB)
        assert browser.execute_script("return document.querySelector('.viewer').contains(document.activeElement)")
    unlabelled = browser.execute_script("""
        return [...document.querySelectorAll('.viewer button')].filter(b => !b.getAttribute('aria-label')).length;
    """)
    assert unlabelled == 0
    assert browser.execute_script("return document.querySelector('.viewer').getAttribute('role')") == "dialog"


def test_facts_on_demand(browser, server):
    open_album(browser, server)
    browser.find_elements(By.CSS_SELECTOR, ".photo-grid a")[0].click()
    wait(browser, "return !document.querySelector('.viewer').hidden")
    assert browser.execute_script("return document.querySelector('.viewer-facts').hidden")
    browser.find_element(By.CSS_SELECTOR, ".viewer-info").click()
    text = browser.find_element(By.CSS_SELECTOR, ".viewer-facts").text
    assert "NIKON COOLPIX P6000" in text and "2008" in text
    assert "GPS" not in text


def test_continues_onto_the_next_page(browser, server):
    open_album(browser, server)
    links = browser.find_elements(By.CSS_SELECTOR, ".photo-grid a")
    assert len(links) == 3, "the fixture pages albums at 3 photos (and a short page does not grow on its own)"
    links[2].click()
    wait(browser, "return !document.querySelector('.viewer').hidden")
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_RIGHT)
    wait(browser, "return document.querySelector('.viewer-count').textContent.startsWith('4 / 5')")
    assert "/media/" in state(browser)["src"]
    # The viewer's next page is the page's own next page, appended under it.
    assert browser.execute_script("return document.querySelectorAll('.photo-grid a').length") == 5


def test_zoom_loads_the_largest_rendition(browser, server):
    open_album(browser, server)
    browser.find_elements(By.CSS_SELECTOR, ".photo-grid a")[0].click()
    wait(browser, "return !document.querySelector('.viewer').hidden")
    wait(browser, "return document.querySelectorAll('.viewer-slide img')[1].complete")
    image = browser.find_elements(By.CSS_SELECTOR, ".viewer-slide img")[1]
    ActionChains(browser).double_click(image).perform()
    wait(browser, "return document.querySelector('.viewer').classList.contains('viewer-zoomed')")
    wait(browser, "return document.querySelectorAll('.viewer-slide img')[1].currentSrc.indexOf('640x480') >= 0")


def test_animated_renditions_play_in_the_viewer(browser, server):
    open_album(browser, server, "/albums/animations/index.html")
    links = browser.find_elements(By.CSS_SELECTOR, ".photo-grid a")
    assert links
    links[0].click()
    wait(browser, "return !document.querySelector('.viewer').hidden")
    assert "/media/" in state(browser)["src"]


def measure_layout_shift(browser, url):
    """Cumulative layout shift of one load of `url`, and what moved."""
    browser.get(url)
    wait(browser, "return document.readyState === 'complete'")
    time.sleep(0.5)
    return browser.execute_script("""
        return new Promise(resolve => {
            let total = 0, moved = [];
            new PerformanceObserver(list => {
                for (const e of list.getEntries()) {
                    if (e.hadRecentInput) continue;
                    total += e.value;
                    for (const s of e.sources || []) moved.push(s.node ? s.node.nodeName + '.' + s.node.className : '?');
                }
            }).observe({type: 'layout-shift', buffered: true});
            setTimeout(() => resolve([total, moved]), 300);
        });
    """)


def test_no_layout_shift_while_an_album_loads(browser, server):
    for path in ["/index.html", ALBUM, "/moments/index.html"]:
        # (A page painted while it streams in: test_streaming.py.)
        shift, moved = measure_layout_shift(browser, server + path)
        assert shift == 0, f"{path}: cumulative layout shift {shift} ({moved})"
    assert severe_errors(browser) == []


def test_album_cards_in_a_row_share_one_height(browser, server):
    # A long album name wraps onto more lines than its neighbours': the
    # cards of a row still end on one line.
    browser.get(server + "/index.html")
    wait(browser, "return document.querySelectorAll('.album-card').length >= 3")
    heights = browser.execute_script("""
        document.querySelector('.album-card-title').textContent = 'A long album name that wraps over two or three lines';
        const rows = {};
        for (const card of document.querySelectorAll('.album-card')) {
            const top = Math.round(card.getBoundingClientRect().top);
            (rows[top] = rows[top] || []).push(Math.round(card.querySelector('a').getBoundingClientRect().height));
        }
        return Object.values(rows);
    """)
    first = heights[0]
    assert len(first) >= 3, heights
    assert len(set(first)) == 1, f"cards of one row differ in height: {heights}"


def test_phone_sized_window(phone, server):
    open_album(phone, server)
    phone.find_elements(By.CSS_SELECTOR, ".photo-grid a")[0].click()
    wait(phone, "return !document.querySelector('.viewer').hidden")
    sizes = phone.execute_script("return document.querySelectorAll('.viewer-slide img')[1].sizes")
    assert sizes == "390px"
    rect = phone.execute_script("var r = document.querySelectorAll('.viewer-slide img')[1].getBoundingClientRect(); return [r.width, r.height]")
    assert 380 <= rect[0] <= 391


def test_without_javascript_thumbnails_open_photo_pages(no_js_browser, server):
    open_album(no_js_browser, server)
    no_js_browser.find_elements(By.CSS_SELECTOR, ".photo-grid a")[0].click()
    wait(no_js_browser, "return location.pathname.endsWith('/dscn0010.html')")
    assert no_js_browser.find_element(By.CSS_SELECTOR, ".photo img").get_attribute("srcset")
    assert no_js_browser.find_elements(By.CSS_SELECTOR, "a[rel=next]")
