"""The relay's page in Chromium (issue 38): Browne's three seats played by two
simulated boards and the page, a watcher's page following move by move; a
room made on the page and watched from its invitation. (Turns clicked on
the drawn board, two pages and a terminal: test_browser_relay_board.py.)"""
import random

import pytest

from browser_kit import WAIT_MS, chromium, wait_text  # (skips without a browser)
from host_tools.relay import rules
from host_tools.relay.client import Client, RelayError
from relay_kit import Relay


@pytest.fixture(scope="module")
def relay():
    r = Relay(store=":memory:")
    yield r
    r.stop()


@pytest.fixture(scope="module")
def browser():
    yield from chromium()


def test_a_room_made_on_the_page_and_watched(relay, browser):
    page = browser.new_page()
    page.set_default_timeout(WAIT_MS)
    base = relay.url.replace("ws://", "http://").rsplit("/", 1)[0]
    page.goto(base + "/")
    page.select_option("#game", "nehren")
    page.click("#create")
    page.wait_for_selector(".seat-link")
    links = page.eval_on_selector_all(".seat-link", "es => es.map(e => [e.dataset.side, e.value])")
    assert [s for s, _ in links] == ["b", "w"]
    # Issue 43's contract: the token in the fragment, never in the query.
    assert links[0][1].split("#")[0].endswith("?room=" + links[0][1].split("room=")[1].split("#")[0])
    token_b = links[0][1].split("#token=")[1]
    assert "token=" not in links[0][1].split("#")[0]  # the token in the fragment only
    room = links[0][1].split("room=")[1].split("#")[0]
    black = Client(relay.url)
    assert black.join(room, token_b)["seat"] == "b"  # the invitation holds the seat
    page.click("text=watch here")
    wait_text(page, "#title", "watching")
    black.move("a1a3")
    page.wait_for_function("() => document.querySelectorAll('#moves li').length === 1")
    # The watch page draws the board: the die on a3, none on a1; it cannot move.
    page.wait_for_function("() => document.querySelector('[data-spot=a3]').dataset.piece === 'b2'")
    assert page.get_attribute("[data-spot=a1]", "data-piece") == ""
    assert page.is_hidden("#play")  # a watcher is offered no move
    page.close()


def test_browne_two_boards_and_a_page(relay, browser):
    # Issue 38, item 6: Browne's three seats through one relay: Red and Blue
    # on simulated boards (`host_tools online`'s bridge, a simulated person
    # at each table: tests/host/online_board.py), Green on the relay's page
    # in Chromium, and a watcher's page following live. Every participant
    # ends with the same move list; no seat moves for another.
    from test_online import field, finish, start_board

    plies = 12
    made = Client(relay.url).create("browne")
    room, seats = made["room"], made["seats"]
    base = relay.url.replace("ws://", "http://").rsplit("/", 1)[0]
    watcher = Client(relay.url)
    watcher.watch(room)
    watch_page = browser.new_page()
    watch_page.set_default_timeout(WAIT_MS)
    watch_page.goto("%s/?room=%s" % (base, room))
    wait_text(watch_page, "#title", "watching")
    page = browser.new_page()
    page.set_default_timeout(60000)
    page.goto("%s/?room=%s#token=%s" % (base, room, seats["g"]))
    wait_text(page, "#title", "you play Green")
    assert "token" not in page.url  # the page took the token out of the address bar
    mirror = rules.Game("browne")
    # Before the boards come, Red is to move: the page's seat (Green) cannot
    # move for Red's board (refused to the page alone, nothing in the room).
    page.evaluate("m => window.triadRelay.send({op: 'move', move: m})", mirror.legal()[0])
    wait_text(page, "#error", "not your turn: r to move", timeout=WAIT_MS)
    with pytest.raises(TimeoutError):
        watcher.next(timeout=0.3)
    boards = [start_board(relay.url, room, seats[s], 30 + i, 7 + i, "browne", "--plies", str(plies))
              for i, s in enumerate(("r", "b"))]
    red_again = Client(relay.url)  # Red's seat from a second place (allowed), trying to move for Green
    assert red_again.join(room, seats["r"])["seat"] == "r"
    rng = random.Random(11)
    tried = False
    try:
        while len(mirror.moves) < plies:
            assert not mirror.over()
            side = mirror.to_move()
            if side == "g":
                wait_text(page, "#status", "Your move, Green", timeout=60000)
                legal = page.eval_on_selector_all("#legal option", "os => os.map(o => o.value)")
                assert sorted(legal) == sorted(mirror.legal())
                text = rng.choice(legal)
                if not tried:  # (the room waits for Green: no race) Red cannot move for Green
                    tried = True
                    with pytest.raises(RelayError, match="not your turn: g to move"):
                        red_again.move(text)
                page.fill("#move", text)
                page.press("#move", "Enter")
            ev = watcher.next(timeout=120)
            assert ev["op"] == "move" and ev["ply"] == len(mirror.moves) + 1 and ev["seat"] == side, ev
            if side == "g":
                assert ev["move"] == text
            mirror.play(ev["move"])
            # The watcher's page shows each move as it is made.
            watch_page.wait_for_function("n => document.querySelectorAll('#moves li').length === n",
                                         arg=len(mirror.moves))
        outs = finish(boards)
    finally:
        for p in boards:
            if p.poll() is None:
                p.kill()
                p.communicate()
    assert tried and set(mirror.seats) == {"r", "g", "b"}
    room_moves = watcher.state()["moves"]
    assert room_moves == mirror.moves
    for out in outs:  # each board's own game (its `moves` reply) and what its bridge saw
        assert field(out, "board moves").split() == mirror.moves, out[-2000:]
        assert field(out, "room moves").split() == mirror.moves
    for pg in (page, watch_page):
        pg.wait_for_function("n => document.querySelectorAll('#moves li').length === n", arg=plies)
        assert pg.eval_on_selector_all("#moves li", "ls => ls.map(l => l.textContent)") == mirror.moves
    page.close()
    watch_page.close()


def test_a_finished_room_offers_its_review_on_the_page(relay, browser):
    # Issue 46, item 4: once the room's game is over its page offers
    # "review this game", and the review shown is the lines of
    # `python -m host_tools review` for it: White's c3b3xb2 let Black's
    # a3b2xb1 make the third Triad, where b2b5 would not have.
    from host_tools import games, records
    from host_tools.review import lines as review_lines
    from triad.board.review_mode import BOARD_NODES

    start = "w3..w2../....../.....b3/b2.w3.../.w1..w2b1/.b1.... w 2 1"
    made = Client(relay.url).create("nehren", position=start)
    room, seats = made["room"], made["seats"]
    white = Client(relay.url)
    white.join(room, seats["w"])
    page = browser.new_page()
    page.set_default_timeout(WAIT_MS)
    base = relay.url.replace("ws://", "http://").rsplit("/", 1)[0]
    page.goto("%s/?room=%s#token=%s" % (base, room, seats["b"]))
    wait_text(page, "#title", "you play Black")
    white.move("c3b3xb2")
    wait_text(page, "#status", "Your move, Black")
    assert page.is_hidden("#review-game")  # nothing to review while the game goes on
    page.fill("#move", "a3b2xb1")
    page.press("#move", "Enter")
    wait_text(page, "#status", "Game over: Black wins")
    page.click("#review-game")
    wait_text(page, "#review", "review: 1 marks")
    rec = records.Record(start=start, moves=["c3b3xb2", "a3b2xb1"], game=games.load("nehren"))
    want = review_lines(rec, BOARD_NODES)
    assert want[0].startswith("mark 1 c3b3xb2 better b2b5: allows win, ")
    assert page.inner_text("#review").splitlines() == want
    page.close()
