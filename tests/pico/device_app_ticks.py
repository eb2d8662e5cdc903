# Runs ON the emulated Pico (tests/pico/test_emulated_pico.py sends it over
# the raw REPL): the board's real start-up -- triad.app.App over
# triad.drivers.rp2.Hardware, i.e. the real machine.Pin / bitstream and the
# frozen neopixel -- then App.tick() N times at the scan rate, as App.run()
# does, without running forever. Prints "key value" lines for the test.
#   argv: [name, N]
import gc
import sys
import time

import machine
from triad import boards
from triad.app import App
from triad.drivers import entropy, rp2, usb_serial

N = int(sys.argv[1]) if len(sys.argv) > 1 else 50
desc = boards.ACTIVE

gc.collect()
print("free_before_app", gc.mem_free())
hw = rp2.Hardware(desc)
app = App(desc, hw, usb_serial.UsbSerial(), entropy.seed())
gc.collect()
print("free_with_app", gc.mem_free())

# Count LED frames written, by wrapping the driver instance's bound method
# (the firmware's own code is unchanged).
shows = [0]
_show = hw.leds.show


def counting_show(frame):
    shows[0] += 1
    _show(frame)


hw.leds.show = counting_show

worst = 0
total = 0
alloc0 = gc.mem_alloc()
next_tick = time.ticks_ms()
for i in range(N):
    t0 = time.ticks_us()
    app.tick(time.ticks_ms())
    dt = time.ticks_diff(time.ticks_us(), t0)
    total += dt
    if dt > worst:
        worst = dt
    next_tick = time.ticks_add(next_tick, app.period_ms)
    wait = time.ticks_diff(next_tick, time.ticks_ms())
    if wait > 0:
        time.sleep_ms(wait)
alloc = gc.mem_alloc() - alloc0

print("ticks", N)
print("tick_us_avg", total // N)
print("tick_us_max", worst)
print("alloc_bytes", alloc)
print("led_writes", shows[0])
print("led_buf_nonzero", sum(1 for b in hw.leds._np.buf if b))
print("state", app.ctl.state if hasattr(app.ctl, "state") else "?")
print("errors", app.errors)

# Pin set-up as the board description asks (Pin(n) without arguments only
# reads the pin's current configuration).
for name, pins in (("row", desc.ROW_PINS), ("col", desc.COL_PINS),
                   ("button", desc.BUTTON_PINS), ("led", (desc.LED_PIN,))):
    for p in pins:
        print("pin", name, p, repr(machine.Pin(p)))
gc.collect()
print("free_after_ticks", gc.mem_free())
