"""Engine strength benchmark (not a test): the match table of issue 8.

    .venv/bin/python bench/engine_strength.py [--games 200] [--ladder-games 100]
                                              [--ms 100] [--jobs 2] [--seed 1]

Plays, at --ms per engine move on this interpreter (CPython for the issue's
targets): the strongest level against greedy and random (targets: at least
95% and 99% of the games won), then each level against the one below it, and
prints the `match` table. Exit status 1 when a target is missed.
"""
import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from host_tools import match  # noqa: E402

TARGETS = {("L5", "greedy"): 0.95, ("L5", "random"): 0.99}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200, help="games against greedy and random")
    ap.add_argument("--ladder-games", type=int, default=100, help="games per level pairing")
    ap.add_argument("--ms", type=int, default=100)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--tt", type=int, default=match.DEFAULT_TT)
    args = ap.parse_args(argv)
    pairs = [("5", "greedy", args.games), ("5", "random", args.games)]
    pairs += [(str(k), str(k - 1), args.ladder_games) for k in (2, 3, 4, 5)]
    print("Triad engine strength: %d ms per engine move, %s %s, %d jobs, set-ups from seed %d"
          % (args.ms, sys.implementation.name, sys.version.split()[0], args.jobs, args.seed))
    print(match.HEADER)
    ok = True
    t0 = time.time()
    for a, b, n in pairs:
        r = match.run_match(a, b, n, args.ms, args.jobs, args.seed, args.tt)
        print(match.format_row(r), flush=True)
        target = TARGETS.get((r["a"], r["b"]))
        if target is not None and r["w"] < target * n:
            ok = False
            print("  target missed: %d%% wins wanted" % round(100 * target))
        if target is None and r["w"] <= r["l"]:
            ok = False
            print("  %s does not beat %s" % (r["a"], r["b"]))
    print("(%.0f s)" % (time.time() - t0))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
