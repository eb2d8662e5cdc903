# The only package that touches hardware. One module per runtime/board family;
# everything above it sees plain buffers (raw matrix, button levels, frame).
#
# open_board() is the one place that asks which runtime this is, once, at
# start-up: CircuitPython gets triad.drivers.circuitpython; MicroPython (and
# CPython over the simulator's stand-in machine/neopixel modules) gets rp2,
# usb_serial and entropy.
import sys


class MicroPythonBoard:
    """The drivers as App takes them. fs None: the store's own files;
    ticks_ms/sleep_ms None: MicroPython's time module."""

    def __init__(self, desc):
        from triad.drivers import entropy, rp2, usb_serial

        self.hw = rp2.Hardware(desc)
        self.serial = usb_serial.UsbSerial()
        self.seed = entropy.seed()
        self.fs = None
        self.ticks_ms = None
        self.sleep_ms = None


def runtime():
    return sys.implementation.name


def open_board(desc):
    if runtime() == "circuitpython":
        from triad.drivers import circuitpython

        return circuitpython.Board(desc)
    return MicroPythonBoard(desc)
