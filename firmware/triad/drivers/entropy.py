# The board's source of randomness for the set-up roll.
import os


def seed():
    try:
        b = os.urandom(4)
        return b[0] | (b[1] << 8) | (b[2] << 16) | ((b[3] & 0x3F) << 24)
    except (AttributeError, OSError, NotImplementedError):
        import time

        return time.ticks_us() if hasattr(time, "ticks_us") else int(time.time() * 1000)
