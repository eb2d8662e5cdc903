# The board of Don Cornelson's TRIAD as integer tables, computed once at
# import. The rules, the face (site names, drawing), the board description
# and the tests all read these tables, so the geometry lives only here.
#
# The rulebook's drawing is not available; issue 14 fixes the geometry:
# posts are the 37 vertices of a triangular lattice inside a hexagon of side
# 3 with flat top and bottom. Lattice coordinates (X, y): y = row 0..6
# (A..G), X = |y-3| + 2*(index-1); neighbouring posts differ by (+-2, 0) or
# (+-1, +-1). Treys are the unit triangles between two rows, named by row
# a..f and index from the left. Borders are the 90 lattice edges.
#
# Spaces (where jewels stand) are numbered 0..71: treys 0..53, docks 54..59
# (S1 S2 S3 N1 N2 N3), portals 60..71 (P1..P12). A site number (the face's
# numbering) is a post 0..36 or FIRST_SPACE + space.

NONE = 255
N_POSTS = 37
N_TREYS = 54
N_DOCKS = 6
N_PORTALS = 12
N_SPACES = 72
N_BORDERS = 90
FIRST_DOCK = 54
FIRST_PORTAL = 60
FIRST_SPACE = 37  # site number of space 0
N_SITES = 109

ROW_LEN = (4, 5, 6, 7, 6, 5, 4)
TREY_ROW_LEN = (7, 9, 11, 11, 9, 7)
ROW_LETTERS = "ABCDEFG"
TREY_LETTERS = "abcdef"

# Directions as (dX, dy), numbered so that d and d+3 are opposite.
DIRS = ((2, 0), (1, 1), (-1, 1), (-2, 0), (-1, -1), (1, -1))

# Boundary borders of the docks and portals, as post names; "directly
# across" pairs the portal numbers of PORTAL_ACROSS.
DOCK_BORDERS = (
    ("A1", "A2"), ("A2", "A3"), ("A3", "A4"),  # S1 S2 S3
    ("G1", "G2"), ("G2", "G3"), ("G3", "G4"),  # N1 N2 N3
)
DOCK_NAMES = ("S1", "S2", "S3", "N1", "N2", "N3")
PORTAL_BORDERS = (
    ("A4", "B5"), ("B5", "C6"), ("C6", "D7"),
    ("D7", "E6"), ("E6", "F5"), ("F5", "G4"),
    ("F1", "G1"), ("E1", "F1"), ("D1", "E1"),
    ("C1", "D1"), ("B1", "C1"), ("A1", "B1"),
)
# PORTAL_ACROSS[i] = j: P(i+1) transfers to P(j+1); P1-P9 P2-P8 P3-P7
# P4-P12 P5-P11 P6-P10.
PORTAL_ACROSS = bytes((8, 7, 6, 11, 10, 9, 2, 1, 0, 5, 4, 3))


def _build():
    post_x = bytearray(N_POSTS)
    post_y = bytearray(N_POSTS)
    grid = bytearray(b"\xff" * (13 * 7))
    names = []
    i = 0
    for y in range(7):
        for k in range(ROW_LEN[y]):
            x = abs(y - 3) + 2 * k
            post_x[i] = x
            post_y[i] = y
            grid[y * 13 + x] = i
            names.append(ROW_LETTERS[y] + str(k + 1))
            i += 1

    def at(x, y):
        if 0 <= x < 13 and 0 <= y < 7:
            return grid[y * 13 + x]
        return NONE

    nb = bytearray(N_POSTS * 6)
    for p in range(N_POSTS):
        for d in range(6):
            nb[p * 6 + d] = at(post_x[p] + DIRS[d][0], post_y[p] + DIRS[d][1])

    # Borders: each unordered neighbouring pair once, lower post first.
    bu = bytearray()
    bv = bytearray()
    border_of = {}
    for p in range(N_POSTS):
        for d in range(6):
            q = nb[p * 6 + d]
            if q != NONE and q > p:
                border_of[p * 64 + q] = len(bu)
                bu.append(p)
                bv.append(q)

    def border(p, q):
        if p > q:
            p, q = q, p
        return border_of[p * 64 + q]

    # Treys row by row, left to right by centroid X (cx); at a given cx only
    # one of the two orientations can exist, by the rows' X parity.
    trey_p = bytearray()
    trey_up = bytearray()
    trey_names = []
    for r in range(6):
        k = 0
        for cx in range(13):
            up = (at(cx - 1, r), at(cx + 1, r), at(cx, r + 1))
            down = (at(cx, r), at(cx - 1, r + 1), at(cx + 1, r + 1))
            for tri, is_up in ((up, 1), (down, 0)):
                if NONE in tri:
                    continue
                trey_p.extend(bytes(tri))
                trey_up.append(is_up)
                k += 1
                trey_names.append(TREY_LETTERS[r] + str(k))

    # Spaces on each side of each border.
    side_a = bytearray(b"\xff" * N_BORDERS)
    side_b = bytearray(b"\xff" * N_BORDERS)

    def attach(b, s):
        if side_a[b] == NONE:
            side_a[b] = s
        else:
            side_b[b] = s

    # A trey's exits, in a fixed order: across the border opposite its 1st,
    # 2nd, 3rd vertex.
    trey_border = bytearray(N_TREYS * 3)
    for t in range(N_TREYS):
        a, b, c = trey_p[t * 3], trey_p[t * 3 + 1], trey_p[t * 3 + 2]
        for e, (p, q) in enumerate(((b, c), (a, c), (a, b))):
            bd = border(p, q)
            trey_border[t * 3 + e] = bd
            attach(bd, t)
    post_index = {}
    for i in range(N_POSTS):
        post_index[names[i]] = i
    outer_border = bytearray(N_DOCKS + N_PORTALS)
    for i in range(N_DOCKS):
        pa, pb = DOCK_BORDERS[i]
        bd = border(post_index[pa], post_index[pb])
        outer_border[i] = bd
        attach(bd, FIRST_DOCK + i)
    for i in range(N_PORTALS):
        pa, pb = PORTAL_BORDERS[i]
        bd = border(post_index[pa], post_index[pb])
        outer_border[N_DOCKS + i] = bd
        attach(bd, FIRST_PORTAL + i)

    def other(bd, s):
        return side_b[bd] if side_a[bd] == s else side_a[bd]

    # Exits: space s has up to three, EXIT_TO[s*3+e] (NONE when absent) and
    # EXIT_BORDER[s*3+e] (the border crossed; NONE for a transfer).
    exit_to = bytearray(b"\xff" * (N_SPACES * 3))
    exit_border = bytearray(b"\xff" * (N_SPACES * 3))
    for t in range(N_TREYS):
        for e in range(3):
            bd = trey_border[t * 3 + e]
            exit_to[t * 3 + e] = other(bd, t)
            exit_border[t * 3 + e] = bd
    for i in range(N_DOCKS + N_PORTALS):
        s = FIRST_DOCK + i
        bd = outer_border[i]
        exit_to[s * 3] = other(bd, s)
        exit_border[s * 3] = bd
    for i in range(N_PORTALS):
        s = FIRST_PORTAL + i
        exit_to[s * 3 + 1] = FIRST_PORTAL + PORTAL_ACROSS[i]
    space_names = trey_names + list(DOCK_NAMES) + ["P" + str(i + 1) for i in range(N_PORTALS)]
    return (
        post_x, post_y, nb, bu, bv, trey_p, trey_up, side_a, side_b,
        exit_to, exit_border, tuple(names), tuple(space_names), outer_border,
    )


(
    POST_X, POST_Y, NB, BORDER_U, BORDER_V, TREY_POSTS, TREY_UP,
    BORDER_SIDE_A, BORDER_SIDE_B, EXIT_TO, EXIT_BORDER,
    POST_NAMES, SPACE_NAMES, OUTER_BORDER,
) = _build()

# Freeze the tables: bytes indexing is as fast and nothing can change them.
POST_X = bytes(POST_X)
POST_Y = bytes(POST_Y)
NB = bytes(NB)
BORDER_U = bytes(BORDER_U)
BORDER_V = bytes(BORDER_V)
TREY_POSTS = bytes(TREY_POSTS)
TREY_UP = bytes(TREY_UP)
BORDER_SIDE_A = bytes(BORDER_SIDE_A)
BORDER_SIDE_B = bytes(BORDER_SIDE_B)
EXIT_TO = bytes(EXIT_TO)
EXIT_BORDER = bytes(EXIT_BORDER)
OUTER_BORDER = bytes(OUTER_BORDER)
SITE_NAMES = POST_NAMES + SPACE_NAMES

# DOCK_OWNER[s] = 1 + side owning dock space s (0 for non-docks): S docks
# are South's (side 0), N docks North's.
DOCK_OWNER = bytes(
    (1 if s < FIRST_DOCK + 3 else 2) if FIRST_DOCK <= s < FIRST_PORTAL else 0
    for s in range(N_SPACES)
)

# Capture lines: LINE1[p*6+d] is the neighbour of p in direction d and
# LINE2[p*6+d] the post beyond it, both NONE unless both exist (an X-O-X
# bracket needs all three posts).
_line1 = bytearray(N_POSTS * 6)
_line2 = bytearray(N_POSTS * 6)
for _i in range(N_POSTS * 6):
    _n1 = NB[_i]
    _n2 = NB[_n1 * 6 + _i % 6] if _n1 != NONE else NONE
    if _n2 == NONE:
        _n1 = NONE
    _line1[_i] = _n1
    _line2[_i] = _n2
LINE1 = bytes(_line1)
LINE2 = bytes(_line2)


def post_index(name):
    for i in range(N_POSTS):
        if POST_NAMES[i] == name:
            return i
    return -1


def space_index(name):
    for i in range(N_SPACES):
        if SPACE_NAMES[i] == name:
            return i
    return -1


_SQRT3_2 = 0.8660254037844386


def site_xy(i):
    """Drawing coordinates in board units (post spacing 1, y downwards, G
    row at the top). Docks and portals stand half a unit outside the middle
    of their border, along its outward normal."""
    if i < N_POSTS:
        return (POST_X[i] * 0.5, (6 - POST_Y[i]) * _SQRT3_2)
    s = i - FIRST_SPACE
    if s < N_TREYS:
        x = 0.0
        y = 0.0
        for k in range(3):
            p = TREY_POSTS[s * 3 + k]
            x += POST_X[p]
            y += POST_Y[p]
        return (x / 6.0, (6 - y / 3.0) * _SQRT3_2)
    bd = OUTER_BORDER[s - FIRST_DOCK]
    u = BORDER_U[bd]
    v = BORDER_V[bd]
    mx = (POST_X[u] + POST_X[v]) * 0.25
    my = (6 - (POST_Y[u] + POST_Y[v]) * 0.5) * _SQRT3_2
    tx, ty = site_xy(FIRST_SPACE + (BORDER_SIDE_A[bd] if BORDER_SIDE_A[bd] != s else BORDER_SIDE_B[bd]))
    dx = mx - tx
    dy = my - ty
    n = (dx * dx + dy * dy) ** 0.5
    return (mx + dx / n * 0.5, my + dy / n * 0.5)


def site_shape(i):
    if i < N_POSTS:
        return "circle"
    s = i - FIRST_SPACE
    if s < N_TREYS:
        return "tri-up" if TREY_UP[s] else "tri-down"
    return "square"
