"""Browne's Triad in the simulator's page, in a real headless Chromium
(tests/host/test_browser.py's way): what issue 24 found missing for a new
player: the cells' colours, the game's own legend, its seats on the page,
a move list per player and the games' titles."""
import pytest

from browser_kit import load, page_at, play, spawned_url, wait_text  # (skips without a browser)


@pytest.fixture(scope="module")
def server():
    """`python -m simulator --game browne` (the hex_v1 board) on a free port
    with a fresh flash."""
    yield from spawned_url("browne")


@pytest.fixture(scope="module")
def page(server):
    yield from page_at(server)


def cell_rgb(page, cell):
    """The cell's own colour as drawn (its background, under LED and piece)."""
    css = page.evaluate("c => getComputedStyle(document.querySelector(`[data-cell=\"${c}\"]`)).backgroundColor", cell)
    import re

    nums = [float(v) for v in re.findall(r"[\d.]+", css)[:3]]
    if css.startswith("color(srgb"):
        nums = [v * 255 for v in nums]
    return nums


def test_cells_are_drawn_in_their_owners_colour(page):
    # Issue 24.1: every hexagon was the same grey, so "land on a cell of
    # another colour; its owner moves next" could not be seen.
    from triad.games import load as load_game

    G = load_game("browne")
    pos = G.parse_position("R:C5,F4 G:E9,B4 B:D6,F5 r")
    load(page, G.format_position(pos))
    # A slide by Red onto a cell of another colour: that cell's colour, as
    # drawn, is the colour of the side the page then says moves next.
    m = G.quick_move(pos)
    to = G.SITE_NAMES[(m >> 6) & 63]
    rgb = cell_rgb(page, to)
    assert play(page, G, pos, m) == to
    after = pos.copy()
    after.make(m)
    nxt = G.SIDE_NAMES[after.side]
    wait_text(page, "#turn", nxt + " to move")
    strongest = max(range(3), key=lambda k: rgb[k])
    assert G.SIDE_RGB[after.side][strongest] == 255, (to, rgb, nxt)
    # Every cell is drawn in one of the three colours, about a third each,
    # and no two neighbours alike (the tricoloured board).
    colours = page.evaluate("() => [...document.querySelectorAll('#board .cell')].map(e => [e.dataset.cell, getComputedStyle(e).backgroundColor])")
    by = {}
    for name, css in colours:
        by.setdefault(css, []).append(name)
    assert len(by) == 3 and min(len(v) for v in by.values()) >= 19, {k: len(v) for k, v in by.items()}
    look = {name: css for name, css in colours}
    for i in range(G.N_SITES):
        x, y = G.site_xy(i)
        for j in range(G.N_SITES):
            x2, y2 = G.site_xy(j)
            if i != j and abs((x - x2) ** 2 + (y - y2) ** 2 - 1) < 1e-6:
                assert look[G.SITE_NAMES[i]] != look[G.SITE_NAMES[j]], (G.SITE_NAMES[i], G.SITE_NAMES[j])


def test_the_legend_is_brownes_own(page):
    # Issue 24.8: Browne's legend was the generic list: none of its landing,
    # capture or drop lights, nor what the cells' colours mean.
    legend = page.inner_text("#legend")
    for words in ("landing:", "capture:", "drop:", "bunny", "cells:", "its owner moves next", "row E",
                  "wrong:", "missing:", "the board's move", "thinking", "win", "draw", "not saved"):
        assert words in legend, words
    assert "level row" not in legend and "value " not in legend  # not the generic list
    # Every look of the board's lights, as it moves: the capture blinks,
    # the win sweeps in the three colours.
    assert page.locator("#legend i.blink-slow").count() >= 2
    band = page.locator("#legend i.sweep-all").first.evaluate("e => e.style.background")
    assert "255, 0, 0" in band and "0, 255, 0" in band and "0, 0, 255" in band


def test_seats_columns_and_titles_on_the_page(page):
    # Issue 24.12: the seats took six long holds to reach "board plays
    # Green and Blue"; the move list had Nehren's two unnamed columns; the
    # game menu showed raw ids.
    from triad.games import load as load_game

    G = load_game("browne")
    options = page.eval_on_selector("#seats", "e => [...e.options].map(o => o.textContent)")
    assert "Green and Blue" in options and "Red" in options and options[0].startswith("nobody")
    page.select_option("#seats", label="Green and Blue")
    wait_text(page, "#opponent", "The board plays Green and Blue")
    wait_text(page, "#log", "evt opponent gb")
    page.select_option("#seats", label="nobody (people play every side)")
    wait_text(page, "#log", "ok set opponent off")
    page.wait_for_function("() => !document.querySelector('#opponent').textContent.includes('The board plays Green')")
    # The move list: a named column per player, each move in its mover's.
    assert page.eval_on_selector_all("#moves-head-row th", "es => es.map(e => e.textContent)") == ["", "Red", "Green", "Blue"]
    from array import array

    pos = G.parse_position("R:C5,F4 G:E9,B4 B:D6,F5 r")
    load(page, G.format_position(pos))
    # Red lands on a Blue cell: Blue moves next and Green's turn is skipped,
    # so Blue's move stands in Blue's column of the same row.
    buf = array("i", bytes(4 * G.MAX_MOVES))
    ms = [buf[k] for k in range(G.gen(pos, buf))]
    m = [m for m in ms if G.site_owner((m >> 6) & 63) == 2][0]
    play(page, G, pos, m)
    red = G.format_move(pos, m)
    pos.make(m)
    assert pos.side == 2
    wait_text(page, "#moves", red.split("@")[0])
    m2 = G.quick_move(pos)
    play(page, G, pos, m2)
    blue = G.format_move(pos, m2)
    wait_text(page, "#moves", blue.split("@")[0])
    rows = page.eval_on_selector_all("#moves tr", "es => es.map(e => [...e.children].map(c => c.textContent))")
    assert rows[0] == ["1.", red, "", blue], rows
    # The game menu: titles, its values still the ids.
    menu = page.eval_on_selector("#game-pick", "e => [...e.options].map(o => [o.value, o.textContent])")
    assert ["browne", "Browne's Triad"] in menu and ["nehren", "Nehren's Triad"] in menu, menu


def test_the_log_and_the_words_name_the_cell_the_piece_landed_on(page):
    # Issue 35.13: "the event log named E5C5 for a landing on E6". With no
    # capture on the board the piece put on E6 was announced as another
    # slide's (here `evt landed E5A5`), and the line asked for a Green
    # piece, A5's bunny, where E6's is Blue.
    from browser_kit import click

    load(page, "R:E5 G:A3 B:I9 r")
    click(page, "E5")  # lifted into the hand
    page.wait_for_function("() => window.triadSim.frame.hand.length > 0")
    click(page, "E6")  # put down
    wait_text(page, "#log", "evt landed E5E6")
    wait_text(page, "#msg", "drop a Blue piece")
    landed = [t for t in page.eval_on_selector_all("#log div", "es => es.map(e => e.textContent)")
              if t.startswith("evt landed")]
    assert landed[-1:] == ["evt landed E5E6"], landed
