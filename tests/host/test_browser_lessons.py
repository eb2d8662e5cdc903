"""The Lessons panel of Browne's and Cornelson's pages in a real headless
Chromium (tests/host/test_browser.py's way: Debian's chromium, `make
browser-deps`): a lesson of each game picked on the page, its pieces placed
as the board shows them, a wrong try for Browne, and the right turn played
with the mouse to the page's "Solved"."""
import pytest

from browser_kit import WAIT_MS, Spawned, chromium, drag, open_page, wait_state, wait_text  # (skips without a browser)
from browser_kit import click as kit_click


@pytest.fixture(scope="module")
def browser():
    yield from chromium()


def click(page, cell, **kw):
    kit_click(page, cell, **kw)
    page.wait_for_timeout(150)


def has_piece(page, cell):
    page.wait_for_function("c => !!document.querySelector(`[data-cell=\"${c}\"] .die`)", arg=cell)


def start_lesson(page, game, n):
    """The lesson picked in the Lessons panel: the board sets it up, the page
    places its pieces; returns the lesson's position."""
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
    return open_page(browser, sim.url, timeout=WAIT_MS)


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
        wait_text(pg, "#lesson-now", "Lesson 4 of ")  # (by itself: nothing pressed)
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
