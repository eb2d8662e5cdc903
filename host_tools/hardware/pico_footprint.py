"""The Pico's footprint, which KiCad 6's libraries lack (issue 37).

Two rows of 20 through-hole pads 17.78 mm apart at 2.54 mm, numbered as
the Pico's pins (1..20 down the left row, 21..40 up the right, as on a
DIP), pin 1 square, inside the Pico's 21 x 51 mm outline. The holes take
header pins: a 0.64 mm square pin is 0.9 mm across its corners, so the
drill is DRILL (1.0 mm; KiCad's DIP footprints' 0.8 mm fits only a
socket's round pins) in a PAD pad. Written as
text (KiCad 6's footprint format) to hardware/lib/Triad.pretty, which
hardware/fp-lib-table names as the library `Triad`.
"""
import os

FP_DIR = "/usr/share/kicad/footprints"
LIB, NAME = "Triad", "RaspberryPi_Pico_THT"
ROW_SPACING = 17.78
PITCH = 2.54
DRILL = 1.0
PAD = 1.8
DRILL_MIN = 1.0  # a 0.64 mm square header pin (0.9 mm across its corners) with room to solder


def pad_xy(n):
    """Pad n's position (mm, pin 1 at the origin, y down)."""
    if n <= 20:
        return 0.0, (n - 1) * PITCH
    return ROW_SPACING, (40 - n) * PITCH


def text():
    x0, x1 = (ROW_SPACING - 21.0) / 2, (ROW_SPACING + 21.0) / 2
    y0, y1 = -1.37, 19 * PITCH + 1.37
    out = ['(footprint "%s" (version 20211014) (generator pcbnew)' % NAME,
           '  (layer "F.Cu")',
           '  (descr "Raspberry Pi Pico soldered or socketed on its two 20-pin rows, 17.78 mm apart (host_tools/hardware/pico_footprint.py)")',
           '  (tags "Raspberry Pi Pico RP2040 THT")',
           '  (attr through_hole)',
           '  (fp_text reference "REF**" (at %.2f -3) (layer "F.SilkS") (effects (font (size 1 1) (thickness 0.15))))' % (ROW_SPACING / 2),
           '  (fp_text value "%s" (at %.2f %.2f) (layer "F.Fab") (effects (font (size 1 1) (thickness 0.15))))' % (NAME, ROW_SPACING / 2, y1 + 2)]
    for layer, grow, width in (("F.SilkS", 0.12, 0.12), ("F.CrtYd", 0.5, 0.05), ("F.Fab", 0.0, 0.1)):
        pts = [(x0 - grow, y0 - grow), (x1 + grow, y0 - grow), (x1 + grow, y1 + grow), (x0 - grow, y1 + grow)]
        for (ax, ay), (bx, by) in zip(pts, pts[1:] + pts[:1]):
            out.append('  (fp_line (start %.2f %.2f) (end %.2f %.2f) (layer "%s") (width %.2f))' % (ax, ay, bx, by, layer, width))
    for n in range(1, 41):
        x, y = pad_xy(n)
        shape = "rect" if n == 1 else "oval"
        out.append('  (pad "%d" thru_hole %s (at %.2f %.2f) (size %.2f %.2f) (drill %.2f) (layers *.Cu *.Mask))' % (n, shape, x, y, PAD, PAD, DRILL))
    out.append(")")
    return "\n".join(out) + "\n"


def build(hw_dir):
    lib = os.path.join(hw_dir, "lib", LIB + ".pretty")
    os.makedirs(lib, exist_ok=True)
    path = os.path.join(lib, NAME + ".kicad_mod")
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(text())
    with open(os.path.join(hw_dir, "fp-lib-table"), "w", encoding="utf-8", newline="\n") as f:
        f.write('(fp_lib_table\n  (lib (name "%s")(type "KiCad")(uri "${KIPRJMOD}/lib/%s.pretty")(options "")(descr "Triad board footprints (host_tools/hardware/pico_footprint.py)"))\n)\n' % (LIB, LIB))
    return path


def resolves(footprint, hw_dir):
    """Whether `lib:name` is a footprint in KiCad's libraries or in hardware/lib."""
    lib, _, name = footprint.partition(":")
    for d in (FP_DIR, os.path.join(hw_dir, "lib")):
        if os.path.exists(os.path.join(d, lib + ".pretty", name + ".kicad_mod")):
            return True
    return False


def drills(hw_dir):
    """[(pad, drill mm)] of the Pico footprint written in hw_dir/lib."""
    import re

    path = os.path.join(hw_dir, "lib", LIB + ".pretty", NAME + ".kicad_mod")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    return [(m.group(1), float(m.group(2))) for m in re.finditer(r'\(pad "(\d+)" thru_hole .*?\(drill ([\d.]+)\)', text)]


def check_drills(hw_dir):
    """[problem]: a Pico pad whose hole is too small for a header pin."""
    return ["U1 pad %s: %.2f mm drill, under %.1f mm: a header pin does not go in" % (pad, d, DRILL_MIN)
            for pad, d in drills(hw_dir) if d < DRILL_MIN - 1e-9]
