"""Will a piece close its spot's reed switch, and only its own? (issues 37, 44)

The field of every piece's magnet(s) at the reed switch under the spot,
computed with magpylib (analytic fields of cylinder magnets; SI units in
magpylib 6: metres, tesla), for every way the piece can stand, turned any
way and up to PLACE_TOL mm off the spot's centre in any direction, over the
stack-up's tolerances (stackup.py): the air gap from 0 to its worst case,
the plate's thickness at either end of its tolerance. Written per board as
hardware/<board>/sensing.csv (case,piece,orientation,spot,field_mT,
limit_mT,verdict,gap_mm) and sensing.svg (the field against the piece's
offset along the reed, and against the air gap).

The reed: the BOM's Littelfuse MDSR-7 (12.7 mm glass); the last two
numbers of its part number are its pull-in band in AT (REED_PART). It lies
flat under the plate along the module's x axis, its glass centred REED_DX
from the spot's centre: the piece's magnet stands over the glass's near
end. Centred under a disc magnet magnetised through its thickness, the
field along the reed points outward on both halves and the switch sits in
its null (sensing.svg); over one end, the whole reed sees one side's field.
Every module on a board is turned by the same angle (reed_turn), chosen so
that no neighbouring spot lies straight along the reed's far end, where a
neighbour's field along the reed is strongest.

What the reed responds to (field_mT), bounded by two models, the worse of
the two for each verdict (the weaker for 'on', the stronger for a
neighbour):
  glass:  the component of the field along the reed's axis, averaged over
          the glass (a reed's AT rating is measured in a test coil whose
          field is uniform along the glass).
  leads:  the blades and their Ni-Fe leads as two high-permeability halves,
          each at one magnetic potential, out to where the leads bend down
          into the board (REED_LEAD_HALF from the contacts): the drive at
          the contacts is then the field along the axis weighted by
          (REED_LEAD_HALF - distance from the contacts), scaled so that a
          field uniform over the glass alone reads as itself. This counts
          the lead passing under the magnet, whose field points against
          the glass's.
Its sign does not matter (either way round the blades take opposite poles
at the gap).

AT to field (Littelfuse application note AN102A, "Ampere*turn versus mT
and Gauss"): 1 AT = 0.099 mT (its long-solenoid formula B = mu0 * N * I / l
with l the glass length, 12.7 mm, gives 0.0989). The same note warns that
activating from one pole of a magnet takes about twice the field of
activating from both poles, and that the rule is good to a factor of 2;
so the operate value counts double (one pole), and the margins below come
on top of that.

Verdicts (each at gap 0 and at the worst gap, stackup.GAP_WORST):
  on:         a piece standing on the spot, every way it can stand, turned
              any way about the vertical (every YAW_STEP degrees), up to
              PLACE_TOL mm off the spot's centre in any direction (OFFSETS:
              the centre, rings at half and all of it every 60 and 30
              degrees), the plate at its thickest, the
              magnets at the grade's lowest remanence: the weakest field
              >= MARGIN x operate (the top of the reed's band, x 2 for one
              pole).
  neighbour:  a piece on a neighbouring spot (within NEIGHBOUR_MM), its
              strongest field (any orientation, turn and offset; the plate
              at its thinnest; the strongest grade) at this spot's reed <=
              release (drop-out; DROPOUT_FRACTION of the bottom of the
              band, the lowest we allow for the part) / MARGIN.
  two_neighbours: two pieces on two neighbouring spots at once: the sum of
              their strongest fields (an upper bound for any pair of
              orientations) <= release / MARGIN.
  on_with_neighbours: the weakest own field less the two strongest
              neighbours' fields (a lower bound: they may oppose it) still
              >= MARGIN x operate.
"""
import csv
import io
import math
import re

import numpy as np

from host_tools.hardware import module_geom as mg
from host_tools.hardware import pieces as pc
from host_tools.hardware import stackup

REED_PART = ("Littelfuse", "MDSR-7-15-20")


def pull_in_at(part=None):
    """The reed's pull-in band (low, high) in AT: the last two numbers of
    its part number (Littelfuse's MDSR-7-15-20: 15-20 AT)."""
    nums = re.findall(r"\d+", (part or REED_PART)[1])
    return float(nums[-2]), float(nums[-1])


PULL_IN_AT = pull_in_at()
DROPOUT_FRACTION = 0.4  # release: the lowest drop-out we allow for, 40 % of the band's lowest pull-in
DROPOUT_AT = DROPOUT_FRACTION * PULL_IN_AT[0]
AT_TO_MT = 0.099  # AN102A (its solenoid formula over the 12.7 mm glass gives 0.0989)
ONE_POLE = 2.0  # AN102A: one pole takes about twice the field of both
MARGIN = 1.5
OPERATE_MT = PULL_IN_AT[1] * AT_TO_MT * ONE_POLE
RELEASE_MT = DROPOUT_AT * AT_TO_MT
ON_LIMIT = MARGIN * OPERATE_MT
OFF_LIMIT = RELEASE_MT / MARGIN
BR_MIN, BR_MAX = 1.25, 1.48  # N40 lowest, N52 highest remanence (T)
PLACE_TOL = 3.0  # mm: a piece stands within this of its spot's marked centre, any direction
NEIGHBOUR_MM = 50.0  # spots this close are neighbours (the closest are 35 mm apart)
YAW_STEP = 15
N_POINTS = 33  # along the reed, lead bend to lead bend, 0.635 mm apart (the trapezoid rule: within 0.2 % of 193 points)
# Where a piece may stand: the centre, and rings at half and all of PLACE_TOL.
RIM = [(PLACE_TOL * math.cos(math.radians(a)), PLACE_TOL * math.sin(math.radians(a))) for a in range(0, 360, 30)]
OFFSETS = ([(0.0, 0.0)] + [(PLACE_TOL / 2 * math.cos(math.radians(a)), PLACE_TOL / 2 * math.sin(math.radians(a))) for a in range(0, 360, 60)]
           + [(PLACE_TOL * math.cos(math.radians(a)), PLACE_TOL * math.sin(math.radians(a))) for a in range(0, 360, 30)])
MAGNETS = pc.MAGNETS


def gaps():
    """The air gaps every case is computed at: none, and the worst."""
    return (0.0, stackup.GAP_WORST)


# Per board: [(piece, the sites it stands on)], and the turn of its modules.
# (The boards' pieces: Nehren's 12 dice, Browne's 75 counters (25 a colour: hex_v1.md), Cornelson's
# 80 gems on posts and 6 jewels on the other spots.)
def board_pieces(board):
    n = board.n_sites
    if board.name == "pico_v1":
        return [(pc.die(18.0, 12, "8x3"), range(n))]
    if board.name == "hex_v1":
        return [(pc.two_faced_piece("counter 20 x 5 mm", 20.0, 5.0, 75, "12x1"), range(n))]
    if board.name == "tri_v1":
        return [(pc.flat_piece("gem 18 mm, flat back", 18.0, 9.0, 80, "6x2"), range(0, 37)),
                (pc.flat_piece("jewel 25 mm, flat back", 25.0, 12.0, 6, "6x2"), range(37, n))]
    raise ValueError("no pieces described for board %s (host_tools/hardware/sensing.py)" % board.name)


# The modules' turn per board (degrees, clockwise as the template is
# drawn): no neighbouring spot straight along the reed's far end (pico_v1's
# square grid: the diagonal; hex_v1's hexagons: between two neighbours).
REED_TURN = {"pico_v1": 45.0, "hex_v1": 30.0, "tri_v1": 0.0}


def reed_turn(board):
    return REED_TURN.get(board.name, 0.0)


def reed_xs():
    """Points along the reed (mm from the spot's centre along its axis),
    lead bend to lead bend, and which of them lie on the glass."""
    xs = np.linspace(-mg.REED_LEAD_HALF, mg.REED_LEAD_HALF, N_POINTS)
    return xs + mg.REED_DX, np.abs(xs) <= mg.REED_GLASS / 2 + 1e-9, mg.REED_LEAD_HALF - np.abs(xs)


def reed_axis_points(dx=0.0, dy=0.0, gap=0.0, plate=None):
    """Points (mm) along the reed under a spot, the piece at (-dx, -dy) from
    it (the reed's frame: x along it, z up, the plate's top at 0)."""
    xs, _, _ = reed_xs()
    z = stackup.reed_axis_z(gap, stackup.PLATE_T if plate is None else plate)
    return np.stack([xs + dx, np.full_like(xs, dy), np.full_like(xs, z)], axis=1)


def models(bx):
    """(glass, leads) of the field along the reed sampled at reed_xs (the
    last axis): the glass's mean, and the lead-weighted drive (module doc)."""
    _, glass, w = reed_xs()
    # Trapezoid rule: the glass's ends and the leads' bends lie on the
    # sample points (N_POINTS - 1 a multiple of 16), each end weighs half.
    tg = glass.astype(float)
    ends = np.flatnonzero(glass)[[0, -1]]
    tg[ends] = 0.5
    ta = np.ones_like(w)
    ta[[0, -1]] = 0.5
    g = (bx * tg).sum(axis=-1) / tg.sum()
    lead = (bx * w * ta).sum(axis=-1) / (w * tg).sum()
    return g, lead


def _sources(piece, stance, yaw, br):
    """magpylib cylinders of the piece standing at the origin, turned."""
    import magpylib as magpy
    from scipy.spatial.transform import Rotation

    r = pc.rot((0, 0, 1), yaw) @ stance
    centre = np.array([0.0, 0.0, piece.height / 2])  # turned about its own centre
    md, mh = MAGNETS[piece.magnet][:2]
    out = []
    for pos, m in piece.magnets:
        p = r @ (pos - centre) + centre
        mm = r @ m
        src = magpy.magnet.Cylinder(polarization=(0, 0, br), dimension=(md * 1e-3, mh * 1e-3), position=p * 1e-3)
        # A cylinder magnetised along its own z, turned so z is along mm.
        rr, _ = Rotation.align_vectors([mm], [[0.0, 0.0, 1.0]])
        src.rotate(rr, anchor=p * 1e-3)
        out.append(src)
    return out


def field_grid(piece, stance, yaw, positions, depths, br=1.0):
    """The field along the reed (mT, both models) of the piece at each of
    `positions` (mm, the piece's centre from the spot's, in the reed's
    frame) for each reed axis depth z in `depths`: array (depths,
    positions, 2) (signed; linear in br)."""
    import magpylib as magpy

    xs, _, _ = reed_xs()
    pos = np.asarray(positions, float)
    pts = []
    for z in depths:
        # The piece at p seen from the reed = the reed at -p seen from the piece.
        px = xs[None, :] - pos[:, 0:1]
        py = np.broadcast_to(-pos[:, 1:2], px.shape)
        pts.append(np.stack([px, py, np.full_like(px, z)], axis=-1))
    pts = np.stack(pts) * 1e-3  # (depths, positions, points, 3)
    b = magpy.getB(_sources(piece, stance, yaw, br), pts.reshape(-1, 3), sumup=True)[:, 0] * 1e3
    b = b.reshape(len(depths), len(pos), len(xs))
    g, lead = models(b)
    return np.stack([g, lead], axis=-1)


def field_mT(piece, stance, yaw, at, br, reed=(0.0, 0.0), gap=0.0, plate=None, model="glass"):
    """The field along the reed (mT, signed) of the piece standing at `at`
    (mm from the spot whose reed is at `reed`), one model."""
    z = stackup.reed_axis_z(gap, stackup.PLATE_T if plate is None else plate)
    f = field_grid(piece, stance, yaw, [(at[0] - reed[0], at[1] - reed[1])], [z], br)[0, 0]
    return float(f[0] if model == "glass" else f[1])


def _yaws(piece):
    """Turns about the vertical worth computing: a piece whose magnets all
    lie on its axis looks the same turned (one will do); a die repeats
    every 90 degrees."""
    if all(abs(p[0]) < 1e-9 and abs(p[1]) < 1e-9 and abs(m[2]) == 1.0 for p, m in piece.magnets):
        return (0,)
    return tuple(range(0, int(piece.yaw_period), YAW_STEP))


def _rotate(v, deg):
    a = math.radians(-deg)
    c, s = math.cos(a), math.sin(a)
    return (c * v[0] - s * v[1], s * v[0] + c * v[1])


class Model:
    """The worst cases of one board at each gap, computed once per piece
    and stance for every relative position (every module is the same,
    turned the same way)."""

    def __init__(self, board, centres, turn=None):
        self.board = board
        self.centres = centres
        self.turn = reed_turn(board) if turn is None else turn
        self.pieces = board_pieces(board)
        self.piece_at = {}
        for piece, sites in self.pieces:
            for s in sites:
                self.piece_at[s] = piece
        rels = set()
        for site in range(board.n_sites):
            for _, rel in self.neighbours(site):
                rels.add(rel)
        self.rels = sorted(rels)
        self._on = {}  # (piece, stance) -> [min |field| per gap]
        self._off = {}  # (piece, stance, rel) -> [max |field| per gap]
        for piece, _ in self.pieces:
            self._compute(piece)

    def _compute(self, piece):
        gs = gaps()
        thick = stackup.PLATE_T + stackup.PLATE_TOL
        thin = stackup.PLATE_T - stackup.PLATE_TOL
        # A neighbour anywhere within PLACE_TOL of its spot: its centre and
        # the rim (its field at a reed 35 mm or more away changes smoothly).
        near = [(0.0, 0.0)] + RIM
        positions = []
        for rel in self.rels:
            r = _rotate(rel, self.turn)  # into the reed's frame
            positions += [(r[0] + ox, r[1] + oy) for ox, oy in near]
        for st in piece.stances:
            lo = np.full(len(gs), np.inf)
            hi = np.zeros((len(gs), len(self.rels)))
            for yaw in _yaws(piece):
                # The thickest plate for the weakest own field, the thinnest for the strongest neighbour's.
                on = np.abs(field_grid(piece, st[1], yaw, OFFSETS, [stackup.reed_axis_z(g, thick) for g in gs]))
                lo = np.minimum(lo, on.min(axis=(1, 2)) * BR_MIN)
                if positions:
                    off = np.abs(field_grid(piece, st[1], yaw, positions, [stackup.reed_axis_z(g, thin) for g in gs]))
                    off = off.reshape(len(gs), len(self.rels), len(near), 2)
                    hi = np.maximum(hi, off.max(axis=(2, 3)) * BR_MAX)
            self._on[(piece.name, st[0])] = [float(v) for v in lo]
            for k, rel in enumerate(self.rels):
                self._off[(piece.name, st[0], rel)] = [float(v) for v in hi[:, k]]

    def on_min(self, piece, stance, gi):
        """The weakest |field| of the piece standing on the spot at gap gaps()[gi]."""
        return self._on[(piece.name, stance[0])][gi]

    def off_max(self, piece, stance, rel, gi):
        """The strongest |field| of the piece on a spot at `rel` (mm) from
        this spot's centre, at this spot's reed."""
        return self._off[(piece.name, stance[0], rel)][gi]

    def neighbours(self, site):
        cx, cy = self.centres[site]
        out = []
        for j, (x, y) in enumerate(self.centres):
            if j != site and math.hypot(x - cx, y - cy) <= NEIGHBOUR_MM:
                out.append((j, (round(x - cx, 2), round(y - cy, 2))))
        return out


def rows(board, centres, turn=None):
    """The sensing.csv rows of a board: [(case, piece, orientation, spot,
    field_mT, limit_mT, verdict, gap_mm)], every case at every gap."""
    m = Model(board, centres, turn)
    names = board.site_names
    out = []

    def row(case, piece, orient, spot, f, limit, ok, g):
        out.append((case, piece, orient, spot, "%.3f" % f, "%.3f" % limit, "ok" if ok else "FAIL", "%.2f" % g))

    for site in range(board.n_sites):
        piece = m.piece_at[site]
        nbs = m.neighbours(site)
        for gi, g in enumerate(gaps()):
            for st in piece.stances:
                f = m.on_min(piece, st, gi)
                row("on", piece.name, st[0], names[site], f, ON_LIMIT, f >= ON_LIMIT, g)
            worst_nb = []
            for j, rel in nbs:
                other = m.piece_at[j]
                worst_nb.append((max(m.off_max(other, st, rel, gi) for st in other.stances), j, other))
                for st in other.stances:
                    f = m.off_max(other, st, rel, gi)
                    row("neighbour", other.name, st[0], "%s (piece on %s)" % (names[site], names[j]), f, OFF_LIMIT, f <= OFF_LIMIT, g)
            worst_nb.sort(key=lambda x: (-x[0], x[1]))
            if len(worst_nb) >= 2:
                (f1, j1, p1), (f2, j2, p2) = worst_nb[:2]
                f = f1 + f2
                row("two_neighbours", "%s + %s" % (p1.name, p2.name), "any", "%s (pieces on %s and %s)" % (names[site], names[j1], names[j2]),
                    f, OFF_LIMIT, f <= OFF_LIMIT, g)
                own = min(m.on_min(piece, st, gi) for st in piece.stances)
                f = own - (f1 + f2)
                row("on_with_neighbours", piece.name, "any", "%s (pieces on %s and %s too)" % (names[site], names[j1], names[j2]),
                    f, ON_LIMIT, f >= ON_LIMIT, g)
    return out


COLUMNS = ("case", "piece", "orientation", "spot", "field_mT", "limit_mT", "verdict", "gap_mm")


def csv_text(rws):
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(COLUMNS)
    w.writerows(rws)
    return buf.getvalue()


def summary(rws):
    fails = [r for r in rws if r[6] != "ok"]
    return len(rws), fails


def sweep(piece, stance, offsets, br=BR_MIN, gap=0.0, plate=None):
    """|field| at the reed (the weaker model) as the piece slides along the
    reed's axis (offset of the piece's centre from the spot's centre, mm)."""
    z = stackup.reed_axis_z(gap, stackup.PLATE_T + stackup.PLATE_TOL if plate is None else plate)
    f = np.abs(field_grid(piece, stance, 0, [(x, 0.0) for x in offsets], [z], br))[0]
    return list(f.min(axis=1))


def gap_sweep(piece, stance, gap_list, br=BR_MIN, plate=None):
    """The weakest |field| of the piece on its spot (any turn, any offset
    within PLACE_TOL, the weaker model) against the air gap."""
    plate = stackup.PLATE_T + stackup.PLATE_TOL if plate is None else plate
    depths = [stackup.reed_axis_z(g, plate) for g in gap_list]
    lo = np.full(len(gap_list), np.inf)
    for yaw in _yaws(piece):
        f = np.abs(field_grid(piece, stance, yaw, OFFSETS, depths, br))
        lo = np.minimum(lo, f.min(axis=(1, 2)))
    return list(lo)


def plot_svg(board, path):
    """The field along the reed against the piece's offset along it, and
    the weakest field on the spot against the air gap, per piece."""
    import matplotlib

    matplotlib.use("svg")
    import matplotlib.pyplot as plt

    matplotlib.rcParams["svg.hashsalt"] = "triad-sensing"
    pieces = board_pieces(board)
    xs = np.linspace(-45.0, 45.0, 181)
    fig, (ax, ax2) = plt.subplots(2, 1, figsize=(8.3, 10.5))
    for piece, _ in pieces:
        md, mh = MAGNETS[piece.magnet][:2]
        for g, ls in ((0.0, "-"), (stackup.GAP_WORST, "--")):
            ys = sweep(piece, piece.stances[0][1], xs, gap=g)
            ax.plot(xs, ys, lw=1.6, ls=ls, label="%s, %s (magnet %g x %g mm), air gap %.1f mm" % (piece.name, piece.stances[0][0], md, mh, g))
    lo = min(ON_LIMIT, OFF_LIMIT) / 20
    ax.set_yscale("log")
    ax.set_ylim(lo, None)
    for a in (ax, ax2):
        a.axhline(ON_LIMIT, color="#1a7f37", ls="--", lw=1)
        a.text(0.01, ON_LIMIT * 1.08, "on: must reach %.2f mT (1.5 x operate %.2f mT = %g AT, one pole)" % (ON_LIMIT, OPERATE_MT, PULL_IN_AT[1]),
               color="#1a7f37", fontsize=8, transform=a.get_yaxis_transform())
    ax.axhline(OFF_LIMIT, color="#c0392b", ls="--", lw=1)
    ax.text(xs[0] + 1, OFF_LIMIT * 1.08, "neighbour: must stay under %.2f mT (release %.2f mT = %g AT / 1.5)" % (OFF_LIMIT, RELEASE_MT, DROPOUT_AT), color="#c0392b", fontsize=8)
    ax.axvspan(-PLACE_TOL, PLACE_TOL, color="#1a7f37", alpha=0.08)
    glass = (mg.REED_DX - mg.REED_GLASS / 2, mg.REED_DX + mg.REED_GLASS / 2)
    ax.axvspan(glass[0], glass[1], ymax=0.04, color="#444444", alpha=0.6)
    ax.text(glass[0], lo * 1.25, " reed glass", fontsize=8)
    for d in (-35.0, 35.0):
        ax.axvline(d, color="#888888", lw=0.8, ls=":")
    ax.text(35.5, lo * 1.6, "a spot 35 mm\nalong the reed", fontsize=8, color="#555555")
    ax.set_xlabel("offset of the piece's centre from the spot's centre along the reed (mm; + towards the reed's far end)")
    ax.set_ylabel("field along the reed (mT; the weaker model)")
    ax.set_title("%s: %s under a %.2f mm plate (its thickest), glass centred %.2f mm from the spot\n"
                 "axially magnetised NdFeB discs (N40, Br %.2f T); shaded: where a piece may stand (+/- %g mm)"
                 % (board.name, " ".join(REED_PART), stackup.PLATE_T + stackup.PLATE_TOL, mg.REED_DX, BR_MIN, PLACE_TOL), fontsize=9)
    ax.grid(True, which="both", lw=0.3, alpha=0.5)
    ax.legend(fontsize=7, loc="upper left")
    gl = np.linspace(0.0, 3.0, 13)
    for piece, _ in pieces:
        for st in piece.stances[:2]:
            ax2.plot(gl, gap_sweep(piece, st[1], gl), lw=1.6, marker="o", ms=3, label="%s, %s" % (piece.name, st[0]))
    ax2.axvspan(0.0, stackup.GAP_WORST, color="#1a7f37", alpha=0.08)
    ax2.axvline(stackup.GAP_WORST, color="#1a7f37", lw=0.8)
    ax2.text(stackup.GAP_WORST + 0.03, ON_LIMIT * 0.6, "worst air gap\n%.1f mm" % stackup.GAP_WORST, fontsize=8, color="#1a7f37")
    ax2.set_xlabel("air gap between the plate's underside and the reed's glass (mm)")
    ax2.set_ylabel("weakest field on the spot (mT): any turn,\n+/- %g mm any way, the weaker model" % PLACE_TOL)
    ax2.set_title("field against the air gap (plate %.2f mm, its thickest; N40)" % (stackup.PLATE_T + stackup.PLATE_TOL), fontsize=9)
    ax2.set_ylim(0, None)
    ax2.grid(True, lw=0.3, alpha=0.5)
    ax2.legend(fontsize=7, loc="upper right")
    fig.tight_layout()
    fig.savefig(path, format="svg", metadata={"Date": None, "Creator": "host_tools.hardware.sensing"})
    plt.close(fig)
