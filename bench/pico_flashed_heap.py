# The heap of a board set up by `make flash`, measured where that board runs:
# ON the emulated RP2040 (bench/bench.py sends it with host_tools.emulator),
# with the firmware as `.mpy` for armv6m on the chip's LittleFS, as
# `make flash` copies it onto a stock MicroPython. The bytecode and the names
# of a `.mpy` are loaded into the heap; frozen in the UF2 they stay in flash
# (bench/pico_suite.py's heap_free_after_startup). This is the figure
# mp32's 32-bit unix run stood in for before the chip could be measured:
# that run has a 192K heap where the chip has about 240 KB, and x86 native
# code where the chip has smaller Thumb code.
#
# The UF2's frozen main.py has run and been stopped; its modules are
# forgotten, and sys.path on the rp2 port puts the filesystem ('') before
# '.frozen', so the firmware imported here is the flashed copy: the script
# checks that from a module's __file__.
#
#   python -m host_tools.emulator --littlefs DIR bench/pico_flashed_heap.py
#
# Prints "name: value unit" lines (bench.py prefixes them with "pico.").
import gc
import sys
import time

for _m in list(sys.modules):
    if _m == "triad" or _m.startswith("triad."):
        del sys.modules[_m]
gc.collect()
fig_total = gc.mem_free() + gc.mem_alloc()
_free_before = gc.mem_free()
print("heap_free_before_import_flashed: %d B (the UF2's frozen main.py stopped and forgotten)" % _free_before)

import triad.app  # noqa: E402
from triad import boards  # noqa: E402
from triad.drivers import entropy, rp2, usb_serial  # noqa: E402

_where = getattr(triad.app, "__file__", "")
if _where.startswith(".frozen") or not _where.endswith(".mpy"):
    print("flashed_heap_error: 1 (triad.app came from %r, not the flashed .mpy)" % _where)
    raise SystemExit(1)
gc.collect()
_free_import = gc.mem_free()
app = triad.app.App(boards.ACTIVE, rp2.Hardware(boards.ACTIVE), usb_serial.UsbSerial(), entropy.seed())
nxt = time.ticks_ms()
for _ in range(20):
    app.tick(time.ticks_ms())
    nxt = time.ticks_add(nxt, app.period_ms)
    w = time.ticks_diff(nxt, time.ticks_ms())
    if w > 0:
        time.sleep_ms(w)
gc.collect()
print("heap_total_flashed: %d B" % fig_total)
print("heap_firmware_import_flashed: %d B (triad.app and the drivers, .mpy from LittleFS)" % (
    _free_before - _free_import))
print("heap_free_after_startup_flashed: %d B (make flash: .mpy on LittleFS, App built, 20 ticks)" % gc.mem_free())
