"""What every browser test needs, once: Debian's Chromium through
Playwright (skipping the importing test module, and saying why, where either
is missing), the simulator spawned as a process of its own, and the page's
waits and hands (a cell's centre, a drag, a click, a whole move by its
footprint).

Importing this module from a test module skips that module when Playwright
or Chromium is missing (`make browser-deps` installs Chromium)."""
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
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    from playwright.sync_api import sync_playwright
except ImportError:  # pragma: no cover - requirements-dev.txt pins it
    sync_playwright = None

if sync_playwright is None:
    pytest.skip("playwright is not installed (pip install -r requirements-dev.txt)", allow_module_level=True)
if not os.path.exists(CHROMIUM):
    pytest.skip(
        "no Chromium at %s: `make browser-deps` installs Debian's chromium (needs root and apt)" % CHROMIUM,
        allow_module_level=True,
    )


class Spawned:
    """`python -m simulator --game GAME` in a process of its own, on a free
    port with a fresh flash (removed by stop())."""

    def __init__(self, game="nehren", seed=5, extra=()):
        self.state = tempfile.mkdtemp(prefix="triad-browser-%s-" % game)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "simulator", "--game", game, "--no-browser", "--port", "0",
             "--state-dir", self.state, "--seed", str(seed)] + list(extra),
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


def spawned_url(game):
    """A module fixture's body: the game's simulator for the module's tests."""
    sim = Spawned(game)
    try:
        yield sim.url
    finally:
        sim.stop()


def chromium():
    """A module fixture's body: Debian's Chromium, headless."""
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
        yield b
        b.close()


# How long a browser test waits for what the page should show. Generous:
# a wait costs only what it takes when the page is right, and CI's 2-core
# machine runs two test workers beside Chromium and the simulated boards
# (waits of 15-30 s timed out there, issue 34). Speed is never the check.
WAIT_MS = 60000


def open_page(browser, url, width=1360, height=900, timeout=WAIT_MS):
    """A new page of browser on url, once the page's live channel is up."""
    pg = browser.new_page(viewport={"width": width, "height": height})
    pg.set_default_timeout(timeout)
    pg.goto(url)
    pg.wait_for_selector("#conn[data-state=live]")
    return pg


def page_at(url, width=1360, height=900):
    """A module fixture's body: one Chromium page on url, live."""
    browsers = chromium()
    b = next(browsers)
    try:
        yield open_page(b, url, width, height)
    finally:
        browsers.close()  # the browser closed, Playwright stopped


# -- what the page shows --------------------------------------------------------


def wait_state(page, state, timeout=WAIT_MS):
    try:
        page.wait_for_function("s => document.querySelector('#fw-state').textContent === s", arg=state,
                               timeout=timeout)
    except PlaywrightTimeout:
        raise AssertionError("the page's state is not %r: %s" % (state, shown(page))) from None


def shown(page):
    """What the page shows, for a failure's message."""
    try:
        return page.evaluate("""() => {
          const t = (id) => (document.querySelector('#' + id)?.textContent || '').trim();
          const f = window.triadSim && window.triadSim.frame;
          const log = t('log').split('\\n').slice(-12).join(' | ');
          return `state ${t('fw-state')}; headline ${t('turn')}; msg ${t('msg')}; ` +
                 (f ? `position ${f.position}; moves ${f.moves}; hand ${f.hand}; fix ${f.fix_record}; ` : '') +
                 `log ... ${log}`;
        }""")
    except Exception as e:  # (the page itself gone)
        return "(the page could not be read: %s)" % e


def wait_text(page, selector, text, timeout=WAIT_MS):
    page.wait_for_function(
        "([s, t]) => (document.querySelector(s)?.textContent || '').includes(t)", arg=[selector, text], timeout=timeout
    )


def moves_text(page):
    return " ".join(page.inner_text("#moves").split())


def load(page, text):
    """A position typed in the page's box and loaded: the board in play."""
    if page.inner_text("#turn") == "Power off":
        # A test that failed half-way may have left the board unpowered.
        page.click("#power-on")
        page.wait_for_function("() => document.querySelector('#turn').textContent !== 'Power off'")
    page.fill("#load", text)
    page.click("#load-btn")
    wait_loaded(page, text)


def wait_loaded(page, text):
    """The board in play from the position just loaded, and the page
    showing it so. The board's own answer to `state` is the proof: the
    page's log lines and frames arrive apart, and a check of the page alone
    let two fresh runs put a gem down while the board was still syncing the
    table to the new position (issue 34)."""
    deadline = time.monotonic() + WAIT_MS / 1000.0
    while True:
        said = ask_state(page)
        if said == "ok state play " + text:
            break
        if time.monotonic() > deadline:
            raise AssertionError("the board is not in play from %s: it says %r; %s" % (text, said, shown(page)))
        page.wait_for_timeout(100)
    try:
        page.wait_for_function(
            """t => document.querySelector('#pos').value === t &&
                   document.querySelector('#fw-state').textContent === 'play'""", arg=text)
    except PlaywrightTimeout:
        raise AssertionError("the page does not show play from %s: %s" % (text, shown(page))) from None
    wait_settled(page)


def ask_state(page):
    """The board's reply to a `state` typed on the page's serial line."""
    return serial_reply(page, "state")


def serial_reply(page, line):
    """A line typed on the page's serial line, and the board's reply to it
    as the page's log shows it. Only log lines that came after it count: the
    log keeps its last 600 lines, so counting a command's earlier copies
    stops working once the first of them scroll away, and an earlier
    identical reply is not this one's."""
    page.evaluate("() => { for (const d of document.querySelector('#log').children) d.dataset.seen = '1'; }")
    page.fill("#serial", line)
    page.click("#serial-btn")
    reply = page.wait_for_function(
        """line => {
          const fresh = [...document.querySelectorAll('#log > :not([data-seen])')].map(d => d.textContent);
          const i = fresh.lastIndexOf('> ' + line);
          return i >= 0 && fresh.slice(i + 1).find(t => t.startsWith('ok ') || t.startsWith('err ')) || null;
        }""", arg=line)
    return reply.json_value().strip()


# -- hands ------------------------------------------------------------------------


def centre(page, cell):
    """Where a person presses to touch `cell`: its centre on the screen once
    the pointer really lands on it there. (A page taller than the window may
    have scrolled the board away; and a frame that arrives just then may
    change the page's height, the browser clamps the scroll and the board
    moves under a point measured a moment before: a press at the old point
    lands beside the board and does nothing.)"""
    loc = page.locator('[data-cell="%s"]' % cell)
    deadline = time.monotonic() + 10.0
    while True:
        loc.scroll_into_view_if_needed()
        b = loc.bounding_box()
        x, y = b["x"] + b["width"] / 2, b["y"] + b["height"] / 2
        if _hits(page, x, y, cell) or time.monotonic() > deadline:
            return x, y
        page.wait_for_timeout(50)


def _hits(page, x, y, cell):
    """Whether a press at (x, y) lands on `cell` now."""
    return page.evaluate("""([x, y, cell]) => { const e = document.elementFromPoint(x, y);
                              return !!(e && e.closest && e.closest('[data-cell="' + cell + '"]')); }""",
                         [x, y, cell])


def wait_settled(page):
    """The page's layout at rest: the board where it was 150 ms ago and the
    scroll too (a new position's first frames empty the move list and the
    review card, the page grows shorter and the browser clamps its scroll,
    which moves the board on the screen)."""
    where = "() => { const b = document.querySelector('#board').getBoundingClientRect(); return [b.x, b.y, window.scrollY]; }"
    last = page.evaluate(where)
    for _ in range(40):
        page.wait_for_timeout(150)
        now = page.evaluate(where)
        if now == last:
            return
        last = now


def drag(page, fr, to, steps=12):
    """Press on a piece and slide it along the board to another cell."""
    for _ in range(20):
        x1, y1 = centre(page, to)
        x0, y0 = centre(page, fr)
        if _hits(page, x1, y1, to):  # (the page did not move meanwhile)
            break
    page.mouse.move(x0, y0)
    page.mouse.down()
    page.mouse.move(x0 + 8, y0, steps=2)
    page.mouse.move(x1, y1, steps=steps)
    page.mouse.up()


def click(page, cell, **kw):
    x, y = centre(page, cell)
    page.mouse.click(x, y, **kw)


def play(page, G, pos, m, settle_ms=900):
    """Move m carried out with the mouse, step by step of its footprint:
    the slide dragged, captured pieces knocked off (right click), a piece
    of the role's colour taken from the box and put down. Returns the
    landing cell."""
    from array import array

    from triad.games import LIFT, PLACE

    fp = array("i", bytes(4 * 32))
    steps = [((fp[j] >> 8) & 3, G.SITE_NAMES[fp[j] & 255], fp[j] >> 10) for j in range(G.footprint(pos, m, fp))]
    assert steps[0][0] == LIFT and steps[1][0] == PLACE
    drag(page, steps[0][1], steps[1][1])
    for act_, site, role in steps[2:]:
        page.wait_for_timeout(settle_ms)  # the landing settles: the board asks for what follows
        if act_ == LIFT:
            click(page, site, button="right")
        else:
            page.click('[data-take="%s"]' % G.SIDES[role - G.ROLE_RED])
            click(page, site)
    return steps[1][1]
