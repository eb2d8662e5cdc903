# Node rate of Browne's engine at fixed node budgets (issue 26: a node's
# cost), the same searches by the firmware of an earlier commit and by this
# tree's, in one run:
#
#   python3 bench/browne_engine_speed.py [--before COMMIT] [--micropython PATH] [--reps N]
#
# (CPython, the host: extracts firmware/ of COMMIT, default 8cc0ee7, with
# `git archive`, then runs this file under the MicroPython unix port once
# per firmware tree, alternating, best of --reps runs each, so both see the
# same machine load). Under MicroPython the file is the measuring side:
#
#   micropython bench/browne_engine_speed.py measure NODES
#
# Level 5 from four positions (the start, bench/browne_bench.py's midgame,
# two after seeded random turns), no clock (the node budget decides; the
# ranking of the safe turns after the search is timed too, as on the
# board). Prints "name: value unit" lines: each tree's nodes/s of the
# whole choose, the speedup, and whether both searched the same trees (the
# same turns and node counts).
import sys

START = (
    "R:C1,D1,D2,E1,E2,E3,F2,F3,G3 G:A3,A4,A5,B4,B5,B6,C5,C6,C7 "
    "B:G7,G8,G9,H7,H8,H9,I7,I8,I9 r"
)
MIDGAME = "R:B4,C1,D1,D2,E1,E2,G3 G:B5,H8,I7 B:D8,G4,I6 b"
BUDGETS = (200, 1000)


def measure(nodes):
    import gc
    import time
    from array import array

    from triad.games.browne import core, notation
    from triad.games.browne.engine.search import Engine
    from triad.games.engine_kit import Rng, no_clock

    poss = [notation.parse_position(START), notation.parse_position(MIDGAME)]
    rng = Rng(7)
    buf = array("i", bytes(4 * core.MAX_MOVES))
    for plies in (3, 6):
        p = notation.parse_position(START)
        for _ in range(plies):
            n = p.gen(buf, 0)
            if n == 0:
                break
            p.make(buf[rng.below(n)])
        poss.append(p)
    buf = None
    total_nodes = 0
    total_us = 0
    tree = []
    for p in poss:
        eng = Engine(5)
        eng.ready()
        gc.collect()
        t0 = time.ticks_us()
        m = eng.choose(p, 1 << 28, no_clock, None, nodes)
        total_us += time.ticks_diff(time.ticks_us(), t0)
        total_nodes += eng.nodes
        tree.append("%s/%d/d%d" % (notation.format_move(p, m), eng.nodes, eng.depth))
    print("%d %d %s" % (total_nodes, total_us, " ".join(tree)))


def compare(argv):
    import os
    import subprocess
    import tempfile

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    before = "8cc0ee7"
    mp = os.path.join(root, ".venv", "bin", "micropython")
    reps = 3
    i = 0
    while i < len(argv):
        if argv[i] == "--before":
            before = argv[i + 1]
        elif argv[i] == "--micropython":
            mp = argv[i + 1]
        elif argv[i] == "--reps":
            reps = int(argv[i + 1])
        else:
            raise SystemExit("usage: python3 bench/browne_engine_speed.py [--before COMMIT] [--micropython PATH] [--reps N]")
        i += 2
    with tempfile.TemporaryDirectory() as tmp:
        trees = {"now": os.path.join(root, "firmware")}
        names = ("now",)
        tar = subprocess.run(["git", "archive", before, "firmware"], cwd=root, capture_output=True)
        if tar.returncode == 0:
            subprocess.run(["tar", "-x", "-C", tmp], input=tar.stdout, check=True)
            trees["before"] = os.path.join(tmp, "firmware")
            names = ("before", "now")
        else:
            # (a shallow clone without the commit: this tree's rate only)
            print("# browne_engine_speed - commit %s is not in this clone, so this tree only" % before)
        for nodes in BUDGETS:
            best = {}
            for _ in range(reps):
                for name in names:
                    env = dict(os.environ, MICROPYPATH=trees[name])
                    out = subprocess.run([mp, "-X", "heapsize=1M", os.path.abspath(__file__), "measure", str(nodes)],
                                         env=env, check=True, capture_output=True, text=True).stdout.split()
                    n, us, tree = int(out[0]), int(out[1]), " ".join(out[2:])
                    if name not in best or us < best[name][1]:
                        best[name] = (n, us, tree)
            for name in names:
                n, us, tree = best[name]
                print("browne_engine_n%d_%s_rate: %d nodes/s (%s)" % (nodes, name, n * 1e6 / us, tree))
            if len(names) == 1:
                continue
            same = best["before"][0] == best["now"][0] and best["before"][2] == best["now"][2]
            print("browne_engine_n%d_speedup: %.2f x (same trees: %s; before = %s)"
                  % (nodes, best["before"][1] / best["now"][1], "yes" if same else "NO", before))


if __name__ == "__main__" and sys.implementation.name != "micropython":
    compare(sys.argv[1:])
elif len(sys.argv) > 2 and sys.argv[1] == "measure":
    measure(int(sys.argv[2]))
