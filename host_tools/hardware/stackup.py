"""The mechanical stack-up under a spot (issue 44): what holds the reed's
glass at a stated distance under the piece's magnet, and its tolerances.

From the top (z up, 0 at the plate's top face):

    piece        magnet MAGNET_SKIN above the plate (the piece's own wall)
    plate        PLATE_T +- PLATE_TOL (extruded acrylic sheet)
    air gap      0 .. GAP_WORST between the plate's underside and the glass
    reed glass   REED_DIA (1.7 .. 1.8 mm), lying on the module's top face,
                 seated 0 .. GLASS_LIFT above it by its bent leads
    spacer       SPACER_H +- SPACER_TOL: a printed frame between the
                 module's top face and the plate's underside, round both
                 M2 screws (hardware/parts/module_spacer.scad)
    module PCB   1.6 mm FR4, the parts on the side facing the plate; held
                 flat against the spacer by two M2 screws and nuts

The air gap is SPACER_H - (glass diameter + lift): the spacer is taller
than the glass seated at its highest, so the plate never bears on the
glass (a reed's glass seal cracks under load), and no taller than the
tolerances need, so the gap stays small. Its worst case from these
tolerances is gap_range()[1]; the sensing model takes at least GAP_FLOOR
(1 mm: a module not drawn quite flat, a spacer printed high), so
GAP_WORST = max(the stack's worst, GAP_FLOOR).
"""
from host_tools.hardware import module_geom as mg

PLATE_T = 1.5  # mm: the top plate (extruded acrylic, 1.5 mm sheet)
PLATE_TOL = 0.15  # +-10 %, an extruded sheet's usual tolerance
SPACER_H = 2.2  # mm: plate underside to the module's top face
SPACER_TOL = 0.1  # a printed part's height (11 layers of 0.2 mm)
GLASS_LIFT = 0.2  # how far bent leads may hold the glass off the board (seat it while soldering)
GAP_FLOOR = 1.0  # the least worst-case air gap the model takes (issue 44)
PCB_T = 1.6
SCREW = "M2 x 8"  # through the plate, the spacer and the module: 1.5 + 2.2 + 1.6 + a 1.6 mm nut


def gap_range():
    """(smallest, largest) air gap between the plate's underside and the
    glass's top from the tolerances (mm)."""
    lo = (SPACER_H - SPACER_TOL) - (mg.REED_DIA + GLASS_LIFT)
    hi = (SPACER_H + SPACER_TOL) - mg.REED_DIA_MIN
    return lo, hi


GAP_WORST = round(max(gap_range()[1], GAP_FLOOR), 2)


def check():
    """[problem]: the stack-up holds together (the plate never presses the
    glass; nothing on the module's top face reaches the plate)."""
    lo, hi = gap_range()
    out = []
    if lo < 0:
        out.append("the spacer (%.2f mm at its lowest) is shorter than the glass seated at its highest (%.2f mm): the plate would press the glass"
                   % (SPACER_H - SPACER_TOL, mg.REED_DIA + GLASS_LIFT))
    for part, h in TOP_PARTS:
        if h >= SPACER_H - SPACER_TOL:
            out.append("%s (%.2f mm) reaches the plate over a %.2f mm spacer" % (part, h, SPACER_H - SPACER_TOL))
    return out


# The module's parts on the face towards the plate and their heights (mm,
# the datasheets' maxima): each must stay under the spacer.
TOP_PARTS = (("WS2812B (D2)", 1.6), ("1N4148W SOD-123 (D1)", 1.35), ("100 nF 0805 (C1)", 1.35))


def reed_axis_z(gap, plate):
    """The reed's axis (z, mm; the plate's top at 0) for an air gap and a
    plate thickness."""
    return -(plate + gap + mg.REED_DIA / 2)


def cross_section():
    """The stack-up's cross-section under a spot, as text lines (drawn in
    hardware/README.md; a test holds the page to these numbers)."""
    lo, hi = gap_range()
    return [
        "        piece      [   magnet   ]     its face 0.6 .. 1.0 mm inside the piece's (pieces.svg)",
        "  ==================================  plate     %.2f +- %.2f mm, extruded acrylic" % (PLATE_T, PLATE_TOL),
        "                                      air gap   %.2f .. %.2f mm from the tolerances; modelled 0 .. %.2f mm" % (max(lo, 0.0), hi, GAP_WORST),
        "  [spacer]     (=====glass=====)      reed glass %.1f .. %.1f mm across, seated 0 .. %.1f mm off the board" % (mg.REED_DIA_MIN, mg.REED_DIA, GLASS_LIFT),
        "  [ %.1f  ]     |               |      spacer    %.2f +- %.2f mm, printed, on each of the module's two M2 screws" % (SPACER_H, SPACER_H, SPACER_TOL),
        "  ----------------------------------  module    %.1f mm FR4, its parts facing the plate; M2 x 8 screws and nuts" % PCB_T,
    ]
