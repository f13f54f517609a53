"""`gallerygen serve` as a user meets it: the real binary started on a free
port, its answers checked over HTTP (types, byte ranges, validators, caching,
folders, paths that try to leave OUT), and a page open in headless Chromium
that reloads by itself and shows a photo added to SOURCE."""
import http.client
import json
import os
import shutil
import signal
import subprocess
import tempfile
import time

import pytest
from PIL import Image
from selenium.webdriver.common.by import By

from conftest import ROOT, gallerygen, gallerygen_serve, make_driver, wait


@pytest.fixture(scope="module")
def served():
    work = tempfile.mkdtemp(prefix="gallerygen-serve-")
    library = os.path.join(work, "library")
    shutil.copytree(os.path.join(ROOT, "Examples", "sample-library"), library)
    clips = os.path.join(library, "Clips")
    os.makedirs(clips)
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=320x240:r=25:d=2", "-c:v", "libx264",
                    "-pix_fmt", "yuv420p", os.path.join(clips, "clip.mp4")], check=True)
    with open(os.path.join(library, "gallery.yml"), "w") as f:
        f.write("title: Serve test\nbase_url: https://photos.example.org/\nthumbnail_sizes: [280x210]\npreview_sizes: [640x480]\n")
    out = os.path.join(work, "site")
    try:
        # Ctrl-C stops it at once, with the status of an interrupted program.
        for port, _ in gallerygen_serve(library, out):
            yield {"port": port, "library": library, "out": out, "work": work}
    finally:
        shutil.rmtree(work, ignore_errors=True)


def request(served, path, method="GET", headers=None):
    """The raw answer to `path`, sent as it is (no client-side clean-up of `..`)."""
    connection = http.client.HTTPConnection("127.0.0.1", served["port"], timeout=20)
    connection.putrequest(method, path, skip_accept_encoding=True)
    for name, value in (headers or {}).items():
        connection.putheader(name, value)
    connection.endheaders()
    response = connection.getresponse()
    body = response.read()
    connection.close()
    return response, body


def first(out, folder, suffix):
    for base, _, names in sorted(os.walk(os.path.join(out, folder))):
        for name in sorted(names):
            if name.endswith(suffix):
                return os.path.relpath(os.path.join(base, name), out)
    raise AssertionError(f"no {suffix} under {folder}")


def test_files_are_served_with_their_types_and_caching(served):
    out = served["out"]
    expected = {
        "/": "text/html; charset=utf-8",
        "/static/style.css": "text/css; charset=utf-8",
        "/static/viewer.js": "text/javascript; charset=utf-8",
        "/" + first(out, "media", ".webp"): "image/webp",
        "/" + first(out, "media", ".mp4"): "video/mp4",
        "/sitemap.xml": "application/xml",
        "/feed.xml": "application/xml",
    }
    for path, content_type in expected.items():
        response, body = request(served, path)
        assert response.status == 200, path
        assert response.getheader("Content-Type") == content_type, path
        assert response.getheader("ETag") and response.getheader("Last-Modified"), path
        cache = response.getheader("Cache-Control")
        assert cache == ("public, max-age=31536000, immutable" if path.startswith("/media/") else "no-cache"), (path, cache)
    # A folder: redirected to its slash, then its index.html.
    album = "/" + first(out, "albums", "index.html")[: -len("/index.html")]
    response, _ = request(served, album)
    assert response.status == 301 and response.getheader("Location") == album + "/"
    response, body = request(served, album + "/")
    assert response.status == 200 and b"<html" in body
    # HEAD: the headers of GET, no body.
    response, body = request(served, "/static/style.css", method="HEAD")
    assert response.status == 200 and body == b"" and int(response.getheader("Content-Length")) == os.path.getsize(os.path.join(out, "static/style.css"))
    response, _ = request(served, "/", method="POST")
    assert response.status == 405


def test_a_video_answers_ranges_and_validators_give_304(served):
    path = "/" + first(served["out"], "media", ".mp4")
    size = os.path.getsize(os.path.join(served["out"], path[1:]))
    with open(os.path.join(served["out"], path[1:]), "rb") as f:
        data = f.read()
    response, body = request(served, path, headers={"Range": "bytes=100-199"})
    assert response.status == 206
    assert response.getheader("Content-Range") == f"bytes 100-199/{size}"
    assert body == data[100:200]
    response, body = request(served, path, headers={"Range": "bytes=-50"})
    assert response.status == 206 and body == data[-50:]
    response, body = request(served, path, headers={"Range": f"bytes={size - 10}-"})
    assert response.status == 206 and body == data[-10:]
    response, _ = request(served, path, headers={"Range": f"bytes={size}-"})
    assert response.status == 416 and response.getheader("Content-Range") == f"bytes */{size}"
    response, _ = request(served, path)
    assert response.getheader("Accept-Ranges") == "bytes"
    tag, modified = response.getheader("ETag"), response.getheader("Last-Modified")
    assert request(served, path, headers={"If-None-Match": tag})[0].status == 304
    assert request(served, path, headers={"If-Modified-Since": modified})[0].status == 304
    assert request(served, path, headers={"If-None-Match": '"other"'})[0].status == 200
    # An If-Range that no longer matches: the whole file.
    response, body = request(served, path, headers={"Range": "bytes=0-9", "If-Range": '"other"'})
    assert response.status == 200 and body == data


def test_nothing_outside_out_is_served(served):
    outside = os.path.join(served["work"], "secret.txt")
    with open(outside, "w") as f:
        f.write("not for the web")
    os.symlink(served["work"], os.path.join(served["out"], "escape"))
    os.symlink(outside, os.path.join(served["out"], "escape.txt"))
    try:
        for path in ["/../secret.txt", "/%2e%2e/secret.txt", "/%2E%2E%2Fsecret.txt", "/static/..%2f..%2fsecret.txt",
                     "/static/%2e%2e/%2e%2e/secret.txt", "/..%5csecret.txt", "/escape/secret.txt", "/escape.txt",
                     "/../../../../etc/passwd", "/%00index.html", "/.site.gallerygen/state.bin"]:
            response, body = request(served, path)
            assert response.status == 404, path
            assert b"not for the web" not in body and b"root:" not in body, path
    finally:
        os.remove(os.path.join(served["out"], "escape"))
        os.remove(os.path.join(served["out"], "escape.txt"))


def test_an_open_page_reloads_and_shows_a_photo_added_to_source(served):
    driver = make_driver(1280, 800)
    try:
        # The Coolpix album's page.
        album = next("/" + os.path.relpath(os.path.join(base, "index.html"), served["out"])
                     for base, _, names in os.walk(os.path.join(served["out"], "albums"))
                     if "index.html" in names and "coolpix" in base)
        driver.get(f"http://127.0.0.1:{served['port']}{album}")
        before = len(driver.find_elements(By.CSS_SELECTOR, ".photo-grid a"))
        assert before == 5
        driver.execute_script("window.gallerygenNotReloaded = true")
        Image.new("RGB", (800, 600), (200, 40, 90)).save(os.path.join(served["library"], "Coolpix walk", "DSCN9999.jpg"), quality=90)
        wait(driver, "return !window.gallerygenNotReloaded && document.querySelectorAll('.photo-grid a').length === 6", timeout=30)
        names = [a.get_attribute("href") for a in driver.find_elements(By.CSS_SELECTOR, ".photo-grid a")]
        assert any("dscn9999" in name for name in names), names
    finally:
        driver.quit()


def test_a_busy_port_is_said_before_any_build():
    """`serve` on a port something else listens on: one sentence saying what
    to do, exit 1, and no build (OUT is not even made)."""
    import socket
    work = tempfile.mkdtemp(prefix="gallerygen-busy-")
    blocker = socket.socket()
    try:
        blocker.bind(("127.0.0.1", 0))
        blocker.listen(1)
        port = blocker.getsockname()[1]
        library = os.path.join(work, "library")
        shutil.copytree(os.path.join(ROOT, "Examples", "sample-library"), library)
        out = os.path.join(work, "site")
        started = time.monotonic()
        result = subprocess.run([gallerygen(), "serve", library, "--output", out, "--port", str(port)],
                                capture_output=True, text=True, timeout=60)
        assert result.returncode == 1, result
        assert result.stderr.strip() == (f"gallerygen: error: port {port} is in use; choose another with --port, "
                                         "or --port 0 for any free one"), result.stderr
        assert not os.path.exists(out), "nothing was built"
        assert time.monotonic() - started < 10
    finally:
        blocker.close()
        shutil.rmtree(work, ignore_errors=True)


def test_ctrl_c_on_an_idle_serve_says_only_that_it_stopped():
    work = tempfile.mkdtemp(prefix="gallerygen-idle-")
    try:
        library = os.path.join(work, "library")
        shutil.copytree(os.path.join(ROOT, "Examples", "sample-library"), library)
        process = subprocess.Popen([gallerygen(), "serve", library, "--output", os.path.join(work, "site"), "--port", "0", "--quiet"],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert "Serving" in process.stdout.readline()
        time.sleep(0.5)
        process.send_signal(signal.SIGINT)
        assert process.wait(10) == 130
        said = process.stderr.read()
        assert said.strip().endswith("gallerygen: stopped (interrupted)"), said
        assert "completes the site" not in said, said
    finally:
        if process.poll() is None:
            process.kill()
        shutil.rmtree(work, ignore_errors=True)
