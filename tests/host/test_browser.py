"""End-to-end: the simulator's page in a real headless Chromium.

The server (simulator.web) runs the unchanged firmware in a background
thread on a free port with a fresh flash and a fixed seed; Playwright drives
Debian's system Chromium (/usr/bin/chromium, installed by `make
browser-deps`, part of `make test`). Everything is done the way a person
does it on the page (drags, clicks, right-clicks, holding buttons) and
checked on what the page shows: the LED colour under each cell (data-led,
the palette name of the colour the firmware wrote, and data-rgb), the move
list, the score, whose turn it is.
"""
import re
import shutil
import sys
import tempfile
import time

import pytest

from browser_kit import (  # (skips without a browser)
    WAIT_MS, Spawned, chromium, click, drag, load, moves_text, open_page, wait_state, wait_text)
from simulator.web import Running  # noqa: E402


@pytest.fixture(scope="module")
def browser():
    yield from chromium()


SEED = 11
TRIAD_POS = "....../....../..b1.../....../w2b2..../.....w1 b 0 0"


@pytest.fixture(scope="module")
def server():
    saved = {k: v for k, v in sys.modules.items() if k == "triad" or k.startswith("triad.")}
    state = tempfile.mkdtemp(prefix="triad-browser-")
    run = Running(state_dir=state, seed=SEED)
    try:
        yield run
    finally:
        run.stop()
        shutil.rmtree(state, ignore_errors=True)
        # The simulation re-imported the firmware; give later tests theirs.
        for k in [k for k in sys.modules if k == "triad" or k.startswith("triad.")]:
            del sys.modules[k]
        sys.modules.update(saved)


@pytest.fixture(scope="module")
def page(server, browser):
    pg = open_page(browser, server.url)
    yield pg
    pg.close()


# -- helpers: what the page shows ----------------------------------------------


def led(page, cell):
    return page.get_attribute('[data-cell="%s"] .led' % cell, "data-led")


def rgb(page, cell):
    return tuple(int(v) for v in page.get_attribute('[data-cell="%s"] .led' % cell, "data-rgb").split(","))


def die(page, cell):
    return page.get_attribute('[data-cell="%s"]' % cell, "data-die")


def wait_led(page, cell, names, timeout=WAIT_MS):
    """Until the cell's LED shows one of names (blinking colours show in
    their on phase). The page's long wait, not a few seconds: on a loaded
    2-core machine (two test workers and Chromium) 3 s once ran out before
    the page drew the wrong cell's blink (stop 42's fresh run)."""
    names = [names] if isinstance(names, str) else list(names)
    page.wait_for_function(
        "([c, n]) => n.includes(document.querySelector(`[data-cell=\"${c}\"] .led`).dataset.led)",
        arg=[cell, names],
        timeout=timeout,
    )


# -- helpers: hands ----------------------------------------------------------


def hold(page, button, ms):
    page.locator("#btn-" + button).hover()
    page.mouse.down()
    page.wait_for_timeout(ms)
    page.mouse.up()


def legal_targets(position, cell, plain=False):
    """{destination: value} of the die on cell, from the rules core (plain:
    only moves that form no Triad)."""
    from triad.games.nehren import core, notation

    pos = notation.parse_position(position)
    sq = notation.parse_cell(cell)
    out = {}
    for m in pos.legal_moves():
        if core.m_from(m) == sq and core.m_to(m) != sq and not (plain and core.m_removed(m)):
            out[notation.cell_name(core.m_to(m))] = core.m_new(m)
    return out


# -- the tests -----------------------------------------------------------------


def test_setup_roll_and_first_moves(page, server):
    # A fresh board rolls and waits for its dice on the home rows, each cell
    # blinking in its die's value colour.
    wait_state(page, "setup")
    start = page.input_value("#pos")
    assert start.endswith(" b 0 0"), start
    for cell in ("a1", "f1", "a6", "f6"):
        wait_led(page, cell, ["value1", "value2", "value3"])
    assert page.inner_text("#turn") == "Set-up"

    page.click("#setup-dice")
    wait_state(page, "play")
    wait_text(page, "#turn", "Black to move")
    assert die(page, "a1").startswith("b") and die(page, "a6").startswith("w")
    assert page.get_attribute("#status-36", "data-led") == "turn"  # Black's turn LED
    assert page.get_attribute("#status-37", "data-led") == "off"

    # Click a die: it goes into the hand; its cell shows grey, every legal
    # destination the value the die must be turned to.
    pos = page.input_value("#pos")
    targets = legal_targets(pos, "c1")
    assert targets
    click(page, "c1")
    page.wait_for_selector("#hand .mini")
    wait_led(page, "c1", "source")
    for cell, value in targets.items():
        assert led(page, cell) == "value%d" % value, (cell, led(page, cell))
    # Put it down on a destination with a click: the move is committed.
    to = sorted(targets)[0]
    click(page, to)
    wait_text(page, "#moves", "c1" + to)
    wait_text(page, "#turn", "White to move")
    assert die(page, to) == "b%d" % targets[to]  # the die was turned as it moved
    assert led(page, "c1") == "last" and led(page, to) == "last"
    assert rgb(page, to) == (6, 6, 6)  # LAST_MOVE (24,24,24) at brightness 64

    # White answers with a drag that slides the die across the board.
    pos = page.input_value("#pos")
    targets = legal_targets(pos, "d6")
    to = max(targets, key=lambda c: (targets[c], c))
    drag(page, "d6", to)
    wait_text(page, "#moves", "d6" + to)
    wait_text(page, "#turn", "Black to move")
    assert moves_text(page).startswith("1. c1")
    assert page.get_attribute("#status-36", "data-led") == "turn"


def test_illegal_move_then_corrected(page, server):
    load(page, TRIAD_POS)
    # c4 (a 1) can go to c2 (as a 2), c1 (as a 3) and others; d5 is no
    # destination.
    targets = legal_targets(TRIAD_POS, "c4")
    assert "d5" not in targets
    drag(page, "c4", "d5")
    wait_led(page, "d5", "error")  # the wrong cell blinks red
    page.wait_for_timeout(1200)  # well past the settle time: nothing committed
    assert moves_text(page) == "no moves yet"
    assert page.inner_text("#turn") == "Black to move"
    # Correct it: carry the die on to a legal cell (one forming no Triad).
    to = sorted(legal_targets(TRIAD_POS, "c4", plain=True))[0]
    drag(page, "d5", to)
    wait_text(page, "#moves", "c4" + to)
    wait_text(page, "#turn", "White to move")
    assert led(page, "d5") == "off"


def test_triad_and_removal(page, server):
    load(page, TRIAD_POS)
    assert page.inner_text("#score-b") == "0"
    # c4 -> c2 with value 2 makes w2-b2-b2 on rank 2.
    drag(page, "c4", "c2")
    wait_state(page, "remove")
    for cell in ("a2", "b2", "c2"):
        wait_led(page, cell, "triad")
    assert rgb(page, "a2") == (0, 64, 10)  # TRIAD (0,255,40) at brightness 64
    # Knock Black's b2 off the board (right-click): that is the removal.
    click(page, "b2", button="right")
    wait_text(page, "#moves", "c4c2xb2")
    wait_text(page, "#score-b", "1")
    wait_text(page, "#turn", "White to move")
    assert die(page, "b2") == ""
    assert page.get_attribute("#status-38", "data-led") == "status"  # Black's first Triad LED
    assert page.get_attribute("#triads-b", "data-n") == "1"


def test_knocked_die_resync_and_power_cut(page, server):
    load(page, TRIAD_POS)
    to = sorted(legal_targets(TRIAD_POS, "c4", plain=True))[0]
    drag(page, "c4", to)
    wait_text(page, "#moves", "c4" + to)
    # A die of the side not to move knocked off: its cell blinks white
    # until it is put back.
    click(page, "b2", button="right")
    wait_led(page, "b2", "missing")
    assert die(page, "b2") == ""
    click(page, "b2")  # put back from the box: the die the game expects
    page.wait_for_function("() => document.querySelector('[data-cell=\"b2\"]').dataset.die === 'b2'")
    wait_led(page, "c4", "last")
    # Power cut: the board goes dark; power on: the game is resumed from flash.
    page.click("#power-cut")
    wait_text(page, "#turn", "Power off")
    wait_led(page, to, "off")
    page.wait_for_function("() => document.querySelector('#status-37').dataset.led === 'off'")
    page.click("#power-on")
    wait_state(page, "play")
    wait_text(page, "#turn", "White to move")
    assert "c4" + to in moves_text(page)
    wait_led(page, to, "last")
    assert "evt resume" in page.inner_text("#log")


def test_win_display(page, server):
    # Black has two Triads; the third wins.
    load(page, TRIAD_POS.replace(" b 0 0", " b 2 0"))
    drag(page, "c4", "c2")
    wait_state(page, "remove")
    click(page, "c2", button="right")  # remove the moved die itself
    wait_state(page, "over")
    wait_text(page, "#turn", "Black wins")
    # Issue 24.13: the win announced with its reason, in the headline.
    assert page.inner_text("#turn") == "Black wins: three Triads made (3 to 0)"
    assert page.inner_text("#score-b") == "3"
    assert "c4c2xc2" in moves_text(page)
    # The win sweep runs across the board in Black's win colour.
    page.wait_for_function("() => [...document.querySelectorAll('.cell .led')].some(e => e.dataset.led === 'win-b')")
    for slot in (38, 39, 40):
        assert page.get_attribute("#status-%d" % slot, "data-led") == "status"


def test_hold_buttons(page, server):
    load(page, TRIAD_POS)
    # menu (short): every die shows its value's colour for a while.
    hold(page, "menu", 150)
    wait_led(page, "c4", "value1")
    assert led(page, "a2") == "value2" and led(page, "f1") == "value1"
    # hint (short): the suggested die's cell shows cyan.
    hold(page, "hint", 150)
    page.wait_for_function("() => [...document.querySelectorAll('.cell .led')].some(e => e.dataset.led === 'hint')")
    # new (held): a new game is rolled, waiting for its set-up.
    hold(page, "new", 1100)
    wait_state(page, "setup")
    wait_text(page, "#turn", "Set-up")
    assert moves_text(page) == "no moves yet"


# -- issue 16: a page that says what is going on ---------------------------------

def expected_dice(position):
    """{cell: "b2"} of a Nehren position, from the game's face."""
    from triad.games import nehren as G

    pos = G.parse_position(position)
    out = {}
    for i, name in enumerate(G.SITE_NAMES):
        o = G.owner(pos, i)
        out[name] = "" if o < 0 else "%s%d" % (G.SIDES[o], G.label(pos, i))
    return out


def act(page, *actions):
    return page.evaluate("(a) => window.triadSim.act(...a)", list(actions))


def test_setup_dice_replace_the_last_games(page, server):
    # Issue 16.1: home cells held dice of the wrong colour and value after
    # a game; "Place set-up dice" must leave exactly the new set-up.
    load(page, "b3w3b3w3b3w3/....../..w2.../....../....../w1b1.b1w1b1 b 0 0")
    hold(page, "new", 1100)
    wait_state(page, "setup")
    click(page, "c4")  # a die lifted into the hand, too
    page.wait_for_selector("#hand .mini")
    page.click("#setup-dice")
    wait_state(page, "play")
    want = expected_dice(page.input_value("#pos"))
    got = {c: die(page, c) for c in want}
    assert got == want
    page.wait_for_function("() => !document.querySelector('#hand .mini')")  # back in the box


def test_moved_die_turned_while_its_triad_waits(page, server):
    # Issue 16.2: d5 showed its old 2 while c4 d5 e6 pulsed as a Triad.
    load(page, "w2w2w2w2w2w1/....../....../....../....../b1b1b2b2b2b2 b 0 0")
    drag(page, "c1", "c4")
    wait_text(page, "#moves", "c1c4")
    drag(page, "d6", "d5")
    wait_state(page, "remove")
    assert die(page, "c4") == "b3"
    assert die(page, "d5") == "w1"  # turned as it was put down
    assert die(page, "e6") == "w2"
    # Lifted again and put back where it came from: its old value.
    click(page, "d5")
    page.wait_for_selector("#hand .mini")
    click(page, "d6")
    page.wait_for_function("() => document.querySelector('[data-cell=\"d6\"]').dataset.die === 'w2'")


def test_draw_is_named(page, server):
    # Issue 16.3: a third repetition ended the game as "Game over" with
    # White's turn dot. Both sides walk a die round a triangle twice.
    start = ".....w1/....../....../....../....../b1..... b 0 0"
    load(page, start)
    act(page, {"op": "speed", "x": 4})
    try:
        for k, mv in enumerate("a1a4 f6f3 a4a2 f3f5 a2a1 f5f6".split() * 2):
            act(page, {"op": "lift", "cell": mv[:2]}, {"op": "place", "cell": mv[2:]})
            page.wait_for_function("n => [...document.querySelectorAll('#moves tr:not(.empty) td:not(.n)')].filter(t => t.textContent).length >= n",
                                   arg=k + 1)
        wait_state(page, "over")
        wait_text(page, "#turn", "Draw")
        wait_text(page, "#turn", "repetition")  # (the headline says why; the line what to do: issue 35.13)
        wait_text(page, "#msg", "Press new")
        assert "wins" not in page.inner_text("#turn")
        assert "draw" in page.get_attribute("#turn-dot", "class")
    finally:
        act(page, {"op": "speed", "x": 1})


def test_faults_in_words(page, server):
    # Issue 16.4: the headline stayed at "Lift one of your dice" while the
    # board blinked a fault.
    load(page, TRIAD_POS)
    normal = page.inner_text("#msg")
    drag(page, "c4", "d5")  # no destination of c4
    wait_text(page, "#msg", "may not stand on d5")
    assert "c4" in page.inner_text("#msg")
    drag(page, "d5", "c4")  # back where it came from
    page.wait_for_function("t => document.querySelector('#msg').textContent === t", arg=normal)
    to = sorted(legal_targets(TRIAD_POS, "c4", plain=True))[0]
    drag(page, "c4", to)
    wait_text(page, "#moves", "c4" + to)
    click(page, "b2", button="right")  # Black's die knocked off on White's turn
    wait_text(page, "#msg", "back on b2")
    click(page, "b2")  # put back
    page.wait_for_function("() => !document.querySelector('#msg').classList.contains('fault')")
    page.click('#tools button[data-tool="stray"]')  # a stray object on an empty cell
    try:
        click(page, "e5")
    finally:
        page.click('#tools button[data-tool="hand"]')
    wait_text(page, "#msg", "stands on e5 off")
    click(page, "e5")  # lifted off again
    page.wait_for_function("() => !document.querySelector('#msg').classList.contains('fault')")


def test_headline_while_a_die_is_lifted(page, server):
    # Issue 24.13: the headline stayed "Lift one of your dice..." while a
    # die was lifted; it says what to do now.
    load(page, TRIAD_POS)
    assert page.inner_text("#msg").startswith("Lift one of your dice")
    click(page, "c4")
    page.wait_for_selector("#hand .mini")
    wait_text(page, "#msg", "Now put the die on a lit cell")
    assert "Lift one of your dice" not in page.inner_text("#msg")
    click(page, "c4")  # back on its own cell: the turn is not taken
    wait_text(page, "#msg", "Lift one of your dice")
    assert page.input_value("#pos") == TRIAD_POS


def test_empty_hand_on_an_empty_cell_does_nothing(page, server):
    # Issue 24.11: a click (or space) on an empty cell with nothing in hand
    # put a "?" object there that blinked red and blocked the game.
    load(page, TRIAD_POS)
    click(page, "e5")
    wait_text(page, "#msg", "Nothing in your hand")
    page.wait_for_timeout(400)
    assert die(page, "e5") == "" and page.locator("#hand .mini").count() == 0
    assert not page.evaluate("() => document.querySelector('#msg').classList.contains('fault')")
    page.focus("#board")
    page.keyboard.press("ArrowRight")  # the cursor on a6 (empty in TRIAD_POS)
    assert page.get_attribute(".cell.cursor", "data-cell") == "a6"
    page.keyboard.press("Space")
    wait_text(page, "#msg", "nothing was put on a6")
    page.wait_for_timeout(400)
    assert die(page, "a6") == ""
    assert page.input_value("#pos") == TRIAD_POS
    page.reload()  # the keyboard's cursor starts afresh for the next test


def test_a_piece_taken_from_the_box_and_put_down_at_once_lands(page, server):
    # A quick hand: a piece taken from the box and the cell clicked before
    # the page's frame shows it in the hand. The page decided from that
    # stale frame ("Nothing in your hand") and the piece stayed in the hand
    # (under load, a browser test's drop never happened and the turn never
    # ended). The board as it is decides, so the piece lands.
    load(page, TRIAD_POS)
    page.focus("#board")
    page.keyboard.press("ArrowRight")  # the cursor on a6 (empty in TRIAD_POS)
    assert page.get_attribute(".cell.cursor", "data-cell") == "a6"
    page.evaluate("""() => {
        document.querySelector('[data-take]').click();
        document.dispatchEvent(new KeyboardEvent('keydown', {key: ' ', bubbles: true}));
    }""")
    page.wait_for_function("() => document.querySelector('[data-cell=\"a6\"]').dataset.die")
    assert page.locator("#hand .mini").count() == 0
    assert "Nothing in your hand" not in page.inner_text("#msg")
    page.reload()  # the cursor afresh; the next test loads its own position
    page.wait_for_selector("#conn[data-state=live]")


def test_note2_announced_when_it_arises(page, server):
    # Issue 16.5: nothing said Note 2 until a die was lifted and put back.
    load(page, "....../....../....../....../w1w1..../b1w1.... b 0 0")
    page.wait_for_selector("#notice:not([hidden])")
    assert "Note 2" in page.inner_text("#notice")
    assert "evt notice note2" in page.inner_text("#log")
    load(page, TRIAD_POS)
    page.wait_for_selector("#notice", state="hidden")


def test_legend_and_the_boards_own_play(page, server):
    # Issue 16.7: every light in the legend; whether and how the board plays.
    legend = page.inner_text("#legend")
    for words in ("value 1", "lifted from", "wrong", "missing", "Triad", "last move", "hint",
                  "the board's move", "thinking", "level", "opponent set", "win", "draw", "not saved"):
        assert words in legend, words
    assert page.locator("#legend i.blink-fast").count() >= 1 and page.locator("#legend i.pulse").count() >= 1
    load(page, TRIAD_POS)
    wait_text(page, "#opponent", "plays nobody")
    page.fill("#serial", "set opponent w")
    page.click("#serial-btn")
    wait_text(page, "#opponent", "The board plays White at level")
    try:
        to = sorted(legal_targets(TRIAD_POS, "c4", plain=True))[0]
        drag(page, "c4", to)
        wait_text(page, "#moves", "c4" + to)
        wait_text(page, "#opponent", "Its move:", timeout=WAIT_MS)
        assert "lift " in page.inner_text("#opponent")
        # Issue 24 (2): the headline speaks to whoever carries the board's move out.
        wait_text(page, "#turn", "The board's move (White)")
        assert "Lift one of your" not in page.inner_text("#msg")
        assert "carry out its move for it: lift " in page.inner_text("#msg")
    finally:
        page.fill("#serial", "set opponent off")
        page.click("#serial-btn")
        wait_text(page, "#opponent", "plays nobody")


def test_keyboard_play_and_live_status(page, server):
    load(page, TRIAD_POS)
    assert page.get_attribute("#msg", "aria-live") == "polite"
    page.focus("#board")
    page.keyboard.press("ArrowRight")  # the cursor appears on the first site (a6)
    assert page.get_attribute(".cell.cursor", "data-cell") == "a6"
    for k in ("ArrowDown", "ArrowDown", "ArrowRight", "ArrowRight"):
        page.keyboard.press(k)
    assert page.get_attribute(".cell.cursor", "data-cell") == "c4"
    page.keyboard.press("Space")  # lift c4
    page.wait_for_selector("#hand .mini")
    wait_led(page, "c4", "source")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    assert page.get_attribute(".cell.cursor", "data-cell") == "c2"
    page.keyboard.press("Space")  # put it down: c4c2 makes a Triad
    wait_state(page, "remove")
    page.keyboard.press("m")  # menu: the values show
    wait_led(page, "f1", "value1")


def test_sound_cues_off_by_default(page, server):
    load(page, TRIAD_POS)
    assert page.get_attribute("#sound", "aria-pressed") == "false"
    drag(page, "c4", "d5")  # an error, silent
    wait_led(page, "d5", "error")
    drag(page, "d5", "c4")
    assert page.evaluate("window.triadSim.cues.length") == 0
    page.click("#sound")
    assert page.get_attribute("#sound", "aria-pressed") == "true"
    # The board's piezo follows the page's toggle (its setting `sound`).
    wait_text(page, "#log", "ok set sound on")
    to = sorted(legal_targets(TRIAD_POS, "c4", plain=True))[0]
    drag(page, "c4", to)
    wait_text(page, "#moves", "c4" + to)
    page.wait_for_function("() => window.triadSim.cues.includes('move')")
    page.click("#sound")
    wait_text(page, "#log", "ok set sound off")


def test_rules_card(page, server):
    card = page.locator("#rules")
    assert card.is_visible()
    assert card.get_attribute("open") is None  # collapsed until asked
    page.click("#rules summary")
    text = page.inner_text("#rules-text")
    for words in ("Triad", "Note 2", "0.8 s", "third time", "three Triads"):
        assert words in text, words
    page.click("#rules summary")


# -- pages of their own: a phone, another game, a stopped server ------------------


def fits(pg, width):
    """Every site and every button of the board inside the window's width."""
    boxes = pg.evaluate("""() => [...document.querySelectorAll('#board .cell, .hwbtn')].map(e => {
        const r = e.getBoundingClientRect(); return [e.dataset.cell || e.id, r.left, r.right]; })""")
    return [b for b in boxes if b[1] < 0 or b[2] > width]


@pytest.mark.parametrize("game", ["nehren", "browne", "cornelson"])
def test_phone_width(server, browser, game):
    # Issue 16.6: at 390x844 columns d-f and the buttons were off-screen.
    spawned = Spawned(game) if game != "nehren" else None
    url = spawned.url if spawned else server.url
    pg = browser.new_page(viewport={"width": 390, "height": 844}, device_scale_factor=1)
    try:
        pg.set_default_timeout(WAIT_MS)
        pg.goto(url)
        pg.wait_for_selector("#conn[data-state=live]")
        # Issue 43's contract: every spot an element [data-spot] named as the
        # game's notation names it, drawn by the drawing the relay's page shares.
        from triad.games import load as load_game

        spots = pg.eval_on_selector_all("#board [data-spot]", "es => es.map(e => e.dataset.spot)")
        assert len(spots) == {"nehren": 36, "browne": 61, "cornelson": 109}[game]
        assert sorted(spots) == sorted(load_game(game).SITE_NAMES)
        assert fits(pg, 390) == []
        assert pg.evaluate("document.documentElement.scrollWidth") <= 390
        assert pg.get_attribute("#dev", "open") is None  # the developer panel starts collapsed
        cell = pg.evaluate("parseFloat(getComputedStyle(document.documentElement).getPropertyValue('--cell'))")
        assert cell >= 36
        pg.set_viewport_size({"width": 1280, "height": 800})  # a laptop: it grows again
        pg.wait_for_function("() => parseFloat(getComputedStyle(document.documentElement).getPropertyValue('--cell')) >= 52")
        assert fits(pg, 1280) == []
    finally:
        pg.close()
        if spawned:
            spawned.stop()


def test_server_stopped_says_so(browser):
    # Issue 16.8: with the server gone a click said "TypeError: Failed to fetch".
    sim = Spawned("nehren")
    pg = browser.new_page(viewport={"width": 1280, "height": 800})
    try:
        pg.set_default_timeout(WAIT_MS)
        pg.goto(sim.url)
        pg.wait_for_selector("#conn[data-state=live]")
        # A click that asks the board for something: a set-up die put on its
        # home cell (a click on a plain empty cell asks nothing, issue 24.11).
        # The page knows a1 is missing before the server goes (no frame
        # comes after; under load the board tells its game late).
        pg.wait_for_function("() => (window.triadSim.frame.missing || []).includes('a1')")
        sim.stop()
        pg.wait_for_selector("#conn[data-state=lost]")
        click(pg, "a1")
        pg.wait_for_selector("#toast:not([hidden])")
        assert "not running" in pg.inner_text("#toast")
        assert "Failed to fetch" not in pg.inner_text("#toast")
        assert pg.get_attribute("#conn", "data-state") == "lost"
        assert "reconnecting" in pg.inner_text("#conn")
    finally:
        pg.close()
        sim.stop()


def test_the_page_switches_the_game(browser):
    # Issue 13: in the simulator the user chooses the game on the page; the
    # simulator restarts as that game's board, each game keeps its save.
    sim = Spawned("nehren")
    pg = browser.new_page(viewport={"width": 1280, "height": 800})
    try:
        pg.set_default_timeout(WAIT_MS)
        pg.goto(sim.url)
        pg.wait_for_selector("#conn[data-state=live]")
        assert pg.eval_on_selector("#game-pick", "e => [...e.options].map(o => o.value)") == [
            "nehren", "browne", "cornelson"]
        assert pg.locator(".cell").count() == 36
        pg.select_option("#game-pick", "browne")
        pg.wait_for_function("document.querySelectorAll('.cell.hex').length === 61", timeout=60000)
        pg.wait_for_selector("#conn[data-state=live]")
        assert pg.eval_on_selector("#game-pick", "e => e.value") == "browne"
        pg.select_option("#game-pick", "nehren")
        pg.wait_for_function("document.querySelectorAll('.cell').length === 36 && "
                             "!document.querySelector('.cell.hex')", timeout=60000)
    finally:
        pg.close()
        sim.stop()
def test_lesson_from_the_page(page, server):
    # The Lessons panel lists the game's lessons; starting one sends
    # `lesson <n>` and places its dice; the goal is shown; the right move
    # solves it and the next lesson follows.
    if page.inner_text("#turn") == "Power off":
        page.click("#power-on")
    page.click("#lessons > summary")
    page.click('#lesson-list button[data-lesson="1"]')
    wait_text(page, "#lesson-now", "Lesson 1 of ")
    wait_text(page, "#lesson-now", "shows 2")
    # (The board may have been in play already: wait for the lesson's position.)
    page.wait_for_function("t => document.querySelector('#pos').value === t",
                           arg="w1....w1/....../....../..b1.../....../...... b 0 0")
    wait_state(page, "play")
    assert "shows 2" in page.inner_text("#msg")
    drag(page, "c3", "f3", steps=16)  # three cells: it shows 3, wrong
    wait_text(page, "#lesson-now", "Not this one (c3f3)")
    page.click("#lesson-dice")  # the dice as the board shows them again
    wait_state(page, "play")
    drag(page, "c3", "e3", steps=16)
    wait_text(page, "#lesson-now", "Solved (c3e3)")
    wait_text(page, "#lesson-now", "Lesson 2 of ")  # (by itself: nothing pressed)
    # Issue 24.13: the next lesson's set-up said in the headline's status
    # text, where the person looks (not only in the lessons card).
    wait_text(page, "#msg", "Lesson 2 of ")
    wait_state(page, "setup")
    wait_text(page, "#msg", "Set it up: put the dice on the cells that blink")
    page.click("#lesson-off")
    page.wait_for_function("() => document.querySelector('#lesson-off').hidden")
    wait_text(page, "#log", "evt lesson off")


def _api_state(url):
    import json
    import urllib.request

    with urllib.request.urlopen(url.rstrip("/") + "/api/state", timeout=10) as r:
        return json.loads(r.read().decode())


def test_a_three_player_game_of_browne_to_its_end(browser):
    # Issue 13: a full three-player game through the firmware in Chromium,
    # the board playing two seats (Green, Blue) and a person Red, every
    # piece moved by mouse: slides dragged, captured pieces knocked off
    # (right click), bunny pieces taken from the box and put down.
    from array import array

    from triad.games import LIFT, PLACE, load as load_game

    G = load_game("browne")
    start = G.format_position(G.parse_position("R:C5,F4 G:E9,B4 B:D6,F5 r"))
    sim = Spawned("browne")
    pg = browser.new_page(viewport={"width": 1280, "height": 900})
    try:
        pg.set_default_timeout(WAIT_MS)
        pg.goto(sim.url)
        pg.wait_for_selector("#conn[data-state=live]")
        load(pg, start)
        r = act(pg, {"op": "serial", "line": "set opponent gb"})
        assert r["ok"] and r["results"][0] == "ok set opponent gb", r
        fp = array("i", bytes(4 * 32))
        turns = 0
        while True:
            # The turn before is in the move list; the board's state is
            # polled apart from it, so give it its moment to say so.
            deadline = time.monotonic() + 15
            st = _api_state(sim.url)
            while st["state"] not in ("play", "over") and time.monotonic() < deadline:
                time.sleep(0.2)
                st = _api_state(sim.url)
            if st["state"] == "over":
                break
            assert st["state"] == "play" and turns < 40, st
            pos = G.parse_position(st["position"])
            if pos.side == 0:
                m = G.quick_move(pos)  # the person's choice
            else:
                deadline = time.monotonic() + 30
                while not st.get("engine_move") and time.monotonic() < deadline:
                    time.sleep(0.2)
                    st = _api_state(sim.url)
                assert st.get("engine_move"), "the board shows no move for its seat"
                # Issue 24 (2): the headline is the board's, not the person's.
                wait_text(pg, "#turn", "The board's move (" + G.SIDE_NAMES[pos.side] + ")")
                wait_text(pg, "#msg", "carry out its move for it: lift ")
                m = G.parse_move(pos, st["engine_move"])
            n = G.footprint(pos, m, fp)
            steps = [((fp[j] >> 8) & 3, G.SITE_NAMES[fp[j] & 255], fp[j] >> 10) for j in range(n)]
            assert steps[0][0] == LIFT and steps[1][0] == PLACE
            drag(pg, steps[0][1], steps[1][1])
            for act_, site, role in steps[2:]:
                pg.wait_for_timeout(900)  # the landing settles: the board asks for what follows
                if act_ == LIFT:
                    click(pg, site, button="right")  # a captured piece taken off
                else:
                    bunny = G.SIDES[role - G.ROLE_RED]
                    pg.click('[data-take="%s"]' % bunny)  # a piece of the bunny's colour
                    click(pg, site)
            turns += 1
            text = G.format_move(pos, m)
            wait_text(pg, "#moves", text.split("@")[0], timeout=WAIT_MS)
        assert turns >= 3
        st = _api_state(sim.url)
        assert st["result"], st
        # The result with its reason (issue 24.13): "Red wins: Green eliminated".
        assert (" wins: " in pg.inner_text("#turn") or pg.inner_text("#turn").startswith("Draw: ")), pg.inner_text("#turn")
    finally:
        pg.close()
        sim.stop()


_DICE_WORDS = re.compile(r"\b(die|dice|die's)\b", re.I)

# Every word the page shows a person, rendered or in a tooltip/placeholder,
# with every <details> card opened (hidden cards stay out: lessons).
_PAGE_WORDS = """() => {
  document.querySelectorAll('details').forEach(d => { d.open = true; });
  const tips = [...document.querySelectorAll('[title],[placeholder],[aria-label]')]
    .filter(e => !e.closest('[hidden]'))
    .map(e => [e.getAttribute('title'), e.getAttribute('placeholder'), e.getAttribute('aria-label')].filter(Boolean).join(' | '));
  return document.body.innerText + '\\n' + tips.join('\\n');
}"""


def _a_wrong_site(game):
    """(a piece of the side to move that some move lifts, an empty site no
    move lifting it puts it on)."""
    from array import array

    from triad.games import LIFT, PLACE, load as load_game

    G = load_game(game)
    pos = G.parse_position(G.START)
    buf = array("i", [0] * G.MAX_MOVES)
    fp = array("i", [0] * 64)
    src, places = -1, set()
    for k in range(G.gen(pos, buf)):
        lifted = False
        for j in range(G.footprint(pos, buf[k], fp)):
            s, act = fp[j] & 255, (fp[j] >> 8) & 3
            if act == LIFT and not lifted and G.owner(pos, s) == pos.side and src in (-1, s):
                src, lifted = s, True
            elif act == PLACE and lifted:
                places.add(s)  # where the lifted piece goes
                break
    exp = bytearray(G.N_SITES)
    G.expected(pos, exp)
    wrong = [i for i in range(G.N_SITES) if not exp[i] and i not in places]
    return G.SITE_NAMES[src], G.SITE_NAMES[wrong[len(wrong) // 2]]


@pytest.mark.parametrize("game", ["browne", "cornelson"])
def test_other_games_never_speak_of_dice(browser, game):
    # Issue 16: the page's words come from the game (its face through
    # /api/layout): a Browne or Cornelson player never reads about dice, in
    # the headline, status text, legend, buttons' tips or the event log;
    # neither before play, in play, nor when a piece stands where it may not.
    sim = Spawned(game)
    pg = browser.new_page(viewport={"width": 1280, "height": 900})
    try:
        pg.set_default_timeout(WAIT_MS)
        pg.goto(sim.url)
        pg.wait_for_selector("#conn[data-state=live]")
        seen = [pg.evaluate(_PAGE_WORDS)]
        pg.click("#setup-dice")
        wait_state(pg, "play", timeout=WAIT_MS)
        seen.append(pg.evaluate(_PAGE_WORDS))
        # Issue 43: a spot holding a piece carries a non-empty data-piece, the others none.
        from triad.games import load as load_game

        held = pg.eval_on_selector_all("#board [data-spot]", "es => es.map(e => [e.dataset.spot, e.dataset.piece])")
        G = load_game(game)
        pos = G.parse_position(pg.evaluate("() => window.triadSim.frame.position"))
        want = {G.SITE_NAMES[i] for i in range(G.N_SITES) if G.owner(pos, i) >= 0}
        assert want and {name for name, key in held if key} == want
        src, wrong = _a_wrong_site(game)
        click(pg, src)  # into the hand
        click(pg, wrong)  # put down where no move goes
        pg.wait_for_selector("#msg.fault")
        seen.append(pg.evaluate(_PAGE_WORDS))
        if game == "browne":
            assert "The piece from " + src + " may not stand on " + wrong in pg.inner_text("#msg")
        legend = pg.inner_text("#legend")
        assert "the board's move" in legend and "Triad" not in legend and "scoring line" not in legend
        assert "capture" in pg.get_attribute("#sound", "title")
        for text in seen:
            hits = sorted(set(m.group(0) for m in _DICE_WORDS.finditer(text)))
            assert hits == [], [line for line in text.splitlines() if _DICE_WORDS.search(line)]
    finally:
        pg.close()
        sim.stop()


def test_nehren_keeps_its_dice(page, server):
    # The game's own words: Nehren's page still speaks of dice and Triads.
    text = page.evaluate(_PAGE_WORDS)
    assert "Place set-up dice" in text and "Triad: its cells pulse green" in page.inner_text("#legend")
    assert "a Triad" in page.get_attribute("#sound", "title")
