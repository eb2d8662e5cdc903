"""python -m host_tools.hardware [--out DIR] [--board B ...] [--no-pcb]

Writes hardware/<board>/{netlist.net, erc.txt, bom.csv, wiring.csv,
placement.svg, placement.pdf, drill.csv, cost.csv,
schematic.svg, sensing.csv, sensing.svg, pieces.svg, selftest.svg},
hardware/parts/ (printable pieces and the module's spacer, OpenSCAD) and
hardware/sensor_module/ (with its pictures board_top.svg, assembly.svg). Exit 1 if a
board's ERC or checks report errors (the files are written all the same,
so erc.txt says what is wrong); 2 for a description too broken to build.
"""
import argparse
import os
import sys

from host_tools import ROOT
from host_tools.hardware import checks, circuit, describe, outputs


def build_board(board, out_dir):
    """Write one board's files; returns its number of errors."""
    from host_tools.hardware import placement, sensing, skidl_out

    problems = [p for _, probs in checks.description_checks(board) for p in probs]
    if problems:
        # Not built: a netlist from this description would be wrong.
        for p in problems:
            print("%s: %s" % (board.name, p), file=sys.stderr)
        return len(problems)
    from host_tools.hardware import pico_footprint

    pico_footprint.build(os.path.dirname(out_dir))  # hardware/lib/Triad.pretty, fp-lib-table
    ckt = circuit.build(board)
    text, msgs, errs, warns = skidl_out.run(ckt)
    parsed = circuit.parse_netlist(text)
    erc, n_err = outputs.erc_txt(board, parsed, msgs, errs, warns, skidl_out.tool_name(), os.path.dirname(out_dir))
    os.makedirs(out_dir, exist_ok=True)
    files = {
        "netlist.net": text,
        "erc.txt": erc,
        "bom.csv": outputs.bom_csv(parsed, outputs.extra_bom_rows(board)),
        "wiring.csv": outputs.wiring_csv(parsed, board),
        "placement.svg": placement.svg(board),
        "drill.csv": placement.drill_csv(board),
    }
    from host_tools.hardware import cost

    files["cost.csv"], cost_problems = cost.cost_csv(files["bom.csv"])
    for p in cost_problems:
        print("%s: cost: %s" % (board.name, p), file=sys.stderr)
    n_err += len(cost_problems)
    for name, data in files.items():
        with open(os.path.join(out_dir, name), "w", encoding="utf-8", newline="\n") as f:
            f.write(data)
    placement.pdf(board, os.path.join(out_dir, "placement.pdf"))
    from host_tools.hardware import schematic

    schematic.plot_svg(board, parsed, os.path.join(out_dir, "schematic.svg"))
    # The field model: does every piece close its own reed, and only it?
    rows = sensing.rows(board, placement.centres(board))
    with open(os.path.join(out_dir, "sensing.csv"), "w", encoding="utf-8", newline="\n") as f:
        f.write(sensing.csv_text(rows))
    sensing.plot_svg(board, os.path.join(out_dir, "sensing.svg"))
    # What the LEDs show at each step of the firmware's own self-test.
    from host_tools.hardware import selftest_picture

    with open(os.path.join(out_dir, "selftest.svg"), "w", encoding="utf-8", newline="\n") as f:
        f.write(selftest_picture.svg(board))
    # The pieces: can a maker make them (magnets apart and inside)?
    from host_tools.hardware import pieces

    board_pieces = [p for p, _ in sensing.board_pieces(board)]
    with open(os.path.join(out_dir, "pieces.svg"), "w", encoding="utf-8", newline="\n") as f:
        f.write(pieces.svg(board_pieces, "Triad board %s: its pieces and their magnets" % board.name))
    parts = os.path.join(os.path.dirname(out_dir), "parts")
    os.makedirs(parts, exist_ok=True)
    for p in board_pieces:
        with open(os.path.join(parts, p.slug() + ".scad"), "w", encoding="utf-8", newline="\n") as f:
            f.write(pieces.scad(p))
        for problem in pieces.check(p):
            print("%s: pieces: %s" % (board.name, problem), file=sys.stderr)
            n_err += 1
    n_rows, fails = sensing.summary(rows)
    for r in fails[:10]:
        print("%s: sensing FAIL: %s" % (board.name, ", ".join(r)), file=sys.stderr)
    print("%s: sensing: %d cases, %d FAIL -> sensing.csv" % (board.name, n_rows, len(fails)))
    n_err += len(fails)
    print("%s: %d parts, %d nets, %d errors -> %s" % (board.name, len(parsed.parts), len(parsed.nets), n_err, os.path.relpath(out_dir, ROOT)))
    return n_err


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m host_tools.hardware")
    ap.add_argument("--out", default=os.path.join(ROOT, "hardware"))
    ap.add_argument("--board", action="append", help="a board name or description file (default: every board)")
    ap.add_argument("--no-pcb", action="store_true", help="skip the sensor-module PCB")
    a = ap.parse_args(argv)
    errors = 0
    for name in a.board or describe.board_names():
        try:
            board = describe.load(name)
        except (ValueError, AttributeError, SyntaxError) as e:
            print("%s: cannot read the description: %s" % (name, e), file=sys.stderr)
            return 2
        errors += build_board(board, os.path.join(a.out, board.name))
    if os.path.isdir(a.out):  # something was built: the stack-up it stands on
        from host_tools.hardware import pieces, stackup

        for problem in stackup.check():
            print("stack-up: %s" % problem, file=sys.stderr)
            errors += 1
        os.makedirs(os.path.join(a.out, "parts"), exist_ok=True)
        with open(os.path.join(a.out, "parts", "module_spacer.scad"), "w", encoding="utf-8", newline="\n") as f:
            f.write(pieces.spacer_scad())
    if not a.no_pcb:
        from host_tools.hardware import module_pcb

        errors += module_pcb.build(os.path.join(a.out, "sensor_module"))
        from host_tools.hardware import panel

        errors += panel.build(os.path.join(a.out, "sensor_module", "sensor_module.kicad_pcb"),
                              os.path.join(a.out, "sensor_module", "panel"))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
