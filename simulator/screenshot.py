# python -m simulator.screenshot OUT.png: the README's picture of the
# simulator, made by the simulator itself. Starts the server on a free port
# with a fresh flash and a fixed seed, sets up the rolled dice, plays a few
# moves through the same actions the page sends, lifts a die so its
# destinations light up, and photographs the page with the system Chromium.
import argparse
import os
import sys
import tempfile
import time

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
    """Lift the die, put it on its destination; wait until the board has
    committed the move (a plain move: no Triad removal)."""
    n = len(ws.fw["moves"])
    do(ws, {"op": "lift", "cell": move[:2]})
    time.sleep(0.05)
    do(ws, {"op": "place", "cell": move[2:4]})
    ws._poll_now.set()
    wait_for(lambda: len(ws.fw["moves"]) > n, what="move " + move)


def pick_moves(ws, count):
    """Plain moves towards the middle for both sides, found by the rules
    core from the firmware's own position (deterministic for a seed)."""
    from triad.games.nehren import core, notation

    pos = notation.parse_position(ws.fw["position"])
    out = []
    for _ in range(count):
        best = None
        for m in pos.legal_moves():
            if core.m_removed(m) or core.m_from(m) == core.m_to(m):
                continue
            to = core.m_to(m)
            f, r = core.file_of(to), core.rank_of(to)
            score = abs(2.5 - f) + abs(2.5 - r)
            key = (score, notation.format_move(m))
            if best is None or key < best[0]:
                best = (key, m)
        if best is None:
            break
        out.append(notation.format_move(best[1]))
        pos.make(best[1])
    return out


def stage(ws, moves=5):
    """A game in progress: set-up, a few moves, a die lifted."""
    do(ws, {"op": "speed", "x": 4})
    wait_for(lambda: ws.fw["state"] == "setup", what="the set-up roll")
    do(ws, {"op": "setup"})
    wait_for(lambda: ws.fw["state"] == "play", what="play")
    for mv in pick_moves(ws, moves):
        play(ws, mv)
    from triad.games.nehren import core, notation

    pos = notation.parse_position(ws.fw["position"])
    # Lift the side to move's die with the most destinations.
    best = None
    for m in pos.legal_moves():
        fr = notation.cell_name(core.m_from(m))
        best_n = sum(1 for k in pos.legal_moves() if core.m_from(k) == core.m_from(m))
        if best is None or best_n > best[0]:
            best = (best_n, fr)
    do(ws, {"op": "speed", "x": 1})
    if best:
        do(ws, {"op": "lift", "cell": best[1]})
    time.sleep(0.4)


def shoot(out, width=1360, height=1010, seed=7):
    from playwright.sync_api import sync_playwright

    if not os.path.exists(CHROMIUM):
        raise SystemExit("no Chromium at %s (apt-get install chromium)" % CHROMIUM)
    with tempfile.TemporaryDirectory(prefix="triad-shot-") as state, Running(state_dir=state, seed=seed) as run:
        ws = run.websim
        stage(ws)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True)
            page = browser.new_page(viewport={"width": width, "height": height}, device_scale_factor=1)
            page.goto(run.url)
            page.wait_for_selector("#conn[data-state=live]")
            page.wait_for_function("document.querySelectorAll('#moves tr:not(.empty)').length > 0")
            # Wait for a blink phase with the destinations lit.
            time.sleep(0.5)
            page.screenshot(path=out)
            browser.close()
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m simulator.screenshot")
    ap.add_argument("out", nargs="?", default="docs/simulator.png")
    ap.add_argument("--width", type=int, default=1360)
    ap.add_argument("--height", type=int, default=1010)
    ap.add_argument("--seed", type=int, default=7)
    a = ap.parse_args(argv)
    d = os.path.dirname(os.path.abspath(a.out))
    os.makedirs(d, exist_ok=True)
    shoot(os.path.abspath(a.out), a.width, a.height, a.seed)
    print("wrote", a.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
