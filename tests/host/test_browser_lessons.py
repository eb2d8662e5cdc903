"""The Lessons panel of Browne's and Cornelson's pages in a real headless
Chromium (tests/host/test_browser.py's way: Debian's chromium, `make
browser-deps`): a lesson of each game picked on the page, its pieces placed
as the board shows them, a wrong try for Browne, and the right turn played
with the mouse to the page's "Solved"."""
import os
import shutil
import subprocess
import sys
import tempfile
import time

import pytest

CHROMIUM = os.environ.get("TRIAD_CHROMIUM", "/usr/bin/chromium")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

try:
    from playwright.sync_api import sync_playwright
except ImportError:  # pragma: no cover - requirements-dev.txt pins it
    sync_playwright = None

if sync_playwright is None:
    pytest.skip("playwright is not installed (pip install -r requirements-dev.txt)", allow_module_level=True)
if not os.path.exists(CHROMIUM):
    pytest.skip("no Chromium at %s: `make browser-deps`" % CHROMIUM, allow_module_level=True)


class Spawned:
    """`python -m simulator --game GAME` on a free port with a fresh flash."""

    def __init__(self, game):
        self.state = tempfile.mkdtemp(prefix="triad-browser-lessons-")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "simulator", "--game", game, "--no-browser", "--port", "0",
             "--state-dir", self.state, "--seed", "5"],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.url = None
        end = time.monotonic() + 60
        while time.monotonic() < end:
            line = self.proc.stdout.readline()
            if not line:
                break
            if "running at " in line:
                self.url = line.split("running at ", 1)[1].strip()
                break
        if self.url is None:
            self.stop()
            raise RuntimeError("the simulator for %s did not start" % game)

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except Exception:
                self.proc.kill()
        shutil.rmtree(self.state, ignore_errors=True)


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
        yield b
        b.close()


def wait_text(page, selector, text, timeout=15000):
    page.wait_for_function(
        "([s, t]) => (document.querySelector(s)?.textContent || '').includes(t)", arg=[selector, text], timeout=timeout)


def wait_state(page, state, timeout=15000):
    page.wait_for_function("s => document.querySelector('#fw-state').textContent === s", arg=state, timeout=timeout)


def centre(page, cell):
    # (The open Lessons panel makes the page long: the box may scroll it.)
    loc = page.locator('[data-cell="%s"]' % cell)
    loc.scroll_into_view_if_needed()
    b = loc.bounding_box()
    return b["x"] + b["width"] / 2, b["y"] + b["height"] / 2


def click(page, cell, **kw):
    x, y = centre(page, cell)
    page.mouse.click(x, y, **kw)
    page.wait_for_timeout(150)


def drag(page, fr, to, steps=12):
    x0, y0 = centre(page, fr)
    x1, y1 = centre(page, to)
    page.mouse.move(x0, y0)
    page.mouse.down()
    page.mouse.move(x0 + 8, y0, steps=2)
    page.mouse.move(x1, y1, steps=steps)
    page.mouse.up()


def has_piece(page, cell):
    page.wait_for_function("c => !!document.querySelector(`[data-cell=\"${c}\"] .die`)", arg=cell)


def start_lesson(page, game, n):
    """The lesson picked in the Lessons panel: the board sets it up, the page
    places its pieces; returns the lesson's position."""
    sys.path.append(os.path.join(ROOT, "firmware"))
    from triad.games import load

    G = load(game)
    text = G.format_position(G.parse_position(G.LESSONS()[n - 1][1]))
    page.click("#lessons > summary")
    assert page.locator("#lesson-list button").count() == len(G.LESSONS())
    page.click('#lesson-list button[data-lesson="%d"]' % n)
    wait_text(page, "#lesson-now", "Lesson %d of %d" % (n, len(G.LESSONS())))
    page.wait_for_function("t => document.querySelector('#pos').value === t", arg=text)
    wait_state(page, "play")
    return G.LESSONS()[n - 1][0]


def _page(browser, sim):
    pg = browser.new_page(viewport={"width": 1360, "height": 900})
    pg.set_default_timeout(20000)
    pg.goto(sim.url)
    pg.wait_for_selector("#conn[data-state=live]")
    return pg


def test_a_browne_lesson_on_the_page(browser):
    sim = Spawned("browne")
    pg = _page(browser, sim)
    try:
        goal = start_lesson(pg, "browne", 3)  # capture the lit Green piece on A2
        assert goal in pg.inner_text("#msg")
        # Wrong: E5 to E4 captures Blue's F5, not A2; the board sets the
        # lesson up again and the page puts its pieces back.
        drag(pg, "E5", "E4")
        pg.wait_for_timeout(900)
        click(pg, "F5", button="right")  # the captured piece off
        pg.click('[data-take="b"]')  # the bunny piece (Blue) from the box
        click(pg, "B3")
        wait_text(pg, "#lesson-now", "Not this one (E5-E4@B3)")
        pg.click("#lesson-dice")
        wait_state(pg, "play")
        drag(pg, "E5", "A1")
        pg.wait_for_timeout(900)
        click(pg, "A2", button="right")
        pg.click('[data-take="b"]')
        click(pg, "E3")
        wait_text(pg, "#lesson-now", "Solved (E5-A1@E3)")
        wait_text(pg, "#lesson-now", "Lesson 4 of ", timeout=8000)
        pg.click("#lesson-off")
        pg.wait_for_function("() => document.querySelector('#lesson-off').hidden")
    finally:
        pg.close()
        sim.stop()


def test_a_cornelson_lesson_on_the_page(browser):
    sim = Spawned("cornelson")
    pg = _page(browser, sim)
    try:
        goal = start_lesson(pg, "cornelson", 3)  # chain capture: C4, then D4
        assert goal in pg.inner_text("#msg")
        pg.click('[data-take="s"]')  # a South gem from the box into the hand ...
        click(pg, "C5")  # ... and onto C5 (an empty hand puts nothing down)
        has_piece(pg, "C5")
        pg.wait_for_timeout(400)
        for post in ("C4", "D4"):  # each captured gem swapped in chain order
            click(pg, post)
            click(pg, post)
            pg.wait_for_timeout(400)
        click(pg, "a4")  # the jewel into the hand ...
        click(pg, "a5")  # ... and one border on
        wait_text(pg, "#lesson-now", "Solved (C5 a4-a5)")
        pg.click("#lesson-off")
        pg.wait_for_function("() => document.querySelector('#lesson-off').hidden")
    finally:
        pg.close()
        sim.stop()
