"""The Circuit through SKiDL: its ERC and the KiCad netlist.

SKiDL reads the parts from KiCad 6's symbol libraries (Debian's
kicad-symbols), so a pin number or name this generator gets wrong fails
here, against the real symbol, not just against circuit.py's table.
"""
import builtins
import logging
import os
import re

os.environ.setdefault("KICAD6_SYMBOL_DIR", "/usr/share/kicad/symbols")
# SKiDL looks for every KiCad version's libraries at import and warns for
# each one missing; the KiCad 6 tool is the one used (run() says so).
for _v in ("", "7", "8", "9", "10"):
    os.environ.setdefault("KICAD%s_SYMBOL_DIR" % _v, os.environ["KICAD6_SYMBOL_DIR"])

class _Collect(logging.Handler):
    def __init__(self):
        super().__init__(logging.INFO)
        self.lines = []

    def emit(self, record):
        self.lines.append((record.levelname, record.getMessage()))


# SKiDL's own warnings (at import: KiCad's footprint table not found; when
# writing the netlist: parts without tags) go into erc.txt with the ERC's
# (issue 37: erc.txt said 0 warnings while SKiDL printed eight).
_IMPORT_LOG = _Collect()
_handle = logging.Logger.handle


def _seen(self, record):  # SKiDL's loggers do not propagate: listen on every one
    _IMPORT_LOG.emit(record)
    return _handle(self, record)


logging.Logger.handle = _seen
try:
    import skidl  # noqa: E402
finally:
    logging.Logger.handle = _handle
from skidl import KICAD6, SKIDL, TEMPLATE, Net, Part, Pin, SchLib  # noqa: E402
from skidl.pin import pin_drives  # noqa: E402

# No __main__.log / __main__.erc next to whatever imported SKiDL.
skidl.logger.stop_log_file_output()

from host_tools.hardware.circuit import GND  # noqa: E402

_FUNC = {
    "bidirectional": Pin.types.BIDIR,
    "input": Pin.types.INPUT,
    "output": Pin.types.OUTPUT,
    "passive": Pin.types.PASSIVE,
    "power_in": Pin.types.PWRIN,
    "power_out": Pin.types.PWROUT,
    "tri_state": Pin.types.TRISTATE,
}


def _pico_template(spec):
    pins = [Pin(num=num, name=name, func=_FUNC[t]) for num, (name, t) in sorted(spec.items(), key=lambda x: int(x[0]))]
    t = Part(name="RPi_Pico", tool=SKIDL, dest=TEMPLATE, ref_prefix="U", pins=pins)
    t.tag = "RPi_Pico"
    return t


_LIBS = {}


def _library(name):
    """KiCad's symbol library `name`, read once per process. Given by name,
    SKiDL 3.0 looks the file up again for every part (an os.walk of each
    search path, the working folder included: about 80% of make hardware's
    time, issue 34); the SchLib object is what it would find."""
    lib = _LIBS.get(name)
    if lib is None:
        lib = _LIBS[name] = SchLib(name, tool=KICAD6)
    return lib


def run(ckt):
    """(netlist text, [(level, message)] of the ERC, errors, warnings)."""
    skidl.set_default_tool(KICAD6)
    circ = builtins.default_circuit  # SKiDL's one circuit, emptied per board
    circ.reset()
    circ.no_files = True
    if os.environ["KICAD6_SYMBOL_DIR"] not in skidl.lib_search_paths[KICAD6]:
        skidl.lib_search_paths[KICAD6].append(os.environ["KICAD6_SYMBOL_DIR"])
    parts = {}
    pico = None
    for ref in sorted(ckt.parts):
        p = ckt.parts[ref]
        if p.lib is None:
            pico = pico or _pico_template(p.pins)
            sp = pico(ref=ref)
        else:
            sp = Part(_library(p.lib), p.symbol, ref=ref, footprint=p.footprint)
        sp.tag = ref  # a stable tag: SKiDL otherwise draws a random one per run
        sp.value = p.value
        sp.footprint = p.footprint
        sp.fields["Manufacturer"] = p.mfr
        sp.fields["MPN"] = p.mpn
        parts[ref] = sp
        # The generator's pin table must be the symbol's.
        for num, (name, _t) in p.pins.items():
            got = sp.p[num]
            if not got:
                raise ValueError("%s: symbol %s:%s has no pin %s" % (ref, p.lib, p.symbol, num))
    for name in sorted(ckt.nets):
        # GND: the Pico's grounds are power inputs; USB's return drives the
        # net (KiCad's PWR_FLAG), so ERC does not call it undriven.
        net = Net(name, drive=pin_drives.POWER) if name == GND else Net(name)
        for ref, pin in ckt.nets[name]:
            net += parts[ref].p[pin]
    for ref, pin in sorted(ckt.nc):
        parts[ref].p[pin] += circ.NC
    coll = _Collect()
    skidl.erc_logger.addHandler(coll)
    try:
        circ.ERC()
    finally:
        skidl.erc_logger.removeHandler(coll)
    gen = _Collect()
    skidl.logger.active_logger.addHandler(gen)
    try:
        text = str(circ.generate_netlist(tool=KICAD6, do_backup=False))
    finally:
        skidl.logger.active_logger.removeHandler(gen)
    msgs = [(lvl, m.strip()) for lvl, m in coll.lines if lvl in ("ERROR", "WARNING")]
    msgs += [(lvl, "netlist: " + _noloc(m)) for lvl, m in gen.lines if lvl in ("ERROR", "WARNING")]
    msgs += [(lvl, "SKiDL import: " + _noloc(m)) for lvl, m in sorted(set(_IMPORT_LOG.lines)) if lvl in ("ERROR", "WARNING")]
    errors = sum(1 for lvl, _ in msgs if lvl == "ERROR")
    warnings = sum(1 for lvl, _ in msgs if lvl == "WARNING")
    return _stable(text), sorted(msgs), errors, warnings


def _noloc(m):
    # No path of the machine that ran it.
    return re.sub(r" @ \[.*\]$", "", re.sub(r" instantiated at [^ ]*:\d+", "", m.strip()))


def _stable(text):
    # No date, no path of the machine that made it: the committed file must
    # be what `make hardware` makes anywhere.
    text = re.sub(r'\(date "[^"]*"\)', '(date "")', text)
    text = re.sub(r'\(source "[^"]*"\)', '(source "host_tools/hardware")', text)
    # SKiDL records the line of this file that made each part: noise.
    text = re.sub(r'\n *\(field\n *\(name "SKiDL Line"\) "[^"]*"\)', "", text)
    text = re.sub(r'\(tool "[^"]*"\)', '(tool "SKiDL %s")' % skidl.__version__, text)
    return text


def tool_name():
    import pcbnew

    return "SKiDL %s, KiCad %s symbols" % (skidl.__version__, pcbnew.Version().split("+")[0])
