"""The relay's page draws the real board (issue 43), in Chromium, through real
relays on loopback: turns made by clicking their spots in notation order,
the other seats' moves drawn as they come, the watch page, a phone's
width, the keyboard, and a relay killed and restarted mid-game."""
import json
import os
import random
import subprocess
import sys
import tempfile
import time
import urllib.request

import pytest

from browser_kit import ROOT, WAIT_MS, chromium  # (skips without a browser)
from host_tools.relay import rules
from host_tools.relay.client import Client
from relay_kit import Relay
from relay_page_kit import (base, click_turn, open_seat, piece_at, seat_url, spots_of, wait_held, wait_my_turn,
                            wait_shown)


def room_view(relay_url, room):
    """The relay's GET /api/room: the room as its page draws it."""
    with urllib.request.urlopen(base(relay_url) + "/api/room?room=" + room, timeout=10) as r:
        return json.loads(r.read())


@pytest.fixture(scope="module")
def browser():
    yield from chromium()


def test_cornelson_on_the_page(browser):
    # South on the page (clicks, one turn by keyboard), North by a client,
    # a watcher's page drawing the same board; the page fits a phone.
    relay = Relay(store=":memory:")
    try:
        made = Client(relay.url).create("cornelson")
        room, seats = made["room"], made["seats"]
        north = Client(relay.url)
        north.join(room, seats["n"])
        page = open_seat(browser, relay.url, room, seats["s"])
        watch = open_seat(browser, relay.url, room, width=390, height=844)
        # The contract: every spot drawn with its notation name, pieces marked.
        mirror = rules.Game("cornelson")
        face = mirror.game
        for pg in (page, watch):
            spots = pg.eval_on_selector_all("#board [data-spot]", "es => es.map(e => e.dataset.spot)")
            assert sorted(spots) == sorted(face.SITE_NAMES) and len(spots) == 109
            held = {s for s in face.SITE_NAMES if piece_at(pg, s)}
            assert held == {face.SITE_NAMES[i] for i in range(face.N_SITES) if face.owner(mirror.pos, i) >= 0}
        assert watch.evaluate("document.documentElement.scrollWidth") <= 390
        assert watch.is_hidden("#play") and "watching" in watch.inner_text("#title")
        assert page.get_attribute('#seats li[data-side="s"]', "data-connected") == "true"
        rng = random.Random(3)
        for turn in range(6):
            side = mirror.to_move()
            ply = len(mirror.moves)
            text = rng.choice(mirror.legal())
            if side == "s":
                wait_my_turn(page, ply)
                if turn == 0:
                    # A click on the watcher's board sends nothing (the room waits).
                    watch.click('#board [data-spot="%s"]' % spots_of(face, text)[0])
                    assert "watching" in watch.inner_text("#step")
                    with pytest.raises(TimeoutError):
                        north.next(timeout=0.3)
                    # A turn begun can be cancelled: nothing is sent.
                    page.click('#board [data-spot="%s"]' % spots_of(face, text)[0])
                    assert page.get_attribute('#board [data-spot="%s"]' % spots_of(face, text)[0], "data-light") == "sel"
                    page.click("#cancel")
                    with pytest.raises(TimeoutError):
                        north.next(timeout=0.3)
                if turn == 2:
                    # The keyboard: arrows to each spot, Enter clicks it.
                    page.focus("#board")
                    order = page.evaluate("() => [...document.querySelectorAll('#board [data-spot]')]"
                                          ".map(e => e.dataset.spot)")
                    at = None
                    for s in spots_of(face, text):
                        want = [x for x in sorted(order, key=lambda n: _reading(face, n))].index(s)
                        now = -1 if at is None else at
                        key = "ArrowRight" if want > now else "ArrowLeft"
                        for _ in range(abs(want - now) if at is not None else want + 1):
                            page.keyboard.press(key)
                        at = want
                        page.keyboard.press("Enter")
                else:
                    click_turn(page, face, text)
                ev = north.next(timeout=60)
                assert ev["op"] == "move" and ev["seat"] == "s" and ev["move"] == text
            else:
                # A click while it is not South's turn sends nothing (the relay
                # would refuse it, and the page would show the refusal).
                page.wait_for_function("p => window.triadRelay.told && window.triadRelay.told.ply === p", arg=ply)
                page.click('#board [data-spot="%s"]' % spots_of(face, text)[0])
                assert "Not your turn" in page.inner_text("#step")
                assert north.move(text)["move"] == text
                assert page.inner_text("#error") == ""
            mirror.play(text)
            dest = spots_of(face, text)[-1]
            for pg in (page, watch):
                wait_shown(pg, ply + 1, dest)
        assert page.eval_on_selector_all("#moves li", "ls => ls.map(l => l.textContent)") == mirror.moves
        for pg in (page, watch):
            held = {s for s in face.SITE_NAMES if piece_at(pg, s)}
            assert held == {face.SITE_NAMES[i] for i in range(face.N_SITES) if face.owner(mirror.pos, i) >= 0}
        page.close()
        watch.close()
    finally:
        relay.stop()


def _reading(face, name):
    """A spot's place in the page's reading order (top row first, left to right)."""
    i = face.SITE_NAMES.index(name)
    x, y = face.site_xy(i)
    return (y, x)


def test_nehren_relay_killed_and_restarted(browser):
    # Black and White on two pages; the relay is killed (SIGKILL) in the
    # middle of the game and started again on its port with its store: the
    # pages join again by themselves and the game goes on, nothing lost.
    store = os.path.join(tempfile.mkdtemp(prefix="triad-relay-page-"), "rooms.sqlite")
    relay = Relay(store=store)
    port = relay.port
    try:
        made = Client(relay.url).create("nehren")
        room, seats = made["room"], made["seats"]
        pages = {"b": open_seat(browser, relay.url, room, seats["b"]),
                 "w": open_seat(browser, relay.url, room, seats["w"], width=390, height=844)}  # (a phone)
        for pg in pages.values():
            assert "#token" not in pg.url and "token=" not in pg.url  # taken off the address bar
        assert pages["w"].evaluate("document.documentElement.scrollWidth") <= 390
        mirror = rules.Game("nehren")
        face = mirror.game
        rng = random.Random(8)
        for ply in range(8):
            if ply == 4:
                relay.kill()
                for pg in pages.values():
                    pg.wait_for_selector("#conn[data-state=lost]")
                relay = Relay(store=store, port=port)
                for pg in pages.values():
                    pg.wait_for_selector("#conn[data-state=live]")
            side = mirror.to_move()
            pg = pages[side]
            wait_my_turn(pg, ply)
            text = rng.choice(mirror.legal())
            fr, to = spots_of(face, text)[:2]
            before = piece_at(pg, fr)
            click_turn(pg, face, text)
            mirror.play(text)
            other = pages["w" if side == "b" else "b"]
            wait_shown(other, ply + 1, to)
            # The other seat's page: the destination holds the die, the origin is empty.
            assert piece_at(other, fr) == "" and piece_at(other, to)[0] == before[0]
            assert ("from afar: lift %s, put it on %s" % (fr, to)) in other.inner_text("#last")
            # The last move lit (amber) on the board: where it came from, where it went.
            for spot in (fr, to):
                assert other.get_attribute('#board [data-spot="%s"]' % spot, "data-light") == "last"
        assert Client(relay.url).watch(room)["moves"] == mirror.moves
        for pg in pages.values():
            assert pg.eval_on_selector_all("#moves li", "ls => ls.map(l => l.textContent)") == mirror.moves
            pg.close()
    finally:
        relay.stop()


def test_browne_two_pages_and_a_terminal(browser):
    # Red and Green on pages, Blue in a terminal (`host_tools play`), for
    # two rounds and more; a move the rules refuse, typed on the page, is
    # refused there and changes nothing.
    relay = Relay(store=":memory:")
    term = None
    try:
        made = Client(relay.url).create("browne")
        room, seats = made["room"], made["seats"]
        watcher = Client(relay.url)
        watcher.watch(room)
        pages = {s: open_seat(browser, relay.url, room, seats[s]) for s in ("r", "g")}
        term = subprocess.Popen([sys.executable, "-m", "host_tools", "play", "--server", relay.url, "--room", room,
                                 "--token", seats["b"]], cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, text=True)
        mirror = rules.Game("browne")
        face = mirror.game
        rng = random.Random(5)
        tried = False
        while len(set(mirror.seats)) < 3 or len(mirror.moves) < 7:
            assert not mirror.over()
            side = mirror.to_move()
            ply = len(mirror.moves)
            text = rng.choice(mirror.legal())
            if side == "b":
                term.stdin.write(text + "\n")
                term.stdin.flush()
            else:
                pg = pages[side]
                wait_my_turn(pg, ply)
                if not tried:
                    tried = True
                    pg.fill("#move", "A3-A1")
                    pg.press("#move", "Enter")
                    pg.wait_for_function("() => document.querySelector('#error').textContent.includes(\"illegal move 'A3-A1'\")")
                    with pytest.raises(TimeoutError):
                        watcher.next(timeout=0.3)
                    wait_my_turn(pg, ply)
                click_turn(pg, face, text)
            ev = watcher.next(timeout=60)
            assert ev["op"] == "move" and ev["seat"] == side and ev["move"] == text, ev
            mirror.play(text)
            dest = spots_of(face, text)[1]
            for pg in pages.values():
                wait_shown(pg, ply + 1, dest)
        assert tried
        for pg in pages.values():
            assert pg.eval_on_selector_all("#moves li", "ls => ls.map(l => l.textContent)") == mirror.moves
            pg.close()
    finally:
        if term is not None:
            term.kill()
            term.wait(10)
        relay.stop()


def test_nehren_page_against_the_simulator_page(browser):
    # A whole game, from the game's start to its end: White on the relay's
    # page, Black on the simulator's page (`python -m simulator --relay`),
    # whose board plays the seat as `host_tools online` makes a real board
    # do; each of White's moves is lit there and said in words, and the
    # simulated person carries it out. A short game (found among random
    # ones, not assumed) keeps the suite short. Then a rematch: the same two
    # go on in a new room, the sides rotated.
    from browser_kit import Spawned, open_page, play, wait_state, wait_text

    G = rules.load_game("nehren")
    game = None
    for seed in range(500):
        g, rng = rules.Game("nehren"), random.Random(seed)
        while not g.over() and len(g.moves) < 12:
            g.play(rng.choice(g.legal()))
        if g.over() and "w" in g.seats:
            game = g
            break
    assert game is not None
    start = game.start
    relay = Relay(store=":memory:")
    sim = None
    try:
        made = Client(relay.url).create("nehren")
        room, seats = made["room"], made["seats"]
        sim = Spawned("nehren", extra=["--relay", relay.url, "--room", room, "--token", seats["b"]])
        simpage = open_page(browser, sim.url)
        # The room's position goes onto the board: set up as lit, then play.
        wait_text(simpage, "#relay-now", "this board plays Black")
        board_in_room(simpage, start)
        page = open_seat(browser, relay.url, room, seats["w"])
        page.wait_for_selector('#seats li[data-side="b"][data-connected="true"]')  # the board is in the room
        mirror = rules.Game("nehren")
        for ply, text in enumerate(game.moves):
            pos = mirror.pos
            m = G.parse_move(pos, text)
            fr, to = spots_of(G, text)[:2]
            simpage.evaluate("window.scrollTo(0, 0)")  # (the board whole in the window for the hands)
            if mirror.to_move() == "w":
                wait_my_turn(page, ply)
                click_turn(page, G, text)
                # On the simulator's page: lit and said in words, then carried out.
                wait_text(simpage, "#turn", "White's move, from afar")
                assert simpage.inner_text("#opponent") == "White plays from afar: their moves light up here to carry out."
                wait_text(simpage, "#msg", "White's move, from afar: lift %s, put it on %s" % (fr, to))
                play(simpage, G, pos, m)
            else:
                wait_text(simpage, "#turn", "Black to move")
                play(simpage, G, pos, m)
            mirror.play(text)
            wait_held(page, ply + 1, G, mirror.pos)
            assert ("lift %s, put it on %s" % (fr, to)) in page.inner_text("#last")
        # The game's end: both pages say so, the room has every move.
        winner = G.SIDE_NAMES[G.SIDES.index(mirror.result())]
        wait_text(page, "#status", "Game over: %s wins" % winner)
        st = Client(relay.url).watch(room)
        assert st["moves"] == game.moves and st["result"] == game.result()
        wait_state(simpage, "over")
        # A rematch, asked on the simulator's page: a new room, the same game
        # and start, the sides rotated. The simulator's board goes on to it
        # (it plays White there, the room's start loaded to set up as lit),
        # with Black's new link to pass on; the relay's page goes along
        # too, its seat's new token come to its own connection.
        assert simpage.is_visible("#relay-rematch")
        simpage.click("#relay-rematch")
        simpage.wait_for_function("r => { const t = document.querySelector('#relay-now').textContent;"
                                  " return !t.includes('Room ' + r + ' ') && t.includes('this board plays White'); }",
                                  arg=room)
        wait_text(page, "#title", "you play Black")
        page.wait_for_function("r => window.triadRelay?.view && window.triadRelay.view.room !== r", arg=room)
        new_room = page.evaluate("() => window.triadRelay.view.room")
        assert new_room in simpage.inner_text("#relay-now")
        again = Client(relay.url).watch(new_room)
        assert again["moves"] == [] and again["position"] == st["position"] and new_room != room
        link = simpage.locator('.relay-seat-link[data-side="b"]').input_value()
        assert link.startswith(base(relay.url) + "/?room=%s#token=" % new_room)
        # (the link holds the seat the page plays: its own new token)
        assert link.split("#token=")[1] == page.evaluate("r => sessionStorage.getItem('triad-relay-token-' + r)", new_room)
        board_in_room(simpage, start)
        page.wait_for_selector('#seats li[data-side="w"][data-connected="true"]')
        first = rules.Game("nehren").legal()[0]
        wait_my_turn(page, 0)
        click_turn(page, G, first)
        wait_text(simpage, "#msg", "Black's move, from afar: lift %s, put it on %s" % tuple(spots_of(G, first)[:2]))
        assert Client(relay.url).watch(new_room)["moves"] == [first]
        assert Client(relay.url).watch(room)["moves"] == game.moves  # (the old room untouched)
        page.close()
        simpage.close()
    finally:
        if sim is not None:
            sim.stop()
        relay.stop()


def board_in_room(simpage, position):
    """The simulator's board in play from the room's position: the bridge
    loaded it (the board's own game was another), the person set the
    pieces as lit."""
    from browser_kit import wait_state

    simpage.wait_for_function("p => window.triadSim.frame && window.triadSim.frame.position === p", arg=position)
    if simpage.inner_text("#fw-state") != "play":
        simpage.click("#setup-dice")
    wait_state(simpage, "play")


def test_the_simulator_page_makes_a_room(browser):
    # "Play someone not here" on the simulator's page: a room made on a
    # relay, this board its first seat; the other seat's invitation opened
    # on the relay's page sees the board connected and its move.
    from browser_kit import Spawned, open_page, play, wait_state, wait_text

    relay = Relay(store=":memory:")
    sim = None
    try:
        sim = Spawned("nehren")
        simpage = open_page(browser, sim.url)
        # The page's header offers it; the card says how, in a line.
        assert simpage.inner_text("#relay-open") == "play someone not here"
        simpage.click("#relay-open")
        assert "host_tools serve" in simpage.inner_text("#relay-card")  # how, in a line
        # No relay there: said in one line, the board as it was.
        simpage.fill("#relay-url", "ws://127.0.0.1:9/play")
        simpage.click("#relay-make")
        wait_text(simpage, "#toast", "the relay at ws://127.0.0.1:9/play cannot be reached")
        assert simpage.evaluate("() => window.triadSim.frame.relay") is None
        simpage.fill("#relay-url", relay.url)
        simpage.click("#relay-make")
        wait_text(simpage, "#relay-now", "this board plays Black")
        link = simpage.locator('.relay-seat-link[data-side="w"]').input_value()
        assert "#token=" in link
        room = link.split("room=")[1].split("#")[0]
        st = Client(relay.url).watch(room)
        board_in_room(simpage, st["position"])
        page = browser.new_page(viewport={"width": 1280, "height": 860})
        page.set_default_timeout(WAIT_MS)
        page.goto(link)
        page.wait_for_selector('#seats li[data-side="b"][data-connected="true"]')
        simpage.wait_for_selector('#relay-seats li[data-side="w"][data-connected="true"]')
        G = rules.load_game("nehren")
        pos = G.parse_position(st["position"])
        text = rules.Game("nehren", st["position"]).legal()[0]
        simpage.evaluate("window.scrollTo(0, 0)")  # (the panel's links scrolled the board's top away)
        play(simpage, G, pos, G.parse_move(pos, text))
        wait_shown(page, 1, spots_of(G, text)[1])
        assert Client(relay.url).watch(room)["moves"] == [text]
        page.close()
        simpage.close()
    finally:
        if sim is not None:
            sim.stop()
        relay.stop()


def test_nehren_note2_choice_and_a_triads_removal(browser):
    # A Note 2 turn in place: the die clicked, its values offered as a short
    # choice; a Triad: the die, its destination, then the die to remove,
    # each removal choice lit.
    relay = Relay(store=":memory:")
    try:
        for start, clicks, lit, text in (
                ("....../....../....../....../w1w1..../b1w1.... b 0 0", ["a1"], None, "a1=3"),
                ("....../....../..b1.../....../w2b2..../.....w1 b 0 0", ["c4", "c2"], {"b2", "c2"}, "c4c2xb2")):
            made = Client(relay.url).create("nehren", position=start)
            room, seats = made["room"], made["seats"]
            white = Client(relay.url)
            white.join(room, seats["w"])
            if lit is None:
                # A wrong token: refused, said on the page in one line.
                bad = browser.new_page()
                bad.set_default_timeout(WAIT_MS)
                bad.goto(seat_url(relay.url, room, "not-the-token"))
                bad.wait_for_function("() => document.querySelector('#error').textContent.includes('wrong token')")
                assert bad.is_visible("#error")
                bad.close()
            page = open_seat(browser, relay.url, room, seats["b"])
            wait_my_turn(page, 0)
            for s in clicks:
                page.click('#board [data-spot="%s"]' % s)
            if lit is None:
                choices = page.eval_on_selector_all("#choice button", "bs => bs.map(b => b.dataset.move)")
                assert sorted(choices) == sorted(rules.Game("nehren", start).legal()) == ["a1=2", "a1=3"]
                with pytest.raises(TimeoutError):
                    white.next(timeout=0.3)  # (nothing sent before the choice)
                page.click('#choice [data-move="%s"]' % text)
            else:
                shown = page.eval_on_selector_all('#board [data-light="dest"]', "es => es.map(e => e.dataset.spot)")
                assert set(shown) == lit
                page.click('#board [data-spot="b2"]')
            assert white.next(timeout=60)["move"] == text
            page.close()
    finally:
        relay.stop()


def test_the_simulator_page_joins_a_pasted_invitation(browser):
    # An invitation to a room of another game pasted on the simulator's
    # page: it restarts as that game's board, seated in the room.
    from browser_kit import Spawned, open_page, wait_text
    from relay_page_kit import seat_url

    relay = Relay(store=":memory:")
    sim = None
    try:
        made = Client(relay.url).create("browne")
        room, seats = made["room"], made["seats"]
        sim = Spawned("nehren")
        simpage = open_page(browser, sim.url)
        simpage.click("#relay-open")
        simpage.fill("#relay-invite", "not an invitation")
        simpage.click("#relay-join")
        wait_text(simpage, "#toast", "not a seat's invitation")
        simpage.fill("#relay-invite", seat_url(relay.url, room, seats["g"]))
        simpage.click("#relay-join")
        simpage.wait_for_function("() => window.triadSim && window.triadSim.frame && window.triadSim.frame.relay")
        wait_text(simpage, "#relay-now", "this board plays Green")
        assert simpage.evaluate("fetch('/api/layout').then(r => r.json()).then(l => l.game)") == "browne"
        # The room sees Green's seat connected (the relay's own answer).
        end = time.monotonic() + 60
        while [x["connected"] for x in room_view(relay.url, room)["seats"] if x["side"] == "g"] != [True]:
            assert time.monotonic() < end, room_view(relay.url, room)
            time.sleep(0.2)
        simpage.close()
    finally:
        if sim is not None:
            sim.stop()
        relay.stop()


def test_rematch_two_pages(browser):
    # The game over, one seat's page asks for a rematch: both people's pages
    # go to a new room, the same game and start, each playing the other side;
    # the first move there, clicked, shows on the other page.
    start = "....../....../..b1.../....../w2b2..../.....w1 b 2 2"
    G = rules.load_game("nehren")
    win = next(m for m in rules.Game("nehren", start).legal() if rules.Game("nehren", start, None, [m]).result() == "b")
    relay = Relay(store=":memory:")
    try:
        made = Client(relay.url).create("nehren", position=start)
        room, seats = made["room"], made["seats"]
        first = open_seat(browser, relay.url, room, seats["b"])  # plays Black, then White
        second = open_seat(browser, relay.url, room, seats["w"], width=390, height=844)  # White, then Black
        assert first.is_hidden("#rematch")  # (no rematch while the game goes on)
        wait_my_turn(first, 0)
        click_turn(first, G, win)
        watch = open_seat(browser, relay.url, room)
        for pg in (first, second, watch):
            pg.wait_for_function("() => document.querySelector('#status').textContent.startsWith('Game over: Black wins')")
            # The result with its reason, as the relay's rules give it.
            said = room_view(relay.url, room)["result_words"]
            assert said["head"] == "Black wins" and said["reason"]
            assert pg.inner_text("#result") == "Black wins: " + said["reason"]
            pg.wait_for_function("() => document.querySelector('#watchers').textContent === '1 watching'")
        assert watch.is_hidden("#rematch")  # (a watcher cannot ask for one)
        first.click("#rematch")
        for pg, now in ((first, "White"), (second, "Black")):
            pg.wait_for_function("r => window.triadRelay?.view && window.triadRelay.view.room !== r", arg=room)
            pg.wait_for_function("s => document.querySelector('#title').textContent.includes('you play ' + s)", arg=now)
            assert "token" not in pg.url
        new_room = first.evaluate("() => window.triadRelay.view.room")
        assert second.evaluate("() => window.triadRelay.view.room") == new_room != room
        # The asker holds the other seat's link to pass on (its new token).
        link = first.locator('.seat-link[data-side="b"]').input_value()
        assert link.startswith(base(relay.url) + "/?room=%s#token=" % new_room)
        # Its copy button puts the link on the clipboard.
        first.context.grant_permissions(["clipboard-read", "clipboard-write"])
        row = first.locator('.linkrow:has(.seat-link[data-side="b"])')
        row.locator("button").click()
        first.wait_for_function("() => [...document.querySelectorAll('.linkrow button')].some(b => b.textContent === 'copied')")
        assert first.evaluate("() => navigator.clipboard.readText()") == link
        # The watcher's page follows the room to the rematch, watching.
        watch.wait_for_function("r => window.triadRelay?.view && window.triadRelay.view.room === r", arg=new_room)
        assert "watching" in watch.inner_text("#title")
        again = Client(relay.url).watch(new_room)
        assert again["moves"] == [] and again["position"] == rules.Game("nehren", start).start
        # Black moves first in the new room: the person who played White.
        text = rules.Game("nehren", start).legal()[0]
        wait_my_turn(second, 0)
        assert first.is_hidden("#play")  # (not White's turn)
        click_turn(second, G, text)
        wait_shown(first, 1, spots_of(G, text)[1])
        assert Client(relay.url).watch(new_room)["moves"] == [text]
        for pg in (first, second, watch):
            pg.close()
    finally:
        relay.stop()


@pytest.mark.parametrize("game", ["nehren", "browne", "cornelson"])
def test_each_game_on_a_phone_by_taps_and_keys(browser, game):
    # The first seat on a phone (390x844): the whole board within the
    # screen's width, one turn made by the keyboard alone, one by clicks;
    # the other seats by clients. What the page sent is what the room has.
    from relay_page_kit import key_turn

    relay = Relay(store=":memory:")
    try:
        made = Client(relay.url).create(game)
        room, seats = made["room"], made["seats"]
        mirror = rules.Game(game)
        face = mirror.game
        me = mirror.to_move()
        others = {s: Client(relay.url) for s in seats if s != me}
        for s, c in others.items():
            c.join(room, seats[s])
        page = open_seat(browser, relay.url, room, seats[me], width=390, height=844)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        boxes = page.eval_on_selector_all("#board [data-spot]", "es => es.map(e => e.getBoundingClientRect())"
                                          ".map(r => [r.left, r.right])")
        assert len(boxes) == face.N_SITES and min(b[0] for b in boxes) >= 0 and max(b[1] for b in boxes) <= 390
        rng = random.Random(11)
        mine = 0
        while mine < 2:
            side = mirror.to_move()
            ply = len(mirror.moves)
            text = rng.choice(mirror.legal())
            if side == me:
                wait_my_turn(page, ply)
                (key_turn if mine == 0 else click_turn)(page, face, text)
                mine += 1
                ev = next(iter(others.values())).next(timeout=60)
                assert ev["op"] == "move" and ev["seat"] == me and ev["move"] == text, ev
            else:
                assert others[side].move(text)["move"] == text
                for s, c in others.items():
                    if s != side:
                        c.next(timeout=60)
            mirror.play(text)
            wait_shown(page, ply + 1, spots_of(face, text)[-1 if game == "cornelson" else 1])
        assert page.eval_on_selector_all("#moves li", "ls => ls.map(l => l.textContent)") == mirror.moves
        page.close()
    finally:
        relay.stop()
