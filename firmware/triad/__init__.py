# The Triad smart board firmware package. Everything under it runs on the
# RP2040 (MicroPython), on the MicroPython unix port and on CPython.
VERSION = "0.1.0"
