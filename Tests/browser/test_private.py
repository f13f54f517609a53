"""A private album in a real browser, and its site audited as an attacker
would audit it: every file and file name under OUT searched for the album's
words, names and the passphrase, every image Pillow can decode and every
video ffmpeg can decode compared with the album's pictures. In headless
Chromium the wrong passphrase shows a message and nothing else; the right
one shows the album, its sub-album, its pages (continuous over HTTP), its
viewer (photos and a video), over HTTP and from file://."""
import io
import os
import shutil
import subprocess
import tempfile
import time
import zipfile

import pytest
from PIL import Image
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import gallerygen, make_driver, serve, wait

PASSPHRASE = "tangerine orbit 1987"
SECRETS = ["Operation Lighthouse", "Pelicanbrunch", "Zanzibarquiz", "Hiddencove", "Grottoroom", "lagoonpic", "motorboatclip", "reefmoment",
           "tidepoolshot", "Rejected smudge", PASSPHRASE]
# Saturated colours no public picture has: what an image of the album looks like.
PRIVATE_COLOURS = [(230, 20, 200), (20, 200, 40), (250, 150, 0), (30, 60, 240)]


def ffmpeg(*arguments):
    subprocess.run(["ffmpeg", "-v", "error", "-y", *arguments], check=True)


def solid(path, colour, size=(640, 480)):
    Image.new("RGB", size, colour).save(path, quality=95)


@pytest.fixture(scope="module")
def private_site():
    work = tempfile.mkdtemp(prefix="gallerygen-private-")
    library = os.path.join(work, "library")
    public = os.path.join(library, "Public")
    album = os.path.join(library, "Hiddencove")
    os.makedirs(os.path.join(album, "Grottoroom"))
    os.makedirs(public)
    for i in range(3):
        Image.new("RGB", (640, 480), (120 + 20 * i, 120, 120)).save(os.path.join(public, f"grey{i}.jpg"), quality=90)
    # A rejected photo (xmp:Rating -1) of the public album: its words are not published either.
    Image.new("RGB", (320, 240), (100, 100, 100)).save(os.path.join(public, "smudge.jpg"))
    with open(os.path.join(public, "smudge.xmp"), "w") as f:
        f.write('<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
                '<rdf:Description xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmp:Rating="-1">'
                '<dc:title><rdf:Alt><rdf:li xml:lang="x-default">Rejected smudge</rdf:li></rdf:Alt></dc:title>'
                '</rdf:Description></rdf:RDF></x:xmpmeta>')
    for i, colour in enumerate(PRIVATE_COLOURS[:3]):
        solid(os.path.join(album, f"lagoonpic{i}.jpg"), colour)
    solid(os.path.join(album, "Grottoroom", "tidepoolshot.jpg"), PRIVATE_COLOURS[3])
    # A Live Photo: a still and its clip of the same name.
    solid(os.path.join(album, "reefmoment.JPG"), PRIVATE_COLOURS[2])
    ffmpeg("-f", "lavfi", "-i", f"color=c=0x{PRIVATE_COLOURS[0][0]:02x}{PRIVATE_COLOURS[0][1]:02x}{PRIVATE_COLOURS[0][2]:02x}:s=640x480:r=25:d=2",
           "-c:v", "libx264", "-pix_fmt", "yuv420p", os.path.join(album, "reefmoment.MOV"))
    ffmpeg("-f", "lavfi", "-i", f"color=c=0x{PRIVATE_COLOURS[1][0]:02x}{PRIVATE_COLOURS[1][1]:02x}{PRIVATE_COLOURS[1][2]:02x}:s=320x240:r=25:d=2",
           "-c:v", "libx264", "-pix_fmt", "yuv420p", os.path.join(album, "motorboatclip.mp4"))
    secrets = os.path.join(work, "secrets")
    os.makedirs(secrets)
    with open(os.path.join(secrets, "cove.txt"), "w") as f:
        f.write(PASSPHRASE + "\n")
    with open(os.path.join(album, "album.yml"), "w") as f:
        f.write("title: Operation Lighthouse\ndescription: For the Pelicanbrunch crew.\nprivate: true\n"
                "passphrase_file: ../../secrets/cove.txt\nphotos:\n  lagoonpic0.jpg:\n    title: Zanzibarquiz\n")
    with open(os.path.join(work, "gallery.yml"), "w") as f:
        f.write("title: Private test\nphotos_per_page: 2\nthumbnail_sizes: [280x210]\npreview_sizes: [640x480]\n"
                "publish_originals: true\nalbum_downloads: true\n")
    out = os.path.join(work, "site")
    subprocess.run([gallerygen(), "build", library, "--output", out, "--config", os.path.join(work, "gallery.yml"), "--quiet"],
                   check=True)
    yield out
    if not os.environ.get("KEEP"): shutil.rmtree(work, ignore_errors=True)


@pytest.fixture(scope="module")
def private_server(private_site):
    yield from serve(private_site)


def every_file(out):
    for folder, _, names in os.walk(out):
        for name in names:
            yield os.path.join(folder, name)


def looks_private(image):
    """True when a picture is mostly one of the album's colours."""
    small = image.convert("RGB").resize((8, 8))
    pixels = [small.getpixel((x, y)) for y in range(8) for x in range(8)]
    for colour in PRIVATE_COLOURS:
        close = sum(1 for p in pixels if sum(abs(a - b) for a, b in zip(p, colour)) < 60)
        if close > len(pixels) // 2:
            return True
    return False


def test_an_attacker_finds_nothing_of_the_private_album_in_out(private_site):
    files = list(every_file(private_site))
    assert any("/sealed/" in path for path in files)
    images = videos = 0
    for path in files:
        relative = os.path.relpath(path, private_site)
        for secret in SECRETS:
            assert secret.lower() not in relative.lower(), f"{relative} is named after {secret!r}"
        data = open(path, "rb").read()
        lowered = data.lower()
        for secret in SECRETS:
            assert secret.lower().encode() not in lowered, f"{relative} holds {secret!r}"
        try:
            image = Image.open(io.BytesIO(data))
            image.load()
        except Exception:
            image = None
        if image is not None:
            images += 1
            assert not looks_private(image), f"{relative} shows a private picture"
        if data[:4] == b"PK\x03\x04":
            # An album's download: every photo in it looked at too.
            with zipfile.ZipFile(io.BytesIO(data)) as archive:
                for member in archive.namelist():
                    assert not any(secret.lower() in member.lower() for secret in SECRETS), f"{relative} holds {member}"
                    image = Image.open(io.BytesIO(archive.read(member)))
                    images += 1
                    assert not looks_private(image), f"{member} in {relative} shows a private picture"
        if relative.endswith((".mp4", ".mov", ".webm")) or data[4:8] == b"ftyp":
            frame = subprocess.run(["ffmpeg", "-v", "error", "-i", path, "-frames:v", "1", "-f", "image2pipe", "-vcodec", "png", "-"],
                                   capture_output=True).stdout
            if frame:
                videos += 1
                assert not looks_private(Image.open(io.BytesIO(frame))), f"{relative} shows a private video"
    # The public album's pictures were decoded and looked at (the check can see a picture).
    assert images >= 3
    assert looks_private(Image.new("RGB", (16, 16), PRIVATE_COLOURS[0]))


def locked_link(driver, base):
    driver.get(base + "/index.html")
    card = driver.find_element(By.CSS_SELECTOR, ".album-card-locked a")
    assert "Operation" not in card.text
    assert not card.find_elements(By.TAG_NAME, "img")
    return card.get_attribute("href")


def enter(driver, passphrase):
    field = driver.find_element(By.ID, "locked-passphrase")
    wait(driver, "return !document.querySelector('.locked-form').hidden")
    field.clear()
    field.send_keys(passphrase + Keys.ENTER)


def loaded_images(driver):
    return driver.execute_script(
        "return Array.from(document.querySelectorAll('main .photo-grid img')).filter(i => i.complete && i.naturalWidth > 0).length")


def test_the_wrong_passphrase_shows_a_message_and_nothing_else(browser, private_server):
    browser.get(locked_link(browser, private_server))
    enter(browser, "not the passphrase")
    wait(browser, "return document.querySelector('.locked-status').textContent.includes('does not open')", timeout=20)
    assert not browser.find_elements(By.CSS_SELECTOR, "main img, main video, .photo-grid")
    assert "Operation" not in browser.page_source.replace(browser.find_element(By.ID, "gallerygen-sealed").get_attribute("textContent"), "")


def test_the_right_passphrase_opens_the_album_its_pages_and_its_viewer(browser, private_server):
    browser.get(locked_link(browser, private_server))
    enter(browser, PASSPHRASE)
    wait(browser, "return document.querySelector('h1') && document.querySelector('h1').textContent.includes('Operation Lighthouse')", timeout=20)
    assert "Operation Lighthouse" in browser.title
    assert "Pelicanbrunch" in browser.find_element(By.CSS_SELECTOR, ".album-description").text
    # The sub-album is listed inside (it shares the vault) and the first page's photos show.
    assert browser.find_element(By.CSS_SELECTOR, ".album-card-title").text == "Grottoroom"
    wait(browser, "return Array.from(document.querySelectorAll('main .photo-grid img')).filter(i => i.complete && i.naturalWidth > 0).length >= 2")
    # Continuous pages over HTTP: the second page's items come, decrypted.
    browser.execute_script("window.scrollTo(0, document.body.scrollHeight)")
    wait(browser, "return document.querySelectorAll('main .photo-grid a').length >= 4", timeout=15)
    browser.execute_script("window.scrollTo(0, document.body.scrollHeight)")
    wait(browser, "return Array.from(document.querySelectorAll('main .photo-grid img')).filter(i => i.complete && i.naturalWidth > 0).length >= 4", timeout=15)
    # The viewer on a photo, then on the video.
    browser.execute_script("window.scrollTo(0, 0)")
    browser.find_element(By.CSS_SELECTOR, ".photo-grid a:not([data-video])").click()
    wait(browser, "return !document.querySelector('.viewer').hidden")
    wait(browser, "return Array.from(document.querySelectorAll('.viewer img')).some(i => i.currentSrc.startsWith('blob:') && i.naturalWidth > 0)")
    for _ in range(4):
        if browser.execute_script("return Array.from(document.querySelectorAll('.viewer video')).some(v => v.currentSrc.startsWith('blob:'))"):
            break
        browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_RIGHT)
        time.sleep(0.8)
    wait(browser, "return Array.from(document.querySelectorAll('.viewer video')).some(v => v.currentSrc.startsWith('blob:') && v.readyState >= 2)",
         timeout=15)
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ESCAPE)
    # An item page opens without asking again (the key is kept for the tab's session).
    item = browser.find_element(By.CSS_SELECTOR, ".photo-grid a:not([data-video])").get_attribute("href")
    browser.get(item)
    wait(browser, "var i = document.querySelector('.photo img'); return i && i.currentSrc.startsWith('blob:') && i.naturalWidth > 0", timeout=20)
    assert browser.find_elements(By.CSS_SELECTOR, ".photo-download a")
    assert not browser.find_elements(By.CSS_SELECTOR, ".locked-form:not([hidden])")


def test_a_live_photo_of_a_private_album_moves_while_held(browser, private_server):
    browser.get(locked_link(browser, private_server))
    enter(browser, PASSPHRASE)
    wait(browser, "return document.title.includes('Operation Lighthouse')", timeout=20)
    live = "document.querySelector(\".photo-grid a[data-live='true']\")"
    for _ in range(4):
        if browser.execute_script("return !!" + live):
            break
        # A page that fits the window does not scroll: "More" appends the next one.
        browser.execute_script("var more = document.querySelector('.pager a[rel=\"next\"]'); if (more) more.click();")
        time.sleep(0.8)
    # In the viewer: its motion's sealed clip is opened when the button is held.
    browser.execute_script(live + ".click()")
    wait(browser, "return !document.querySelector('.viewer').hidden")
    button = browser.find_element(By.CSS_SELECTOR, ".viewer-live")
    wait(browser, "return !arguments[0].hidden", button)
    ActionChains(browser).move_to_element(button).click_and_hold().perform()
    wait(browser, "return Array.from(document.querySelectorAll('video.viewer-motion')).some(v => v.currentSrc.startsWith('blob:') && v.currentTime > 0.2)",
         timeout=15)
    ActionChains(browser).release().perform()
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ESCAPE)
    # On its own page.
    browser.get(browser.execute_script("return " + live + ".href"))
    wait(browser, "var i = document.querySelector('.photo img'); return i && i.currentSrc.startsWith('blob:') && i.naturalWidth > 0", timeout=20)
    button = browser.find_element(By.CSS_SELECTOR, ".live-button")
    ActionChains(browser).move_to_element(button).click_and_hold().perform()
    wait(browser, "var v = document.querySelector('video.live-motion'); return v.currentSrc.startsWith('blob:') && v.currentTime > 0.2", timeout=15)
    ActionChains(browser).release().move_by_offset(0, 400).perform()


def test_a_private_album_downloads_its_photos_opened(private_server):
    folder = tempfile.mkdtemp(prefix="gallerygen-download-")
    driver = make_driver(1280, 800)
    try:
        driver.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": folder})
        driver.get(locked_link(driver, private_server))
        enter(driver, PASSPHRASE)
        wait(driver, "return document.title.includes('Operation Lighthouse')", timeout=20)
        link = driver.find_element(By.CSS_SELECTOR, ".album-download a")
        assert link.get_attribute("download") == "Operation Lighthouse.zip"
        shown = link.text
        link.click()
        target = os.path.join(folder, "Operation Lighthouse.zip")
        end = time.time() + 20
        while time.time() < end and not os.path.exists(target):
            time.sleep(0.2)
        assert os.path.exists(target), os.listdir(folder)
        # The size on the button is the archive's, not its sealed file's (a third larger).
        assert f"{round(os.path.getsize(target) / 1000)} KB" in shown, (shown, os.path.getsize(target))
        with zipfile.ZipFile(target) as archive:
            names = sorted(archive.namelist())
            assert names == ["lagoonpic0.jpg", "lagoonpic1.jpg", "lagoonpic2.jpg", "motorboatclip.mp4", "reefmoment.jpg"], names
            assert looks_private(Image.open(io.BytesIO(archive.read("lagoonpic2.jpg"))))
    finally:
        driver.quit()
        shutil.rmtree(folder, ignore_errors=True)


def test_a_private_album_opens_from_file(private_site):
    driver = make_driver(390, 844)
    try:
        href = locked_link(driver, "file://" + private_site)
        driver.get(href)
        enter(driver, PASSPHRASE)
        wait(driver, "return document.title.includes('Operation Lighthouse')", timeout=20)
        wait(driver, "return Array.from(document.querySelectorAll('main .photo-grid img')).filter(i => i.currentSrc.startsWith('blob:') && i.naturalWidth > 0).length >= 2",
             timeout=15)
    finally:
        driver.quit()
