"""Issue 43, `make bench`: the time from a move's last click on one seat's
relay page to the other seat's page drawing it, through a real relay on
loopback (the contract: "the other seat's move shows within a second";
a figure, never a test's limit).

Two pages of one headless Chromium (Debian's, through Playwright: skipped
without them) play games of Nehren's Triad against each other by clicks,
each turn's spots in notation order (tests/host/relay_page_kit.py), in a
room of a relay process on 127.0.0.1. In the page that moves, a listener
notes the time of every click (Date.now(), in the capture phase, before the
page acts on it); in the other page an observer notes the time its move
list grows (the same draw() sets the pieces and the words). Both pages read
the one system clock, to the millisecond. latency = drawn - last click: the
page's move message, the relay's check and store, its broadcast, the other
page's `board` request and its GET /api/room, and the drawing.

Bounded: GAMES games of at most PLIES moves. Prints
"relay_page.click_to_other_page_p50: <ms> ms" (p50, p99, max, and the
count of moves measured), or "relay_page.skipped: 1 (why)".
"""
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "tests", "host"))

GAMES = 3
PLIES = 24
WAIT_MS = 30000

WATCH = """() => {
  window.__clicks = []; window.__drawn = [];
  document.addEventListener('click', () => window.__clicks.push(Date.now()), true);
  new MutationObserver(() => window.__drawn.push([Date.now(), document.querySelectorAll('#moves li').length]))
    .observe(document.querySelector('#moves'), { childList: true });
}"""


def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def play_game(browser, relay, seed):
    from host_tools.relay import rules
    from host_tools.relay.client import Client
    from relay_page_kit import click_turn, open_seat, wait_my_turn

    made = Client(relay.url).create("nehren")
    room, seats = made["room"], made["seats"]
    pages = {s: open_seat(browser, relay.url, room, t) for s, t in seats.items()}
    for pg in pages.values():
        pg.evaluate(WATCH)
    mirror = rules.Game("nehren")
    rng = random.Random(seed)
    lat = []
    try:
        while not mirror.over() and len(mirror.moves) < PLIES:
            side, ply = mirror.to_move(), len(mirror.moves)
            me = pages[side]
            other = pages["w" if side == "b" else "b"]
            wait_my_turn(me, ply)
            text = rng.choice(mirror.legal())
            click_turn(me, mirror.game, text)
            mirror.play(text)
            other.wait_for_function("n => window.__drawn.some(d => d[1] === n)", arg=ply + 1)
            clicked = me.evaluate("() => window.__clicks[window.__clicks.length - 1]")
            drawn = other.evaluate("n => window.__drawn.find(d => d[1] === n)[0]", ply + 1)
            lat.append(drawn - clicked)
    finally:
        for pg in pages.values():
            pg.close()
    return lat


def main():
    try:
        import browser_kit
    except BaseException as e:  # (browser_kit skips, as pytest does, without Playwright or Chromium)
        print("relay_page.skipped: 1 (%s)" % (getattr(e, "msg", None) or e))
        return 0
    from relay_kit import Relay

    lat = []
    gen = browser_kit.chromium()
    browser = next(gen)
    try:
        with Relay(store=":memory:") as relay:
            for g in range(GAMES):
                lat += play_game(browser, relay, g + 1)
    finally:
        gen.close()
    print("relay_page.click_to_other_page_p50: %.0f ms" % pct(lat, 0.5))
    print("relay_page.click_to_other_page_p99: %.0f ms" % pct(lat, 0.99))
    print("relay_page.click_to_other_page_max: %.0f ms" % max(lat))
    print("relay_page.moves_measured: %d moves" % len(lat))
    return 0


if __name__ == "__main__":
    sys.exit(main())
