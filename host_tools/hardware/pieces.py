"""The pieces a maker makes: their shapes, their magnets, the ways they
stand (issue 44). sensing.py computes their fields; this module checks that
each can be made (no two magnets touching, every magnet inside its piece
with a wall round it), draws them dimensioned (pieces.svg) and writes a
printable model of each (hardware/parts/<piece>.scad, OpenSCAD: the piece
with a pocket per magnet; print it with a pause at the pocket's top layer,
press the magnets in, north pole as drawn, and let the printer close them).

Frames: mm, a piece's own, z up from the face it stands on when upright,
the vertical axis through its centre.
"""
import math

import numpy as np

# The magnets: neodymium discs magnetised through their thickness (axial),
# N40 or stronger (sensing.py takes N40's lowest remanence for a piece on
# its spot and N52's highest for a neighbour, so any grade in between
# passes). (diameter, height, maker, part number)
MAGNETS = {
    "8x3": (8.0, 3.0, "supermagnete", "S-08-03-N"),
    "6x2": (6.0, 2.0, "supermagnete", "S-06-02-N"),
    "12x1": (12.0, 1.0, "supermagnete", "S-12-01-N"),
}
MIN_WALL = 0.6  # printed wall (3 layers or 1.5 lines) between a magnet and the outside
MIN_APART = 0.8  # printed wall between two magnets' pockets: they must not touch


class Piece:
    """shape: ("cube", edge) or ("disc", diameter, height). magnets: [(centre,
    unit magnetisation (north))]; stances: [(name, 3x3 rotation applied to
    the piece about its centre)]; per_set: pieces in a board's set;
    yaw_period: the turn about the vertical after which it looks the same
    to a reed (360: no symmetry worth using)."""

    def __init__(self, name, shape, magnets, magnet, stances, per_set, yaw_period, skin, arrangement):
        self.name = name
        self.shape = shape
        self.magnets = magnets
        self.magnet = magnet
        self.stances = stances
        self.per_set = per_set
        self.count = per_set * len(magnets)  # magnets per board set (the BOM)
        self.yaw_period = yaw_period
        self.skin = skin
        self.arrangement = arrangement

    @property
    def height(self):
        return self.shape[1] if self.shape[0] == "cube" else self.shape[2]

    @property
    def size(self):
        return self.shape[1]

    def footprint_radius(self):
        """How far the piece reaches from its centre on the plate, turned any way."""
        if self.shape[0] == "cube":
            return self.shape[1] / math.sqrt(2)
        return self.shape[1] / 2

    def slug(self):
        return self.name.split(",")[0].replace(" ", "_").lower()


def rot(axis, deg):
    a = math.radians(deg)
    c, s = math.cos(a), math.sin(a)
    x, y, z = axis
    return np.array([[c + x * x * (1 - c), x * y * (1 - c) - z * s, x * z * (1 - c) + y * s],
                     [y * x * (1 - c) + z * s, c + y * y * (1 - c), y * z * (1 - c) - x * s],
                     [z * x * (1 - c) - y * s, z * y * (1 - c) + x * s, c + z * z * (1 - c)]])


def die(edge, per_set, magnet, skin=1.0):
    """A cube with a magnet under every face, north pole outwards: whichever
    face it stands on, a magnet lies flat under it, N down; the six
    together have no net moment, so a die's field falls off fast towards
    the neighbouring spots. Faces 1..6 as a die's: 1 down = upright, 6
    opposite 1, 2-5 round the sides."""
    h = edge / 2
    d = h - skin - MAGNETS[magnet][1] / 2
    c = np.array([0.0, 0.0, h])  # the cube's centre, standing on the plate
    normals = {1: (0, 0, -1), 6: (0, 0, 1), 2: (1, 0, 0), 5: (-1, 0, 0), 3: (0, 1, 0), 4: (0, -1, 0)}
    mags = [(c + d * np.array(n, float), np.array(n, float)) for n in normals.values()]
    turn = {1: np.eye(3), 6: rot((1, 0, 0), 180), 2: rot((0, 1, 0), 90), 5: rot((0, 1, 0), -90),
            3: rot((1, 0, 0), -90), 4: rot((1, 0, 0), 90)}
    stances = [("face %d down" % k, turn[k]) for k in sorted(turn)]
    return Piece("die %g mm" % edge, ("cube", edge), mags, magnet, stances, per_set, 90, skin,
                 "a %s disc under each of the six faces, north pole outwards" % _mname(magnet))


def flat_piece(name, diameter, height, per_set, magnet, skin=1.0):
    """A round piece that stands one way: a magnet under its flat back,
    north down."""
    z = skin + MAGNETS[magnet][1] / 2
    mags = [(np.array([0.0, 0.0, z]), np.array([0.0, 0.0, -1.0]))]
    return Piece(name, ("disc", diameter, height), mags, magnet, [("upright", np.eye(3))], per_set, 360, skin,
                 "a %s disc under the flat back, north pole down" % _mname(magnet))


def two_faced_piece(name, diameter, height, per_set, magnet, skin=0.6):
    """A round piece either way up: a thin magnet under each face, north
    pole outwards on both, so whichever face is down a magnet lies just
    above the plate; the two together have no net moment, so the field
    falls off fast towards the neighbouring spots (two magnets north the
    same way would add up to a dipole reaching them)."""
    mh = MAGNETS[magnet][1]
    mags = [(np.array([0.0, 0.0, skin + mh / 2]), np.array([0.0, 0.0, -1.0])),
            (np.array([0.0, 0.0, height - skin - mh / 2]), np.array([0.0, 0.0, 1.0]))]
    return Piece(name, ("disc", diameter, height), mags, magnet, [("upright", np.eye(3)), ("upside down", rot((1, 0, 0), 180))],
                 per_set, 360, skin, "a %s disc under each face, north pole outwards" % _mname(magnet))


def _mname(key):
    d, h = MAGNETS[key][:2]
    return "%g x %g mm" % (d, h)


# -- can it be made? -------------------------------------------------------------

def _support(centre, axis, radius, half_h, d):
    """The point of a solid cylinder farthest along d (its support point)."""
    a = axis / np.linalg.norm(axis)
    along = float(np.dot(d, a))
    p = centre + (half_h if along >= 0 else -half_h) * a
    perp = d - along * a
    n = np.linalg.norm(perp)
    if n > 1e-12:
        p = p + radius * perp / n
    return p


def cylinder_distance(c1, a1, r1, h1, c2, a2, r2, h2, iters=2000):
    """(lower, upper) bounds of the distance between two solid cylinders
    (centre, axis, radius, half-height): Gilbert's algorithm on their
    Minkowski difference. upper is a distance between two actual points;
    lower is certified by a separating direction (0 if none found)."""
    def sup(d):
        return _support(c1, a1, r1, h1, d) - _support(c2, a2, r2, h2, -d)

    x = np.asarray(c1, float) - np.asarray(c2, float)
    lower = 0.0
    for _ in range(iters):
        nx = np.linalg.norm(x)
        if nx < 1e-9:
            return 0.0, 0.0
        s = sup(-x)  # the difference's point farthest against x
        lower = max(lower, float(np.dot(s, x)) / nx)
        if nx - lower < 1e-4:
            break
        # The point of the segment x..s nearest the origin.
        d = s - x
        t = min(1.0, max(0.0, -float(np.dot(x, d)) / float(np.dot(d, d)))) if np.dot(d, d) > 0 else 0.0
        x = x + t * d
    return lower, float(np.linalg.norm(x))


def check(piece):
    """[problem]: two magnets closer than MIN_APART (or touching), a magnet
    less than MIN_WALL inside the piece's outside (its skin under a face
    may be thinner: piece.skin, which the sensing model counts)."""
    md, mh = MAGNETS[piece.magnet][:2]
    out = []
    cyl = [(np.asarray(c, float), np.asarray(m, float), md / 2, mh / 2) for c, m in piece.magnets]
    for i, a in enumerate(cyl):
        for j in range(i + 1, len(cyl)):
            lo, hi = cylinder_distance(*a, *cyl[j])
            if lo < MIN_APART:
                out.append("%s: magnets %d and %d are %.2f mm apart (%s; at least %.1f mm of wall between them)"
                           % (piece.name, i + 1, j + 1, hi, "touching" if hi < 1e-3 else "too close", MIN_APART))
    for i, (c, a, r, h) in enumerate(cyl):
        wall = min(piece.skin, MIN_WALL)
        if piece.shape[0] == "cube":
            e = piece.shape[1]
            for k in range(3):
                for sgn in (1, -1):
                    d = np.zeros(3)
                    d[k] = sgn
                    reach = float(np.dot(_support(c, a, r, h, d), d))
                    bound = (e if sgn > 0 else 0.0) if k == 2 else e / 2
                    room = bound - reach
                    if room < wall - 1e-9:
                        out.append("%s: magnet %d is %.2f mm inside the face (at least %.1f)" % (piece.name, i + 1, room, wall))
        else:
            dia, ht = piece.shape[1], piece.shape[2]
            for d, bound in (((0, 0, 1), ht), ((0, 0, -1), 0.0)):
                d = np.array(d, float)
                reach = float(np.dot(_support(c, a, r, h, d), d))
                room = bound - reach
                if room < wall - 1e-9:
                    out.append("%s: magnet %d is %.2f mm inside a face (at least %.1f)" % (piece.name, i + 1, room, wall))
            rad = max(math.hypot(*_support(c, a, r, h, np.array([math.cos(t), math.sin(t), 0.0]))[:2]) for t in np.linspace(0, 2 * math.pi, 37))
            if dia / 2 - rad < MIN_WALL:
                out.append("%s: magnet %d is %.2f mm inside the rim (at least %.1f)" % (piece.name, i + 1, dia / 2 - rad, MIN_WALL))
    return out


# -- files a maker prints ---------------------------------------------------------

POCKET_D, POCKET_H = 0.2, 0.1  # a pocket's clearance over its magnet (diameter, height)


def _n(v):
    return ("%.3f" % v).rstrip("0").rstrip(".")


def scad(piece):
    """An OpenSCAD model of the piece with a pocket per magnet (its
    clearance POCKET_D, POCKET_H), the pockets closed by the piece's skin:
    print with a pause at the layer that closes them, press each magnet in
    north pole as the comments say, resume."""
    md, mh, maker, pn = MAGNETS[piece.magnet]
    lines = ["// %s: %s (%s %s, N40..N52)." % (piece.name, piece.arrangement, maker, pn),
             "// Generated by host_tools/hardware/pieces.py (make hardware); mm.",
             "// Print with a pause where each pocket closes, press its magnet in (north as noted), resume.",
             "$fn = 96;", "difference() {"]
    if piece.shape[0] == "cube":
        e = piece.shape[1]
        lines.append("  translate([0, 0, %s]) cube(%s, center = true);" % (_n(e / 2), _n(e)))
    else:
        lines.append("  cylinder(d = %s, h = %s);" % (_n(piece.shape[1]), _n(piece.shape[2])))
    for k, (c, m) in enumerate(piece.magnets):
        z = np.array([0.0, 0.0, 1.0])
        ax = np.cross(z, m)
        ang = math.degrees(math.acos(max(-1.0, min(1.0, float(np.dot(z, m))))))
        if np.linalg.norm(ax) < 1e-9:
            ax = np.array([1.0, 0.0, 0.0])
        lines.append("  // magnet %d: north towards (%s, %s, %s)" % (k + 1, _n(m[0]), _n(m[1]), _n(m[2])))
        lines.append("  translate([%s, %s, %s]) rotate(a = %s, v = [%s, %s, %s]) cylinder(d = %s, h = %s, center = true);"
                     % (_n(c[0]), _n(c[1]), _n(c[2]), _n(ang), _n(ax[0]), _n(ax[1]), _n(ax[2]), _n(md + POCKET_D), _n(mh + POCKET_H)))
    lines.append("}")
    return "\n".join(lines) + "\n"


def spacer_scad():
    """The module's spacer: a printed washer under each of its two screws,
    between the module's top face and the plate (stackup.py)."""
    from host_tools.hardware import stackup

    return "\n".join([
        "// Sensor module spacer: %s +- %s mm tall, two per module (one on each M2 screw, between the module and the plate)."
        % (_n(stackup.SPACER_H), _n(stackup.SPACER_TOL)),
        "// Generated by host_tools/hardware/pieces.py (make hardware); mm. Print flat, 0.2 mm layers; check the height.",
        "$fn = 64;",
        "difference() {",
        "  cylinder(d = %s, h = %s);" % (_n(SPACER_D), _n(stackup.SPACER_H)),
        "  translate([0, 0, -1]) cylinder(d = %s, h = %s);" % (_n(SPACER_HOLE), _n(stackup.SPACER_H + 2)),
        "}",
    ]) + "\n"


SPACER_D, SPACER_HOLE = 5.0, 2.4


# -- the drawing ------------------------------------------------------------------

def _esc(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def svg(pieces, title):
    """Each piece's cross-section through its centre (x right, z up), its
    magnets (red: north half, blue: south half) and their dimensions."""
    scale = 6.0  # px per mm
    cell_w = 330
    out = []
    x0 = 20
    height = 0
    for piece in pieces:
        md, mh, maker, pn = MAGNETS[piece.magnet]
        w = piece.shape[1]
        h = piece.height
        ox, oy = x0 + 60, 70 + h * scale  # the piece's bottom centre
        def P(x, z):
            return ox + x * scale, oy - z * scale
        g = []
        ax, ay = P(-w / 2, h)
        g.append('<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="#f4f1ea" stroke="#333" stroke-width="1.2"/>' % (ax, ay, w * scale, h * scale))
        for c, m in piece.magnets:
            if abs(c[1]) > 1e-9:
                continue  # not in the section through y = 0 (the die's faces 3 and 4, alike)
            along_x = abs(m[0]) > 0.5
            sw, sh = (mh, md) if along_x else (md, mh)
            # two halves: north (the side m points to) red, south blue
            for sgn, col in ((1, "#d03030"), (-1, "#3060d0")):
                off = np.array(m) * sgn * mh / 4
                cx, cz = c[0] + off[0], c[2] + off[2]
                hw2, hh2 = (mh / 4, md / 2) if along_x else (md / 2, mh / 4)
                bx, by = P(cx - hw2, cz + hh2)
                g.append('<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s" fill-opacity="0.8" stroke="#222" stroke-width="0.5"/>'
                         % (bx, by, 2 * hw2 * scale, 2 * hh2 * scale, col))
            nx, nz = c[0] + m[0] * mh / 4, c[2] + m[2] * mh / 4
            tx, ty = P(nx, nz)
            g.append('<text x="%.1f" y="%.1f" font-size="8" fill="#fff" text-anchor="middle" dominant-baseline="middle">N</text>' % (tx, ty))
        # dimensions
        lx, ly = P(-w / 2, -1.5)
        rx, _ = P(w / 2, -1.5)
        g.append('<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#333"/>' % (lx, ly + 6, rx, ly + 6))
        g.append('<text x="%.1f" y="%.1f" font-size="10" text-anchor="middle">%s mm</text>' % ((lx + rx) / 2, ly + 18, _n(w)))
        tx, ty = P(w / 2 + 1.0, h / 2)
        g.append('<text x="%.1f" y="%.1f" font-size="10">%s mm high</text>' % (tx, ty, _n(h)))
        gaps = []
        mags = [(np.asarray(c, float), np.asarray(m, float), md / 2, mh / 2) for c, m in piece.magnets]
        for i in range(len(mags)):
            for j in range(i + 1, len(mags)):
                gaps.append(cylinder_distance(*mags[i], *mags[j])[1])
        notes = [piece.name + ": " + piece.arrangement,
                 "magnet %s x %s mm (%s %s), %d per piece, %d per set" % (_n(md), _n(mh), maker, pn, len(piece.magnets), piece.count),
                 "skin under a face %s mm; pockets %s x %s mm" % (_n(piece.skin), _n(md + POCKET_D), _n(mh + POCKET_H))]
        if gaps:
            notes.append("closest two magnets %.2f mm apart (at least %.1f)" % (min(gaps), MIN_APART))
        notes.append("print: hardware/parts/%s.scad" % piece.slug())
        for k, s in enumerate(notes):
            g.append('<text x="%d" y="%.1f" font-size="10">%s</text>' % (x0, oy + 40 + 13 * k, _esc(s)))
        out.append("\n".join(g))
        x0 += max(cell_w, int(w * scale + 200))
        height = max(height, oy + 40 + 13 * len(notes) + 10)
    head = ['<?xml version="1.0" encoding="UTF-8"?>',
            '<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="Helvetica, Arial, sans-serif">'
            % (x0, height, x0, height),
            '<rect width="100%" height="100%" fill="#fff"/>',
            '<text x="20" y="24" font-size="13">%s</text>' % _esc(title),
            '<text x="20" y="42" font-size="10">Cross-sections through each piece\'s centre, 1 mm = %g px; red: a magnet\'s north half, blue: its south half.</text>' % scale]
    return "\n".join(head + out + ["</svg>"]) + "\n"
