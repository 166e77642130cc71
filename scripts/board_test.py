#!/usr/bin/env python3
"""The web board in a real browser: headless Chromium driven by Selenium.

Starts `pbrain-ferrum board --port 0` (the engine: the same binary, one thread), then
in the page: plays a move by clicking and sees the engine's stone, analyses and sees
the live principal variation as ghost stones, undoes, sets up a renju position by
clicks and checks the forbidden marks against the engine's own YXSHOWFORBID, saves a
.psq and loads it back. Writes a screenshot of the game to SCREENSHOT (default: a
temporary file; docs/board.png is made with SCREENSHOT=docs/board.png).

Usage: scripts/board_test.py [BINARY]   (default target/release/pbrain-ferrum)
Exit status 0 when every check passed.
"""

import os
import re
import subprocess
import sys
import tempfile
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BINARY = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "target/release/pbrain-ferrum")
WAIT = 20  # seconds for any one thing to show


def start_server():
    server = subprocess.Popen(
        [BINARY, "board", "--port", "0", "--engine", f"{BINARY} --threads 1"],
        stdout=subprocess.PIPE,
        text=True,
    )
    line = server.stdout.readline()
    match = re.search(r"http://\S+/", line)
    if not match:
        server.kill()
        sys.exit(f"no address from the server: {line!r}")
    return server, match.group(0)


def start_browser():
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for arg in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1100,800", "--hide-scrollbars"]:
        options.add_argument(arg)
    # Debian's driver, never a downloaded one.
    os.environ["SE_OFFLINE"] = "true"
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    # A fixed viewport, whatever the window around it.
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": 1040, "height": 700, "deviceScaleFactor": 1, "mobile": False})
    return driver


def engine_forbidden(stones):
    """Black's forbidden points by the engine's YXSHOWFORBID for `stones` (game order)."""
    own = len(stones) % 2  # the side to move owns field 1
    lines = ["START 15", "INFO rule 4", "YXBOARD"]
    lines += [f"{x},{y},{1 if i % 2 == own else 2}" for i, (x, y) in enumerate(stones)]
    lines += ["DONE", "YXSHOWFORBID", "END"]
    out = subprocess.run([BINARY], input="\n".join(lines) + "\n", capture_output=True,
                         text=True, timeout=20).stdout
    reply = next(l for l in out.splitlines() if l.startswith("FORBID"))
    digits = reply[len("FORBID"):].strip().rstrip(".")
    return {(int(digits[i:i + 2]), int(digits[i + 2:i + 4])) for i in range(0, len(digits), 4)}


class Page:
    def __init__(self, driver):
        self.d = driver

    def wait(self, what, check):
        try:
            return WebDriverWait(self.d, WAIT, poll_frequency=0.05,
                                 ignored_exceptions=[StaleElementReferenceException]).until(lambda _: check())
        except Exception as e:
            sys.exit(f"FAILED: {what} ({type(e).__name__}); status {self.text('status')!r}, message {self.text('message')!r}")

    def text(self, id_):
        return self.d.find_element(By.ID, id_).text

    def stones(self):
        return int(self.d.find_element(By.ID, "status").get_attribute("data-stones") or -1)

    def thinking(self):
        return self.d.find_element(By.ID, "status").get_attribute("data-thinking")

    def click_cell(self, x, y):
        self.d.find_element(By.CSS_SELECTOR, f'#board rect.cell[data-x="{x}"][data-y="{y}"]').click()

    def button(self, id_):
        self.d.find_element(By.ID, id_).click()

    def select(self, id_, value):
        Select(self.d.find_element(By.ID, id_)).select_by_value(value)

    def set_number(self, id_, value):
        e = self.d.find_element(By.ID, id_)
        e.clear()
        e.send_keys(str(value))
        self.d.find_element(By.ID, "status").click()  # blur: fires `change`

    def marks(self, css):
        # One script call: the page redraws the board under a list of elements.
        found = self.d.execute_script(
            "return [...document.querySelectorAll(arguments[0])].map(e => [+e.dataset.x, +e.dataset.y]);", css)
        return {(x, y) for x, y in found}


def main():
    started = time.time()
    server, url = start_server()
    driver = start_browser()
    page = Page(driver)
    try:
        driver.get(url)
        page.wait("the first state", lambda: page.stones() == 0)
        page.set_number("time", 300)
        page.select("black", "human")
        page.select("white", "engine")

        # A click plays; the engine answers with a stone and its search lines.
        page.click_cell(7, 7)
        page.wait("the engine's answer", lambda: page.stones() == 2 and not page.thinking())
        assert page.text("depth") and page.text("pv"), "no search line shown"
        page.click_cell(7, 7)
        page.wait("an occupied point refused", lambda: "taken" in page.text("message"))

        # Analysis: the live principal variation as numbered ghost stones, then Stop.
        page.button("analyse")
        page.wait("ghost stones of the live PV", lambda: len(page.marks("#board g.ghost")) >= 2)
        page.button("stop")
        page.wait("the analysis stopped", lambda: not page.thinking())
        assert page.stones() == 2, "analysis must not play"
        page.button("undo")
        page.wait("undo back to the human's turn", lambda: page.stones() == 0)

        # Renju set up by hand: Black's double-three at 7,7 (and what else the engine finds).
        page.select("white", "human")
        page.select("rule", "renju")
        page.button("new")
        page.wait("a renju board", lambda: page.stones() == 0 and "renju" in driver.current_url)
        stones = [(8, 7), (0, 0), (9, 7), (14, 0), (7, 8), (0, 14), (7, 9), (14, 14)]
        for i, (x, y) in enumerate(stones):
            page.click_cell(x, y)
            page.wait(f"stone {i + 1}", lambda n=i + 1: page.stones() == n)
        shown = page.marks("#board g.forbid")
        expected = engine_forbidden(stones)
        assert (7, 7) in shown, f"no mark at 7,7: {shown}"
        assert shown == expected, f"marks {sorted(shown)} but YXSHOWFORBID {sorted(expected)}"
        page.click_cell(7, 7)
        page.wait("a forbidden click refused", lambda: "forbidden" in page.text("message"))

        # Save as .psq, clear the board, load the record back.
        page.button("save-psq")
        page.wait("the .psq text", lambda: driver.find_element(By.ID, "record").get_attribute("value").startswith("Piskvorky 15x15"))
        page.button("new")
        page.wait("an empty board", lambda: page.stones() == 0)
        page.button("load")
        page.wait("the game loaded back", lambda: page.stones() == len(stones))
        assert page.marks("#board g.forbid") == expected

        # A game in progress for the screenshot: freestyle, the engine on White.
        page.select("rule", "freestyle")
        page.select("white", "engine")
        page.button("new")
        page.wait("an empty board", lambda: page.stones() == 0)
        for k in range(3):
            taken = page.marks("#board circle.stone")
            x, y = next(p for p in [(7, 7), (8, 6), (6, 8), (6, 6), (8, 8), (9, 5)] if p not in taken)
            page.click_cell(x, y)
            page.wait("the engine's move", lambda n=2 * k + 2: page.stones() == n and not page.thinking())
        page.button("nbest")
        page.wait("candidates", lambda: len(page.marks("#board g.cand")) >= 3 and not page.thinking())
        # Move numbers on the stones, for the screenshot too.
        driver.find_element(By.ID, "numbers").click()
        page.wait("the move numbers", lambda: len(driver.find_elements(By.CSS_SELECTOR, "#board text.move")) == page.stones())
        # The record box shows this game, not the renju one saved above.
        page.button("save-psq")
        page.wait("this game's record", lambda: len(driver.find_element(By.ID, "record").get_attribute("value").splitlines()) == 1 + 6 + 3)
        shot = os.environ.get("SCREENSHOT") or os.path.join(tempfile.gettempdir(), "ferrum-board.png")
        driver.save_screenshot(shot)
    finally:
        driver.quit()
        server.terminate()
        server.wait(timeout=10)
    print(f"board test: every check passed in {time.time() - started:.1f} s (screenshot {shot})")


if __name__ == "__main__":
    main()
