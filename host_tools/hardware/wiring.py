"""Wire lengths as a maker lays them (issue 37): the LED data line hop by
hop, and each matrix row and column through its spots, on the plate's
1:1 layout (placement.centres; each module's LED and pads sit where the
template draws them). The board description fixes the order (LED_CHAIN,
MATRIX_CELL); this module measures it, and short_chain() is how a board's
LED_CHAIN was chosen (nearest neighbour, then 2-opt, from the chain's
first spot)."""
import math

from host_tools.hardware import module_geom as mg

# The longest data wire between two WS2812B we allow: WS2812B data through a
# 330 Ohm series resistor runs well over this, but a longer hop means a
# wire across the board, which this layout never needs.
HOP_MAX_MM = 120.0


def led_xy(board, centres, slot):
    x, y = centres[slot]
    return (x + mg.REED_DX, y + mg.LED_DY)


def hops(board, centres):
    """[(chain position k, from slot, to slot, mm)] for consecutive spots on
    the chain (the status LEDs sit off the plate's spot grid: not measured)."""
    out = []
    spots = [(k, s) for k, s in enumerate(board.led_chain) if s < board.n_sites]
    for (k1, a), (k2, b) in zip(spots, spots[1:]):
        (x1, y1), (x2, y2) = led_xy(board, centres, a), led_xy(board, centres, b)
        out.append((k2, a, b, math.hypot(x2 - x1, y2 - y1)))
    return out


def path_length(points):
    """A wire through `points`, each next one the nearest not yet reached,
    from the leftmost (how a maker runs a row or column line)."""
    if not points:
        return 0.0
    left = sorted(points)
    at = left.pop(0)
    total = 0.0
    while left:
        nxt = min(left, key=lambda p: math.hypot(p[0] - at[0], p[1] - at[1]))
        total += math.hypot(nxt[0] - at[0], nxt[1] - at[1])
        left.remove(nxt)
        at = nxt
    return total


def matrix_lengths(board, centres):
    """{net: mm} for every matrix row and column line through its spots."""
    rows, cols = {}, {}
    for r, c, site in board.sensing():
        x, y = centres[site]
        rows.setdefault("ROW%d" % r, []).append((x, y))
        cols.setdefault("COL%d" % c, []).append((x, y))
    out = {}
    for d in (rows, cols):
        for net, pts in d.items():
            out[net] = path_length(pts)
    return out


def short_chain(board, centres, start=0):
    """A short data-line order through the spots (then the status LEDs in
    the description's order)."""
    pts = {s: led_xy(board, centres, s) for s in range(board.n_sites)}

    def d(a, b):
        return math.hypot(pts[a][0] - pts[b][0], pts[a][1] - pts[b][1])

    order = [start]
    left = set(pts) - {start}
    while left:
        nxt = min(sorted(left), key=lambda s: d(order[-1], s))
        order.append(nxt)
        left.remove(nxt)
    improved = True
    while improved:
        improved = False
        for i in range(1, len(order) - 1):
            for j in range(i + 1, len(order)):
                a, b = order[i - 1], order[i]
                c = order[j]
                e = order[j + 1] if j + 1 < len(order) else None
                before = d(a, b) + (d(c, e) if e is not None else 0.0)
                after = d(a, c) + (d(b, e) if e is not None else 0.0)
                if after < before - 1e-9:
                    order[i:j + 1] = reversed(order[i:j + 1])
                    improved = True
    return order + [s for s in board.led_chain if s >= board.n_sites]
