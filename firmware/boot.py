# Runs once at power-up or reset, before code.py (CircuitPython) or main.py
# (MicroPython). On CircuitPython it chooses who may write the CIRCUITPY
# drive, which CircuitPython lets only one side write at a time:
#
#   game-saving mode (the default): the board writes its saved game and
#     settings; the computer sees CIRCUITPY read-only.
#   USB-drive mode (hold the "menu" button while plugging in or resetting):
#     the computer may write CIRCUITPY (update the firmware, edit files); the
#     board plays but saves nothing, and says so on the serial line.
#
# The choice is printed into boot_out.txt. A board in safe mode (press reset
# twice quickly) skips this file, so CIRCUITPY is writable from the computer.
# MicroPython has no `storage` module: there this file does nothing.
import sys


def _choose_drive_mode():
    try:
        import storage
    except ImportError:
        return
    import time

    import digitalio
    from triad import boards
    from triad.drivers import circuitpython as cp

    desc = boards.ACTIVE
    name = cp.boot_button(desc)
    button = digitalio.DigitalInOut(cp.pin(desc.BUTTON_PINS[desc.BUTTON_NAMES.index(name)]))
    button.switch_to_input(pull=digitalio.Pull.UP)
    time.sleep(0.005)  # let the pull-up charge the line
    held = not button.value  # active low
    button.deinit()
    if held:
        print("triad: USB-drive mode (%s held): the computer may write CIRCUITPY; "
              "games are not saved" % name)
        return
    try:
        storage.remount("/", readonly=False)
    except (RuntimeError, OSError) as e:
        print("triad: could not make CIRCUITPY writable for saving (%s); "
              "games are not saved" % (e,))
        return
    print("triad: game-saving mode: the board saves games; CIRCUITPY is read-only "
          "to the computer (hold %s at power-up to change files)" % name)


if sys.implementation.name == "circuitpython":
    _choose_drive_mode()
