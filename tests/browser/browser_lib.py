"""What the browser tests share (tests/browser/, docs/testing.md#the-status-page-in-a-real-browser):
Debian's headless Chromium driven by Selenium through Debian's chromedriver (no browser is downloaded),
`status-store run` services started and stopped by PID, statuses written by other processes
(`status-store put`, `status-store demo`, fleet_writer), and small HTTP helpers."""
import json
import os
import re
import signal
import socket
import subprocess
import tempfile
import time
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"


def browser(width=1400, height=1000):
    """A fresh headless Chromium with the flags this workplace needs (no background networking: the
    network is closed) and an empty profile; alerts are left open so a test can see one."""
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage", f"--window-size={width},{height}",
                 "--user-data-dir=" + tempfile.mkdtemp(prefix="status-store-chromium-")):
        options.add_argument(flag)
    options.set_capability("unhandledPromptBehavior", "ignore")
    return webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class StoreService:
    """One `status-store run`, stopped by its PID only."""

    def __init__(self, binary, workdir, name, args):
        self.binary, self.workdir, self.name, self.args = binary, workdir, name, args
        self.proc = None
        self.url = self.bootstrap = None

    def start(self, timeout=60):
        self.out = open(os.path.join(self.workdir, self.name + ".out"), "w")
        self.err = open(os.path.join(self.workdir, self.name + ".err"), "w")
        self.proc = subprocess.Popen([self.binary, "run", *self.args], stdout=self.out, stderr=self.err)
        deadline = time.time() + timeout
        while time.time() < deadline:
            text = open(self.out.name).read()
            m = re.search(r"on (\S+); HTTP on (http://[0-9.]+:[0-9]+)", text)
            if m:
                self.bootstrap, self.url = m.group(1), m.group(2)
                return self
            if self.proc.poll() is not None:
                break
            time.sleep(0.1)
        raise AssertionError(f"{self.name} did not start: {open(self.err.name).read()[-2000:]}")

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None


def get_json(url, timeout=10):
    with urllib.request.urlopen(url, timeout=timeout) as r:
        return json.loads(r.read())


def connect_view(url):
    """Connect's ?expand=status: the truth the page is checked against."""
    return {name: v["status"] for name, v in get_json(url + "/connectors?expand=status").items()}


def wait_until(what, predicate, timeout, interval=0.05):
    deadline = time.time() + timeout
    while time.time() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")


def click(driver, css, timeout=10):
    """Clicks the element `css` selects, again if the page re-rendered it meanwhile."""
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.by import By
    deadline = time.time() + timeout
    while True:
        try:
            driver.find_element(By.CSS_SELECTOR, css).click()
            return
        except StaleElementReferenceException:
            if time.time() > deadline:
                raise


def run_tool(binary, *args, timeout=60):
    done = subprocess.run([binary, *args], capture_output=True, text=True, timeout=timeout)
    if done.returncode != 0:
        raise AssertionError(f"{os.path.basename(binary)} {args[0]} exited {done.returncode}: {done.stdout[-1500:]} {done.stderr[-1500:]}")
    return done


class Checks:
    """Counts checks as the app tests do (tests/app/check_lib.sh) and ends with 'N passed, N failed'."""

    def __init__(self):
        self.passed = self.failed = 0

    def check(self, name, condition, detail=""):
        if condition:
            self.passed += 1
            print(f"ok   {name}", flush=True)
        else:
            self.failed += 1
            print(f"FAIL {name}" + (f": {detail}" if detail else ""), flush=True)
        return condition

    def summary(self):
        print(f"\n{self.passed} passed, {self.failed} failed", flush=True)
        return 0 if self.failed == 0 else 1
