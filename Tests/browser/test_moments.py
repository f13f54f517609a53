"""The moments timeline at scale, in Debian's Chromium: the year → month
index (a rail on wide screens, a folding bar on phones, the years page),
continuous scrolling with the address and the index following, Back to the
same photo, and all of it without JavaScript too."""
import importlib.util
import os
import re
import shutil
import subprocess
import tempfile
import time

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By

from conftest import ROOT, gallerygen, make_driver, serve, wait
from test_accessibility import violations

# Selenium's is_displayed() calls anything in a closed <details> hidden; the
# rail shows its closed <details> through ::details-content, so ask the page.
SHOWN = "const r = arguments[0].getBoundingClientRect(); return arguments[0].checkVisibility() && r.width > 0 && r.height > 0"


def shown(driver, element):
    return driver.execute_script(SHOWN, element)


def press(driver, element):
    """A real pointer click at the element's centre (its Selenium click refuses the rail, as above)."""
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    ActionChains(driver).move_to_element(element).click().perform()

spec = importlib.util.spec_from_file_location("bench_moments", os.path.join(ROOT, "scripts", "bench_moments.py"))
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)

COUNT = 480


@pytest.fixture(scope="module")
def moments_site():
    """Twelve years of a phone library, sampled to 480 photos, 40 a page."""
    work = tempfile.mkdtemp(prefix="gallerygen-moments-")
    bench.make_library(work, COUNT)
    with open(os.path.join(work, "gallery.yml"), "w") as f:
        f.write("photos_per_page: 40\nthumbnail_sizes: [64x48]\npreview_sizes: [128x96]\nformat: jpeg\n")
    out = os.path.join(work, "site")
    subprocess.run([gallerygen(), "build", os.path.join(work, "library"), "--output", out, "--config",
                    os.path.join(work, "gallery.yml"), "--quiet"], check=True)
    yield out
    shutil.rmtree(work, ignore_errors=True)


@pytest.fixture(scope="module")
def moments_server(moments_site):
    yield from serve(moments_site)


def months_of_library():
    return {when.strftime("%Y-%m") for _, when, _ in bench.plan(COUNT)}


def test_every_month_is_at_most_two_clicks_from_the_first_page(moments_site):
    months = months_of_library()
    found = bench.clicks_to_months(moments_site, months)
    assert set(found) == months, f"not reachable: {sorted(months - set(found))}"
    assert max(found.values()) <= 2


def test_the_rail_on_a_wide_screen_jumps_to_a_month(browser, moments_server):
    browser.get(moments_server + "/moments/index.html")
    wait(browser, "return document.readyState === 'complete'")
    # Unfolded without a click: this page's year shows its months; other years are one click away.
    assert browser.execute_script("return getComputedStyle(document.querySelector('.moments-index-fold > summary')).display") == "none"
    current = browser.find_elements(By.CSS_SELECTOR, ".moments-index a[aria-current]")
    assert current and shown(browser, current[0])
    folded = browser.find_elements(By.CSS_SELECTOR, "details.index-year:not([open]) > summary")
    assert folded and shown(browser, folded[-1])
    press(browser, folded[-1])                                    # click 1: the oldest year
    year = folded[-1].find_element(By.XPATH, "..")
    # Scrolling the timeline meanwhile marks the month on screen but leaves the reader's year open.
    browser.execute_script("window.scrollBy(0, 600)")
    time.sleep(0.3)
    assert year.get_attribute("open") is not None
    link = browser.find_elements(By.CSS_SELECTOR, "details.index-year[open] a[data-month]")[-1]
    wait(browser, "return arguments[0].getBoundingClientRect().height > 0", link)
    month = link.get_attribute("data-month")
    target = link.get_attribute("href")
    press(browser, link)                                          # click 2: its last month
    # Another year's month is linked to its month page (moments/YYYY/MM.html),
    # which sends the reader on to the page where it begins, at #m-YYYY-MM.
    assert target.endswith("/%s/%s.html" % tuple(month.split("-"))), target
    mark = "document.getElementById('m-' + arguments[0])"
    wait(browser, "return location.hash === '#m-' + arguments[0] && " + mark + " !== null", month)
    time.sleep(0.3)
    top = browser.execute_script("return " + mark + ".getBoundingClientRect().top", month)
    assert -2 <= top <= 60, f"the month's first section is at the top ({top})"


def test_the_phone_bar_folds_and_the_years_page_is_one_tap_away(phone, moments_server):
    phone.get(moments_server + "/moments/index.html")
    wait(phone, "return document.readyState === 'complete'")
    summary = phone.find_element(By.CSS_SELECTOR, ".moments-index-fold > summary")
    assert summary.is_displayed() and "Jump to a month" in summary.text
    assert not shown(phone, phone.find_element(By.CSS_SELECTOR, ".index-years"))
    bar = phone.find_element(By.CSS_SELECTOR, ".moments-index").rect
    assert bar["height"] < 80, "folded, the bar is one line"
    summary.click()
    assert shown(phone, phone.find_element(By.CSS_SELECTOR, ".index-years"))
    phone.find_element(By.CSS_SELECTOR, ".moments-years-link").click()
    wait(phone, "return location.pathname.endsWith('/moments/years.html')")
    cards = phone.find_elements(By.CSS_SELECTOR, ".year-card")
    assert len(cards) >= 10
    image = cards[0].find_element(By.CSS_SELECTOR, "img")
    assert image.get_attribute("width") and image.get_attribute("height")
    # The card fits the phone's width.
    assert cards[0].rect["width"] <= 390


def test_scrolling_appends_pages_and_back_returns_to_the_same_photo(browser, moments_server):
    browser.get(moments_server + "/moments/index.html")
    wait(browser, "return document.readyState === 'complete'")
    first = browser.execute_script("return document.querySelectorAll('.photo-grid > li').length")
    start_month = browser.execute_script("return document.querySelector('.moments-index a[aria-current]').dataset.month")
    for _ in range(60):
        browser.execute_script("window.scrollBy(0, 500)")
        time.sleep(0.15)
        if browser.execute_script("return document.querySelectorAll('.photo-grid > li').length") > first * 3:
            break
    time.sleep(0.5)
    assert browser.execute_script("return document.querySelectorAll('.photo-grid > li').length") > first * 3
    # The address names the page whose photos are on screen.
    page = browser.execute_script("return location.pathname")
    assert re.search(r"/moments/\d{4}/(index|p\d+)\.html$", page), f"the address follows the page on screen ({page})"
    on_screen = browser.execute_script("""
        const line = Math.min(innerHeight / 3, 240);
        const items = [...document.querySelectorAll('.photo-grid > li')].filter(li => li.getBoundingClientRect().top < line);
        return items.length;""")
    assert on_screen > first, "past the first page"
    marked = browser.execute_script("return [...document.querySelectorAll('.moments-index a[aria-current]')].map(a => a.dataset.month)")
    assert len(marked) == 1 and marked[0] != start_month, "the index follows the month on screen"
    ids = browser.execute_script("return [...document.querySelectorAll('[id]')].map(e => e.id)")
    assert len(ids) == len(set(ids)), "appended pages bring no duplicate ids"
    assert browser.execute_script("return [...document.querySelectorAll('main img')].every(i => i.getAttribute('width') && i.getAttribute('height'))")
    # The photo at the top, then its page, then Back.
    photo = browser.execute_script("""
        const links = [...document.querySelectorAll('.photo-grid a')].filter(a => a.getBoundingClientRect().top > 80);
        return [links[0].href, links[0].getBoundingClientRect().top];""")
    time.sleep(0.4)   # the address and the place are written when scrolling pauses
    browser.get(photo[0])
    wait(browser, "return document.querySelector('.photo-page') !== null")
    browser.back()
    wait(browser, "return location.pathname === arguments[0] && document.readyState === 'complete'", page)
    time.sleep(0.5)
    top = browser.execute_script("""
        const link = [...document.querySelectorAll('.photo-grid a')].find(a => a.href === arguments[0]);
        return link ? link.getBoundingClientRect().top : null;""", photo[0])
    assert top is not None and abs(top - photo[1]) < 260, f"Back lands near the same photo ({top} vs {photo[1]})"


def test_a_fresh_load_of_a_later_page_comes_back_to_its_place(browser, moments_server):
    """Without the back/forward cache: the history entry's saved place is used."""
    browser.get(moments_server + "/moments/index.html")
    # A later page that is full (a year's last page may hold only a few).
    for _ in range(12):
        browser.get(browser.find_element(By.CSS_SELECTOR, ".pager a[rel=next]").get_attribute("href"))
        wait(browser, "return document.readyState === 'complete'")
        if browser.execute_script("return document.querySelectorAll('.photo-grid > li').length") >= 30:
            break
    browser.execute_script("window.scrollTo(0, 900)")
    time.sleep(0.5)
    saved = browser.execute_script("return history.state && history.state.gallerygenPlace")
    assert saved and saved["index"] >= 0
    item = browser.execute_script("return document.querySelectorAll('.photo-grid > li')[arguments[0]].id", saved["index"])
    browser.refresh()
    wait(browser, "return document.readyState === 'complete'")
    time.sleep(0.3)
    top = browser.execute_script("return document.getElementById(arguments[0]).getBoundingClientRect().top", item)
    assert abs(top - saved["offset"]) < 60


def test_without_javascript_the_index_and_the_pager_work(moments_server):
    driver = make_driver(1400, 900, javascript=False)
    try:
        driver.get(moments_server + "/moments/index.html")
        assert shown(driver, driver.find_element(By.CSS_SELECTOR, ".moments-index a[aria-current]"))
        driver.find_element(By.CSS_SELECTOR, ".pager a[rel=next]").click()
        wait(driver, "return /\\/moments\\/\\d{4}\\/(index|p\\d+)\\.html$/.test(location.pathname)")
        links = driver.find_elements(By.CSS_SELECTOR, ".year-card a, .moments-index a[data-month]")
        assert links
        # Every month of every year lands on its first section, scripts off:
        # another year's through its month page, which refreshes at once.
        months = {a.get_attribute("data-month"): a.get_attribute("href")
                  for a in driver.find_elements(By.CSS_SELECTOR, ".moments-index a[data-month]")}
        assert set(months) == months_of_library()
        for month, href in sorted(months.items()):
            driver.get(href)
            wait(driver, "return location.hash === '#m-' + arguments[0]", month)
            assert driver.find_elements(By.ID, "m-" + month), f"{month}: {driver.current_url} has no #m-{month}"
    finally:
        driver.quit()


@pytest.mark.parametrize("width", [390, 1280])
def test_a_month_page_as_read_before_it_sends_the_reader_on(moments_site, moments_server, width):
    """A month page refreshes at once; read as it is (the refresh left out,
    as a browser that does not follow it shows it) it passes axe and links on."""
    folder = os.path.join(moments_site, "moments")
    month = sorted(os.path.join(base, name) for base, _, names in os.walk(folder)
                   for name in names if re.fullmatch(r"\d{2}\.html", name))[0]
    text = open(month, encoding="utf-8").read()
    refresh = re.search(r'<meta http-equiv="refresh" content="0; url=([^"]+)">\n', text)
    assert refresh and 'name="robots" content="noindex"' in text
    assert f'<a href="{refresh.group(1)}">' in text, "the same way on as a link"
    stopped = os.path.join(os.path.dirname(month), "stopped.html")
    with open(stopped, "w", encoding="utf-8") as f:
        f.write(text.replace(refresh.group(0), ""))
    driver = make_driver(width, 844 if width < 600 else 800)
    try:
        found = []
        for scheme in ["light", "dark"]:
            driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
            driver.get(moments_server + "/" + os.path.relpath(stopped, moments_site))
            wait(driver, "return document.readyState === 'complete'")
            found += [f"{scheme}: {v}" for v in violations(driver)]
        assert not found, "\n".join(found)
    finally:
        driver.quit()
        os.remove(stopped)
