# Text the board reads makes no qstr while it plays (issue 35.13). On
# MicroPython a one-character string cut from text at run time (text[i],
# iterating a str, chr()) is interned as a qstr the first time it appears,
# and qstrs live in pools that double: once the firmware's own names fill a
# pool, the next new one needs a pool twice as big in one piece (about 14 KB
# on the 64-bit unix port), which a heap cut up by the game cannot give: the
# board's loop died with MemoryError on the unix-port board the first time
# its hands named row 6 (b6d4). triad/__init__.py interns every printable
# ASCII character (all the protocol accepts) before the firmware loads.
#
# On MicroPython a slice of a str is the interned qstr when one exists, else
# a new string on the heap: two slices of two separate texts are the same
# object exactly when the character is interned. (On CPython one-character
# strings are always shared: the same code just runs.)
import triad  # noqa: F401  (the package's start-up is what is tested)

PRINTABLE = bytes(range(32, 127))


def test_every_printable_ascii_character_is_interned_at_start_up():
    a = PRINTABLE.decode()
    b = PRINTABLE.decode()
    missing = []
    for k in range(len(a)):
        if a[k:k + 1] is not b[k:k + 1]:
            missing.append(a[k:k + 1])
    assert not missing, "not interned at start-up: " + "".join(missing)

