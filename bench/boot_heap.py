# Free heap as the board starts: the firmware imported as main.py imports it
# (over bench/fakehw.py pins), then the App built. Its own process, so no
# bench code sits in the heap. MicroPython only:
#   micropython -X heapsize=192K bench/boot_heap.py <tmpdir> [<firmware dir>]
# The firmware dir defaults to firmware/ (.py sources); bench.py also runs it
# on the 32-bit unix build over the .mpy build of `host_tools firmware`.
import gc
import sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
sys.path.insert(0, sys.argv[2] if len(sys.argv) > 2 else __file__.rsplit("/", 1)[0] + "/../firmware")
gc.collect()
before = gc.mem_free()
print("heap_free_before_import: %d B" % before)
import fakehw
from triad.boards import pico_v1

world = fakehw.World(pico_v1)
fakehw.install(world)
import triad.app
from triad import boards
from triad.drivers import entropy, rp2, usb_serial

gc.collect()
after = gc.mem_free()
print("heap_free_after_import: %d B" % after)
# What importing the firmware took (bytecode, qstrs, module dicts and
# classes: on the chip the bytecode and the names stay in flash, frozen).
print("heap_firmware_import: %d B" % (before - after))
app = triad.app.App(pico_v1, rp2.Hardware(pico_v1), fakehw.Serial(), 1, sys.argv[1])
for t in range(100):
    app.tick(1000 + 10 * t)
gc.collect()
print("heap_free_after_startup: %d B" % gc.mem_free())
print("@meminfo start-up")
import micropython

micropython.mem_info()
