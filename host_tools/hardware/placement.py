"""The 1:1 placement template of a board's top plate: SVG and tiled PDF.

Every spot's centre (the sensor module's origin: the reed switch's glass
lies centred under it, the LED sits MODULE_LED_DY above it), its name,
matrix row/column and chain position; drill marks for the LED window and
the module's fixing hole; the LED chain's path; a 100 mm scale bar. The
pitch (mm per unit of the game's site_xy) is the smallest whole millimetre
at which no two sensor modules overlap.
"""
import math

from host_tools.hardware import module_geom as mg

A4 = (210.0, 297.0)
PAGE_MARGIN = 10.0  # most printers cannot print the outer 5 mm
BORDER = 20.0  # plate margin around the outermost modules


def pitch(board):
    """mm per site_xy unit: the closest two spots one module diagonal plus
    MODULE_GAP apart, so no two modules overlap however they are turned."""
    pts = board.site_xy
    d = min(math.hypot(ax - bx, ay - by) for i, (ax, ay) in enumerate(pts) for (bx, by) in pts[i + 1:])
    need = math.hypot(mg.MODULE_W, mg.MODULE_H) + mg.MODULE_GAP
    return float(math.ceil(need / d))


def centres(board):
    """Every spot's centre on the plate (mm, the template's frame)."""
    return _layout(board)[1]


def turn(board):
    """The modules' turn on this board (degrees, clockwise as drawn)."""
    from host_tools.hardware import sensing

    return sensing.reed_turn(board)


def _aabb(corners):
    xs = [x for x, _ in corners]
    ys = [y for _, y in corners]
    return ((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2, max(xs) - min(xs), max(ys) - min(ys))


def module_boxes(board, spot_centres=None):
    """[("module", spot name, cx, cy, w, h, corners)]: each sensor
    module's outline on the plate (its box, and the turned rectangle's
    corners, which plate.overlaps uses)."""
    t = turn(board)
    out = []
    for site, c in enumerate(centres(board) if spot_centres is None else spot_centres):
        corners = mg.outline(c, t)
        out.append(("module", board.site_names[site]) + _aabb(corners) + (corners,))
    return out


def _layout(board):
    """(pitch, spot centres, plate width, plate height, to_mm): the plate
    holds every module and every part plate.py places, BORDER apart from
    its edges (and 30 mm more at the top for the title, 20 mm at the bottom
    for the scale bar)."""
    from host_tools.hardware import plate

    p = pitch(board)
    t = turn(board)
    boxes = [_aabb(mg.outline((x * p, y * p), t)) for x, y in board.site_xy]
    boxes += [o[2:6] for o in plate.outlines(board, lambda x, y: (x * p, y * p))]
    x0 = min(cx - bw / 2 for cx, _, bw, _ in boxes)
    x1 = max(cx + bw / 2 for cx, _, bw, _ in boxes)
    y0 = min(cy - bh / 2 for _, cy, _, bh in boxes)
    y1 = max(cy + bh / 2 for _, cy, _, bh in boxes)
    ox = BORDER - x0
    oy = BORDER + 30.0 - y0  # room for the title

    def to_mm(x, y):
        return (ox + x * p, oy + y * p)

    centres = [to_mm(x, y) for x, y in board.site_xy]
    w = x1 - x0 + 2 * BORDER
    h = y1 - y0 + 2 * BORDER + 30.0 + 20.0  # + scale bar
    return p, centres, round(w, 1), round(h, 1), to_mm


def holes(board):
    """[(what, name, shape, x, y, w, h)]: every hole of the plate in mm
    from its top-left corner (drill.csv): each spot's LED window and module
    fixing hole, then plate.holes (status LEDs, buttons, Pico, USB)."""
    from host_tools.hardware import plate

    _, centres, w, _, to_mm = _layout(board)
    t = turn(board)
    out = []
    for site, c in enumerate(centres):
        name = board.site_names[site]
        lx, ly = mg.to_plate(c, mg.LED_DX, mg.LED_DY, t)
        out.append(("spot LED window", name, "round", lx, ly, mg.LED_DRILL, mg.LED_DRILL))
        for k, (fx, fy) in enumerate(((mg.FIX_DX, mg.FIX_DY), (mg.FIX2_DX, mg.FIX2_DY))):
            hx, hy = mg.to_plate(c, fx, fy, t)
            out.append(("module fixing hole", "%s.H%d" % (name, k + 1), "round", hx, hy, mg.FIX_DRILL, mg.FIX_DRILL))
    return out + plate.holes(board, to_mm, w)


def drill_csv(board):
    rows = ["what,name,shape,x_mm,y_mm,w_mm,h_mm"]
    for what, name, shape, x, y, hw, hh in holes(board):
        rows.append("%s,%s,%s,%.2f,%.2f,%.2f,%.2f" % (what, name, shape, x, y, hw, hh))
    return "\n".join(rows) + "\n"


def drawing(board):
    """(width, height, [primitive]) in mm, y down."""
    from host_tools.hardware import plate

    p, centres, w, h, to_mm = _layout(board)
    out = []
    line, circle, text = out.append, out.append, out.append
    line(("rect", 0.5, 0.5, w - 1.0, h - 1.0, 0.3, "#000000"))
    text(("text", BORDER, 12.0, 5.0, "Triad board %s: top plate, 1:1 (print at 100%%, no scaling)" % board.name, "start", "#000000"))
    legend = (
        "pitch %.0f mm per unit of the game's layout; %d spots; grey: a sensor module's outline (turned %g degrees clockwise)" % (p, len(centres), turn(board)),
        "red: drill the LED window (%.1f mm) and the module's two fixing holes (%.1f mm); crosshair: the spot's centre, over the reed glass's near end" % (mg.LED_DRILL, mg.FIX_DRILL),
        "red too: status LED windows (%.1f mm), buttons (%.1f mm), the Pico's fixing holes (%.1f mm), the USB notch; drill.csv lists every hole" % (plate.STATUS_DRILL, plate.BUTTON_DRILL, plate.PICO_DRILL),
        "#n: LED chain position (blue: the data line's path); row/col: matrix row and column (wiring.csv: ROWr, COLc)",
    )
    for k, s in enumerate(legend):
        text(("text", BORDER, 16.5 + 3.5 * k, 2.6, s, "start", "#000000"))
    where = {site: (r, c) for r, c, site in board.sensing()}
    pos = {slot: k for k, slot in enumerate(board.led_chain)}
    t = turn(board)

    def at(c, x, y):
        return mg.to_plate(c, x, y, t)

    def poly(pts, sw, col):
        for (x1, y1), (x2, y2) in zip(pts, pts[1:] + pts[:1]):
            line(("line", x1, y1, x2, y2, sw, col))

    # The LED data line's path, hop by hop as wiring.csv measures it (DIN0
    # from the Pico, then each LED to the next in LED_CHAIN, status LEDs
    # included where the chain visits them).
    where = dict((board.n_sites + n, (x, y)) for n, (_, x, y) in enumerate(plate.status_windows(board, to_mm)))
    where.update((s, at(centres[s], mg.LED_DX, mg.LED_DY)) for s in range(board.n_sites))
    where[None] = [o for o in plate.outlines(board, to_mm) if o[0] == "pico"][0][2:4]
    prev = None
    for slot in board.led_chain:
        (x1, y1), (x2, y2) = where[prev], where[slot]
        line(("line", x1, y1, x2, y2, 0.4, "#2070d0"))
        prev = slot
    x, y = where[board.led_chain[0]]
    text(("text", x - 4.0, y - 3.0, 2.6, "DIN0 from the Pico", "end", "#2070d0"))
    for site, c in enumerate(centres):
        sx, cy = c
        hw = mg.MODULE_W / 2
        poly(mg.outline(c, t), 0.15, "#909090")
        # Reed switch glass: its near end under the spot's centre (sensing.py).
        g = mg.REED_GLASS / 2
        poly([at(c, -g, -1.1), at(c, g, -1.1), at(c, g, 1.1), at(c, -g, 1.1)], 0.2, "#000000")
        # The spot's centre: crosshair (the piece's magnet stands here).
        line(("line", sx - 3.0, cy, sx + 3.0, cy, 0.2, "#000000"))
        line(("line", sx, cy - 3.0, sx, cy + 3.0, 0.2, "#000000"))
        # Drill marks: the LED's window and the module's two fixing holes.
        lx, ly = at(c, mg.LED_DX, mg.LED_DY)
        circle(("circle", lx, ly, mg.LED_DRILL / 2, 0.3, "#d02020"))
        line(("line", lx - 1.0, ly, lx + 1.0, ly, 0.2, "#d02020"))
        line(("line", lx, ly - 1.0, lx, ly + 1.0, 0.2, "#d02020"))
        for fx, fy in ((mg.FIX_DX, mg.FIX_DY), (mg.FIX2_DX, mg.FIX2_DY)):
            hx, hy = at(c, fx, fy)
            circle(("circle", hx, hy, mg.FIX_DRILL / 2, 0.3, "#d02020"))
        r, col = where.get(site, ("?", "?"))
        # The labels inside the module, along its lower edge and by the LED.
        nx, ny = at(c, -hw + 7.5, mg.MODULE_BOTTOM - 3.0)
        text(("text", nx, ny, 2.8, board.site_names[site], "middle", "#000000"))
        px, py = at(c, mg.LED_DX - 5.0, mg.LED_DY + 1.0)
        text(("text", px, py, 2.2, "#%s" % pos.get(site, "?"), "middle", "#2070d0"))
        rx, ry = at(c, 5.0, mg.MODULE_BOTTOM - 3.0)
        text(("text", rx, ry, 2.2, "row %s col %s" % (r, col), "middle", "#000000"))
    # The other parts: status LEDs, buttons, the Pico (grey outlines), and
    # their holes (red), as drill.csv lists them.
    for kind, name, cx, cy, bw, bh, corners in plate.outlines(board, to_mm):
        if kind == "status":
            poly(corners, 0.15, "#909090")
        else:
            line(("rect", cx - bw / 2, cy - bh / 2, bw, bh, 0.15, "#909090"))
        if kind == "status":
            # A status LED's carrier: a sensor module with its LED and
            # 100 nF only (plate.py), named with its chain position.
            label = "%s #%d: module, LED + 100 nF only" % (name, pos[board.n_sites + int(name[2:])])
        else:
            label = "button %s" % name if kind == "button" else "Raspberry Pi Pico (under the plate), USB %s" % board.pico_usb
        text(("text", cx, cy + bh / 2 + 3.5, 2.0 if kind == "status" else 2.5, label, "middle", "#000000"))
    for what, name, shape, x, y, hw, hh in plate.holes(board, to_mm, w):
        if shape == "round":
            circle(("circle", x, y, hw / 2, 0.3, "#d02020"))
            line(("line", x - 1.0, y, x + 1.0, y, 0.2, "#d02020"))
            line(("line", x, y - 1.0, x, y + 1.0, 0.2, "#d02020"))
        else:
            line(("rect", x - hw / 2, y - hh / 2, hw, hh, 0.3, "#d02020"))
            tx = x + hw / 2 + 1.5 if board.pico_usb == "left" else x - hw / 2 - 1.5
            text(("text", tx, y + 1.0, 2.5, "USB opening: cut %.0f x %.0f mm" % (hh, hw), "start" if board.pico_usb == "left" else "end", "#d02020"))
    # 100 mm scale bar, ticks every 10 mm: check it with a ruler.
    sx, sy = BORDER, h - 14.0
    line(("line", sx, sy, sx + 100.0, sy, 0.4, "#000000"))
    for i in range(11):
        t = 3.0 if i % 5 == 0 else 1.5
        line(("line", sx + 10.0 * i, sy - t, sx + 10.0 * i, sy, 0.3, "#000000"))
    text(("text", sx + 50.0, sy + 5.0, 3.0, "100 mm", "middle", "#000000"))
    return w, h, out


def _num(v):
    return ("%.2f" % v).rstrip("0").rstrip(".")


def _esc(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def svg(board):
    w, h, prims = drawing(board)
    o = ['<?xml version="1.0" encoding="UTF-8"?>',
         '<svg xmlns="http://www.w3.org/2000/svg" width="%smm" height="%smm" viewBox="0 0 %s %s">' % (_num(w), _num(h), _num(w), _num(h)),
         '<rect x="0" y="0" width="%s" height="%s" fill="#ffffff"/>' % (_num(w), _num(h))]
    for pr in prims:
        k = pr[0]
        if k == "line":
            _, x1, y1, x2, y2, sw, col = pr
            o.append('<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="%s"/>' % (_num(x1), _num(y1), _num(x2), _num(y2), col, _num(sw)))
        elif k == "rect":
            _, x, y, rw, rh, sw, col = pr
            o.append('<rect x="%s" y="%s" width="%s" height="%s" fill="none" stroke="%s" stroke-width="%s"/>' % (_num(x), _num(y), _num(rw), _num(rh), col, _num(sw)))
        elif k == "circle":
            _, x, y, r, sw, col = pr
            o.append('<circle cx="%s" cy="%s" r="%s" fill="none" stroke="%s" stroke-width="%s"/>' % (_num(x), _num(y), _num(r), col, _num(sw)))
        else:
            _, x, y, size, s, anchor, col = pr
            o.append('<text x="%s" y="%s" font-family="Helvetica, Arial, sans-serif" font-size="%s" text-anchor="%s" fill="%s">%s</text>' % (_num(x), _num(y), _num(size), anchor, col, _esc(s)))
    o.append("</svg>")
    return "\n".join(o) + "\n"


def tiles(w, h):
    """[(x0, y0)] of the A4 portrait tiles (printable area PAGE_MARGIN in
    from each edge) that cover a w x h drawing, row by row."""
    tw, th = A4[0] - 2 * PAGE_MARGIN, A4[1] - 2 * PAGE_MARGIN
    nx, ny = max(1, math.ceil(w / tw)), max(1, math.ceil(h / th))
    return [(i * tw, j * th) for j in range(ny) for i in range(nx)], nx, ny


def pdf(board, path):
    from reportlab import rl_config
    from reportlab.lib.units import mm
    from reportlab.pdfgen import canvas

    rl_config.invariant = 1  # no creation date, a fixed document id
    w, h, prims = drawing(board)
    tl, nx, ny = tiles(w, h)
    tw, th = A4[0] - 2 * PAGE_MARGIN, A4[1] - 2 * PAGE_MARGIN
    cv = canvas.Canvas(path, pagesize=(A4[0] * mm, A4[1] * mm), invariant=1, pageCompression=1)
    cv.setTitle("Triad board %s: placement template" % board.name)
    cv.setAuthor("")
    cv.setCreator("host_tools.hardware")
    cv.setProducer("ReportLab")
    for n, (x0, y0) in enumerate(tl):
        i, j = n % nx, n // nx
        cv.saveState()
        # mm, y down, the tile's top-left at the printable area's corner.
        cv.translate(0, A4[1] * mm)
        cv.scale(mm, -mm)
        cv.translate(PAGE_MARGIN - x0, PAGE_MARGIN - y0)
        clip = cv.beginPath()
        clip.rect(x0, y0, tw, th)
        cv.clipPath(clip, stroke=0, fill=0)
        for pr in prims:
            _pdf_prim(cv, pr)
        cv.restoreState()
        _marks(cv, mm, i, j, nx, ny, board.name)
        cv.showPage()
    cv.save()


def _colour(cv, col):
    r, g, b = (int(col[k:k + 2], 16) / 255.0 for k in (1, 3, 5))
    cv.setStrokeColorRGB(r, g, b)
    cv.setFillColorRGB(r, g, b)


def _pdf_prim(cv, pr):
    k = pr[0]
    if k == "text":
        _, x, y, size, s, anchor, col = pr
        _colour(cv, col)
        cv.saveState()
        cv.translate(x, y)
        cv.scale(1, -1)  # text upright in the y-down frame
        cv.setFont("Helvetica", size)
        {"start": cv.drawString, "middle": cv.drawCentredString, "end": cv.drawRightString}[anchor](0, 0, s)
        cv.restoreState()
        return
    _colour(cv, pr[-1])
    cv.setLineWidth(pr[-2])
    if k == "line":
        cv.line(pr[1], pr[2], pr[3], pr[4])
    elif k == "rect":
        cv.rect(pr[1], pr[2], pr[3], pr[4], stroke=1, fill=0)
    else:
        cv.circle(pr[1], pr[2], pr[3], stroke=1, fill=0)


def _marks(cv, mm, i, j, nx, ny, name):
    """Alignment marks at the printable area's corners (the neighbouring
    tiles' marks fall on the same points: lay them over each other) and the
    tile's place in the grid."""
    cv.setStrokeColorRGB(0, 0, 0)
    cv.setFillColorRGB(0, 0, 0)
    cv.setLineWidth(0.2 * mm)
    for x in (PAGE_MARGIN, A4[0] - PAGE_MARGIN):
        for y in (PAGE_MARGIN, A4[1] - PAGE_MARGIN):
            cx, cy = x * mm, (A4[1] - y) * mm
            cv.line(cx - 4 * mm, cy, cx + 4 * mm, cy)
            cv.line(cx, cy - 4 * mm, cx, cy + 4 * mm)
            cv.circle(cx, cy, 1.5 * mm, stroke=1, fill=0)
    cv.setFont("Helvetica", 7)
    cv.drawString(PAGE_MARGIN * mm + 3 * mm, 4 * mm,
                  "%s: page column %d of %d, row %d of %d; cut on the marks' lines, overlap the marks with the neighbouring pages'"
                  % (name, i + 1, nx, j + 1, ny))
