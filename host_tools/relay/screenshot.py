"""`python -m host_tools.relay.screenshot OUTDIR`: the README's pictures of the
relay's page, one a game (OUTDIR/relay-<game>.png, and -phone for the first):
a relay on a free loopback port with its rooms in memory, a room of each
game a few moves in, the seat to move's page in Debian's Chromium through
Playwright, a piece clicked so its legal destinations light up."""
import os
import random
import subprocess
import sys

from host_tools.relay import rules

CHROMIUM = os.environ.get("TRIAD_CHROMIUM", "/usr/bin/chromium")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1:
        print("usage: python -m host_tools.relay.screenshot OUTDIR", file=sys.stderr)
        return 2
    out = argv[0]
    os.makedirs(out, exist_ok=True)
    from playwright.sync_api import sync_playwright

    from host_tools.relay.client import Client

    relay = subprocess.Popen([sys.executable, "-m", "host_tools", "serve", "--port", "0", "--store", ":memory:"],
                             cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        url = relay.stdout.readline().split()[1]
        base = url.replace("ws://", "http://").rsplit("/", 1)[0]
        with sync_playwright() as p:
            b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
            for k, game in enumerate(rules.NAMES):
                made = Client(url).create(game)
                room, seats = made["room"], made["seats"]
                mirror = rules.Game(game)
                rng = random.Random(7)
                others = {s: Client(url) for s in seats}
                for s, c in others.items():
                    c.join(room, seats[s])
                for _ in range(3):
                    side = mirror.to_move()
                    others[side].move(mirror.play(rng.choice(mirror.legal())))
                side = mirror.to_move()
                others[side].close()  # (the seat is played on the page)
                sizes = [(1280, 800, "")] + ([(390, 844, "-phone")] if k == 0 else [])
                for w, h, tag in sizes:
                    pg = b.new_page(viewport={"width": w, "height": h})
                    pg.goto("%s/?room=%s#token=%s" % (base, room, seats[side]))
                    pg.wait_for_function("() => window.triadRelay.told && window.triadRelay.told.legal "
                                         "&& window.triadRelay.view")
                    first = pg.evaluate("() => window.triadRelay.spotsOf(window.triadRelay.told.legal[0])[0]")
                    pg.click('#board [data-spot="%s"]' % first)
                    pg.wait_for_timeout(300)
                    path = os.path.join(out, "relay-%s%s.png" % (game, tag))
                    pg.screenshot(path=path, full_page=bool(tag))
                    print(path)
                    pg.close()
            b.close()
    finally:
        relay.terminate()
        relay.wait(10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
