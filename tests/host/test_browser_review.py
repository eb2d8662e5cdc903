"""The Review card of the simulator's page in a real headless Chromium
(issue 46): a game played with the mouse to its end, then looked back on:
the page lists its moves with the mark and its words, draws the evaluation
graph (one point a turn, the marked turn red), a click on a point shows that
turn on the board (the better move lit in cyan), and try again from there
ends in the page's "as good as the better move"; the game saved as a record
and opened again is reviewed on the page."""
import pytest

from browser_kit import WAIT_MS, Spawned, chromium, load, open_page, play, wait_state, wait_text  # (skips without a browser)

# White's c3b3xb2 lets Black's a3b2xb1 make the third Triad; b2b5 does not.
START = "w3..w2../....../.....b3/b2.w3.../.w1..w2b1/.b1.... w 2 1"


@pytest.fixture(scope="module")
def browser():
    yield from chromium()


def test_a_game_reviewed_on_the_page(browser):
    from triad.games import load as load_game

    G = load_game("nehren")
    sim = Spawned("nehren")
    pg = open_page(browser, sim.url, timeout=WAIT_MS)
    try:
        load(pg, START)
        pos = G.parse_position(START)
        for text in ("c3b3xb2", "a3b2xb1"):
            m = G.parse_move(pos, text)
            play(pg, G, pos, m)
            pos.make(m)
            pg.wait_for_timeout(1000)
        wait_state(pg, "over")
        pg.click("#review > summary")
        pg.click("#review-on")
        # The graph: one point a turn, the marked turn's red.
        pg.wait_for_function("() => document.querySelectorAll('#review-graph circle').length === 2")
        assert pg.locator("#review-graph circle.marked").count() == 1
        assert pg.get_attribute("#review-graph circle.marked", "data-ply") == "1"
        items = pg.locator("#review-list li")
        assert items.count() == 2
        assert "allows win: after c3b3xb2 Black wins at once with a3b2xb1; b2b5 leaves no such win" in items.nth(0).inner_text()
        assert "—" not in items.nth(1).inner_text()  # the winning move is not marked
        # A click on the marked point: that turn on the board, the better move lit.
        pg.click("#review-graph circle.marked")
        wait_text(pg, "#review-now", "Turn 1 of 2: c3b3xb2 (before it: %s)." % START)  # the position at that turn
        wait_text(pg, "#review-now", "The better move b2b5 is lit")
        pg.wait_for_function("() => document.querySelector('[data-cell=\"b2\"] .led')?.dataset.led === 'hint'")
        # Try again from before it: the pieces placed as the board shows, the better move played.
        pg.click("#review-try")
        wait_text(pg, "#review-now", "Try again")
        wait_state(pg, "play")
        play(pg, G, G.parse_position(START), G.parse_move(G.parse_position(START), "b2b5"))
        wait_text(pg, "#review-now", "b2b5 is as good as the better move")
        pg.click("#review-off")
        pg.wait_for_function("() => document.querySelector('#review-graph').hasAttribute('hidden')")
        # The game saved as a record, and opened again: reviewed on the page.
        with pg.expect_download() as dl:
            pg.click("#review-save")
        path = dl.value.path()
        with open(path) as f:
            assert f.read().startswith("# triad-record 1\nGame: nehren\n")
        pg.set_input_files("#review-open", str(path))
        wait_text(pg, "#review-now", "Record, turn 2 of 2: a3b2xb1")
        assert pg.locator("#review-graph circle").count() == 2
        pg.click("#review-graph circle.marked")
        wait_text(pg, "#review-now", "Record, turn 1 of 2: c3b3xb2 (before it: %s). Allows win: after c3b3xb2" % START)
    finally:
        pg.close()
        sim.stop()
