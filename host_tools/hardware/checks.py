"""The board's own checks: what a generic ERC cannot know.

Each check returns (rule, [problem]): a problem names the part (or the
description's field) and says what is wrong; no problems means it holds.
The description checks read the description; the circuit checks read a
Circuit, normally the one parsed back from netlist.net.
"""
from host_tools.hardware.circuit import GND, V3, V5, col_net, ref_safe, row_net
from host_tools.hardware.describe import PICO_RESERVED, pico_pin

R_MATRIX = "every matrix position has exactly one reed switch and one diode the right way round (column -> switch -> anode, cathode -> row)"
R_SPOT = "every sensing spot has exactly one matrix position"
R_PULLUP = "every column has exactly one pull-up to +3V3"
R_GPIO = "no GPIO is used twice or is one the Pico reserves"
R_CHAIN = "the LED chain visits every slot once, each LED with its 100 nF"
R_BUTTON = "each button connects its pin to ground"
R_POWER = "the power budget holds at the brightness cap"
R_PICO = "the Pico's pin table agrees with its datasheet pinout typed a second time (pico_pinout.py)"
R_HOPS = "every LED data hop (the Pico to the first LED, spot to spot, to and between the status LEDs) is within wiring.HOP_MAX_MM (150 mm) on the 1:1 plate"
R_FOOTPRINT = "every part's footprint is in KiCad 6's libraries or hardware/lib (fp-lib-table); the Pico's holes take header pins (>= 1.0 mm)"
R_SUPPORT = ("the LED data path: level shifter powered from +5V, enabled, decoupled; 1000 uF +5V to GND the right way round; "
             "buzzer transistor's emitter on GND, its base driven from the buzzer pin through a 1k and pulled down by a 10k")


def _gpio_uses(board):
    uses = []
    for i, gp in enumerate(board.row_pins):
        uses.append((gp, "ROW_PINS[%d] (matrix row %d)" % (i, i)))
    for i, gp in enumerate(board.col_pins):
        uses.append((gp, "COL_PINS[%d] (matrix column %d)" % (i, i)))
    uses.append((board.led_pin, "LED_PIN (LED data)"))
    for i, (name, gp) in enumerate(zip(board.button_names, board.button_pins)):
        uses.append((gp, "BUTTON_PINS[%d] (button %s)" % (i, name)))
    if board.buzzer_pin is not None:
        uses.append((board.buzzer_pin, "BUZZER_PIN (buzzer)"))
    return uses


def check_gpio(board):
    problems = []
    seen = {}
    for gp, what in _gpio_uses(board):
        seen.setdefault(gp, []).append(what)
    for gp in sorted(seen):
        whats = seen[gp]
        if len(whats) > 1:
            problems.append("GP%d is used twice: %s" % (gp, " and ".join(whats)))
        if gp in PICO_RESERVED:
            problems.append("GP%d (%s) is reserved by the Pico (%s)" % (gp, whats[0], PICO_RESERVED[gp]))
        elif pico_pin(gp) is None:
            problems.append("GP%d (%s) is not on the Pico's header" % (gp, whats[0]))
    if len(board.button_pins) != len(board.button_names):
        problems.append("BUTTON_PINS has %d pins for %d BUTTON_NAMES" % (len(board.button_pins), len(board.button_names)))
    return R_GPIO, problems


def check_spots(board):
    problems = []
    n_pos = len(board.row_pins) * len(board.col_pins)
    if len(board.matrix_cell) != n_pos:
        problems.append("MATRIX_CELL has %d entries for a %d x %d matrix" % (len(board.matrix_cell), len(board.row_pins), len(board.col_pins)))
    where = {}
    for r, c, site in board.sensing():
        where.setdefault(site, []).append("row %d column %d" % (r, c))
    for site in range(board.n_sites):
        name = board.site_names[site]
        if site not in where:
            problems.append("MATRIX_CELL: spot %s (site %d) has no matrix position: no reed switch senses it" % (name, site))
        elif len(where[site]) > 1:
            problems.append("MATRIX_CELL: spot %s (site %d) is at %d matrix positions (%s): SW_%s and SW_%s_2 both sense it"
                            % (name, site, len(where[site]), ", ".join(where[site]), ref_safe(name), ref_safe(name)))
    return R_SPOT, problems


def check_chain(board, ckt=None):
    problems = []
    if len(board.led_chain) != board.n_leds:
        problems.append("LED_CHAIN has %d positions for N_LEDS = %d" % (len(board.led_chain), board.n_leds))
    at = {}
    for k, slot in enumerate(board.led_chain):
        at.setdefault(slot, []).append(k)
    for slot in range(board.n_leds):
        if slot not in at:
            problems.append("LED_CHAIN: slot %d (LED_%s) is missing: the chain never visits it" % (slot, ref_safe(board.slot_name(slot))))
        elif len(at[slot]) > 1:
            problems.append("LED_CHAIN: slot %d (LED_%s) is visited %d times (chain positions %s)"
                            % (slot, ref_safe(board.slot_name(slot)), len(at[slot]), ", ".join(map(str, at[slot]))))
    for slot in sorted(at):
        if slot >= board.n_leds:
            problems.append("LED_CHAIN: slot %d (chain position %d) is not a slot of this board (N_LEDS = %d)" % (slot, at[slot][0], board.n_leds))
    if ckt is not None and not problems:
        problems += _walk_chain(board, ckt)
    return R_CHAIN, problems


def _walk_chain(board, ckt):
    """Follow the data line in the circuit from the series resistor."""
    problems = []
    leds = {ref for ref, p in ckt.parts.items() if p.kind == "ws2812b"}
    net = "DIN0"
    seen = []
    while True:
        onto = [ref for ref, pin in ckt.nets.get(net, ()) if ref in leds and pin == "4"]
        if not onto:
            break
        if len(onto) > 1:
            problems.append("%s drives %d LEDs' DIN (%s)" % (net, len(onto), ", ".join(sorted(onto))))
            break
        led = onto[0]
        if led in seen:
            problems.append("%s: the data line comes back to it (a loop)" % led)
            break
        seen.append(led)
        for pin, name in (("1", V5), ("3", GND)):
            if ckt.net_of(led, pin) != name:
                problems.append("%s.%s is on %s, not %s" % (led, ckt.parts[led].pins[pin][0], ckt.net_of(led, pin), name))
        cap = "C_" + led[4:]
        if cap not in ckt.parts or {ckt.net_of(cap, "1"), ckt.net_of(cap, "2")} != {V5, GND}:
            problems.append("%s has no 100 nF (%s) across +5V and GND" % (led, cap))
        net = ckt.net_of(led, "2")
        if net is None:
            break
    want = ["LED_" + ref_safe(board.slot_name(s)) for s in board.led_chain]
    for k, (w, g) in enumerate(zip(want, seen)):
        if w != g:
            problems.append("chain position %d is %s, LED_CHAIN says %s" % (k, g, w))
            break
    if len(seen) != len(want):
        missing = sorted(set(want) - set(seen))
        problems.append("the data line reaches %d of %d LEDs%s" % (len(seen), len(want), (" (not: %s)" % ", ".join(missing[:8])) if missing else ""))
    return problems


def check_matrix(board, ckt):
    problems = []
    rows = {row_net(r): r for r in range(len(board.row_pins))}
    cols = {col_net(c): c for c in range(len(board.col_pins))}
    found = {}
    for ref in sorted(ckt.parts):
        if ckt.parts[ref].kind != "reed":
            continue
        a, b = ckt.net_of(ref, "1"), ckt.net_of(ref, "2")
        col, mid = (a, b) if a in cols else (b, a) if b in cols else (None, None)
        if col is None:
            problems.append("%s is not on a column line (its pins are on %s and %s)" % (ref, a, b))
            continue
        diodes = [(r, p) for r, p in ckt.nets.get(mid, ()) if ckt.parts[r].kind == "diode"]
        if len(diodes) != 1:
            problems.append("%s: %d diodes on its row side (%s), not one" % (ref, len(diodes), mid))
            continue
        d, pin = diodes[0]
        other = ckt.net_of(d, "1" if pin == "2" else "2")
        if pin == "1" or other not in rows:
            if pin == "1" and other in rows:
                problems.append("%s is reversed: its cathode (K) is on %s's side and its anode (A) on %s" % (d, ref, other))
            else:
                problems.append("%s (after %s) does not end on a row line (it ends on %s)" % (d, ref, other))
            continue
        found.setdefault((rows[other], cols[col]), []).append("%s + %s" % (ref, d))
    want = {(r, c): site for r, c, site in board.sensing()}
    for (r, c) in sorted(set(want) | set(found)):
        got = found.get((r, c), [])
        pos = "matrix row %d column %d (%s x %s)" % (r, c, row_net(r), col_net(c))
        if (r, c) in want and len(got) != 1:
            problems.append("%s, spot %s: %d switch + diode pairs (%s)" % (pos, board.site_names[want[(r, c)]], len(got), ", ".join(got) or "none"))
        elif (r, c) not in want and got:
            problems.append("%s carries %s but the description puts no spot there" % (pos, ", ".join(got)))
    for r, gp in enumerate(board.row_pins):
        if ("U1", str(pico_pin(gp))) not in ckt.nets.get(row_net(r), ()):
            problems.append("%s is not on the Pico's GP%d (ROW_PINS[%d])" % (row_net(r), gp, r))
    return R_MATRIX, problems


def check_pullups(board, ckt):
    problems = []
    for c, gp in enumerate(board.col_pins):
        net = col_net(c)
        pulls = []
        for ref, pin in ckt.nets.get(net, ()):
            if ckt.parts[ref].symbol == "R":
                other = ckt.net_of(ref, "2" if pin == "1" else "1")
                if other == V3:
                    pulls.append(ref)
        if len(pulls) != 1:
            problems.append("%s (GP%d, COL_PINS[%d]) has %d pull-ups to +3V3%s" % (net, gp, c, len(pulls), (" (%s)" % ", ".join(pulls)) if pulls else ""))
        if ("U1", str(pico_pin(gp))) not in ckt.nets.get(net, ()):
            problems.append("%s is not on the Pico's GP%d (COL_PINS[%d])" % (net, gp, c))
    return R_PULLUP, problems


def check_buttons(board, ckt):
    problems = []
    for i, (name, gp) in enumerate(zip(board.button_names, board.button_pins)):
        pin = pico_pin(gp)
        net = ckt.net_of("U1", str(pin)) if pin else None
        ref = "SW_" + ref_safe(name)
        if ref not in ckt.parts:
            problems.append("button %s: no part %s" % (name, ref))
            continue
        nets = {ckt.net_of(ref, "1"), ckt.net_of(ref, "2")}
        if net is None or nets != {net, GND}:
            problems.append("%s (button %s, BUTTON_PINS[%d] = GP%d) joins %s, not GP%d's net and GND"
                            % (ref, name, i, gp, " and ".join(sorted(str(n) for n in nets)), gp))
    return R_BUTTON, problems


POWER_MARGIN_MA = 25  # 5 % of USB's 500 mA: the LED current estimate is not exact


def power_figures(board):
    full_white_ma = board.n_leds * 3 * board.led_ma_per_channel
    at_cap_ma = (full_white_ma * board.brightness_max + 254) // 255
    colour_ma = min(at_cap_ma, board.led_budget_ma)
    idle_ma = board.n_leds * board.led_idle_ma
    total = board.board_ma + idle_ma + colour_ma
    return full_white_ma, at_cap_ma, colour_ma, idle_ma, total


def check_power(board):
    problems = []
    full, at_cap, colour, idle, total = power_figures(board)
    if total > board.usb_budget_ma:
        problems.append("at BRIGHTNESS_MAX = %d: BOARD_MA %d + %d dark LEDs x %d mA + colour %d mA (LED_BUDGET_MA %d) = %d mA > USB_BUDGET_MA %d"
                        % (board.brightness_max, board.board_ma, board.n_leds, board.led_idle_ma, colour, board.led_budget_ma, total, board.usb_budget_ma))
    elif board.usb_budget_ma - total < POWER_MARGIN_MA:
        problems.append("at BRIGHTNESS_MAX = %d the board draws %d mA, %d mA under USB_BUDGET_MA %d: keep %d mA of margin (lower LED_BUDGET_MA)"
                        % (board.brightness_max, total, board.usb_budget_ma - total, board.usb_budget_ma, POWER_MARGIN_MA))
    if not 0 < board.brightness_max <= 255:
        problems.append("BRIGHTNESS_MAX = %d is not in 1..255" % board.brightness_max)
    # The LED driver's limiter does its sums in small ints (31 bits on the RP2040).
    if board.n_leds * 3 * board.led_ma_per_channel * 255 >= 1 << 30:
        problems.append("%d LEDs overflow the LED limiter's small-int sums" % board.n_leds)
    return R_POWER, problems


def check_pico_pins():
    from host_tools.hardware import describe, pico_pinout

    problems = []
    for pin in range(1, 41):
        got = describe.PICO_PINS.get(pin, ("(none)",))[0]
        if got != pico_pinout.NAMES[pin]:
            problems.append("Pico pin %d is %s in describe.PICO_PINS, %s in the datasheet's pinout" % (pin, got, pico_pinout.NAMES[pin]))
    for gp in range(30):
        pin = describe.pico_pin(gp)
        if pin is not None and pico_pinout.NAMES.get(pin) != "GP%d" % gp:
            problems.append("GP%d is on pin %d in describe.py; the datasheet's pin %d is %s" % (gp, pin, pin, pico_pinout.NAMES.get(pin)))
    return R_PICO, problems


def check_hops(board):
    """Every DIN<n> wiring.csv measures: the Pico (its level shifter and
    330 Ohm) to the first LED, each spot to the next, and to and between
    the status LEDs where STATUS_XY puts them (issue 44: hops of 181 to
    581 mm went unchecked there)."""
    from host_tools.hardware import placement, wiring

    centres = placement.centres(board)

    def name(s):
        return "the Pico" if s is None else board.slot_name(s)

    problems = ["DIN%d (LED_CHAIN position %d): %s -> %s is %.0f mm of data wire (over %.0f mm)"
                % (k, k, name(a), name(b), mm, wiring.HOP_MAX_MM)
                for k, a, b, mm in wiring.all_hops(board, centres) if mm > wiring.HOP_MAX_MM]
    return R_HOPS, problems


R_WINDOW = "each spot's LED window lies beyond the reach of the largest piece standing on it (turned any way, up to 3 mm off centre)"


def covered_window(board):
    """[problem]: the spot's LED window under the board's largest piece, as
    the module places the LED (module_geom.LED_DX, LED_DY from the reed's
    centre): the window's centre must lie beyond the piece's reach (its
    footprint turned any way, PLACE_TOL off the spot's centre), so its
    light shows beside the piece. (It sat 8.7 mm out: under every piece.)"""
    import math

    from host_tools.hardware import module_geom as mg
    from host_tools.hardware import sensing

    led = math.hypot(mg.REED_DX + mg.LED_DX, mg.LED_DY)
    piece = max((p for p, _ in sensing.board_pieces(board)), key=lambda p: p.footprint_radius())
    reach = piece.footprint_radius() + sensing.PLACE_TOL
    if led >= reach:
        return []
    return ["the spot's LED window's centre is %.1f mm from the spot; the %s reaches %.1f mm (turned any way, %g mm off centre): it covers the light"
            % (led, piece.name, reach, sensing.PLACE_TOL)]


def check_window(board):
    return R_WINDOW, covered_window(board)


def check_footprints(ckt, hw_dir):
    from host_tools.hardware import pico_footprint

    problems = []
    for ref in sorted(ckt.parts):
        fp = ckt.parts[ref].footprint
        if not fp or not pico_footprint.resolves(fp, hw_dir):
            problems.append("%s: footprint %r is in no library KiCad 6 or hardware/lib has" % (ref, fp))
    if any(p.kind == "pico" for p in ckt.parts.values()):
        problems += pico_footprint.check_drills(hw_dir)
    return R_FOOTPRINT, problems


def check_support(board, ckt):
    """The parts around the LED line and the buzzer, which no description
    field names: the ERC sees nothing wrong with a shifter bypassed or fed
    from 3.3 V, a missing or reversed electrolytic, a floating emitter."""
    problems = []
    sh = [r for r, p in ckt.parts.items() if p.kind == "shifter"]
    if len(sh) != 1:
        problems.append("%d level shifters (74AHCT1G125), not one" % len(sh))
    else:
        u = sh[0]
        want = {"5": V5, "3": GND, "1": GND, "2": "LED_3V3", "4": "LED_5V"}
        what = {"5": "VCC", "3": "GND", "1": "~OE (low: output enabled)", "2": "A (from the Pico)", "4": "Y (to the 330 Ohm)"}
        for pin, net in want.items():
            if ckt.net_of(u, pin) != net:
                problems.append("%s.%s is on %s, not %s" % (u, what[pin], ckt.net_of(u, pin), net))
        gp = pico_pin(board.led_pin)
        if gp is not None and ("U1", str(gp)) not in ckt.nets.get("LED_3V3", ()):
            problems.append("LED_3V3 is not on the Pico's GP%d (LED_PIN)" % board.led_pin)
        # The first LED's DIN must come from the shifter through the 330 Ohm, not straight from the Pico.
        din0 = [r for r, p in ckt.nets.get("DIN0", ()) if ckt.parts[r].kind == "r330"]
        if not din0 or ckt.net_of(din0[0], "1" if ckt.net_of(din0[0], "2") == "DIN0" else "2") != "LED_5V":
            problems.append("DIN0 (the first LED's data) does not come from the shifter's Y through the 330 Ohm")
        if any(r == "U1" for r, _ in ckt.nets.get("DIN0", ())):
            problems.append("DIN0 is on the Pico: the shifter is bypassed")
        cap = "C_" + u
        if cap not in ckt.parts or {ckt.net_of(cap, "1"), ckt.net_of(cap, "2")} != {V5, GND}:
            problems.append("%s has no 100 nF of its own (%s) across +5V and GND" % (u, cap))
    bulk = [r for r, p in ckt.parts.items() if p.kind == "bulk"]
    if len(bulk) != 1:
        problems.append("%d 1000 uF electrolytics across the LED supply, not one" % len(bulk))
    for r in bulk:
        if ckt.net_of(r, "1") != V5 or ckt.net_of(r, "2") != GND:
            problems.append("%s: + is on %s and - on %s (+ to +5V, - to GND)" % (r, ckt.net_of(r, "1"), ckt.net_of(r, "2")))
    if board.buzzer_pin is not None:
        q = [r for r, p in ckt.parts.items() if p.kind == "npn"]
        if len(q) != 1:
            problems.append("%d buzzer transistors, not one" % len(q))
        for r in q:
            if ckt.net_of(r, "1") != GND:
                problems.append("%s's emitter is on %s, not GND" % (r, ckt.net_of(r, "1")))
            base = ckt.net_of(r, "2")
            # The base from the Pico's pin through a 1k: straight from the
            # pin, the transistor's base would draw the pin's full current.
            pin = pico_pin(board.buzzer_pin)
            pin_net = ckt.net_of("U1", str(pin)) if pin else None
            series = [x for x, _ in ckt.nets.get(base, ()) if ckt.parts[x].kind == "r1k"
                      and {ckt.net_of(x, "1"), ckt.net_of(x, "2")} == {base, pin_net}]
            if base is not None and base == pin_net:
                problems.append("%s's base is on the buzzer pin GP%d itself, with no 1k between them" % (r, board.buzzer_pin))
            elif not series:
                problems.append("%s's base has no 1k from the buzzer pin GP%d (BUZZER_PIN)" % (r, board.buzzer_pin))
            pulls = [x for x, _ in ckt.nets.get(base, ()) if ckt.parts[x].kind == "r10k" and GND in (ckt.net_of(x, "1"), ckt.net_of(x, "2"))]
            if not pulls:
                problems.append("%s's base has no 10k to GND (it floats at boot)" % r)
            coll = ckt.net_of(r, "3")
            across = [x for x, _ in ckt.nets.get(coll, ()) if ckt.parts[x].kind == "r1k" and V5 in (ckt.net_of(x, "1"), ckt.net_of(x, "2"))]
            if not across:
                problems.append("the piezo on %s's collector has no 1k across it (it cannot discharge)" % r)
    return R_SUPPORT, problems


def description_checks(board):
    from host_tools.hardware import plate

    return [check_pico_pins(), check_spots(board), check_gpio(board), check_chain(board), check_power(board), plate.check(board)]


def circuit_checks(board, ckt):
    return [check_matrix(board, ckt), check_pullups(board, ckt), check_chain(board, ckt), check_buttons(board, ckt),
            check_support(board, ckt)]


def all_checks(board, ckt, hw_dir=None):
    """Every check once (the chain's description and circuit halves as one)."""
    from host_tools.hardware import outputs

    out = [check_spots(board), check_gpio(board), check_matrix(board, ckt), check_pullups(board, ckt),
           check_chain(board, ckt), check_buttons(board, ckt), check_support(board, ckt), check_power(board),
           check_pico_pins(), check_hops(board), outputs.check_power_wire(board), check_window(board)]
    if hw_dir is not None:
        out.append(check_footprints(ckt, hw_dir))
    return out
