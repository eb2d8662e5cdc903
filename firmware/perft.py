# perft for Nehren's Triad; runs unchanged on CPython, the MicroPython unix
# port and the board (mpremote run firmware/perft.py).
#   perft.py "<position>" <depth> [divide]
# prints the node count alone on its first line; with divide, then one line
# "<move> <count>" per legal root move. Bad arguments: one-line error, exit 2.
import sys

try:
    from triad.games.nehren import core, notation
except ImportError:
    # Run from a checkout: the package sits beside this script.
    sys.path.insert(0, __file__.rsplit("/", 1)[0] if "/" in __file__ else ".")
    from triad.games.nehren import core, notation

USAGE = 'usage: perft.py "<position>" <depth> [divide]'


def fail(msg):
    sys.stderr.write("perft: " + msg + "\n")
    sys.exit(2)


def main(argv):
    if len(argv) < 2 or len(argv) > 3:
        fail(USAGE)
    try:
        pos = notation.parse_position(argv[0])
    except notation.NotationError as e:
        fail("bad position: " + str(e))
    d = argv[1]
    if not d or not all(c in "0123456789" for c in d) or len(d) > 2:
        fail("bad depth %r: expected a whole number 0..99" % d)
    depth = int(d)
    divide = False
    if len(argv) == 3:
        if argv[2] != "divide":
            fail("unknown option %r; " % argv[2] + USAGE)
        divide = True
    stack = core.MoveStack(depth + 1)
    if not divide or depth == 0:
        print(core.perft(pos, depth, stack))
        return
    lines = []
    total = 0
    for m in pos.legal_moves():
        pos.make(m)
        n = core.perft(pos, depth - 1, stack)
        pos.unmake(m)
        total += n
        lines.append("%s %d" % (notation.format_move(m), n))
    print(total)
    for line in lines:
        print(line)


if __name__ == "__main__":
    main(sys.argv[1:])
