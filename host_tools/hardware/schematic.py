"""hardware/<board>/schematic.svg: the circuit drawn for a person, stage by
stage, from the netlist (the Circuit parsed back from netlist.net).

Every part is a box with its pins; each pin ends in a label naming its net,
as a KiCad schematic's net labels do (two pins with the same label are
joined). A stage that repeats for every spot (the reed and diode, the LED
and its 100 nF, the column pull-ups) is drawn once, for the first spot of
the LED chain, and says how often it repeats; wiring.csv lists every
instance. (SKiDL 3.0.0's own generate_svg() was tried first: it stops on
the Pico, whose part is made from the pin table and has no symbol drawing.)
"""
import matplotlib

matplotlib.use("Agg")
# Only for this drawing (sensing.svg keeps its own settings): text stays
# text (searchable, small); a fixed salt keeps the SVG's ids the same.
_RC = {"svg.hashsalt": "triad-schematic", "svg.fonttype": "none"}

PIN_H = 4.0  # mm between two pins
BOX_W = 34.0
STUB = 5.0


def stages(board, ckt):
    """[(title, [ref], note)] in reading order; only parts the circuit has."""
    first = board.led_chain[0]
    second = board.led_chain[1]
    # The matrix stage is drawn for the chain's first spot (the chain may
    # start at a status LED: tri_v1's leaves the Pico for South's row).
    spot = next(s for s in board.led_chain if s < board.n_sites)
    name = board.site_names[spot]
    c = next(c for _, c, s in board.sensing() if s == spot)
    n = board.n_sites
    out = [
        ("Raspberry Pi Pico (U1): every GPIO the board uses; power from USB (VBUS = +5V)", ["U1"], ""),
        ("Switch matrix: spot %s (repeated for all %d spots)" % (name, n), ["SW_" + name, "D_" + name, "R_pu%d" % c],
         "every spot: COL -> reed switch -> diode (cathode to ROW); one 10k pull-up per column (%d); wiring.csv lists each" % len(board.col_pins)),
        ("LED data: level shifter, series resistor, bulk capacitor", ["U2", "C_U2", "R_data", "C_bulk"],
         "the 1000 uF sits where +5V enters the chain: + to +5V"),
        ("LED chain: the first two of %d WS2812B (the spots and %d status LEDs, in LED_CHAIN's order)" % (board.n_leds, board.n_status),
         ["LED_" + board.slot_name(first), "C_" + board.slot_name(first), "LED_" + board.slot_name(second)],
         "each LED's DOUT feeds the next one's DIN in LED_CHAIN's order; each LED has its 100 nF"),
        ("Buttons (active low, the Pico's pull-ups)", ["SW_" + b for b in board.button_names], ""),
        ("Buzzer (optional passive piezo)", ["Q1", "R_bz", "R_bz_pd", "BZ1", "R_bz_dis"],
         "1k into the base, 10k base to GND, 1k across the piezo, emitter to GND"),
    ]
    res = []
    for title, refs, note in out:
        refs = [x for x in refs if x in ckt.parts]
        if refs:
            res.append((title, refs, note))
    return res


def _pin_nets(ckt):
    at = {}
    for net, nodes in ckt.nets.items():
        for ref, pin in nodes:
            at[(ref, pin)] = net
    return at


def _part_h(part):
    return (len(part.pins) + 1) // 2 * PIN_H + PIN_H


def plot_svg(board, ckt, path):
    with matplotlib.rc_context(_RC):
        _plot(board, ckt, path)


def _plot(board, ckt, path):
    import matplotlib.pyplot as plt
    from matplotlib.patches import Rectangle

    at = _pin_nets(ckt)
    st = stages(board, ckt)
    # Lay the stages out top to bottom, the parts of one stage side by side.
    col_w = BOX_W + 2 * (STUB + 22.0)
    width = max(len(refs) for _, refs, _ in st) * col_w + 10.0
    heights = [max(_part_h(ckt.parts[x]) for x in refs) + 25.0 for _, refs, _ in st]
    height = sum(heights) + 20.0
    fig = plt.figure(figsize=(width / 25.4, height / 25.4))
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, width)
    ax.set_ylim(height, 0)
    ax.axis("off")
    ax.text(5, 8, "Triad board %s: schematic by stage (from netlist.net; net labels join pins of the same name)" % board.name,
            fontsize=11, va="center")
    y = 20.0
    for (title, refs, note), h in zip(st, heights):
        ax.text(5, y, title, fontsize=9, weight="bold", va="center")
        if note:
            ax.text(5, y + 4.5, note, fontsize=7, va="center", color="#404040")
        top = y + 13.0
        for k, ref in enumerate(refs):
            part = ckt.parts[ref]
            x0 = 5.0 + k * col_w + STUB + 22.0
            ph = _part_h(part)
            ax.add_patch(Rectangle((x0, top), BOX_W, ph, fill=False, lw=1.0, ec="#000000"))
            ax.text(x0 + BOX_W / 2, top - 1.5, "%s  %s" % (ref, part.value), fontsize=7, ha="center", va="bottom")
            pins = sorted(part.pins, key=lambda p: (int(p) if p.isdigit() else 999, p))
            half = (len(pins) + 1) // 2
            for i, num in enumerate(pins):
                left = i < half
                row = i if left else i - half
                py = top + PIN_H * (row + 1)
                pname = part.pins[num][0]
                net = at.get((ref, num))
                if left:
                    ax.plot([x0 - STUB, x0], [py, py], color="#000000", lw=0.8)
                    ax.text(x0 + 1.0, py, "%s %s" % (num, pname), fontsize=5.5, va="center", ha="left")
                    if net:
                        ax.text(x0 - STUB - 0.8, py, net, fontsize=6, va="center", ha="right", color="#1a5fb4")
                else:
                    xr = x0 + BOX_W
                    ax.plot([xr, xr + STUB], [py, py], color="#000000", lw=0.8)
                    ax.text(xr - 1.0, py, "%s %s" % (pname, num), fontsize=5.5, va="center", ha="right")
                    if net:
                        ax.text(xr + STUB + 0.8, py, net, fontsize=6, va="center", ha="left", color="#1a5fb4")
                if not net:
                    xs = x0 - STUB if left else x0 + BOX_W + STUB
                    ax.text(xs, py, "x", fontsize=6, va="center", ha="center", color="#909090")
        y += h
    fig.savefig(path, format="svg", metadata={"Date": None, "Creator": "host_tools.hardware.schematic"})
    plt.close(fig)
