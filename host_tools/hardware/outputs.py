"""erc.txt, bom.csv and wiring.csv from a board and its (parsed) circuit."""
import csv
import io
import re

from host_tools.hardware import checks
from host_tools.hardware.circuit import PARTS


def _natural(s):
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", s)]


def bom_rows(ckt):
    """[(quantity, references, value, footprint, manufacturer, part number)]
    grouped by part, in the order of PARTS."""
    groups = {}
    for ref, p in ckt.parts.items():
        groups.setdefault(p.kind, []).append(ref)
    rows = []
    for kind in PARTS:
        if kind in groups:
            lib, symbol, value, fp, mfr, mpn, _ = PARTS[kind]
            refs = sorted(groups[kind], key=_natural)
            rows.append((len(refs), " ".join(refs), value, fp, mfr, mpn))
    return rows


def _csv(rows):
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    for r in rows:
        w.writerow(r)
    return out.getvalue()


def extra_bom_rows(board):
    """What the netlist does not hold: the sensor modules (their PCB and
    SMD diode; the reed, LED and 100 nF are the netlist's) and the pieces'
    magnets (sensing.py)."""
    from host_tools.hardware import sensing

    n = board.n_sites
    rows = [
        (n, "(one per spot)", "Sensor module PCB", "hardware/sensor_module", "JLCPCB (or any PCB fab)",
         "sensor_module gerbers: 2 layers, 1.6 mm FR4, 26 x 20 mm"),
        (n, "(one per module, for the 1N4148)", "1N4148W", "Diode_SMD:D_SOD-123", "Diodes Incorporated", "1N4148W-7-F"),
    ]
    mags = {}
    for piece, _ in sensing.board_pieces(board):
        mags.setdefault(piece.magnet, []).append(piece)
    for key, pieces in mags.items():
        d, h, maker, pn = sensing.MAGNETS[key]
        rows.append((sum(p.count for p in pieces), "(in the pieces: %s)" % ", ".join(p.name for p in pieces),
                     "Magnet %g x %g mm NdFeB N40-N52, axial" % (d, h), "-", maker, pn))
    return rows


def bom_csv(ckt, extra=()):
    return _csv([("quantity", "references", "value", "footprint", "manufacturer", "part number")] + bom_rows(ckt) + list(extra))


def wiring_csv(ckt, board=None):
    """One line per net: its name, every pin it joins, and where the 1:1
    layout says, its wire's length (mm): each LED data hop between two
    spots, each matrix row and column through its spots; a last line sums
    them (wiring.py)."""
    lengths = {}
    if board is not None:
        from host_tools.hardware import placement, wiring

        centres = placement.centres(board)
        lengths.update(wiring.matrix_lengths(board, centres))
        for k, _, _, mm in wiring.hops(board, centres):
            lengths["DIN%d" % k] = mm
    rows = [("net", "pins", "wire_mm")]
    for name in sorted(ckt.nets, key=_natural):
        pins = sorted(ckt.nets[name], key=lambda rp: (_natural(rp[0]), _natural(rp[1])))
        mm = lengths.get(name)
        rows.append((name, ", ".join(ckt.pin_label(r, p) for r, p in pins), "" if mm is None else "%.0f" % mm))
    if lengths:
        # The sums of the whole millimetres listed, so the column adds up.
        data = sum(round(v) for k, v in lengths.items() if k.startswith("DIN"))
        matrix = sum(round(v) for k, v in lengths.items() if not k.startswith("DIN"))
        rows.append(("TOTAL", "LED data line between spots %.2f m; matrix rows and columns %.2f m (status LEDs, Pico and power wiring not included)"
                     % (data / 1000, matrix / 1000), "%.0f" % (data + matrix)))
    return _csv(rows)


def erc_txt(board, ckt, erc_msgs, erc_errors, erc_warnings, tool, hw_dir=None):
    results = checks.all_checks(board, ckt, hw_dir)
    failed = sum(1 for _, probs in results if probs)
    lines = [
        "Board %s: %d sensing spots, %d LEDs, %d parts, %d nets" % (board.name, len(board.sensing()), board.n_leds, len(ckt.parts), len(ckt.nets)),
        "",
        "Generic ERC (%s): %d errors, %d warnings" % (tool, erc_errors, erc_warnings),
        "  (GND carries a power flag: USB's return drives it, as KiCad's PWR_FLAG says;",
        "   unused Pico pins and the last LED's DOUT are marked no-connect)",
    ]
    lines += ["  %s: %s" % (lvl, m) for lvl, m in erc_msgs]
    if erc_warnings:
        lines += ["  (SKiDL's own warnings, kept: it reads no footprint table, so the footprints are checked",
                  "   below instead; its top-level hierarchy node must have an empty tag, which it then warns about)"]
    lines += ["", "Board checks (read from netlist.net and the description):"]
    for rule, probs in results:
        lines.append("  %s: %s" % ("FAIL" if probs else "PASS", rule))
        lines += ["    - " + p for p in probs]
    full, at_cap, colour, idle, total = checks.power_figures(board)
    lines += [
        "",
        "Power at BRIGHTNESS_MAX = %d: all %d LEDs full white would draw %d mA (%d mA at full scale);"
        % (board.brightness_max, board.n_leds, at_cap, full),
        "  the LED driver limits colour to LED_BUDGET_MA = %d mA, so %d mA board + %d mA dark LEDs + %d mA colour"
        % (board.led_budget_ma, board.board_ma, idle, colour),
        "  = %d mA of USB_BUDGET_MA = %d mA" % (total, board.usb_budget_ma),
        "",
        "Result: %d errors (%d ERC, %d board checks failed)" % (erc_errors + failed, erc_errors, failed),
    ]
    return "\n".join(lines) + "\n", erc_errors + failed
