"""Videos and Live Photos in a real browser: Debian's Chromium plays the
published H.264 files inline, on the item's page and in the viewer; a swiped
video pauses; neighbours fetch posters, never video bytes; a Live Photo's
motion plays while its button is held."""
import os
import shutil
import subprocess
import tempfile
import time

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import gallerygen, serve, wait


def ffmpeg(*arguments):
    subprocess.run(["ffmpeg", "-v", "error", "-y", *arguments], check=True)


@pytest.fixture(scope="module")
def video_site():
    work = tempfile.mkdtemp(prefix="gallerygen-video-")
    source = os.path.join(work, "library", "Clips")
    os.makedirs(source)
    test_source = ["-f", "lavfi", "-i", "testsrc2=s=640x360:r=25:d=6", "-f", "lavfi", "-i", "sine=d=6"]
    ffmpeg(*test_source, "-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest",
           "-metadata", "creation_time=2024-05-01T10:00:00Z", os.path.join(source, "a-landscape.mp4"))
    # Portrait HEVC 10-bit (stored landscape, turned by the display matrix): transcoded, stays portrait.
    portrait = os.path.join(source, "b-portrait.mov")
    ffmpeg("-f", "lavfi", "-i", "testsrc2=s=480x270:r=25:d=3", "-c:v", "libx265", "-pix_fmt", "yuv420p10le",
           "-x265-params", "log-level=error", "-tag:v", "hvc1", portrait)
    subprocess.run(["exiftool", "-q", "-overwrite_original", "-Rotation=90", portrait], check=True)
    # A Live Photo: a still and a short clip of the same name.
    ffmpeg("-f", "lavfi", "-i", "testsrc2=s=640x480:d=1", "-frames:v", "1", os.path.join(source, "c-IMG_0001.JPG"))
    ffmpeg("-f", "lavfi", "-i", "testsrc2=s=640x480:r=25:d=2", "-c:v", "libx264", "-pix_fmt", "yuv420p",
           os.path.join(source, "c-IMG_0001.MOV"))
    ffmpeg("-f", "lavfi", "-i", "testsrc2=s=640x480:r=25:d=4", "-c:v", "libvpx-vp9", "-b:v", "300k", "-deadline", "realtime",
           os.path.join(source, "d-screen.webm"))
    out = os.path.join(work, "site")
    subprocess.run([gallerygen(), "build", os.path.join(work, "library"), "--output", out, "--quiet",
                    "--thumbnail-size", "280x210", "--preview-size", "640x480,1280x960"], check=True)
    yield out
    shutil.rmtree(work, ignore_errors=True)


@pytest.fixture(scope="module")
def video_server(video_site):
    yield from serve(video_site)


PLAY_MUTED = "var v = arguments[0]; v.muted = true; v.play(); return true;"


def test_a_video_plays_on_its_page_and_portrait_stays_portrait(browser, video_server):
    browser.get(video_server + "/albums/clips/a-landscape.html")
    video = browser.find_element(By.CSS_SELECTOR, "video.photo-video")
    for attribute in ["width", "height", "poster", "controls", "playsinline"]:
        assert video.get_attribute(attribute), attribute
    assert video.get_attribute("preload") == "metadata"
    assert video.get_attribute("autoplay") is None, "never autoplays"
    browser.execute_script(PLAY_MUTED, video)
    wait(browser, "return document.querySelector('video.photo-video').currentTime > 0.5")
    assert browser.execute_script("return document.querySelector('video.photo-video').videoWidth") == 640

    browser.get(video_server + "/albums/clips/b-portrait.html")
    video = browser.find_element(By.CSS_SELECTOR, "video.photo-video")
    browser.execute_script(PLAY_MUTED, video)
    wait(browser, "return document.querySelector('video.photo-video').currentTime > 0.3")
    size = browser.execute_script("var v = document.querySelector('video.photo-video'); return [v.videoWidth, v.videoHeight];")
    assert size[0] < size[1], "portrait HEVC became portrait H.264 that Chromium decodes: %r" % size
    box = video.rect
    assert box["height"] > box["width"]


def test_the_viewer_plays_videos_inline_and_pauses_them_when_swiped_away(browser, video_server):
    browser.get(video_server + "/albums/clips/index.html")
    browser.find_element(By.CSS_SELECTOR, ".photo-grid a[data-video]").click()
    wait(browser, "return !document.querySelector('.viewer').hidden")
    current = "document.querySelectorAll('.viewer-slide')[1].querySelector('video.viewer-video')"
    wait(browser, "return %s.getAttribute('src')" % current)
    assert browser.execute_script("return %s.hidden" % current) is False
    assert browser.execute_script("return %s.poster" % current), "shows its poster before playing"
    # Neighbours never have a video source: only posters (previews) are fetched for them.
    assert browser.execute_script(
        "return Array.prototype.filter.call(document.querySelectorAll('.viewer video'), function (v) { return v.getAttribute('src'); }).length") == 1
    browser.execute_script("var v = %s; v.muted = true; v.play();" % current)
    wait(browser, "return %s.currentTime > 0.4" % current)

    # Dragging (not far enough to change photo) keeps it playing.
    slide = browser.find_elements(By.CSS_SELECTOR, ".viewer-slide")[1]
    actions = ActionChains(browser)
    actions.move_to_element_with_offset(slide, 0, -250).click_and_hold().move_by_offset(60, 0).perform()
    time.sleep(0.3)
    assert browser.execute_script("return !%s.paused" % current), "plays while dragged"
    ActionChains(browser).release().perform()

    playing = browser.execute_script("return %s" % current)
    first_source = playing.get_attribute("src")
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_RIGHT)
    wait(browser, "return %s.getAttribute('src') && %s.getAttribute('src') !== %r" % (current, current, first_source))
    assert browser.execute_script("return arguments[0].paused || !arguments[0].getAttribute('src')", playing), "swiped away: paused"
    # Video bytes were fetched for the two items shown, none for their neighbours.
    fetched = browser.execute_script(
        "return performance.getEntriesByType('resource').map(function (e) { return e.name; }).filter(function (n) { return /\\.mp4$/.test(n); })")
    assert len(set(fetched)) <= 2, fetched


def test_live_photo_motion_plays_while_held(browser, video_server):
    browser.get(video_server + "/albums/clips/c-img-0001.html")
    button = browser.find_element(By.CSS_SELECTOR, ".live-button")
    motion = browser.find_element(By.CSS_SELECTOR, "video.live-motion")
    assert motion.get_attribute("preload") == "none" and motion.get_attribute("muted") is not None
    assert browser.execute_script("return arguments[0].paused", motion)
    ActionChains(browser).move_to_element(button).click_and_hold().perform()
    wait(browser, "return document.querySelector('video.live-motion').currentTime > 0.2")
    assert browser.execute_script("return document.querySelector('.live-frame').classList.contains('live-playing')")
    assert button.get_attribute("aria-pressed") == "true"
    ActionChains(browser).release().move_by_offset(0, 400).perform()
    wait(browser, "return document.querySelector('video.live-motion').paused")
    # On the album page it is one item, badged LIVE, and its clip is not listed.
    browser.get(video_server + "/albums/clips/index.html")
    links = browser.find_elements(By.CSS_SELECTOR, ".photo-grid a")
    assert len(links) == 4
    assert len(browser.find_elements(By.CSS_SELECTOR, ".photo-grid a[data-live='true'] .badge-live")) == 1
    assert [b.text for b in browser.find_elements(By.CSS_SELECTOR, ".badge-video")] == ["0:06", "0:03", "0:04"]


def test_live_photo_motion_plays_in_the_viewer_while_held(browser, video_server):
    browser.get(video_server + "/albums/clips/index.html")
    browser.find_element(By.CSS_SELECTOR, ".photo-grid a[data-live='true']").click()
    wait(browser, "return !document.querySelector('.viewer').hidden")
    button = browser.find_element(By.CSS_SELECTOR, ".viewer-live")
    assert button.is_displayed() and button.rect["width"] >= 40, "the LIVE button shows, wide enough for its word"
    motion = "document.querySelectorAll('.viewer-slide')[1].querySelector('video.viewer-motion')"
    assert browser.execute_script("return !%s.getAttribute('src')" % motion), "no motion bytes before it is asked for"
    ActionChains(browser).move_to_element(button).click_and_hold().perform()
    wait(browser, "return %s.currentTime > 0.2" % motion)
    assert button.get_attribute("aria-pressed") == "true"
    ActionChains(browser).release().perform()
    wait(browser, "return %s.paused" % motion)
    assert button.get_attribute("aria-pressed") == "false"
    # A plain video next to it hides the LIVE button.
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_RIGHT)
    wait(browser, "return document.querySelector('.viewer-live').hidden")
