# python -m simulator.screenshot OUT.png: the README's picture of the
# simulator, made by the simulator itself. Starts the server on a free port
# with a fresh flash and a fixed seed, sets up the rolled dice, plays a few
# moves through the same actions the page sends, lifts a die so its
# destinations light up, and photographs the page with the system Chromium
# (--phone: at a phone's width too).
import argparse
import os
import sys
import tempfile
import time

from simulator.game import GAME
from simulator.web import Running

CHROMIUM = os.environ.get("TRIAD_CHROMIUM", "/usr/bin/chromium")


def wait_for(pred, timeout=10.0, what="condition"):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        v = pred()
        if v:
            return v
        time.sleep(0.02)
    raise TimeoutError("timed out waiting for " + what)


def do(ws, *actions):
    res = ws.act(list(actions))
    if not res["ok"]:
        raise RuntimeError(res["error"])
    return res["results"]


def play(ws, move):
    """Carry a plain move out (its footprint's steps, in order); wait until
    the board has committed it."""
    n = len(ws.track.fw["moves"])
    for op, site in move:
        do(ws, {"op": op, "cell": site})
        time.sleep(0.05)
    ws.poll_soon()
    wait_for(lambda: len(ws.track.fw["moves"]) > n, what="move %s" % (move,))


def _steps(pos, m):
    """A move's footprint as (op, site name) pairs, the order a hand does
    them (a piece turned or swapped in place: lifted and put back)."""
    from array import array
    from triad.games import LIFT, PLACE

    fp = array("i", bytes(4 * 32))
    n = GAME.footprint(pos, m, fp)
    out = []
    for j in range(n):
        act, name = (fp[j] >> 8) & 3, GAME.SITE_NAMES[fp[j] & 255]
        if act == LIFT:
            out.append(("lift", name))
        elif act == PLACE:
            out.append(("place", name))
        else:
            out += [("lift", name), ("place", name)]
    return out


def _moves(pos):
    from array import array

    buf = array("i", bytes(4 * GAME.MAX_MOVES))
    return [buf[i] for i in range(GAME.gen(pos, buf, 0))]


def pick_moves(ws, count):
    """Plain moves towards the middle for every side, found by the rules
    core from the firmware's own position (deterministic for a seed)."""
    pos = GAME.parse_position(ws.track.fw["position"])
    xy = [GAME.site_xy(i) for i in range(GAME.N_SITES)]
    cx = sum(x for x, _ in xy) / len(xy)
    cy = sum(y for _, y in xy) / len(xy)
    out = []
    for _ in range(count):
        best = None
        for m in _moves(pos):
            steps = _steps(pos, m)
            if len(steps) < 2 or any(op == "place" and n == steps[0][1] for op, n in steps[1:]):
                continue  # (a turn in place does not show on a screenshot)
            x, y = xy[GAME.site_index(steps[1][1])]
            key = (abs(cx - x) + abs(cy - y), GAME.format_move(pos, m))
            if best is None or key < best[0]:
                best = (key, m, steps)
        if best is None:
            break
        out.append(best[2])
        pos.make(best[1])
    return out


def stage(ws, moves=5):
    """A game in progress: set-up, a few moves, a piece lifted."""
    do(ws, {"op": "speed", "x": 4})
    wait_for(lambda: ws.track.fw["state"] == "setup", what="the set-up roll")
    do(ws, {"op": "setup"})
    wait_for(lambda: ws.track.fw["state"] == "play", what="play")
    for mv in pick_moves(ws, moves):
        play(ws, mv)
    pos = GAME.parse_position(ws.track.fw["position"])
    # Lift the side to move's piece with the most moves (a game whose turn
    # begins with a placement lifts nothing: its idle hints show instead).
    from array import array
    from triad.games import LIFT

    fp = array("i", bytes(4 * 32))
    count = {}
    for m in _moves(pos):
        GAME.footprint(pos, m, fp)
        if (fp[0] >> 8) & 3 == LIFT:
            name = GAME.SITE_NAMES[fp[0] & 255]
            count[name] = count.get(name, 0) + 1
    do(ws, {"op": "speed", "x": 1})
    time.sleep(1.0)  # the last turn's pieces settle
    if count:
        best = max(sorted(count), key=lambda k: count[k])
        do(ws, {"op": "lift", "cell": best})
    time.sleep(0.4)


def mistake(ws):
    """After stage(): a person's mistake on the table, as issue 35 asks the
    pictures to show with its words: a stray object on an empty spot that
    no light asks for (the board blinks it red and the page says so)."""
    names = ws.frame()["names"]
    cells = ws.frame()["cells"]
    lifted = [i for i, n in enumerate(names[:GAME.N_SITES]) if n == "source"]
    if lifted:
        do(ws, {"op": "place", "cell": GAME.SITE_NAMES[lifted[0]]})  # (the lifted piece back first)
        time.sleep(1.0)
    names = ws.frame()["names"]
    cells = ws.frame()["cells"]
    xy = [GAME.site_xy(i) for i in range(GAME.N_SITES)]
    cx = sum(x for x, _ in xy) / len(xy)
    cy = sum(y for _, y in xy) / len(xy)
    free = [i for i in range(GAME.N_SITES) if cells[i] is None and names[i] == "off"]
    spot = min(free, key=lambda i: (abs(xy[i][0] - cx) + abs(xy[i][1] - cy), i))
    do(ws, {"op": "stray", "cell": GAME.SITE_NAMES[spot]})
    wait_for(lambda: ws.frame()["say_fault"], timeout=5, what="the fault's words")


def review(ws):
    """After stage(): the lifted piece back, the game so far looked back on
    (the board's review mode, issue 46) at its first marked move: the mark
    blinking, the better move lit, the page's Review card with its graph."""
    names = ws.frame()["names"]
    lifted = [i for i, n in enumerate(names[:GAME.N_SITES]) if n == "source"]
    if lifted:
        do(ws, {"op": "place", "cell": GAME.SITE_NAMES[lifted[0]]})
        time.sleep(1.0)
    do(ws, {"op": "serial", "line": "review on"})
    data = ws.review()
    marked = [mv["ply"] for mv in data.get("moves", ()) if mv["mark"]]
    if marked:
        do(ws, {"op": "serial", "line": "review %d" % marked[0]})
    ws.poll_soon()
    time.sleep(0.5)


def shoot(out, width=1360, height=1010, seed=7, phone=None, phone_size=(390, 844), wrong=False, reviewed=False):
    """The page on a laptop (out) and, given `phone`, at a phone's width in
    portrait (the cell size follows the window; the developer panel starts
    collapsed there): one staged game, photographed in both windows."""
    from playwright.sync_api import sync_playwright

    if not os.path.exists(CHROMIUM):
        raise SystemExit("no Chromium at %s (apt-get install chromium)" % CHROMIUM)
    shots = [(out, width, height)] + ([(phone,) + tuple(phone_size)] if phone else [])
    with tempfile.TemporaryDirectory(prefix="triad-shot-") as state, Running(state_dir=state, seed=seed) as run:
        ws = run.websim
        stage(ws, 12 if reviewed else 5)
        if wrong:
            mistake(ws)
        if reviewed:
            review(ws)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True)
            for path, w, h in shots:
                page = browser.new_page(viewport={"width": w, "height": h}, device_scale_factor=1)
                page.goto(run.url)
                page.wait_for_selector("#conn[data-state=live]")
                page.wait_for_function("document.querySelectorAll('#moves tr:not(.empty)').length > 0")
                # Wait for a blink phase with the destinations lit (a
                # mistake: its red blink on).
                time.sleep(0.5)
                if wrong:
                    page.wait_for_selector("#msg.fault")
                    page.wait_for_function("() => [...document.querySelectorAll('[data-led=error]')].length > 0",
                                           timeout=5000)
                if reviewed:
                    page.wait_for_selector("#review-graph circle")
                    page.evaluate("() => { document.querySelector('#dev').open = false; "
                                  "document.querySelector('#legend-box').open = false; }")
                    page.locator("#review").scroll_into_view_if_needed()
                    # (a phase with the better move lit and the mark on)
                    time.sleep(0.3)
                page.screenshot(path=path)
                page.close()
            browser.close()
    return out


def main(argv=None):
    # Another game's board: TRIAD_SIM_BOARD=hex_v1 (or tri_v1) python -m simulator.screenshot docs/browne.png
    ap = argparse.ArgumentParser(prog="python -m simulator.screenshot")
    ap.add_argument("out", nargs="?", default="docs/simulator.png")
    ap.add_argument("--width", type=int, default=1360)
    ap.add_argument("--height", type=int, default=1010)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--phone", nargs="?", const="docs/simulator-phone.png", default=None,
                    help="also photograph the page at a phone's width, 390x844 (default file: %(const)s)")
    ap.add_argument("--mistake", action="store_true",
                    help="a mistake on the table (a stray object) and its words, as issue 35's pictures show")
    ap.add_argument("--review", action="store_true",
                    help="the game looked back on: the board's review mode and the page's Review card (issue 46)")
    a = ap.parse_args(argv)
    for path in (a.out, a.phone):
        if path:
            os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    shoot(os.path.abspath(a.out), a.width, a.height, a.seed, os.path.abspath(a.phone) if a.phone else None,
          wrong=a.mistake, reviewed=a.review)
    print("wrote", a.out + (" and " + a.phone if a.phone else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
