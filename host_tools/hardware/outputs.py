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
    # A status LED's carrier is a sensor module too, with only its WS2812B
    # and 100 nF fitted (plate.py): screwed under its window like a spot's.
    n_mod = n + board.n_status
    rows = [
        (n_mod, "(one per spot; one per status LED, its LED and 100 nF only)", "Sensor module PCB", "hardware/sensor_module",
         "JLCPCB (or any PCB fab)", "sensor_module gerbers: 2 layers, 1.6 mm FR4, 26 x 20 mm"),
        (n, "(one per module, for the 1N4148)", "1N4148W", "Diode_SMD:D_SOD-123", "Diodes Incorporated", "1N4148W-7-F"),
    ]
    from host_tools.hardware import placement, stackup

    mags = {}
    for piece, _ in sensing.board_pieces(board):
        mags.setdefault(piece.magnet, []).append(piece)
    for key, pieces in mags.items():
        d, h, maker, pn = sensing.MAGNETS[key]
        rows.append((sum(p.count for p in pieces), "(in the pieces: %s)" % ", ".join(p.name for p in pieces),
                     "Magnet %g x %g mm NdFeB N40-N52, axial" % (d, h), "-", maker, pn))
    for piece, _ in sensing.board_pieces(board):
        rows.append((piece.per_set, "(the game's set)", "Piece: %s, printed with %d magnet pocket(s)" % (piece.name, len(piece.magnets)),
                     "-", "(3D-print it: PLA or PETG)", "hardware/parts/%s.scad" % piece.slug()))
    _, _, w, h, _ = placement._layout(board)
    n_holes = 2 * n_mod
    rows += [
        (1, "(the top plate)", "Plate %.1f mm extruded acrylic, %.0f x %.0f mm, cut and drilled from the files" % (stackup.PLATE_T, w, h), "-",
         "(laser-cut: yourself or a service)", "hardware/%s/drill.csv" % board.name),
        (n_holes, "(two per module, status LEDs' included)", "Spacer %.1f mm printed washer, M2" % stackup.SPACER_H, "-", "(3D-print it)", "hardware/parts/module_spacer.scad"),
        (n_holes + 4, "(two per module, four for the Pico)", "Screw %s countersunk, A2 stainless" % stackup.SCREW, "-",
         "(standard part: any maker)", "ISO 10642 M2 x 8 A2"),
        (n_holes + 4, "(one per screw)", "Nut M2, A2 stainless", "-", "(standard part: any maker)", "ISO 4032 M2 A2"),
        (wire_metres(board)[0], "(metres: the data and matrix runs in wiring.csv and a fifth more)", "Wire 22 AWG stranded hook-up, UL1007 (metres): signals", "-",
         WIRE_PART[0], WIRE_PART[1]),
        (wire_metres(board)[1], "(metres: the POWER runs in wiring.csv and a fifth more)", "Wire %s stranded hook-up, UL1007 (metres): +5V and GND" % POWER_WIRE, "-",
         POWER_WIRE_PART[0], POWER_WIRE_PART[1]),
    ]
    return rows


# The wire: stranded hook-up wire (UL1007). The power runs (+5V and GND,
# daisy-chained along the LEDs from the Pico) carry up to USB_BUDGET_MA:
# 20 AWG (Alpha Wire 3053, about 34 mOhm/m) keeps the drop there and back
# under POWER_DROP_MAX with all the current at the chain's far end (22 AWG,
# 53 mOhm/m, would lose 0.31 V on tri_v1's 5.9 m); every other run (data,
# matrix, buttons) is 22 AWG (Alpha Wire 3051).
POWER_WIRE = "20 AWG"
OHM_PER_M = 0.034
POWER_DROP_MAX = 0.25  # V: the last LED still gets 4.75 V from USB's 5 V
WIRE_PART = ("Alpha Wire", "3051")  # 22 AWG, 7/30 stranded, UL1007, per metre: signals
POWER_WIRE_PART = ("Alpha Wire", "3053")  # 20 AWG, 10/30 stranded, UL1007, per metre: +5V and GND


def power_run_mm(board):
    """The +5V (and the GND) run's length: from the Pico along the LED
    chain, each LED to the next (the data hops' path)."""
    from host_tools.hardware import placement, wiring

    return sum(mm for _, _, _, mm in wiring.all_hops(board, placement.centres(board)))


def power_drop(board):
    """(volts, amps): the worst drop on the power run, all the current to the far end."""
    amps = board.usb_budget_ma / 1000.0
    return amps * OHM_PER_M * 2 * power_run_mm(board) / 1000.0, amps


def power_note(board):
    v, a = power_drop(board)
    return "at most %.2f V lost there and back at %.1f A (limit %.2f V)" % (v, a, POWER_DROP_MAX)


def check_power_wire(board):
    v, _ = power_drop(board)
    probs = [] if v <= POWER_DROP_MAX else ["+5V/GND along the chain: %s: use a thicker wire or feed the chain from both ends" % power_note(board)]
    return "the power runs' wire (%s) loses at most %.2f V at the USB budget" % (POWER_WIRE, POWER_DROP_MAX), probs


def wire_metres(board):
    """(signal, power): whole metres of wire to order: every run wiring.csv
    measures, and a fifth more for the ends and the way round parts."""
    from host_tools.hardware import placement, wiring

    centres = placement.centres(board)
    signal = sum(wiring.matrix_lengths(board, centres).values()) + sum(x[3] for x in wiring.all_hops(board, centres))
    return int(-(-signal * 1.2 // 1000)), int(-(-2 * power_run_mm(board) * 1.2 // 1000))


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
        for k, _, _, mm in wiring.all_hops(board, centres):
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
        power = power_run_mm(board)
        rows.append(("POWER", "+5V and GND each run along the LED chain (%s, %.0f mm each): %s" % (POWER_WIRE, power, power_note(board)),
                     "%.0f" % (2 * power)))
        rows.append(("TOTAL", "LED data line %.2f m (Pico to the first LED, status LEDs included); matrix rows and columns %.2f m; power %.2f m"
                     % (data / 1000, matrix / 1000, 2 * power / 1000), "%.0f" % (data + matrix + 2 * round(power))))
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
