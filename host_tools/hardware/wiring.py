"""Wire lengths as a maker lays them (issue 37): the LED data line hop by
hop, and each matrix row and column through its spots, on the plate's
1:1 layout (placement.centres; each module's LED and pads sit where the
template draws them). The board description fixes the order (LED_CHAIN,
MATRIX_CELL); this module measures it, short_chain() is how a board's
LED_CHAIN was chosen (nearest neighbour, then 2-opt, from the chain's
first spot) and short_matrix() how its MATRIX_CELL was (bands of
neighbouring spots per row line, then swaps while the sum shrinks)."""
import math

from host_tools.hardware import module_geom as mg

# The longest data wire between two WS2812B we allow: WS2812B data through a
# 330 Ohm series resistor runs well over this, but a longer hop means a
# wire across the board, which this layout never needs.
HOP_MAX_MM = 150.0


def led_xy(board, centres, slot):
    from host_tools.hardware import sensing

    return mg.to_plate(centres[slot], mg.LED_DX, mg.LED_DY, sensing.reed_turn(board))


def hops(board, centres):
    """[(chain position k, from slot, to slot, mm)] for consecutive spots on
    the chain, any status LEDs between them skipped: the spots' own order,
    as short_chain lays it (all_hops measures the wires a maker lays, and
    checks.check_hops holds each of those to HOP_MAX_MM)."""
    out = []
    spots = [(k, s) for k, s in enumerate(board.led_chain) if s < board.n_sites]
    for (k1, a), (k2, b) in zip(spots, spots[1:]):
        (x1, y1), (x2, y2) = led_xy(board, centres, a), led_xy(board, centres, b)
        out.append((k2, a, b, math.hypot(x2 - x1, y2 - y1)))
    return out


def all_hops(board, centres, to_mm=None):
    """[(chain position k, from, to, mm)] for every LED data hop: from the
    Pico (where the level shifter and the 330 Ohm sit: its centre) to the
    first LED, then each LED to the next in LED_CHAIN, status LEDs
    included (where plate.py places them). `from` is None for the Pico."""
    from host_tools.hardware import placement, plate

    if to_mm is None:
        to_mm = placement._layout(board)[4]
    where = {}
    for o in plate.outlines(board, to_mm):
        if o[0] == "pico":
            where[None] = o[2:4]
    for n, (_, x, y) in enumerate(plate.status_windows(board, to_mm)):
        where[board.n_sites + n] = (x, y)
    for s in range(board.n_sites):
        where[s] = led_xy(board, centres, s)
    out = []
    prev = None
    for k, slot in enumerate(board.led_chain):
        if prev in where and slot in where:
            (x1, y1), (x2, y2) = where[prev], where[slot]
            out.append((k, prev, slot, math.hypot(x2 - x1, y2 - y1)))
        prev = slot
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


def _line_mm(sites, centres, dist):
    # path_length over the spots `sites` (the same wire, sped up by a table
    # of distances): from the leftmost, each next spot the nearest not yet
    # reached, ties to the one first in (x, y) order.
    if not sites:
        return 0.0
    left = sorted(sites, key=lambda s: centres[s])
    at = left.pop(0)
    total = 0.0
    while left:
        row = dist[at]
        best = 0
        for i in range(1, len(left)):
            if row[left[i]] < row[left[best]]:
                best = i
        total += row[left[best]]
        at = left.pop(best)
    return total


def short_matrix(board, centres):
    """A MATRIX_CELL for short row and column wires on the 1:1 plate (what
    matrix_lengths measures). Positions without a switch (MATRIX_CELL maps
    them to a spare number, not one of the game's sites) stay where the
    description has them; every spot gets one of the other positions.
    Starts: the description's own MATRIX_CELL, and for each of six
    directions (0, 30, ..., 150 degrees) the spots in bands across it, one
    band per row, in order along it, one column after the other; each start
    is improved by swapping two spots' positions while that shortens the
    sum; the shortest result wins (the description's own on a tie)."""
    n = board.n_sites
    nr, nc = len(board.row_pins), len(board.col_pins)
    cell = board.matrix_cell
    free = [p for p in range(nr * nc) if cell[p] < n]
    dist = [[math.hypot(bx - ax, by - ay) for bx, by in centres] for ax, ay in centres]

    def total(order):
        rows = [[] for _ in range(nr)]
        cols = [[] for _ in range(nc)]
        for p in free:
            rows[p // nc].append(order[p])
            cols[p % nc].append(order[p])
        return sum(_line_mm(s, centres, dist) for s in rows + cols)

    def improve(order):
        order = bytearray(order)
        rows = [[p for p in free if p // nc == r] for r in range(nr)]
        cols = [[p for p in free if p % nc == c] for c in range(nc)]

        def mm(ps):
            return _line_mm([order[p] for p in ps], centres, dist)

        row_mm = [mm(ps) for ps in rows]
        col_mm = [mm(ps) for ps in cols]
        better = True
        while better:
            better = False
            for i, p in enumerate(free):
                for q in free[i + 1:]:
                    rp, cp, rq, cq = p // nc, p % nc, q // nc, q % nc
                    order[p], order[q] = order[q], order[p]
                    lines = []
                    if rp != rq:
                        lines += [(row_mm, rp, rows[rp]), (row_mm, rq, rows[rq])]
                    if cp != cq:
                        lines += [(col_mm, cp, cols[cp]), (col_mm, cq, cols[cq])]
                    new = [mm(ps) for _, _, ps in lines]
                    if sum(new) < sum(t[k] for t, k, _ in lines) - 1e-6:
                        for (t, k, _), v in zip(lines, new):
                            t[k] = v
                        better = True
                    else:
                        order[p], order[q] = order[q], order[p]
        return bytes(order)

    starts = [bytes(cell)]
    for deg in range(0, 180, 30):
        a = math.radians(deg)
        along = [centres[s][0] * math.cos(a) + centres[s][1] * math.sin(a) for s in range(n)]
        across = [-centres[s][0] * math.sin(a) + centres[s][1] * math.cos(a) for s in range(n)]
        spots = sorted(range(n), key=lambda s: (round(across[s], 6), round(along[s], 6), s))
        order = bytearray(cell)
        k = 0
        for r in range(nr):
            ps = [p for p in free if p // nc == r]
            band = sorted(spots[k:k + len(ps)], key=lambda s: (round(along[s], 6), s))
            for p, s in zip(ps, band):
                order[p] = s
            k += len(ps)
        starts.append(bytes(order))
    best, best_mm = None, None
    for s in starts:
        got = improve(s)
        mm = total(got)
        if best is None or mm < best_mm - 0.5:
            best, best_mm = got, mm
    return best
