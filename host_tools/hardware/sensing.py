"""Will a piece close its spot's reed switch, and only its own? (issue 37)

The field of every piece's magnet(s) at the reed switch under the spot,
computed with magpylib (analytic fields of cylinder magnets; SI units in
magpylib 6: metres, tesla), for every way the piece can stand, and at the
reed under each neighbouring spot. Written per board as
hardware/<board>/sensing.csv (case,piece,orientation,spot,field_mT,
limit_mT,verdict) and sensing.svg (the field along the reed against the
magnet's offset along it).

The reed: Littelfuse MDSR-7-15-20 (12.7 mm glass, pull-in 15-20 AT). It
lies flat under the plate, along the module's x axis, its glass centred
REED_DX to the right of the spot's centre: the piece's magnet stands over
the glass's left end. Centred under a disc magnet magnetised through its
thickness, the field along the reed points outward on both halves and the
switch sits in its null (the model says 0.0 mT there: sensing.svg); over
one end, the whole reed sees the field of one side.

What the reed responds to (field_mT): the component of the magnet's field
along the reed's axis, averaged over the glass's length. A reed's AT rating
is measured in a test coil whose field is uniform along the glass, so the
average over the glass is the uniform field that magnetises the blades
alike and meets at the contacts. Its sign does not matter (either way
round the blades take opposite poles at the gap).

AT to field (Littelfuse application note AN102A, "Ampere*turn versus mT
and Gauss"): the long-solenoid formula B = mu0 * N * I / l with l the coil
length, here the glass length (12.7 mm): 1 AT = 0.099 mT. The same note
warns that activating from one pole of a magnet takes about twice the field
of activating from both poles, and that the rule is good to a factor of 2;
so the operate value counts double (one pole), and the margins below come
on top of that.

Verdicts:
  on:         a piece standing on the spot, every way it can stand, turned
              any way about the vertical, up to PLACE_TOL mm off the spot's
              centre in x and y: the weakest field >= MARGIN x operate
              (20 AT, the top of the part's range, x 2 for one pole).
  neighbour:  a piece on a neighbouring spot (within NEIGHBOUR_MM), its
              strongest field (any orientation, turn and offset) at this
              spot's reed <= release (drop-out; DROPOUT_AT, the lowest we
              allow for the part) / MARGIN.
  two_neighbours: two pieces on two neighbouring spots at once: the sum of
              their strongest fields (an upper bound for any pair of
              orientations) <= release / MARGIN.
  on_with_neighbours: the weakest own field less the two strongest
              neighbours' fields (a lower bound: they may oppose it) still
              >= MARGIN x operate.
Magnet strength: the 'on' cases use the grade's lowest remanence (N40,
1.25 T); the neighbour cases the strongest a shop may send instead (N52,
1.48 T).
"""
import csv
import io
import math

import numpy as np

from host_tools.hardware import module_geom as mg

MU0 = 4e-7 * math.pi
REED_PART = ("Littelfuse", "MDSR-7-15-20")
PULL_IN_AT = (15.0, 20.0)  # the part's pull-in range
DROPOUT_AT = 6.0  # release: the lowest drop-out we allow for (40 % of the lowest pull-in)
AT_TO_MT = MU0 / (mg.REED_GLASS * 1e-3) * 1e3  # AN102A's solenoid formula over the glass
ONE_POLE = 2.0  # AN102A: one pole takes about twice the field of both
MARGIN = 1.5
OPERATE_MT = PULL_IN_AT[1] * AT_TO_MT * ONE_POLE
RELEASE_MT = DROPOUT_AT * AT_TO_MT
ON_LIMIT = MARGIN * OPERATE_MT
OFF_LIMIT = RELEASE_MT / MARGIN
BR_MIN, BR_MAX = 1.25, 1.48  # N40 lowest, N52 highest remanence (T)
PLACE_TOL = 3.0  # mm: a piece stands within this of its spot's marked centre
NEIGHBOUR_MM = 50.0  # spots this close are neighbours (the closest are 35 mm apart)
YAWS = tuple(range(0, 360, 15))
N_POINTS = 41  # along the glass

# The magnets: neodymium discs magnetised through their thickness (axial),
# N40 or stronger (the model takes N40's lowest remanence for 'on' and
# N52's highest for the neighbours, so any grade in between passes); the
# outer face MAGNET_SKIN inside the piece's face. (diameter, height, maker,
# part number)
MAGNET_SKIN = 1.0
MAGNETS = {
    "8x3": (8.0, 3.0, "supermagnete", "S-08-03-N"),
    "6x2": (6.0, 2.0, "supermagnete", "S-06-02-N"),
}


class Piece:
    """A piece: its magnets in its own frame (mm; z up from the face it
    stands on when upright; each (centre, unit magnetisation)), and the
    ways it can stand (name, 3x3 rotation applied to the piece)."""

    def __init__(self, name, size, height, magnets, stances, count, magnet):
        self.magnet = magnet
        self.name = name
        self.size = size
        self.height = height
        self.magnets = magnets
        self.stances = stances
        self.count = count  # magnets per board set (the BOM)


def _rot(axis, deg):
    a = math.radians(deg)
    c, s = math.cos(a), math.sin(a)
    x, y, z = axis
    return np.array([[c + x * x * (1 - c), x * y * (1 - c) - z * s, x * z * (1 - c) + y * s],
                     [y * x * (1 - c) + z * s, c + y * y * (1 - c), y * z * (1 - c) - x * s],
                     [z * x * (1 - c) - y * s, z * y * (1 - c) + x * s, c + z * z * (1 - c)]])


def die(edge, n_dice, magnet):
    """A cube with a magnet under every face, north pole outwards: whichever
    face it stands on, a magnet lies flat under it, N down. Faces 1..6 as
    a die's: 1 down = upright, 6 opposite 1, 2-5 round the sides."""
    h = edge / 2
    d = h - MAGNET_SKIN - MAGNETS[magnet][1] / 2
    c = np.array([0.0, 0.0, h])  # the cube's centre, standing on the plate
    normals = {1: (0, 0, -1), 6: (0, 0, 1), 2: (1, 0, 0), 5: (-1, 0, 0), 3: (0, 1, 0), 4: (0, -1, 0)}
    mags = [(c + d * np.array(n, float), np.array(n, float)) for n in normals.values()]
    # The rotation (about the cube's centre) that puts face k down.
    turn = {1: np.eye(3), 6: _rot((1, 0, 0), 180), 2: _rot((0, 1, 0), 90), 5: _rot((0, 1, 0), -90),
            3: _rot((1, 0, 0), -90), 4: _rot((1, 0, 0), 90)}
    stances = [("face %d down" % k, turn[k]) for k in sorted(turn)]
    return Piece("die %g mm" % edge, edge, edge, mags, stances, 6 * n_dice, magnet)


def disc_piece(name, diameter, height, n, flips, magnet):
    """A round piece with one magnet at mid-height (so it senses the same
    either way up), or under its flat face (flips False: it only stands
    one way)."""
    z = height / 2 if flips else MAGNET_SKIN + MAGNETS[magnet][1] / 2
    mags = [(np.array([0.0, 0.0, z]), np.array([0.0, 0.0, -1.0]))]
    stances = [("upright", np.eye(3))]
    if flips:
        stances.append(("upside down", _rot((1, 0, 0), 180)))
    return Piece(name, diameter, height, mags, stances, n, magnet)


# Per board: [(piece, the sites it stands on)] and the plate's thickness.
# (The boards' pieces: Nehren's 12 dice, Browne's 75 counters (25 a colour: hex_v1.md), Cornelson's
# 80 gems on posts and 6 jewels on the other spots.)
def board_pieces(board):
    n = board.n_sites
    if board.name == "pico_v1":
        return [(die(16.0, 12, "8x3"), range(n))]
    if board.name == "hex_v1":
        return [(disc_piece("counter 20 x 5 mm", 20.0, 5.0, 75, True, "6x2"), range(n))]
    if board.name == "tri_v1":
        return [(disc_piece("gem 18 mm, flat back", 18.0, 9.0, 80, False, "6x2"), range(0, 37)),
                (disc_piece("jewel 25 mm, flat back", 25.0, 12.0, 6, False, "6x2"), range(37, n))]
    raise ValueError("no pieces described for board %s (host_tools/hardware/sensing.py)" % board.name)


PLATE_T = 2.0  # mm: the top plate (2 mm acrylic or plywood) between piece and reed


def reed_axis_points(dx=0.0, dy=0.0):
    """Points (mm) along the glass of the reed under a spot at (dx, dy)
    (the template's frame: x right, y down; z up, the plate's top at 0)."""
    z = -(PLATE_T + mg.REED_DIA / 2)
    xs = np.linspace(-mg.REED_GLASS / 2, mg.REED_GLASS / 2, N_POINTS) + mg.REED_DX + dx
    return np.stack([xs, np.full_like(xs, dy), np.full_like(xs, z)], axis=1)


def _sources(piece, stance, yaw, at, br):
    import magpylib as magpy

    rot = _rot((0, 0, 1), yaw) @ stance
    centre = np.array([0.0, 0.0, piece.height / 2])  # turned about its own centre
    out = []
    for pos, m in piece.magnets:
        p = rot @ (pos - centre) + centre + np.array([at[0], at[1], 0.0])
        mm = rot @ m
        # A cylinder magnetised along its own z, turned so z is along mm.
        md, mh = MAGNETS[piece.magnet][:2]
        src = magpy.magnet.Cylinder(polarization=(0, 0, br), dimension=(md * 1e-3, mh * 1e-3),
                                    position=p * 1e-3)
        z = np.array([0.0, 0.0, 1.0])
        ax = np.cross(z, mm)
        if np.linalg.norm(ax) > 1e-9:
            from scipy.spatial.transform import Rotation

            ang = math.acos(max(-1.0, min(1.0, float(np.dot(z, mm)))))
            src.rotate(Rotation.from_rotvec(ax / np.linalg.norm(ax) * ang), anchor=p * 1e-3)
        elif mm[2] < 0:
            from scipy.spatial.transform import Rotation

            src.rotate(Rotation.from_rotvec((math.pi, 0, 0)), anchor=p * 1e-3)
        out.append(src)
    return out


def field_mT(piece, stance, yaw, at, br, reed=(0.0, 0.0)):
    """The field along the reed (mT, mean over the glass, signed) of the
    piece standing at `at` (mm from the spot whose reed is at `reed`)."""
    import magpylib as magpy

    pts = reed_axis_points(*reed) * 1e-3
    srcs = _sources(piece, stance, yaw, at, br)
    b = magpy.getB(srcs, pts, sumup=True)
    return float(np.mean(b[:, 0])) * 1e3


def _yaws(piece):
    """Turns about the vertical worth computing: a round piece's magnets lie
    on its axis (one will do); a die's repeat every 90 degrees (the same
    magnet under every face)."""
    return tuple(a for a in YAWS if a < 90) if len(piece.magnets) > 1 else (0,)


def _offsets():
    t = PLACE_TOL
    return [(0.0, 0.0), (t, 0.0), (-t, 0.0), (0.0, t), (0.0, -t)]


class Model:
    """The worst cases of one board, cached by the relative position of
    piece and reed (every module is the same, turned the same way)."""

    def __init__(self, board, centres):
        self.board = board
        self.centres = centres
        self.pieces = board_pieces(board)
        self.piece_at = {}
        for piece, sites in self.pieces:
            for s in sites:
                self.piece_at[s] = piece
        self._on = {}
        self._off = {}

    def on_min(self, piece, stance):
        """The weakest |field| of the piece standing on the spot: (mT, how)."""
        key = (piece.name, stance[0])
        if key not in self._on:
            worst = None
            for yaw in _yaws(piece):
                for o in _offsets():
                    f = abs(field_mT(piece, stance[1], yaw, o, BR_MIN))
                    if worst is None or f < worst[0]:
                        worst = (f, yaw, o)
            self._on[key] = worst
        return self._on[key]

    def off_max(self, piece, stance, rel):
        """The strongest |field| of the piece on a spot at `rel` (mm) from
        this spot's centre, at this spot's reed."""
        key = (piece.name, stance[0], round(rel[0], 2), round(rel[1], 2))
        if key not in self._off:
            best = 0.0
            for yaw in _yaws(piece):
                for o in _offsets():
                    at = (rel[0] + o[0], rel[1] + o[1])
                    best = max(best, abs(field_mT(piece, stance[1], yaw, at, BR_MAX)))
            self._off[key] = best
        return self._off[key]

    def neighbours(self, site):
        cx, cy = self.centres[site]
        out = []
        for j, (x, y) in enumerate(self.centres):
            if j != site and math.hypot(x - cx, y - cy) <= NEIGHBOUR_MM:
                out.append((j, (x - cx, y - cy)))
        return out


def rows(board, centres):
    """The sensing.csv rows of a board: [(case, piece, orientation, spot,
    field_mT, limit_mT, verdict)]."""
    m = Model(board, centres)
    names = board.site_names
    out = []

    def row(case, piece, orient, spot, f, limit, ok):
        out.append((case, piece, orient, spot, "%.3f" % f, "%.3f" % limit, "ok" if ok else "FAIL"))

    for site in range(board.n_sites):
        piece = m.piece_at[site]
        nbs = m.neighbours(site)
        worst_nb = []
        for j, rel in nbs:
            other = m.piece_at[j]
            worst_nb.append((max(m.off_max(other, st, rel) for st in other.stances), j, other))
        for st in piece.stances:
            f, _, _ = m.on_min(piece, st)
            row("on", piece.name, st[0], names[site], f, ON_LIMIT, f >= ON_LIMIT)
        for j, rel in nbs:
            other = m.piece_at[j]
            for st in other.stances:
                f = m.off_max(other, st, rel)
                row("neighbour", other.name, st[0], "%s (piece on %s)" % (names[site], names[j]), f, OFF_LIMIT, f <= OFF_LIMIT)
        worst_nb.sort(key=lambda x: (-x[0], x[1]))
        if len(worst_nb) >= 2:
            (f1, j1, p1), (f2, j2, p2) = worst_nb[:2]
            f = f1 + f2
            row("two_neighbours", "%s + %s" % (p1.name, p2.name), "any", "%s (pieces on %s and %s)" % (names[site], names[j1], names[j2]),
                f, OFF_LIMIT, f <= OFF_LIMIT)
            own = min(m.on_min(piece, st)[0] for st in piece.stances)
            f = own - (f1 + f2)
            row("on_with_neighbours", piece.name, "any", "%s (pieces on %s and %s too)" % (names[site], names[j1], names[j2]),
                f, ON_LIMIT, f >= ON_LIMIT)
    return out


def csv_text(rws):
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(("case", "piece", "orientation", "spot", "field_mT", "limit_mT", "verdict"))
    w.writerows(rws)
    return buf.getvalue()


def summary(rws):
    fails = [r for r in rws if r[6] != "ok"]
    return len(rws), fails


def sweep(piece, stance, offsets, br=BR_MIN):
    """|field| at the reed as the piece slides along the reed's axis
    (offset of the piece's centre from the spot's centre, mm)."""
    return [abs(field_mT(piece, stance, 0, (x, 0.0), br)) for x in offsets]


def plot_svg(board, path):
    """The field along the reed against the magnet's offset, per piece."""
    import matplotlib

    matplotlib.use("svg")
    import matplotlib.pyplot as plt

    matplotlib.rcParams["svg.hashsalt"] = "triad-sensing"
    pieces = board_pieces(board)
    xs = np.linspace(-45.0, 45.0, 181)
    fig, ax = plt.subplots(figsize=(8.3, 5.8))
    for piece, _ in pieces:
        ys = sweep(piece, piece.stances[0][1], xs)
        md, mh = MAGNETS[piece.magnet][:2]
        ax.plot(xs, ys, lw=1.8, label="%s, %s (magnet %g x %g mm)" % (piece.name, piece.stances[0][0], md, mh))
    lo = min(ON_LIMIT, OFF_LIMIT) / 20
    ax.set_yscale("log")
    ax.set_ylim(lo, None)
    ax.axhline(ON_LIMIT, color="#1a7f37", ls="--", lw=1)
    ax.text(xs[0] + 1, ON_LIMIT * 1.08, "on: must reach %.2f mT (1.5 x operate %.2f mT = 20 AT, one pole)" % (ON_LIMIT, OPERATE_MT), color="#1a7f37", fontsize=8)
    ax.axhline(OFF_LIMIT, color="#c0392b", ls="--", lw=1)
    ax.text(xs[0] + 1, OFF_LIMIT * 1.08, "neighbour: must stay under %.2f mT (release %.2f mT = %g AT / 1.5)" % (OFF_LIMIT, RELEASE_MT, DROPOUT_AT), color="#c0392b", fontsize=8)
    ax.axvspan(-PLACE_TOL, PLACE_TOL, color="#1a7f37", alpha=0.08)
    glass = (mg.REED_DX - mg.REED_GLASS / 2, mg.REED_DX + mg.REED_GLASS / 2)
    ax.axvspan(glass[0], glass[1], ymax=0.04, color="#444444", alpha=0.6)
    ax.text(glass[0], lo * 1.25, " reed glass", fontsize=8)
    for d in (-35.0, 35.0):
        ax.axvline(d, color="#888888", lw=0.8, ls=":")
    ax.text(35.5, lo * 1.6, "next spot\n(35 mm)", fontsize=8, color="#555555")
    ax.set_xlabel("offset of the piece's centre from the spot's centre along the reed (mm; + towards the reed's far end)")
    ax.set_ylabel("field along the reed, mean over the glass (mT)")
    ax.set_title("%s: %s under a %.0f mm plate, glass centred %.2f mm right of the spot\n"
                 "axially magnetised NdFeB discs (N40, Br %.2f T); shaded: where a piece may stand (+/- %g mm)"
                 % (board.name, " ".join(REED_PART), PLATE_T, mg.REED_DX, BR_MIN, PLACE_TOL), fontsize=9)
    ax.grid(True, which="both", lw=0.3, alpha=0.5)
    ax.legend(fontsize=8, loc="upper left")
    fig.tight_layout()
    fig.savefig(path, format="svg", metadata={"Date": None, "Creator": "host_tools.hardware.sensing"})
    plt.close(fig)
