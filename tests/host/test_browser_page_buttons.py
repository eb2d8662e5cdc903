"""The page's hardware buttons and their place in the window (issue 35,
defects 10 and 12), in a real headless Chromium (browser_kit)."""
import pytest

from browser_kit import Spawned, chromium, load, open_page

NEHREN_POS = "....../....../..b1.../....../w2b2..../.....w1 b 0 0"


@pytest.fixture(scope="module")
def browser():
    yield from chromium()


@pytest.fixture(scope="module")
def nehren():
    sim = Spawned("nehren")
    try:
        yield sim.url
    finally:
        sim.stop()


def hint_lit(page, timeout=5000):
    page.wait_for_function(
        "() => [...document.querySelectorAll('.cell .led')].some(e => e.dataset.led === 'hint')", timeout=timeout)


def test_a_zero_length_click_on_a_button_is_a_short_press(browser, nehren):
    # Defect 12: Playwright's click is a mouse down and up with no time
    # between (a quick tap); the hint button must answer it as it answers
    # a 150 ms press: the hinted piece lit.
    page = open_page(browser, nehren)
    try:
        load(page, NEHREN_POS)
        page.click("#btn-hint")
        hint_lit(page)
        # the two edges in one breath (a tap while the page still waits for
        # the board's answer to something else)
        load(page, NEHREN_POS)
        page.wait_for_function(
            "() => ![...document.querySelectorAll('.cell .led')].some(e => e.dataset.led === 'hint')")
        page.evaluate("""() => {
            const b = document.querySelector('#btn-hint');
            const o = {bubbles: true, pointerId: 1, isPrimary: true, button: 0};
            b.dispatchEvent(new PointerEvent('pointerdown', o));
            b.dispatchEvent(new PointerEvent('pointerup', o));
        }""")
        hint_lit(page)
        # and with the keyboard on the focused button (no pointer at all)
        load(page, NEHREN_POS)
        page.wait_for_function(
            "() => ![...document.querySelectorAll('.cell .led')].some(e => e.dataset.led === 'hint')")
        page.focus("#btn-hint")
        page.keyboard.press("Enter")
        hint_lit(page)
    finally:
        page.close()
