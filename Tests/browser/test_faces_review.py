"""The faces review page of `gallerygen serve` (faces: auto), end to end in
headless Chromium: the real binary serves a library of real face photos
(scripts/face-photos.sh), the page shows the group nobody named, a name
typed into it is written to people.yml, and after the rebuild that person's
page is on the site. Also: axe-core finds nothing on it, light or dark, at
phone and desktop widths; it is not in OUT; and a form without the page's
token, or from another origin, names nobody."""
import http.client
import os
import re
import shutil
import tempfile
import time
import urllib.parse

import pytest
from selenium.webdriver.common.by import By

from conftest import ROOT, gallerygen_serve, make_driver, wait
from test_accessibility import violations

PHOTOS = os.environ.get("GALLERYGEN_FACE_PHOTOS", os.path.join(ROOT, ".build", "face-photos"))
MODELS = os.environ.get("GALLERYGEN_FACE_MODELS", os.path.join(ROOT, ".build", "face-models"))
REQUIRED = os.environ.get("GALLERYGEN_REQUIRE_FACES") == "1"

if not os.path.exists(os.path.join(PHOTOS, "labels.json")) and not REQUIRED:
    pytest.skip("the face photos are missing: run scripts/face-models.sh and scripts/face-photos.sh", allow_module_level=True)


@pytest.fixture(scope="module")
def served():
    work = tempfile.mkdtemp(prefix="gallerygen-faces-")
    library = os.path.join(work, "library")
    os.makedirs(os.path.join(library, "2009"))
    for name, target in [("obama.jpg", "obama.jpg"), ("obama-congress.jpg", "congress.jpg"),
                         ("biden-blue-room.jpg", "vp.jpg"), ("biden-blue-room-mirrored.jpg", "vp-again.jpg"),
                         ("biden-blue-room-dark.jpg", "vp-evening.jpg")]:
        shutil.copy(os.path.join(PHOTOS, name), os.path.join(library, "2009", target))
    with open(os.path.join(library, "gallery.yml"), "w") as f:
        f.write(f"title: Faces\nfaces: auto\nface_models: {MODELS}\npublish_people: true\n"
                "thumbnail_sizes: [280x210]\npreview_sizes: [800x600, 1600x1200]\n")
    with open(os.path.join(library, "people.yml"), "w") as f:
        f.write("# Who is who\nBarack Obama: 2009/obama.jpg\n")
    out = os.path.join(work, "site")
    try:
        for port, printed in gallerygen_serve(library, out):
            review = printed.readline()
            assert "/__gallerygen/people" in review, review
            yield {"port": port, "library": library, "out": out, "base": f"http://127.0.0.1:{port}"}
    finally:
        shutil.rmtree(work, ignore_errors=True)


def post(served, path, fields, headers=None):
    connection = http.client.HTTPConnection("127.0.0.1", served["port"], timeout=20)
    body = urllib.parse.urlencode(fields)
    connection.request("POST", path, body, {"Content-Type": "application/x-www-form-urlencoded", **(headers or {})})
    response = connection.getresponse()
    response.read()
    connection.close()
    return response


def people_yml(served):
    with open(os.path.join(served["library"], "people.yml"), encoding="utf-8") as f:
        return f.read()


def test_a_form_from_elsewhere_names_nobody(served):
    before = people_yml(served)
    page = http.client.HTTPConnection("127.0.0.1", served["port"], timeout=20)
    page.request("GET", "/__gallerygen/people")
    token = re.search(r'name="token" value="([0-9a-f]+)"', page.getresponse().read().decode()).group(1)
    page.close()
    assert post(served, "/__gallerygen/people/name", {"name": "Mallory", "face": "2009/obama.jpg", "token": "0" * 32}).status == 403
    assert post(served, "/__gallerygen/people/name", {"name": "Mallory", "face": "2009/obama.jpg", "token": token},
                {"Origin": "http://evil.example"}).status == 403
    assert people_yml(served) == before
    # A face the build did not find is not cut out of SOURCE for anyone.
    connection = http.client.HTTPConnection("127.0.0.1", served["port"], timeout=20)
    connection.request("GET", "/__gallerygen/face?ref=gallery.yml")
    assert connection.getresponse().status == 404


def test_a_name_typed_in_the_review_page_publishes_the_person(served):
    driver = make_driver(1280, 900)
    try:
        driver.get(served["base"] + "/__gallerygen/people")
        groups = driver.find_elements(By.CSS_SELECTOR, "main section")
        assert len(groups) == 1, driver.page_source[:2000]
        faces = groups[0].find_elements(By.CSS_SELECTOR, "ul.faces img")
        assert len(faces) == 3
        wait(driver, "return Array.from(document.querySelectorAll('ul.faces img')).every(i => i.complete && i.naturalWidth === 192)")
        assert not os.path.exists(os.path.join(served["out"], "people", "joe-biden"))
        field = groups[0].find_element(By.CSS_SELECTOR, "input[name=name]")
        field.send_keys("Joe Biden")
        field.submit()
        wait(driver, "return document.querySelector('.said') !== null")
        assert "Named Joe Biden" in driver.find_element(By.CSS_SELECTOR, ".said").text
        text = people_yml(served)
        assert text.startswith("# Who is who\nBarack Obama: 2009/obama.jpg\n"), text
        assert re.search(r"^Joe Biden: \"?2009/vp[-a-z]*\.jpg\"?$", text, re.M), text
        # The watcher rebuilds, and the person's page appears.
        page = os.path.join(served["out"], "people", "joe-biden", "index.html")
        deadline = time.time() + 120
        while not os.path.exists(page) and time.time() < deadline:
            time.sleep(0.2)
        assert os.path.exists(page)
        # The review page reloaded by itself: the group is named.
        wait(driver, "return document.querySelectorAll('main section').length === 0 && !!document.querySelector('datalist option[value=\"Joe Biden\"]')",
             timeout=30)
        with open(page, encoding="utf-8") as f:
            assert f.read().count("<li style=") == 3
    finally:
        driver.quit()
    # Served, never written: nothing of the review page is in OUT.
    for base, _, names in os.walk(served["out"]):
        for name in names:
            with open(os.path.join(base, name), "rb") as f:
                assert b"__gallerygen" not in f.read(), name


def test_the_review_page_has_no_accessibility_violations(served):
    for width in (390, 1280):
        for scheme in ("light", "dark"):
            driver = make_driver(width, 844 if width < 600 else 800)
            try:
                driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
                driver.get(served["base"] + "/__gallerygen/people")
                wait(driver, "return document.readyState === 'complete'")
                assert violations(driver) == [], (width, scheme)
            finally:
                driver.quit()
