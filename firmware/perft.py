# perft for any game behind the face; runs unchanged on CPython, the
# MicroPython unix port and the board (mpremote run firmware/perft.py).
#   perft.py [--game NAME] [--mode M] "<position>" <depth> [divide]
# prints the node count alone on its first line; with divide, then one line
# "<move> <count>" per legal root move. Bad arguments: one-line error, exit 2.
import sys

try:
    from triad import games
except ImportError:
    # Run from a checkout: the package sits beside this script.
    sys.path.insert(0, __file__.rsplit("/", 1)[0] if "/" in __file__ else ".")
    from triad import games

USAGE = 'usage: perft.py [--game NAME] [--mode M] "<position>" <depth> [divide]'


def fail(msg):
    sys.stderr.write("perft: " + msg + "\n")
    sys.exit(2)


def options(argv):
    """(game name, mode or None, the other arguments)."""
    name = "nehren"
    mode = None
    rest = []
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("--game", "--mode"):
            if i + 1 >= len(argv):
                fail("%s needs a value; %s" % (a, USAGE))
            if a == "--game":
                name = argv[i + 1]
            else:
                mode = argv[i + 1]
            i += 2
            continue
        rest.append(a)
        i += 1
    return name, mode, rest


def main(argv):
    name, mode, argv = options(argv)
    try:
        game = games.load(name)
    except ValueError as e:
        fail(str(e))
    if len(argv) < 2 or len(argv) > 3:
        fail(USAGE)
    try:
        pos = game.parse_position(argv[0])
    except game.NotationError as e:
        fail("bad position: " + str(e))
    if mode is not None:
        if "mode" not in game.SETTINGS:
            fail("game %s has no modes" % name)
        choices = game.SETTING_CHOICES["mode"]
        if mode not in choices:
            fail("bad mode %r: one of %s" % (mode, ", ".join(choices)))
        game.apply_setting(pos, "mode", choices.index(mode))
    d = argv[1]
    if not d or not all(c in "0123456789" for c in d) or len(d) > 2:
        fail("bad depth %r: expected a whole number 0..99" % d)
    depth = int(d)
    divide = False
    if len(argv) == 3:
        if argv[2] != "divide":
            fail("unknown option %r; " % argv[2] + USAGE)
        divide = True
    if not divide or depth == 0:
        print(game.perft(pos, depth))
        return
    from array import array

    buf = array("i", bytes(4 * game.MAX_MOVES))
    n = game.gen(pos, buf, 0)
    lines = []
    total = 0
    for i in range(n):
        m = buf[i]
        text = game.format_move(pos, m)
        pos.make(m)
        c = game.perft(pos, depth - 1)
        pos.unmake(m)
        total += c
        lines.append("%s %d" % (text, c))
    print(total)
    for line in lines:
        print(line)


if __name__ == "__main__":
    try:
        main(sys.argv[1:])
    except KeyboardInterrupt:
        sys.stderr.write("perft: interrupted\n")
        sys.exit(130)
