"""The board's circuit as plain data, built from its description.

Circuit holds the parts (reference, library symbol, value, footprint,
manufacturer, part number, pins) and the nets (name -> pins). skidl_out.py
turns it into SKiDL parts for the ERC and the KiCad netlist; netlist.net is
read back into a Circuit (parse_netlist) so the board checks run on the
file a builder gets, not on an intermediate.
"""
import re

from host_tools.hardware.describe import PICO_PINS, pico_pin

# lib, symbol, value, footprint, manufacturer, part number, {pin: (name, type)}
# Pin numbers and names as in KiCad 6.0.11's symbol libraries.
PARTS = {
    # Littelfuse MDSR-7-15-20: 12.7 mm glass, pull-in 15-20 AT (sensing.py
    # models it); leads bent down to a 20.32 mm pitch.
    "reed": ("Switch", "SW_Reed", "Reed SPST-NO",
             "Resistor_THT:R_Axial_DIN0516_L15.5mm_D5.0mm_P20.32mm_Horizontal",
             "Littelfuse", "MDSR-7-15-20",
             {"1": ("1", "passive"), "2": ("2", "passive")}),
    "diode": ("Diode", "1N4148", "1N4148", "Diode_THT:D_DO-35_SOD27_P7.62mm_Horizontal",
              "onsemi", "1N4148", {"1": ("K", "passive"), "2": ("A", "passive")}),
    "ws2812b": ("LED", "WS2812B", "WS2812B", "LED_SMD:LED_WS2812B_PLCC4_5.0x5.0mm_P3.2mm",
                "Worldsemi", "WS2812B",
                {"1": ("VDD", "power_in"), "2": ("DOUT", "output"), "3": ("VSS", "power_in"), "4": ("DIN", "input")}),
    "c100n": ("Device", "C", "100nF", "Capacitor_SMD:C_0805_2012Metric",
              "KEMET", "C0805C104K5RACTU", {"1": ("~", "passive"), "2": ("~", "passive")}),
    "r10k": ("Device", "R", "10k", "Resistor_THT:R_Axial_DIN0207_L6.3mm_D2.5mm_P10.16mm_Horizontal",
             "Yageo", "CFR-25JB-52-10K", {"1": ("~", "passive"), "2": ("~", "passive")}),
    "r330": ("Device", "R", "330", "Resistor_THT:R_Axial_DIN0207_L6.3mm_D2.5mm_P10.16mm_Horizontal",
             "Yageo", "CFR-25JB-52-330R", {"1": ("~", "passive"), "2": ("~", "passive")}),
    "r1k": ("Device", "R", "1k", "Resistor_THT:R_Axial_DIN0207_L6.3mm_D2.5mm_P10.16mm_Horizontal",
            "Yageo", "CFR-25JB-52-1K", {"1": ("~", "passive"), "2": ("~", "passive")}),
    # Pin names for the wiring list: the electrolytic's + goes to +5V.
    "bulk": ("Device", "C_Polarized", "1000uF 10V", "Capacitor_THT:CP_Radial_D10.0mm_P5.00mm",
             "Panasonic", "EEU-FR1A102", {"1": ("+", "passive"), "2": ("-", "passive")}),
    "shifter": ("74xGxx", "74AHCT1G125", "74AHCT1G125", "Package_TO_SOT_SMD:SOT-23-5",
                "Texas Instruments", "SN74AHCT1G125DBVR",
                {"1": ("~{OE}", "input"), "2": ("A", "input"), "3": ("GND", "power_in"),
                 "4": ("Y", "tri_state"), "5": ("VCC", "power_in")}),
    "button": ("Switch", "SW_Push", "Push button", "Button_Switch_THT:SW_PUSH_6mm",
               "TE Connectivity", "1825910-6", {"1": ("1", "passive"), "2": ("2", "passive")}),
    "buzzer": ("Device", "Buzzer", "Piezo (passive)", "Buzzer_Beeper:Buzzer_TDK_PS1240P02BT_D12.2mm_H6.5mm",
               "TDK", "PS1240P02BT", {"1": ("-", "passive"), "2": ("+", "passive")}),
    "npn": ("Transistor_BJT", "2N3904", "2N3904", "Package_TO_SOT_THT:TO-92_Inline",
            "onsemi", "2N3904BU", {"1": ("E", "passive"), "2": ("B", "input"), "3": ("C", "passive")}),
    # KiCad 6 has no Pico symbol: this one is the datasheet's pinout. Nor a
    # Pico footprint: Triad:RaspberryPi_Pico_THT (hardware/lib, made by
    # pico_footprint.py from KiCad's DIP-40) has the Pico's 17.78 mm rows.
    "pico": (None, "RPi_Pico", "Raspberry Pi Pico", "Triad:RaspberryPi_Pico_THT",
             "Raspberry Pi", "SC0915", {str(n): PICO_PINS[n] for n in PICO_PINS}),
}

GND, V3, V5 = "GND", "+3V3", "+5V"


class Part:
    def __init__(self, ref, kind):
        self.ref = ref
        self.kind = kind
        (self.lib, self.symbol, self.value, self.footprint, self.mfr, self.mpn, self.pins) = PARTS[kind]


class Circuit:
    def __init__(self):
        self.parts = {}  # ref -> Part
        self.nets = {}  # name -> [(ref, pin)]
        self.nc = set()  # (ref, pin) left open on purpose

    def add(self, ref, kind):
        # A broken description can ask for a reference twice (say a site in
        # two matrix positions): keep both parts, so the checks can name them.
        base, n = ref, 2
        while ref in self.parts:
            ref = "%s_%d" % (base, n)
            n += 1
        self.parts[ref] = Part(ref, kind)
        return ref

    def connect(self, net, ref, pin):
        self.nets.setdefault(net, []).append((ref, pin))

    def net_of(self, ref, pin):
        for name, pins in self.nets.items():
            if (ref, pin) in pins:
                return name
        return None

    def pin_label(self, ref, pin):
        name = self.parts[ref].pins.get(pin, ("?",))[0]
        if name in ("~", pin) or not name:
            return "%s.%s" % (ref, pin)
        if self.parts[ref].kind == "pico":
            return "%s.%s %s" % (ref, pin, name)
        return "%s.%s" % (ref, name)


def ref_safe(name):
    return re.sub(r"[^A-Za-z0-9]", "_", name)


def row_net(r):
    return "ROW%d" % r


def col_net(c):
    return "COL%d" % c


def build(board):
    """The circuit of `board` (a describe.Board)."""
    ckt = Circuit()
    u = ckt.add("U1", "pico")
    used = {}
    ckt.connect(V5, u, "40")
    ckt.connect(V3, u, "36")
    for p in (3, 8, 13, 18, 23, 28, 33, 38):
        ckt.connect(GND, u, str(p))

    def gpio(net, gp):
        pin = pico_pin(gp)
        if pin is None:
            # Not on the header (reserved or no such GPIO): a net without
            # its Pico pin; checks.py names it.
            return
        ckt.connect(net, u, str(pin))
        used[pin] = True

    for r, gp in enumerate(board.row_pins):
        gpio(row_net(r), gp)
    for c, gp in enumerate(board.col_pins):
        gpio(col_net(c), gp)
        rp = ckt.add("R_pu%d" % c, "r10k")
        ckt.connect(col_net(c), rp, "1")
        ckt.connect(V3, rp, "2")
    # Per sensing spot: column -> reed -> diode anode; cathode -> row.
    for r, c, site in board.sensing():
        name = ref_safe(board.site_names[site])
        sw = ckt.add("SW_" + name, "reed")
        d = ckt.add("D_" + name, "diode")
        ckt.connect(col_net(c), sw, "1")
        ckt.connect("SW_%s_D" % name, sw, "2")
        ckt.connect("SW_%s_D" % name, d, "2")
        ckt.connect(row_net(r), d, "1")
    # LED data: GP -> 74AHCT1G125 (5 V) -> 330 ohm -> first LED's DIN.
    gpio("LED_3V3", board.led_pin)
    sh = ckt.add("U2", "shifter")
    ckt.connect("LED_3V3", sh, "2")
    ckt.connect(GND, sh, "1")
    ckt.connect(GND, sh, "3")
    ckt.connect(V5, sh, "5")
    ckt.connect("LED_5V", sh, "4")
    rs = ckt.add("R_data", "r330")
    ckt.connect("LED_5V", rs, "1")
    ckt.connect("DIN0", rs, "2")
    # The shifter's own 100 nF, next to its VCC pin.
    cd = ckt.add("C_U2", "c100n")
    ckt.connect(V5, cd, "1")
    ckt.connect(GND, cd, "2")
    cb = ckt.add("C_bulk", "bulk")
    ckt.connect(V5, cb, "1")
    ckt.connect(GND, cb, "2")
    prev = "DIN0"
    for k, slot in enumerate(board.led_chain):
        name = ref_safe(board.slot_name(slot))
        led = ckt.add("LED_" + name, "ws2812b")
        cap = ckt.add("C_" + name, "c100n")
        ckt.connect(prev, led, "4")
        ckt.connect(V5, led, "1")
        ckt.connect(GND, led, "3")
        ckt.connect(V5, cap, "1")
        ckt.connect(GND, cap, "2")
        if k + 1 < len(board.led_chain):
            prev = "DIN%d" % (k + 1)
            ckt.connect(prev, led, "2")
        else:
            ckt.nc.add((led, "2"))
    for name, gp in zip(board.button_names, board.button_pins):
        b = ckt.add("SW_" + ref_safe(name), "button")
        net = "BTN_" + name.upper()
        gpio(net, gp)
        ckt.connect(net, b, "1")
        ckt.connect(GND, b, "2")
    if board.buzzer_pin is not None:
        # Piezo from 5 V, switched by an NPN on the PWM pin (1k to its base,
        # 10k base to GND: off while the pin floats at boot; 1k across the
        # piezo: it discharges when the transistor turns off, else it only
        # clicks once).
        gpio("BUZZER_PWM", board.buzzer_pin)
        rb = ckt.add("R_bz", "r1k")
        rpd = ckt.add("R_bz_pd", "r10k")
        rdis = ckt.add("R_bz_dis", "r1k")
        q = ckt.add("Q1", "npn")
        bz = ckt.add("BZ1", "buzzer")
        ckt.connect("BUZZER_PWM", rb, "1")
        ckt.connect("BUZZER_B", rb, "2")
        ckt.connect("BUZZER_B", rpd, "1")
        ckt.connect(GND, rpd, "2")
        ckt.connect("BUZZER_C", rdis, "1")
        ckt.connect(V5, rdis, "2")
        ckt.connect("BUZZER_B", q, "2")
        ckt.connect(GND, q, "1")
        ckt.connect("BUZZER_C", q, "3")
        ckt.connect("BUZZER_C", bz, "1")
        ckt.connect(V5, bz, "2")
    for pin in PARTS["pico"][6]:
        if not any((u, pin) in pins for pins in ckt.nets.values()):
            ckt.nc.add((u, pin))
    return ckt


# -- the KiCad netlist read back ---------------------------------------------

_TOKEN = re.compile(r'\(|\)|"(?:[^"\\]|\\.)*"|[^\s()]+')


def _sexp(text):
    stack = [[]]
    for m in _TOKEN.finditer(text):
        t = m.group(0)
        if t == "(":
            stack.append([])
        elif t == ")":
            top = stack.pop()
            stack[-1].append(top)
        else:
            stack[-1].append(t[1:-1].replace('\\"', '"') if t.startswith('"') else t)
    return stack[0][0]


def _field(node, key):
    for x in node[1:]:
        if isinstance(x, list) and x and x[0] == key:
            return x[1] if len(x) > 1 else ""
    return None


def parse_netlist(text):
    """A Circuit (parts by kind where the symbol says, nets) from a KiCad
    netlist's text."""
    tree = _sexp(text)
    ckt = Circuit()
    by_symbol = {}
    for kind, spec in PARTS.items():
        by_symbol.setdefault((spec[1], spec[2]), kind)
    comps = next(x for x in tree[1:] if isinstance(x, list) and x[0] == "components")
    for comp in comps[1:]:
        ref = _field(comp, "ref")
        value = _field(comp, "value")
        libsource = next((x for x in comp[1:] if isinstance(x, list) and x[0] == "libsource"), None)
        symbol = _field(libsource, "part") if libsource else None
        kind = by_symbol.get((symbol, value))
        if kind is None:
            raise ValueError("netlist: part %s (%s %s) is not one the generator makes" % (ref, symbol, value))
        p = Part(ref, kind)
        p.footprint = _field(comp, "footprint")
        ckt.parts[ref] = p
    nets = next(x for x in tree[1:] if isinstance(x, list) and x[0] == "nets")
    for net in nets[1:]:
        name = _field(net, "name").lstrip("/")
        for node in net[1:]:
            if isinstance(node, list) and node[0] == "node":
                ckt.connect(name, _field(node, "ref"), _field(node, "pin"))
    return ckt
