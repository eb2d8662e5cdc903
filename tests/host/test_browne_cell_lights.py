"""Browne's cells in light (issue 24.1): while a piece is lifted, every
empty cell glows faintly in its owner's colour (land there and that player
moves next), the landing cells bright in the mover's colour over it; with
nothing in the hand the cells are dark. Through the script contract
(`python -m simulator script --game browne`, its `lights` lines)."""
import os
import subprocess
import sys
from array import array

from triad import games

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def lights(line):
    """{slot: (r, g, b)} of a lights line."""
    out = {}
    for item in line[len("lights: "):].split():
        slot, rgb = item.split("=")
        out[int(slot)] = tuple(int(rgb[k:k + 2], 16) for k in (0, 2, 4))
    return out


def test_a_lifted_piece_shows_every_cells_owner(tmp_path):
    G = games.load("browne")
    pos = G.parse_position(G.START)
    lifted = G.site_index("E3")
    buf = array("i", bytes(4 * G.MAX_MOVES))
    fp = array("i", bytes(4 * 32))
    landings = set()
    for k in range(G.gen(pos, buf, 0, lifted)):
        G.footprint(pos, buf[k], fp)
        landings.add(fp[1] & 255)
    assert landings
    occupied = {i for i in range(G.N_SITES) if G.shows(pos, i)}
    p = tmp_path / "cells.txt"
    p.write_text("position %s\nlights\nlift E3\nwait 60\nlights\nplace E3\nwait 1000\nlights\n" % G.START)
    r = subprocess.run([sys.executable, "-m", "simulator", "script", "--game", "browne", str(p)],
                       cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    before, held, after = [lights(line) for line in r.stdout.splitlines() if line.startswith("lights: ")]
    empty = [i for i in range(G.N_SITES) if i not in occupied]
    faint = max(held[j][G.site_owner(j)] for j in empty if j not in landings)
    assert faint > 0
    for i in empty:
        c = held.get(i, (0, 0, 0))
        hue = [0, 0, 0]
        if i in landings:
            # a landing: the mover's (Red's) light, bright (orange red, apart
            # from the pure red of "wrong": issue 35)
            hue = [1 if v else 0 for v in G.ROLE_RGB[0]]
            assert c[0] > 3 * faint, (G.SITE_NAMES[i], c)
        else:
            hue[G.site_owner(i)] = 1  # any other empty cell: its owner's, faint
        assert [1 if v else 0 for v in c] == hue, (G.SITE_NAMES[i], c)
        assert i not in before and i not in after, G.SITE_NAMES[i]  # dark with nothing in the hand
