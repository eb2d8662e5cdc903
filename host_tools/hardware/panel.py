"""hardware/sensor_module/panel/: the sensor module as a panel to order.

KiKit (PyPI `kikit`, pinned at 1.4.0: the last release that drives KiCad
6's pcbnew; 1.5 dropped KiCad 6) lays out ROWS x COLS modules with
mouse-bite tabs, rails top and bottom with three tooling holes, and milled
corners; pcbnew then plots the panel's Gerbers, drill files and placement
file as module_pcb does the single module's. The panel stays within
100 x 100 mm, the size most PCB fabs price lowest.
"""
import os
import re
import subprocess
import sys
import tempfile

ROWS, COLS = 4, 3
# KiKit's command line; KiCad's new items get UUIDs from a seeded generator
# (KiCad orders items by UUID: random ones would reorder the Gerbers'
# apertures on every run) and KiKit's sets a fixed hash order.
_KIKIT = ("import sys, pcbnew; pcbnew.KIID.SeedGenerator(37); "
          "from kikit.ui import cli; sys.argv[0] = 'kikit'; cli()")
KIKIT_ARGS = (
    "--layout", "grid; rows: %d; cols: %d; space: 2mm; renameref: {orig}-{n}" % (ROWS, COLS),
    "--tabs", "fixed; width: 3mm; hcount: 1; vcount: 1",
    "--cuts", "mousebites; drill: 0.5mm; spacing: 0.8mm; offset: 0.2mm",
    "--framing", "railstb; width: 5mm; space: 2mm",
    "--tooling", "3hole; hoffset: 2.5mm; voffset: 2.5mm; size: 1.5mm",
    "--post", "millradius: 1mm",
)


def build(module_pcb_path, out_dir):
    """Write the panel's fab files into out_dir/gerbers and panel.txt;
    returns the number of problems (0: the panel was made)."""
    import pcbnew

    from host_tools.hardware import module_pcb

    gdir = os.path.join(out_dir, "gerbers")
    os.makedirs(gdir, exist_ok=True)
    for f in os.listdir(gdir):
        os.remove(os.path.join(gdir, f))
    with tempfile.TemporaryDirectory() as tmp:
        pcb = os.path.join(tmp, "sensor_module_panel.kicad_pcb")
        # KiKit's own command line, in a process of its own (it changes
        # pcbnew's global state); its click warnings are noise.
        r = subprocess.run([sys.executable, "-W", "ignore", "-c", _KIKIT,
                            "panelize", *KIKIT_ARGS, module_pcb_path, pcb], capture_output=True, text=True,
                           env=dict(os.environ, PYTHONHASHSEED="0"))  # KiKit walks sets: a fixed order, the same files
        if r.returncode != 0 or not os.path.exists(pcb):
            print("sensor_module panel: KiKit failed:\n%s%s" % (r.stdout, r.stderr), file=sys.stderr)
            return 1
        board = pcbnew.LoadBoard(pcb)
        names_on_silk(board)
        silk = module_pcb.silk_text_check(board)
        module_pcb.plot_fab(board, gdir, "sensor_module_panel")
        box = board.GetBoardEdgesBoundingBox()
        w, h = pcbnew.ToMM(box.GetWidth()), pcbnew.ToMM(box.GetHeight())
    n = ROWS * COLS
    text = ["Sensor module panel: %d modules (%d rows x %d columns), %.0f x %.0f mm (the outline's centre lines)" % (n, ROWS, COLS, w, h),
            "Made by KiKit 1.4.0 from sensor_module.kicad_pcb: %s" % " ".join(
                "%s '%s'" % (KIKIT_ARGS[i], KIKIT_ARGS[i + 1]) for i in range(0, len(KIKIT_ARGS), 2)),
            "Panels to order: pico_v1 36 spots: %d; hex_v1 61: %d; tri_v1 109: %d" % tuple(-(-s // n) for s in (36, 61, 109)),
            "Silkscreen: each module's parts named as on the single module (C1; the placement file keeps KiKit's C1-0 ... C1-11)",
            "  %s: %s" % ("FAIL" if silk[1] else "PASS", silk[0])] + ["    - " + p for p in silk[1]] + [
            "Files: " + ", ".join("gerbers/" + f for f in sorted(os.listdir(gdir)))]
    with open(os.path.join(out_dir, "panel.txt"), "w", encoding="utf-8", newline="\n") as f:
        f.write("\n".join(text) + "\n")
    print("sensor_module panel: %d modules, %.0f x %.0f mm, %d silkscreen problems -> %s" % (n, w, h, len(silk[1]), out_dir))
    return 1 if silk[1] else 0


def names_on_silk(board):
    """KiKit names each copy's parts apart (C1-0 ... C1-11) for the
    placement file; on the silkscreen those names are twice as long and run
    onto the pads and the mouse bites. Each renamed reference is hidden and
    its part's own name (C1) printed in its place, as on the single module."""
    import pcbnew

    for fp in board.GetFootprints():
        ref = fp.Reference()
        m = re.match(r"^(.+)-[0-9]+$", fp.GetReference())
        if m is None or not ref.IsVisible():
            continue
        t = pcbnew.PCB_TEXT(board)
        t.SetText(m.group(1))
        t.SetLayer(ref.GetLayer())
        t.SetTextSize(ref.GetTextSize())
        t.SetTextThickness(ref.GetTextThickness())
        t.SetTextAngle(ref.GetDrawRotation())
        t.SetHorizJustify(ref.GetHorizJustify())
        t.SetVertJustify(ref.GetVertJustify())
        t.SetMirrored(ref.IsMirrored())
        t.SetPosition(ref.GetPosition())
        board.Add(t)
        ref.SetVisible(False)
