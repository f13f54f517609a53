"""Fixtures: build the sample library into a temporary site, serve it on
127.0.0.1 and drive it with headless Chromium (Debian's chromium + chromedriver)."""
import functools
import http.server
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


sys.path.insert(0, os.path.join(ROOT, "scripts"))
from benchlib import binary_under_test as gallerygen  # noqa: E402  (the binary under test, shared with Tests/scripts)


@pytest.fixture(scope="session")
def site():
    """The sample library built with 3 photos per page, so albums have several pages."""
    work = tempfile.mkdtemp(prefix="gallerygen-browser-")
    source = os.path.join(work, "library")
    shutil.copytree(os.path.join(ROOT, "Examples", "sample-library"), source)
    with open(os.path.join(work, "gallery.yml"), "w") as f:
        f.write("title: Browser test\nphotos_per_page: 3\nthumbnail_sizes: [280x210]\npreview_sizes: [640x480, 1280x960]\n")
    out = os.path.join(work, "site")
    subprocess.run([gallerygen(), "build", source, "--output", out, "--config", os.path.join(work, "gallery.yml"), "--quiet"],
                   check=True)
    yield out
    shutil.rmtree(work, ignore_errors=True)


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def serve(directory):
    """Serves `directory` on 127.0.0.1 while the generator is open; yields its base URL."""
    handler = functools.partial(QuietHandler, directory=directory)
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()


def gallerygen_serve(library, out, *extra):
    """Runs `gallerygen serve LIBRARY --output OUT --port 0 --quiet` while the
    generator is open; yields (its port, the lines it printed after the first),
    and stops it as Ctrl-C does, checking it ends with an interrupted
    program's status."""
    import re
    import signal
    process = subprocess.Popen([gallerygen(), "serve", library, "--output", out, "--port", "0", "--quiet", *extra],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = process.stdout.readline()
    match = re.search(r"at http://127\.0\.0\.1:(\d+)/", line)
    assert match, (line, process.stderr.read() if process.poll() is not None else "")
    yield int(match.group(1)), process.stdout
    process.send_signal(signal.SIGINT)
    try:
        assert process.wait(10) == 130
    finally:
        if process.poll() is None:
            process.kill()


def serve_each(sites):
    """Serves each of `sites` (name → folder) at once; yields name → base URL."""
    generators = {name: serve(folder) for name, folder in sites.items()}
    yield {name: next(generator) for name, generator in generators.items()}
    for generator in generators.values():
        next(generator, None)


@pytest.fixture(scope="session")
def server(site):
    yield from serve(site)


def make_driver(width, height, javascript=True):
    options = Options()
    for arg in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars"]:
        options.add_argument(arg)
    binary = shutil.which("chromium") or shutil.which("chromium-browser")
    if binary:
        options.binary_location = binary
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    if not javascript:
        options.add_experimental_option("prefs", {"profile.managed_default_content_settings.javascript": 2})
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=options)
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})
    return driver


@pytest.fixture
def browser():
    driver = make_driver(1280, 800)
    yield driver
    driver.quit()


@pytest.fixture
def phone():
    driver = make_driver(390, 844)
    yield driver
    driver.quit()


@pytest.fixture
def no_js_browser():
    driver = make_driver(1280, 800, javascript=False)
    yield driver
    driver.quit()


def wait(driver, script, *arguments, timeout=10.0):
    """Polls `script` (given `arguments`) in the page until it returns something true."""
    end = time.time() + timeout
    while time.time() < end:
        value = driver.execute_script(script, *arguments)
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for: {script}")
