"""The top plate's parts besides the sensor modules, and every hole a maker
drills: the status LEDs, the buttons, the Pico and its USB opening.

Their positions are the board description's (STATUS_XY, BUTTON_XY, PICO_XY,
PICO_USB), in the game's layout units (site_xy's frame, y down as drawn),
so the template scales them with the spots. Part sizes are the parts'
(assumptions a maker can check against the parts in hand).
"""
from host_tools.hardware import module_geom as mg

# A status LED's carrier: a sensor module PCB (hardware/sensor_module, the
# spots' own) with only its WS2812B and 100 nF fitted (no reed, no diode),
# screwed under the plate like a spot's module (two M2 screws, the printed
# spacers), square to the plate's edges, its LED under a 6 mm window at
# STATUS_XY. A maker orders the same PCB, wires the same DIN/DOUT, +5V and
# GND pads, and needs no other breakout.
STATUS_DRILL = mg.LED_DRILL
# A button: the BOM's 6 x 6 mm tactile switch (TE 1825910-6) under the
# plate, its 3.5 mm plunger through a 4 mm hole (check that your switch's
# plunger reaches through the plate; a taller one or a cap if not).
BUTTON_DRILL = 4.0
BUTTON_BOX = 8.0
# Raspberry Pi Pico datasheet, "Mechanical specification": 21 x 51 mm, four
# 2.1 mm mounting holes 11.4 mm apart across and 47 mm apart along; the
# micro-USB socket at the middle of one short end. M2 screws: 2.2 mm holes.
PICO_W, PICO_L = 21.0, 51.0
PICO_HOLE_DX, PICO_HOLE_DY = 47.0 / 2, 11.4 / 2
PICO_DRILL = 2.2
# The USB opening: a notch in the plate's edge in line with the Pico's USB
# socket, wide enough for a micro-B plug's body (about 11 x 8 mm) and
# running in from the edge to the socket (at least USB_D deep).
USB_W, USB_D = 12.0, 8.0
USB_REACH = 1.0  # past the Pico's end: the socket's mouth stands about 1.3 mm proud of the board
PICO_USB_SIDES = ("left", "right")


def status_module(board, window):
    """Where a status LED's carrier lies when its LED is under `window`
    (mm on the plate): (the module's origin, as a spot's centre is for a
    spot's module, and the plate's turn of the modules)."""
    # Not turned: no piece stands on it, and square to the plate's edges
    # a row or column of them packs closest (pico_v1's, 25 mm apart).
    return (window[0] - (mg.LED_DX + mg.REED_DX), window[1] - mg.LED_DY), 0.0


def status_windows(board, to_mm):
    """[(name, x, y)]: each status LED's window (its LED) on the plate, mm."""
    return [(board.slot_name(board.n_sites + n), ) + tuple(to_mm(x, y)) for n, (x, y) in enumerate(board.status_xy)]


def outlines(board, to_mm):
    """[(kind, name, cx, cy, w, h, corners)]: the plate's parts besides the
    spots' modules, in mm (to_mm maps layout units to the plate): each box
    centred at (cx, cy), w x h, the outline's corners last (a status LED's
    carrier is a turned module: its box bounds the turned outline)."""
    out = []
    for name, wx, wy in status_windows(board, to_mm):
        origin, t = status_module(board, (wx, wy))
        corners = mg.outline(origin, t)
        xs, ys = [x for x, _ in corners], [y for _, y in corners]
        out.append(("status", name, (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2, max(xs) - min(xs), max(ys) - min(ys), corners))
    for name, (x, y) in zip(board.button_names, board.button_xy):
        cx, cy = to_mm(x, y)
        out.append(("button", name, cx, cy, BUTTON_BOX, BUTTON_BOX, _rect(cx, cy, BUTTON_BOX, BUTTON_BOX)))
    cx, cy = to_mm(*board.pico_xy)
    out.append(("pico", "U1", cx, cy, PICO_L, PICO_W, _rect(cx, cy, PICO_L, PICO_W)))
    return out


def _rect(cx, cy, w, h):
    return [(cx - w / 2, cy - h / 2), (cx + w / 2, cy - h / 2), (cx + w / 2, cy + h / 2), (cx - w / 2, cy + h / 2)]


def holes(board, to_mm, plate_w):
    """[(what, name, shape, x, y, w, h)] in mm from the plate's top-left
    corner, y down: every hole besides the spots' (round: w = h = its
    diameter; the USB notch: a rectangle cut from the plate's edge)."""
    out = []
    for name, wx, wy in status_windows(board, to_mm):
        out.append(("status LED window", name, "round", wx, wy, STATUS_DRILL, STATUS_DRILL))
        origin, t = status_module(board, (wx, wy))
        for k, (fx, fy) in enumerate(((mg.FIX_DX, mg.FIX_DY), (mg.FIX2_DX, mg.FIX2_DY))):
            hx, hy = mg.to_plate(origin, fx, fy, t)
            out.append(("status module fixing hole", "%s.H%d" % (name, k + 1), "round", hx, hy, mg.FIX_DRILL, mg.FIX_DRILL))
    for kind, name, cx, cy, _, _, _ in outlines(board, to_mm):
        if kind == "status":
            continue
        elif kind == "button":
            out.append(("button", name, "round", cx, cy, BUTTON_DRILL, BUTTON_DRILL))
        else:
            for k, (sx, sy) in enumerate(((-1, -1), (1, -1), (-1, 1), (1, 1))):
                out.append(("Pico fixing hole", "U1.H%d" % (k + 1), "round", cx + sx * PICO_HOLE_DX, cy + sy * PICO_HOLE_DY,
                            PICO_DRILL, PICO_DRILL))
            # The notch, cut from the edge the USB end faces in to the
            # Pico's end, where the socket's mouth is: the plug reaches it.
            end = cx - PICO_L / 2 if board.pico_usb == "left" else cx + PICO_L / 2
            depth = max(USB_D, (end + USB_REACH if board.pico_usb == "left" else plate_w - end + USB_REACH))
            x = depth / 2 if board.pico_usb == "left" else plate_w - depth / 2
            out.append(("USB opening", "J1", "notch", x, cy, depth, USB_W))
    return out


def check(board):
    """(rule, [problem]): the description places every status LED, button
    and the Pico."""
    problems = []
    if len(board.status_xy) != board.n_status:
        problems.append("STATUS_XY places %d status LEDs of N_STATUS = %d" % (len(board.status_xy), board.n_status))
    if len(board.button_xy) != len(board.button_names):
        problems.append("BUTTON_XY places %d buttons of BUTTON_NAMES' %d" % (len(board.button_xy), len(board.button_names)))
    for field, pts in (("STATUS_XY", board.status_xy), ("BUTTON_XY", board.button_xy), ("PICO_XY", (board.pico_xy,))):
        for k, p in enumerate(pts):
            if p is None or len(p) != 2:
                problems.append("%s[%d] is %r, not an (x, y) pair" % (field, k, p))
    if board.pico_usb not in PICO_USB_SIDES:
        problems.append("PICO_USB is %r, not one of %s" % (board.pico_usb, ", ".join(PICO_USB_SIDES)))
    return R_PLATE, problems


R_PLATE = "the description places every status LED, every button and the Pico on the plate (STATUS_XY, BUTTON_XY, PICO_XY, PICO_USB)"


def _corners(box):
    """A box's outline: its 7th field if it has one (a turned module's
    corners), else its axis-aligned rectangle."""
    if len(box) > 6:
        return box[6]
    _, _, cx, cy, w, h = box[:6]
    return [(cx - w / 2, cy - h / 2), (cx + w / 2, cy - h / 2), (cx + w / 2, cy + h / 2), (cx - w / 2, cy + h / 2)]


def _apart(p, q):
    """Whether two convex polygons are apart (touching counts as apart):
    some edge's normal separates them."""
    for poly in (p, q):
        for (x1, y1), (x2, y2) in zip(poly, poly[1:] + poly[:1]):
            nx, ny = y2 - y1, x1 - x2
            a = [nx * x + ny * y for x, y in p]
            b = [nx * x + ny * y for x, y in q]
            if max(a) <= min(b) + 1e-9 or max(b) <= min(a) + 1e-9:
                return True
    return False


def overlaps(boxes):
    """[(a, b)] names of the outlines (kind, name, cx, cy, w, h[, corners])
    that overlap; two touching are apart."""
    out = []
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            if abs(a[2] - b[2]) * 2 < a[4] + b[4] and abs(a[3] - b[3]) * 2 < a[5] + b[5] and not _apart(_corners(a), _corners(b)):
                out.append(("%s %s" % a[:2], "%s %s" % b[:2]))
    return out
