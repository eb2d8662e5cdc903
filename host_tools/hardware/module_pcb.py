"""The sensor module: one small PCB for every spot of every board.

Reed switch, 1N4148W, WS2812B and its 100 nF on a 26 x 20 mm board, six
pads in a row (ROW, +5V, GND, DOUT, DIN, COL), built with KiCad 6's pcbnew
Python API: footprints from Debian's kicad-footprints, the tracks laid here
on F.Cu (each net's path fixed below), a ground plane on B.Cu filled by
KiCad's zone filler; Gerbers and an Excellon drill file plotted by pcbnew.

KiCad 6's Python API has no design-rule checker (pcbnew.WriteDRCReport
came with KiCad 7; KiCad 6 has no kicad-cli), so drc.txt records what is
checked here instead: KiCad's connectivity (no unrouted connection left),
every copper item's clearance to items of other nets and its distance to
the board edge (computed here from KiCad's item shapes), track width and
via sizes against the board's design rules; the silkscreen (every text
and line inside the outline, no text on another text, a pad or a line)
and the parts' courtyards (no two overlapping), from the items' bounding
boxes, the pads' shapes and the courtyards KiCad builds from each
footprint. Not checked: solder-mask slivers, hole-to-hole distances.
"""
import math
import os
import re

import pcbnew

from host_tools.hardware import module_geom as mg

FP_DIR = "/usr/share/kicad/footprints"
TRACK_W = 0.3
CLEARANCE = 0.2
EDGE_CLEARANCE = 0.3
SILK_EDGE = 0.3  # silkscreen to the board's edge
SILK_CLEARANCE = 0.1  # a silkscreen text to another text, a pad, a silkscreen line
VIA_D, VIA_DRILL = 0.8, 0.4
HEADER = ("ROW", "+5V", "GND", "DOUT", "DIN", "COL")
HEADER_Y = 6.5
# Where each part's reference stands on the silkscreen (the design's frame,
# the text's centre), each beside its part, clear of the others and inside
# the board: KiCad's footprints put it above the part, which here is off the
# top edge (C1, H1) or on the next part (D2 on C1, SW1 on the LED).
REF_AT = {
    "C1": (5.6, -10.2),  # left of the capacitor, under the board's top edge
    "D2": (2.6, -6.0),  # left of the LED
    "H1": (-9.5, -3.95),  # below the fixing hole, above the reed's outline
    "H2": (11.4, 4.3),  # above the second fixing hole, below the reed's right pad
    "SW1": (-2.0, -3.85),  # above the reed's middle
    "D1": (-8.9, 4.3),  # right of the diode, above J1's name
    "J1": (-8.9, HEADER_Y),  # left of the pad row
}
D1_AT = (-11.2, 5.2)  # below the reed's left pad, left of the pads (the second fixing hole takes the right corner)
C1_AT = (mg.LED_DX, -10.0)  # above the LED
# The pads' names on the back (B.SilkS, mirrored so they read from the
# back), the side a maker sees and wires when the module hangs under the
# plate: 1 mm letters standing up along each pad, above it (the front has
# no room for 1 mm letters between the reed and the pads).
PAD_LABEL_DY = -3.35  # the label's centre above its pad's
PAD_LABEL_SIZE = (1.0, 1.0)  # width, height (mm)
PAD_LABEL_LINE = 0.15
# The silkscreen's smallest text a fab prints legibly (most fabs: 1 mm
# high, 0.15 mm line); drc.txt checks every text against it.
SILK_TEXT_MIN = 1.0
SILK_LINE_MIN = 0.15
# The module's parts (its J1 is six bare pads: the wires solder to them).
MODULE_BOM = (
    (1, "SW1", "Reed SPST-NO", "Resistor_THT:R_Axial_DIN0516_L15.5mm_D5.0mm_P20.32mm_Horizontal", "Littelfuse", "MDSR-7-15-20"),
    (1, "D1", "1N4148W", "Diode_SMD:D_SOD-123", "Diodes Incorporated", "1N4148W-7-F"),
    (1, "D2", "WS2812B", "LED_SMD:LED_WS2812B_PLCC4_5.0x5.0mm_P3.2mm", "Worldsemi", "WS2812B"),
    (1, "C1", "100nF", "Capacitor_SMD:C_0805_2012Metric", "KEMET", "C0805C104K5RACTU"),
)


def _mm(v):
    return pcbnew.FromMM(v)


def _pt(x, y):
    # The design is drawn with the reed's glass centred at x = 0; the spot's
    # centre (the board's origin) lies REED_DX left of it, over the glass's
    # left end, where the piece's magnet stands (sensing.py).
    return pcbnew.wxPoint(_mm(x + mg.REED_DX), _mm(y))


def _fp(board, lib, name, ref, value, x, y, angle=0.0):
    fp = pcbnew.FootprintLoad(os.path.join(FP_DIR, lib + ".pretty"), name)
    if fp is None:
        raise RuntimeError("footprint %s:%s not found in %s" % (lib, name, FP_DIR))
    fp.SetReference(ref)
    fp.SetValue(value)
    board.Add(fp)
    fp.SetPosition(_pt(x, y))
    if angle:
        fp.SetOrientationDegrees(angle)
    return fp


def _pad(fp, num):
    for p in fp.Pads():
        if p.GetNumber() == num:
            return p
    raise RuntimeError("%s has no pad %s" % (fp.GetReference(), num))


def _xy(pad):
    p = pad.GetPosition()
    return (pcbnew.ToMM(p.x) - mg.REED_DX, pcbnew.ToMM(p.y))


def _track(board, net, pts, layer=pcbnew.F_Cu):
    for (x1, y1), (x2, y2) in zip(pts, pts[1:]):
        t = pcbnew.PCB_TRACK(board)
        t.SetStart(_pt(x1, y1))
        t.SetEnd(_pt(x2, y2))
        t.SetWidth(_mm(TRACK_W))
        t.SetLayer(layer)
        t.SetNet(net)
        board.Add(t)


def _via(board, net, x, y):
    v = pcbnew.PCB_VIA(board)
    v.SetPosition(_pt(x, y))
    v.SetWidth(_mm(VIA_D))
    v.SetDrill(_mm(VIA_DRILL))
    v.SetNet(net)
    board.Add(v)
    return (x, y)


def design(path):
    # NewBoard, not BOARD(): a board without its project settings crashes
    # KiCad 6's zone filler.
    # Seeded UUIDs: KiCad saves footprints in UUID order, so random ones
    # would shuffle the file from run to run.
    pcbnew.KIID.SeedGenerator(25)
    board = pcbnew.NewBoard(path)
    board.SetFileName(path)
    ds = board.GetDesignSettings()
    ds.m_TrackMinWidth = _mm(0.2)
    ds.m_MinClearance = _mm(CLEARANCE)
    # Gerber and drill coordinates from the board's bottom left corner (the
    # design's origin is the spot's centre): positive, as fabs expect.
    ds.SetAuxOrigin(_pt(-mg.MODULE_W / 2, 8.5))
    nets = {}
    for name in ("COL", "ROW", "SW_D", "GND", "+5V", "DIN", "DOUT"):
        n = pcbnew.NETINFO_ITEM(board, name)
        board.Add(n)
        nets[name] = n
    hw, top, bottom = mg.MODULE_W / 2, -11.5, 8.5
    for (x1, y1), (x2, y2) in (((-hw, top), (hw, top)), ((hw, top), (hw, bottom)), ((hw, bottom), (-hw, bottom)), ((-hw, bottom), (-hw, top))):
        s = pcbnew.PCB_SHAPE(board)
        s.SetShape(pcbnew.SHAPE_T_SEGMENT)
        s.SetStart(_pt(x1, y1))
        s.SetEnd(_pt(x2, y2))
        s.SetLayer(pcbnew.Edge_Cuts)
        s.SetWidth(_mm(0.1))
        board.Add(s)
    sw = _fp(board, "Resistor_THT", "R_Axial_DIN0516_L15.5mm_D5.0mm_P20.32mm_Horizontal", "SW1", "Reed", -10.16, 0.0)
    led = _fp(board, "LED_SMD", "LED_WS2812B_PLCC4_5.0x5.0mm_P3.2mm", "D2", "WS2812B", mg.LED_DX, mg.LED_DY)
    c = _fp(board, "Capacitor_SMD", "C_0805_2012Metric", "C1", "100nF", C1_AT[0], C1_AT[1])
    d = _fp(board, "Diode_SMD", "D_SOD-123", "D1", "1N4148W", D1_AT[0], D1_AT[1], 90.0)
    hdr = _fp(board, "Connector_PinHeader_2.54mm", "PinHeader_1x06_P2.54mm_Vertical", "J1", "pads", -6.35, HEADER_Y, 90.0)
    _fp(board, "MountingHole", "MountingHole_2.2mm_M2", "H1", "M2", mg.FIX_DX, mg.FIX_DY)
    # The second fixing hole, diagonally opposite: two screws hold the
    # module flat on its spacer (stackup.py), so the reed stays at its gap.
    _fp(board, "MountingHole", "MountingHole_2.2mm_M2", "H2", "M2", mg.FIX2_DX, mg.FIX2_DY)
    for fp in board.GetFootprints():
        fp.Reference().SetPosition(_pt(*REF_AT[fp.GetReference()]))
    for i, name in enumerate(HEADER):
        _pad(hdr, str(i + 1)).SetNet(nets[name])
    _pad(sw, "1").SetNet(nets["SW_D"])  # the reed has no polarity: its left lead to the diode
    _pad(sw, "2").SetNet(nets["COL"])
    for num, name in (("1", "+5V"), ("2", "DOUT"), ("3", "GND"), ("4", "DIN")):
        _pad(led, num).SetNet(nets[name])
    _pad(c, "1").SetNet(nets["+5V"])
    _pad(c, "2").SetNet(nets["GND"])
    _pad(d, "1").SetNet(nets["ROW"])  # cathode
    _pad(d, "2").SetNet(nets["SW_D"])  # anode
    H = {name: _xy(_pad(hdr, str(i + 1))) for i, name in enumerate(HEADER)}
    # The routes (F.Cu; each starts and ends on a pad's centre). The LED
    # sits in the top right corner, far from the spot (a piece standing
    # there leaves its light clear); the reed's left lead goes to the diode
    # in the bottom left corner, its right lead to COL.
    col, sw1, sw2 = H["COL"], _xy(_pad(sw, "1")), _xy(_pad(sw, "2"))
    _track(board, nets["COL"], [col, (sw2[0], col[1] - (sw2[0] - col[0])), sw2])
    # WS2812B pads (KiCad's footprint): VDD top left, DOUT bottom left,
    # VSS bottom right, DIN top right; +5V climbs the left side and comes
    # over the top, DOUT runs under the LED's left column, DIN round its
    # right side.
    v5, lvdd, c1 = H["+5V"], _xy(_pad(led, "1")), _xy(_pad(c, "1"))
    over = lvdd[1] - 1.35  # the +5V run over the LED's top
    _track(board, nets["+5V"], [v5, (-4.4, v5[1] - 0.6), (-4.4, over), (lvdd[0] - 0.85, over), (lvdd[0], over + 0.5), lvdd])
    _track(board, nets["+5V"], [(lvdd[0] - 0.85, over), (c1[0] - 1.35, c1[1]), c1])
    dout, ldout = H["DOUT"], _xy(_pad(led, "2"))
    _track(board, nets["DOUT"], [dout, (dout[0], ldout[1] + 1.35), (ldout[0] - 1.25, ldout[1] + 1.35), ldout])
    din, ldin = H["DIN"], _xy(_pad(led, "4"))
    _track(board, nets["DIN"], [din, (4.6, din[1] - 0.8), (4.6, -1.9), (12.45, -1.9), (12.45, ldin[1]), ldin])
    dk, da, row = _xy(_pad(d, "1")), _xy(_pad(d, "2")), H["ROW"]
    _track(board, nets["SW_D"], [sw1, da])
    _track(board, nets["ROW"], [dk, row])
    # Ground: the B.Cu plane, reached by vias next to the LED and the capacitor.
    lvss, c2 = _xy(_pad(led, "3")), _xy(_pad(c, "2"))
    _track(board, nets["GND"], [lvss, _via(board, nets["GND"], lvss[0], lvss[1] + 1.35)])
    _track(board, nets["GND"], [c2, _via(board, nets["GND"], c2[0] + 1.2, c2[1])])
    zone = pcbnew.ZONE(board)
    zone.SetLayer(pcbnew.B_Cu)
    zone.SetNet(nets["GND"])
    zone.SetLocalClearance(_mm(0.3))
    zone.SetMinThickness(_mm(0.25))
    outline = zone.Outline()
    outline.NewOutline()
    for x, y in ((-hw + 0.5, top + 0.5), (hw - 0.5, top + 0.5), (hw - 0.5, bottom - 0.5), (-hw + 0.5, bottom - 0.5)):
        outline.Append(_mm(x + mg.REED_DX), _mm(y))
    board.Add(zone)
    board.BuildConnectivity()
    pcbnew.ZONE_FILLER(board).Fill(board.Zones())
    # The pads' names belong to J1 (texts of its footprint): a panel keeps
    # them in the footprint's order (board texts come out of KiKit in an
    # order of their own, a different Gerber each run).
    for i, name in enumerate(HEADER):
        x, y = H[name]
        t = pcbnew.FP_TEXT(hdr)
        t.SetType(pcbnew.FP_TEXT.TEXT_is_DIVERS)
        t.SetText(name)
        t.SetLayer(pcbnew.B_SilkS)
        t.SetTextSize(pcbnew.wxSize(_mm(PAD_LABEL_SIZE[0]), _mm(PAD_LABEL_SIZE[1])))
        t.SetTextThickness(_mm(PAD_LABEL_LINE))
        t.SetMirrored(True)
        hdr.Add(t)
        t.SetTextAngle(0)  # J1 stands turned 90 degrees: the names stand up along its pads
        t.SetPosition(_pt(x, y + PAD_LABEL_DY))
    board.BuildConnectivity()
    return board


# -- checks ---------------------------------------------------------------------

def drc(board):
    """[(check, [problem])]: what KiCad 6's Python API allows (module doc)."""
    out = []
    items = []  # (layer set, net, shape, name)
    for fp in board.GetFootprints():
        for p in fp.Pads():
            items.append((p, p.GetNetCode(), "%s.%s" % (fp.GetReference(), p.GetNumber())))
    for t in board.GetTracks():
        kind = "via" if t.Type() == pcbnew.PCB_VIA_T else "track"
        items.append((t, t.GetNetCode(), "%s %s (%.2f, %.2f)" % (kind, t.GetNetname(), pcbnew.ToMM(t.GetStart().x), pcbnew.ToMM(t.GetStart().y))))
    probs = []
    clr = _mm(CLEARANCE)
    for i, (a, na, an) in enumerate(items):
        for b, nb, bn in items[i + 1:]:
            if na == nb and na != 0:
                continue
            for layer in (pcbnew.F_Cu, pcbnew.B_Cu):
                if not (a.IsOnLayer(layer) and b.IsOnLayer(layer)):
                    continue
                sa, sb = a.GetEffectiveShape(layer), b.GetEffectiveShape(layer)
                if sa.Collide(sb, clr - 1):
                    probs.append("%s and %s closer than %.2f mm on %s" % (an, bn, CLEARANCE, board.GetLayerName(layer)))
    out.append(("copper clearance >= %.2f mm between different nets (pads, tracks, vias; F.Cu and B.Cu)" % CLEARANCE, sorted(set(probs))))
    edge = board.GetBoardEdgesBoundingBox()
    eprobs = []
    for obj, _, name in items:
        bb = obj.GetBoundingBox()
        m = _mm(EDGE_CLEARANCE)
        if bb.GetLeft() < edge.GetLeft() + m or bb.GetRight() > edge.GetRight() - m or bb.GetTop() < edge.GetTop() + m or bb.GetBottom() > edge.GetBottom() - m:
            eprobs.append("%s is within %.1f mm of the board edge" % (name, EDGE_CLEARANCE))
    out.append(("copper >= %.1f mm from the board edge" % EDGE_CLEARANCE, eprobs))
    wprobs = []
    for t in board.GetTracks():
        if t.Type() == pcbnew.PCB_VIA_T:
            if t.GetDrillValue() < _mm(0.3) or t.GetWidth() - t.GetDrillValue() < _mm(0.3):
                wprobs.append("via at (%.2f, %.2f): drill or annular ring too small" % (pcbnew.ToMM(t.GetStart().x), pcbnew.ToMM(t.GetStart().y)))
        elif t.GetWidth() < board.GetDesignSettings().m_TrackMinWidth:
            wprobs.append("track on %s narrower than the minimum" % t.GetNetname())
    out.append(("track width >= 0.2 mm, via drill >= 0.3 mm, annular ring >= 0.15 mm", wprobs))
    zprobs = []
    for z in board.Zones():
        if z.GetFilledArea() <= 0:
            zprobs.append("zone %s on %s is empty after filling" % (z.GetNetname(), board.GetLayerName(z.GetLayer())))
    out.append(("the ground plane is filled", zprobs))
    out += silk_checks(board)
    # Last: KiCad's connectivity pass gives a dangling track the net of
    # what it touches, which would hide it from the clearance check above.
    conn = board.GetConnectivity()
    conn.RecalculateRatsnest()
    unrouted = conn.GetUnconnectedCount()
    out.insert(0, ("every connection routed (KiCad connectivity: unconnected items)", [] if unrouted == 0 else ["%d connections unrouted" % unrouted]))
    return out


def _box(rect, grow=0.0):
    """The EDA_RECT `rect`, grown by `grow` mm on every side, as a polygon."""
    r = pcbnew.EDA_RECT(rect.GetPosition(), rect.GetSize())
    r.Normalize()
    r.Inflate(_mm(grow))
    poly = pcbnew.SHAPE_POLY_SET()
    poly.NewOutline()
    for x, y in ((r.GetLeft(), r.GetTop()), (r.GetRight(), r.GetTop()), (r.GetRight(), r.GetBottom()), (r.GetLeft(), r.GetBottom())):
        poly.Append(x, y)
    return poly


def _overlap(a, b):
    """The area (mm2) two polygon sets share."""
    both = pcbnew.SHAPE_POLY_SET(a)
    both.BooleanIntersection(b, pcbnew.SHAPE_POLY_SET.PM_FAST)
    return both.Area() / 1e12 if both.OutlineCount() else 0.0


def _where(rect):
    return "(%.2f, %.2f)-(%.2f, %.2f)" % (pcbnew.ToMM(rect.GetLeft()), pcbnew.ToMM(rect.GetTop()),
                                          pcbnew.ToMM(rect.GetRight()), pcbnew.ToMM(rect.GetBottom()))


def _outline_box(board):
    """The box of the board outline's centre lines (where the board is cut;
    KiCad's board box includes the outline's line width)."""
    box = None
    for d in board.GetDrawings():
        if d.GetLayer() == pcbnew.Edge_Cuts:
            r = d.GetBoundingBox()
            r.Inflate(-d.GetWidth() // 2)
            if box is None:
                box = r
            else:
                box.Merge(r)
    return box


def _silk_items(board):
    """[(name, item, is_text, layer)]: every visible item on a silkscreen
    layer, the board's own and its footprints' (references, values, the
    footprints' texts and lines)."""
    silk = (pcbnew.F_SilkS, pcbnew.B_SilkS)
    out = []
    for d in board.GetDrawings():
        if d.GetLayer() in silk:
            text = d.Type() == pcbnew.PCB_TEXT_T
            out.append(('text "%s"' % d.GetText() if text else "board line %s" % _where(d.GetBoundingBox()), d, text, d.GetLayer()))
    for fp in board.GetFootprints():
        ref = fp.GetReference()
        for t, what in ((fp.Reference(), "reference"), (fp.Value(), "value")):
            if t.IsVisible() and t.GetLayer() in silk:
                out.append(('%s\'s %s "%s"' % (ref, what, t.GetShownText()), t, True, t.GetLayer()))
        for g in fp.GraphicalItems():
            if g.GetLayer() not in silk:
                continue
            if g.Type() == pcbnew.PCB_FP_TEXT_T:
                if g.IsVisible():
                    out.append(('%s\'s text "%s"' % (ref, g.GetShownText()), g, True, g.GetLayer()))
            else:
                out.append(("%s's outline %s" % (ref, _where(g.GetBoundingBox())), g, False, g.GetLayer()))
    return out


def silk_checks(board):
    """[(check, [problem])]: the silkscreen inside the board, its texts
    large enough and on nothing else, no two courtyards overlapping."""
    return [silk_edge_check(board), silk_size_check(board), silk_text_check(board), courtyard_check(board)]


def silk_size_check(board):
    """(check, [problem]): every silkscreen text at least SILK_TEXT_MIN
    high with a SILK_LINE_MIN line (smaller ones a fab prints as a blur)."""
    probs = []
    for name, item, text, _ in _silk_items(board):
        if not text:
            continue
        h, w = pcbnew.ToMM(item.GetTextHeight()), pcbnew.ToMM(item.GetTextThickness())
        if h < SILK_TEXT_MIN - 1e-6 or w < SILK_LINE_MIN - 1e-6:
            probs.append("%s is %.2f mm high with a %.2f mm line" % (name, h, w))
    return ("silkscreen texts >= %.1f mm high with a line >= %.2f mm" % (SILK_TEXT_MIN, SILK_LINE_MIN), probs)


def silk_edge_check(board):
    """(check, [problem]): every silkscreen text and line inside the board."""
    edge = _outline_box(board)
    m = _mm(SILK_EDGE)
    items = _silk_items(board)
    eprobs = []
    for name, item, text, _ in items:
        bb = item.GetBoundingBox()
        if bb.GetLeft() < edge.GetLeft() + m or bb.GetRight() > edge.GetRight() - m or bb.GetTop() < edge.GetTop() + m or bb.GetBottom() > edge.GetBottom() - m:
            at = " at " + _where(bb) if text else ""  # a line's name says where it is
            eprobs.append("%s%s runs within %.1f mm of the board edge or past it" % (name, at, SILK_EDGE))
    return ("silkscreen (texts and lines) inside the board outline, >= %.1f mm from its edge" % SILK_EDGE, eprobs)


def silk_text_check(board):
    """(check, [problem]): no silkscreen text on another, on a pad or on a
    silkscreen line."""
    items = _silk_items(board)
    # Each text's box, grown by the clearance, against every other text's
    # box, every pad on its side (its copper shape; holes too) and every
    # silkscreen line's box.
    oprobs = []
    texts = [(n, i, l) for n, i, t, l in items if t]
    lines = [(n, i, l) for n, i, t, l in items if not t]
    for k, (name, item, layer) in enumerate(texts):
        box = _box(item.GetBoundingBox(), SILK_CLEARANCE)
        for other, oitem, olayer in texts[k + 1:]:
            if olayer == layer and _overlap(box, _box(oitem.GetBoundingBox())) > 0:
                oprobs.append("%s overlaps %s" % tuple(sorted((name, other))))
        copper = pcbnew.F_Cu if layer == pcbnew.F_SilkS else pcbnew.B_Cu
        for fp in board.GetFootprints():
            for p in fp.Pads():
                if (p.IsOnLayer(copper) or p.GetAttribute() == pcbnew.PAD_ATTRIB_NPTH) and _overlap(box, p.GetEffectivePolygon()) > 0:
                    oprobs.append("%s lies on pad %s.%s" % (name, fp.GetReference(), p.GetNumber()))
        for other, oitem, olayer in lines:
            if olayer == layer and _overlap(box, _box(oitem.GetBoundingBox())) > 0:
                oprobs.append("%s lies on %s" % (name, other))
    return ("silkscreen texts >= %.1f mm from each other, from pads and from silkscreen lines" % SILK_CLEARANCE, oprobs)


def courtyard_check(board):
    """(check, [problem]): no two footprints' courtyards overlapping."""
    cprobs = []
    fps = list(board.GetFootprints())
    for fp in fps:
        fp.BuildCourtyardCaches()
        if fp.GetCourtyard(pcbnew.F_CrtYd).OutlineCount() + fp.GetCourtyard(pcbnew.B_CrtYd).OutlineCount() == 0:
            cprobs.append("%s has no courtyard" % fp.GetReference())
    for i, a in enumerate(fps):
        for b in fps[i + 1:]:
            for layer in (pcbnew.F_CrtYd, pcbnew.B_CrtYd):
                ca, cb = a.GetCourtyard(layer), b.GetCourtyard(layer)
                if ca.OutlineCount() and cb.OutlineCount():
                    area = _overlap(ca, cb)
                    if area > 0:
                        cprobs.append("%s and %s courtyards overlap on %s (%.2f mm2)" % (*sorted((a.GetReference(), b.GetReference())), board.GetLayerName(layer), area))
    return ("no two parts' courtyards overlap", cprobs)


# -- output -----------------------------------------------------------------------

_LAYERS = (
    (pcbnew.F_Cu, "F_Cu"), (pcbnew.B_Cu, "B_Cu"), (pcbnew.F_Mask, "F_Mask"), (pcbnew.B_Mask, "B_Mask"),
    (pcbnew.F_Paste, "F_Paste"), (pcbnew.F_SilkS, "F_Silkscreen"), (pcbnew.B_SilkS, "B_Silkscreen"),
    (pcbnew.Edge_Cuts, "Edge_Cuts"),
)


def _stable(path):
    """No date, no machine-dependent path, sequential UUIDs: the committed
    files must be what `make hardware` makes anywhere."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    text = re.sub(r"(?m)^G04 Created by KiCad.*$", "G04 Created by KiCad (pcbnew)*", text)
    text = re.sub(r"(?m)^%TF\.CreationDate,.*$\n?", "", text)
    text = re.sub(r"(?m)^; DRILL file .*$", "; DRILL file {KiCad} date -", text)
    text = re.sub(r"(?m)^;CREATION DATE .*$\n?", "", text)
    text = re.sub(r"(?m)^; #@! TF\.CreationDate,.*$\n?", "", text)
    text = re.sub(r"(?m)^%TF\.ProjectId,.*$", "%TF.ProjectId,sensor_module*%", text)
    n = [0]
    seen = {}

    def uuid(m):
        u = m.group(1)
        if u not in seen:
            n[0] += 1
            seen[u] = "00000000-0000-0000-0000-%012d" % n[0]
        return m.group(0).replace(u, seen[u])

    text = re.sub(r"\((?:tstamp|uuid) ([0-9a-f-]{36})\)", uuid, text)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)


def plot_fab(board, gdir, name):
    """Gerbers, the two Excellon drill files (plated and unplated apart) and
    the placement file of `board` into gdir, as <name>-<layer>.gbr etc."""
    pc = pcbnew.PLOT_CONTROLLER(board)
    po = pc.GetPlotOptions()
    po.SetOutputDirectory(gdir)
    po.SetPlotFrameRef(False)
    po.SetUseGerberProtelExtensions(False)
    po.SetCreateGerberJobFile(False)
    po.SetUseGerberX2format(True)
    po.SetIncludeGerberNetlistInfo(False)
    po.SetSubtractMaskFromSilk(True)
    origin = board.GetDesignSettings().GetAuxOrigin()
    po.SetUseAuxOrigin(True)
    for layer, lname in _LAYERS:
        pc.SetLayer(layer)
        pc.OpenPlotfile(lname, pcbnew.PLOT_FORMAT_GERBER, lname)
        pc.PlotLayer()
    pc.ClosePlot()
    dw = pcbnew.EXCELLON_WRITER(board)
    dw.SetOptions(False, False, origin, False)  # plated and unplated holes in files of their own
    dw.SetFormat(True)
    dw.CreateDrillandMapFilesSet(gdir, True, False)
    for f in sorted(os.listdir(gdir)):
        _stable(os.path.join(gdir, f))
    # Placement file (pick and place, mm from the board's bottom left
    # corner, top side), for ordering it assembled.
    pos = pcbnew.PLACE_FILE_EXPORTER(board, True, False, False, True, False, True, True)
    with open(os.path.join(gdir, "%s-pos.csv" % name), "w", encoding="utf-8", newline="\n") as f:
        f.write(pos.GenPositionData())


def build(out_dir):
    """Write the module's board, Gerbers, drill file and drc.txt; returns
    the number of failed checks."""
    os.makedirs(out_dir, exist_ok=True)
    gdir = os.path.join(out_dir, "gerbers")
    os.makedirs(gdir, exist_ok=True)
    for f in os.listdir(gdir):
        os.remove(os.path.join(gdir, f))
    pcb = os.path.join(out_dir, "sensor_module.kicad_pcb")
    board = design(pcb)
    board.Save(pcb)
    _stable(pcb)
    # NewBoard's project files: the local one holds one machine's view state.
    for ext in (".kicad_prl", ".kicad_pro"):
        if os.path.exists(pcb[:-10] + ext):
            os.remove(pcb[:-10] + ext)
    plot_fab(board, gdir, "sensor_module")
    # The assembly pictures, plotted from the file just written.
    from host_tools.hardware import module_pictures

    module_pictures.build(out_dir)
    names = sorted(os.listdir(gdir))
    with open(os.path.join(out_dir, "bom.csv"), "w", encoding="utf-8", newline="\n") as f:
        f.write("quantity,references,value,footprint,manufacturer,part number\n")
        for row in MODULE_BOM:
            f.write(",".join('"%s"' % x if "," in str(x) else str(x) for x in row) + "\n")
    results = drc(board)
    failed = sum(1 for _, p in results if p)
    lines = ["Sensor module %s x %s mm: reed switch, 1N4148W, WS2812B, 100 nF; pads %s"
             % (mg.MODULE_W, mg.MODULE_H, ", ".join(HEADER)),
             "Design-rule checks run by host_tools/hardware/module_pcb.py through KiCad %s's Python API:" % pcbnew.Version().split("+")[0]]
    for check, probs in results:
        lines.append("  %s: %s" % ("FAIL" if probs else "PASS", check))
        lines += ["    - " + p for p in probs]
    lines += ["Not checked (KiCad 6's Python API has no DRC runner): solder-mask slivers,",
              "  hole-to-hole spacing, thermal relief spokes.",
              "Files: %s" % ", ".join(["sensor_module.kicad_pcb"] + ["gerbers/" + n for n in names]),
              "Result: %d failed checks" % failed]
    with open(os.path.join(out_dir, "drc.txt"), "w", encoding="utf-8", newline="\n") as f:
        f.write("\n".join(lines) + "\n")
    print("sensor_module: %d failed design-rule checks -> %s" % (failed, out_dir))
    return failed
