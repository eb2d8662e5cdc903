# The one place that knows two runtimes exist (MicroPython and CPython).
#
# Code elsewhere writes `from triad.compat import micropython, const` and then
# uses `@micropython.native` / `@micropython.viper` literally: MicroPython's
# compiler recognises those decorators by their spelling, so on the board they
# select the native emitters, while on CPython the stand-in below makes them
# plain functions.
try:
    import micropython

    const = micropython.const
    MICROPYTHON = True
except ImportError:
    MICROPYTHON = False

    def const(x):
        return x

    def _same(f):
        return f

    class _MicroPythonStandIn:
        const = staticmethod(const)
        native = staticmethod(_same)
        viper = staticmethod(_same)

        @staticmethod
        def heap_lock():
            pass

        @staticmethod
        def heap_unlock():
            return 0

    micropython = _MicroPythonStandIn()



# Viper's pointer casts and annotations (ptr8(buf), `board: ptr8`) are
# resolved by MicroPython's compiler by their spelling; these identities only
# give the names a value, so the same source also runs as plain Python.
def ptr8(x):
    return x


ptr16 = ptr32 = ptr8


# Wrapping tick arithmetic (MicroPython's time.ticks_diff/ticks_add); pure
# code takes `now` as an argument and uses these, so it runs anywhere.
try:
    from time import ticks_diff, ticks_add
except ImportError:
    _PERIOD = 1 << 30
    _HALF = _PERIOD >> 1

    def ticks_add(t, delta):
        return (t + delta) & (_PERIOD - 1)

    def ticks_diff(a, b):
        return ((a - b + _HALF) & (_PERIOD - 1)) - _HALF
