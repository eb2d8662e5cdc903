"""hardware/<board>/selftest.svg: what the LEDs show at each step of the
switch self-test, drawn by running the firmware's own self-test
(firmware/triad/board/selftest.py) through the steps and lighting each LED
with the colour its render() puts in the frame, at the place the plate's
template gives it (placement.py, plate.py). When the firmware's self-test
changes, so does the picture.

Each LED is drawn as <circle class="led" data-slot=".." data-name=".."
data-rgb="r,g,b">: the frame's value, before the brightness setting and the
power limiter scale it; the drawn colour lifts faint values so they show.
"""
from host_tools import FIRMWARE  # noqa: F401  (puts firmware/ on sys.path)
from host_tools.hardware import module_geom as mg

PANEL_COLS = 2
GAP = 12.0  # mm between panels (the plate's own scale)


def colour_name(rgb):
    """A person's name for a frame colour: white, red, green, blue, ...;
    'faint' below a quarter of full scale, 'off' for dark."""
    r, g, b = rgb
    m = max(rgb)
    if m == 0:
        return "off"
    on = tuple(v * 2 >= m for v in rgb)
    name = {(1, 1, 1): "white", (1, 0, 0): "red", (0, 1, 0): "green", (0, 0, 1): "blue",
            (1, 1, 0): "yellow", (0, 1, 1): "cyan", (1, 0, 1): "magenta"}[tuple(int(x) for x in on)]
    return ("faint " + name) if m < 64 else name


def _shown(rgb):
    """The colour to draw: a faint LED still reads as its colour."""
    return "#%02x%02x%02x" % tuple(int(round(255 * (v / 255.0) ** 0.45)) for v in rgb)


def steps(board):
    """[(title, [caption line], frame, closed sites, report or None, the
    closed sites' label or None)]: the
    self-test run through its steps with the firmware's SelfTest."""
    from triad.board import selftest as st

    n = board.n_sites
    names = board.site_names
    out = []

    def frame_of(t, now):
        fr = bytearray(board.n_leds * 3)
        t.render(fr, now)
        return bytes(fr)

    def occ(*on):
        o = bytearray(n)
        for s in on:
            o[s] = 1
        return o

    def walk(t, sites, t0, t1, *also):
        # A piece moved from spot to spot between t0 and t1 (ms), as a
        # person walks it (the status LEDs' colour follows the clock).
        for k, s in enumerate(sites):
            t.update(occ(s, *also), t0 + k * (t1 - t0) // max(1, len(sites)))

    t = st.SelfTest(names)
    t.update(occ(), 0)
    out.append(("1. Hold menu about 1 s: the test starts",
                ["no piece on the board"], frame_of(t, 0), (), None, None))
    a = 0
    t.update(occ(a), 5000)
    out.append(("2. A piece on %s" % names[a], ["its spot lights while its reed is closed"],
                frame_of(t, 5000), (a,), None, None))
    half = n // 2
    walk(t, range(1, half), 5500, 29500)
    t.update(occ(half), 30000)
    out.append(("3. Walking the piece: now on %s" % names[half],
                ["the spots it has closed stay lit", "the others wait for it"],
                frame_of(t, 30000), (half,), None, None))
    walk(t, range(half + 1, n), 30500, 62500)
    t.update(occ(), 63000)
    out.append(("4. Every spot has closed", ["hold menu to end the test; the console prints", "selftest " + t.report()],
                frame_of(t, 63000), (), t.report(), None))
    # A second run with two faults: the first spot's reed closed from the
    # start and never open (stuck, or a magnet left on it), the last spot's
    # never closed.
    f = st.SelfTest(names)
    stuck, never = 0, n - 1
    f.update(occ(stuck), 0)
    walk(f, range(1, never), 5000, 59500, stuck)
    now = 60250  # the blink's red half
    f.update(occ(stuck), now)
    out.append(("5. Faults: %s stuck, %s never closed" % (names[stuck], names[never]),
                ["%s closed since the start, never open for %d s: blinks" % (names[stuck], f.stuck_ms // 1000),
                 "%s never closed: stays as at the start" % names[never], "console: selftest " + f.report()],
                frame_of(f, now), (stuck,), f.report(), "%s: closed, never open"))
    return out


def _esc(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def svg(board):
    from host_tools.hardware import placement, plate

    p, centres, w, h, to_mm = placement._layout(board)
    from host_tools.hardware import wiring

    leds = [(s, board.site_names[s]) + tuple(wiring.led_xy(board, centres, s)) for s in range(len(centres))]
    for k, (name, cx, cy) in enumerate(plate.status_windows(board, to_mm)):
        leds.append((board.n_sites + k, name, cx, cy))
    others = [o for o in plate.outlines(board, to_mm) if o[0] != "status"]
    xs = [x for _, _, x, _ in leds] + [o[2] for o in others]
    ys = [y for _, _, _, y in leds] + [o[3] for o in others]
    x0, x1 = min(xs) - 15.0, max(xs) + 15.0
    y0, y1 = min(ys) - 15.0, max(ys) + 15.0
    pw = x1 - x0
    font = max(6.0, pw / 30.0)
    head = 2.6 * font  # title line
    foot = 5.6 * font  # caption lines
    ph = y1 - y0 + head + foot
    run = steps(board)
    rows = (len(run) + 1 + PANEL_COLS - 1) // PANEL_COLS
    W = PANEL_COLS * pw + (PANEL_COLS + 1) * GAP
    H = rows * ph + (rows + 1) * GAP + 2 * font
    r_led = mg.LED_DRILL / 2 + 1.0
    o = ['<?xml version="1.0" encoding="UTF-8"?>',
         '<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %.1f %.1f">' % (1200, round(1200 * H / W), W, H),
         "<title>Triad board %s: the switch self-test, step by step</title>" % board.name,
         '<rect x="0" y="0" width="%.1f" height="%.1f" fill="#ffffff"/>' % (W, H),
         '<text x="%.1f" y="%.1f" font-family="Helvetica, Arial, sans-serif" font-size="%.1f">%s</text>'
         % (GAP, GAP + font, font * 1.1, _esc("Triad board %s: what the LEDs show during the switch self-test (firmware/triad/board/selftest.py)" % board.name))]
    for i, (title, caption, frame, closed, _, mark) in enumerate(run):
        ox = GAP + (i % PANEL_COLS) * (pw + GAP)
        oy = 2 * font + GAP + (i // PANEL_COLS) * (ph + GAP)
        dx, dy = ox - x0, oy + head - y0
        o.append('<g class="step" data-step="%d" data-closed="%s">' % (i + 1, " ".join(board.site_names[s] for s in closed)))
        o.append('<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="#f4f4f4" stroke="#909090" stroke-width="0.6"/>' % (ox, oy, pw, ph))
        o.append('<text x="%.1f" y="%.1f" font-family="Helvetica, Arial, sans-serif" font-size="%.1f" font-weight="bold">%s</text>'
                 % (ox + font * 0.5, oy + font * 1.6, font * 1.15, _esc(title)))
        o.append('<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="#2a2a2a"/>' % (ox + 5.0, oy + head, pw - 10.0, y1 - y0))
        for kind, name, cx, cy, bw, bh, _ in others:
            o.append('<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="none" stroke="#808080" stroke-width="0.8"/>'
                     % (cx - bw / 2 + dx, cy - bh / 2 + dy, bw, bh))
        for slot, name, x, y in leds:
            rgb = tuple(frame[slot * 3:slot * 3 + 3])
            o.append('<circle class="led" data-slot="%d" data-name="%s" data-rgb="%d,%d,%d" cx="%.1f" cy="%.1f" r="%.1f" fill="%s" stroke="#000000" stroke-width="0.5"/>'
                     % (slot, _esc(name), rgb[0], rgb[1], rgb[2], x + dx, y + dy, r_led, _shown(rgb)))
        for s in closed:
            _, name, x, y = leds[s]
            # The piece standing there: a ring round its spot.
            o.append('<circle class="piece" cx="%.1f" cy="%.1f" r="%.1f" fill="none" stroke="#ffd000" stroke-width="1.5"/>'
                     % (centres[s][0] + dx, centres[s][1] + dy, p * 0.42))
            o.append('<text x="%.1f" y="%.1f" font-family="Helvetica, Arial, sans-serif" font-size="%.1f" fill="#ffd000">%s</text>'
                     % (centres[s][0] + dx + p * 0.45, centres[s][1] + dy + p * 0.45, font * 0.8, _esc((mark or "piece on %s") % name)))
        seen = []
        for slot in range(board.n_sites):
            c = colour_name(tuple(frame[slot * 3:slot * 3 + 3]))
            if c not in seen:
                seen.append(c)
        st_c = colour_name(tuple(frame[board.n_sites * 3:board.n_sites * 3 + 3])) if board.n_status else None
        lines = list(caption) + ["spots: " + ", ".join(seen) + ("; status LEDs: %s" % st_c if st_c else "")]
        for k, line in enumerate(lines):
            o.append('<text x="%.1f" y="%.1f" font-family="Helvetica, Arial, sans-serif" font-size="%.1f">%s</text>'
                     % (ox + font * 0.5, oy + head + (y1 - y0) + font * (1.3 + 1.15 * k), font * 0.9, _esc(line)))
        o.append("</g>")
    # The legend: the firmware's colours and what they mean.
    from triad.board import selftest as st

    i = len(run)
    ox = GAP + (i % PANEL_COLS) * (pw + GAP)
    oy = 2 * font + GAP + (i // PANEL_COLS) * (ph + GAP)
    legend = [
        (st.UNTESTED, "not closed yet"),
        (st.CLOSED, "closed now (a piece on it)"),
        (st.TESTED, "has closed and opened: works"),
        (st.STUCK, "blinks: closed since the start, never open for %d s" % (st.STUCK_MS // 1000)),
    ] + [(rgb, "status LEDs, step %d of the %d s cycle" % (k + 1, len(st._STATUS_CYCLE))) for k, rgb in enumerate(st._STATUS_CYCLE)]
    o.append('<g class="legend">')
    o.append('<text x="%.1f" y="%.1f" font-family="Helvetica, Arial, sans-serif" font-size="%.1f" font-weight="bold">Colours (selftest.py)</text>'
             % (ox + font * 0.5, oy + font * 1.6, font * 1.15))
    for k, (rgb, what) in enumerate(legend):
        y = oy + head + font * (0.8 + k * 1.6)
        o.append('<circle cx="%.1f" cy="%.1f" r="%.1f" fill="%s" stroke="#000000" stroke-width="0.5"/>' % (ox + font * 1.2, y - font * 0.3, font * 0.55, _shown(rgb)))
        o.append('<text x="%.1f" y="%.1f" font-family="Helvetica, Arial, sans-serif" font-size="%.1f">%s</text>'
                 % (ox + font * 2.4, y, font * 0.9, _esc("%s: %s" % (colour_name(rgb), what))))
    o.append("</g>")
    o.append("</svg>")
    return "\n".join(o) + "\n"
