"""The relay's page in Chromium (issue 38): Browne's three seats played by
two clients and a person on the page; a room made on the page and watched
from its invitation."""
import random

import pytest

from browser_kit import chromium, wait_text  # (skips without a browser)
from host_tools.relay import rules
from host_tools.relay.client import Client
from relay_kit import Relay


@pytest.fixture(scope="module")
def relay():
    r = Relay(store=":memory:")
    yield r
    r.stop()


@pytest.fixture(scope="module")
def browser():
    yield from chromium()


def test_browne_two_clients_and_a_page(relay, browser):
    made = Client(relay.url).create("browne")
    room, seats = made["room"], made["seats"]
    clients = {s: Client(relay.url) for s in ("r", "b")}
    for s, c in clients.items():
        c.join(room, seats[s])
    page = browser.new_page()
    page.set_default_timeout(15000)
    base = relay.url.replace("ws://", "http://").rsplit("/", 1)[0]
    page.goto("%s/?room=%s&token=%s" % (base, room, seats["g"]))
    wait_text(page, "#title", "you play Green")
    mirror = rules.Game("browne")
    rng = random.Random(4)
    for turn in range(9):  # three rounds: Red and Blue by client, Green on the page
        side = mirror.to_move()
        if side == "g":
            wait_text(page, "#status", "Your move, Green")
            legal = page.eval_on_selector_all("#legal option", "os => os.map(o => o.value)")
            assert sorted(legal) == sorted(mirror.legal())  # what the page offers is the rules' list
            if turn == 1:  # a move the rules refuse: the page's error, nothing else changes
                page.fill("#move", "A3-A1")
                page.press("#move", "Enter")
                wait_text(page, "#error", "illegal move 'A3-A1'")
                with pytest.raises(TimeoutError):
                    clients["r"].next(timeout=0.3)
            text = rng.choice(legal)
            page.fill("#move", text)
            page.press("#move", "Enter")
            ev = clients["r"].next()
            assert ev == {"op": "move", "ply": turn + 1, "seat": "g", "move": text}
            assert clients["b"].next() == ev
            mirror.play(text)
        else:
            text = mirror.play(rng.choice(mirror.legal()))
            clients[side].move(text)
            for other, c in clients.items():
                if other != side:
                    c.next()
        page.wait_for_function("n => document.querySelectorAll('#moves li').length === n", arg=turn + 1)
    assert page.eval_on_selector_all("#moves li", "ls => ls.map(l => l.textContent)") == mirror.moves
    page.close()


def test_a_room_made_on_the_page_and_watched(relay, browser):
    page = browser.new_page()
    page.set_default_timeout(15000)
    base = relay.url.replace("ws://", "http://").rsplit("/", 1)[0]
    page.goto(base + "/")
    page.select_option("#game", "nehren")
    page.click("#create")
    page.wait_for_selector(".seat-link")
    links = page.eval_on_selector_all(".seat-link", "as => as.map(a => [a.dataset.side, a.href])")
    assert [s for s, _ in links] == ["b", "w"]
    token_b = links[0][1].split("token=")[1]
    room = links[0][1].split("room=")[1].split("&")[0]
    black = Client(relay.url)
    assert black.join(room, token_b)["seat"] == "b"  # the invitation holds the seat
    page.click("text=watch")
    wait_text(page, "#title", "watching")
    black.move("a1a3")
    page.wait_for_function("() => document.querySelectorAll('#moves li').length === 1")
    wait_text(page, "#board", "b2")
    assert page.is_hidden("#play")  # a watcher is offered no move
    page.close()
