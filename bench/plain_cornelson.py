# The plain Cornelson's TRIAD perft: the yardstick the fast rules core
# (firmware/triad/games/cornelson/core.py) is measured against. It is the
# reference kept in the tests (tests/reference_cornelson.py, names, sets and
# dicts, a fresh state per turn, every order of the jewel steps tried),
# which runs unchanged on CPython and the MicroPython unix port. It must
# never import the firmware.
import sys

_here = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
_tests = _here + "/../tests"
if _tests not in sys.path:
    sys.path.append(_tests)

from reference_cornelson import START, parse, perft_state  # noqa: E402


def perft(state, depth):
    return perft_state(state, depth)
