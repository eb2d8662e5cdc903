"""The engine's level ladder at the chip's node budget (issue 15).

    python3 bench/ladder.py [--nodes 2000] [--games 200] [--tt 512] [--seed 1]
                            [--procs 2] [--pair 2:1 ...] [--micropython PATH]
                            [--check N]

Each level against the one below it (2:1, 3:2, 4:3, 5:4 unless --pair is
given), --games games a pairing, every engine search capped at --nodes (the
emulated Pico's nodes in the board's think budget: docs/performance.md,
"The level ladder on the chip"), the board's 512-entry table. The games are
those of `python -m host_tools match --nodes N --tt 512` (the same set-up
rolls, colours swapped between the two games of a roll, the same engine
seeds and draw rule), played on the MicroPython unix port by
bench/ladder_mp.py under `nice -n 10`, --procs processes (one or two on a
shared machine), because CPython runs the viper code as plain Python and is
~20x slower. --check N first plays N games of the first pairing with
host_tools.match on CPython and stops with an error unless every result and
game length is the same.

Prints the match table with the mean depth each side reached; exit status 1
when a level does not win at least 60% of its games against the one below.
To try other level parameters without editing search.py, set LADDER_LEVELS
to five "depth,share,noise,blunder" tuples separated by ";" (levels 1..5).
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from host_tools import match  # noqa: E402

MICROPYTHON = os.path.join(ROOT, ".venv", "bin", "micropython")
TARGET = 0.60
# The board's think budget in nodes: 2 500 ms x 1 087 nodes/s x ~0.74 (the
# share of the time the search gets while the loop ticks every 10 ms):
# docs/performance.md, "The level ladder on the chip".
CHIP_NODES = 2000
GAMES = 200
TT = 512  # the board's table (board/player.py ENGINE_TT)
PAIRS = ((2, 1), (3, 2), (4, 3), (5, 4))


def jobs_for(a, b, n, seed):
    """The games of match.run_match(a, b, n, seed=seed): (i, seat, seed_a,
    seed_b, start text), as match._game_job makes them for two sides."""
    out = []
    for i in range(n):
        seat = i % 2
        start = match.setup_position(seed * 100003 + i // 2, "b")
        out.append((i, seat, seed * 7919 + i * 2 + 1, seed * 7919 + i * 2 + 2, start))
    return out


def run_pair(a, b, n, nodes, tt, seed, procs, mp):
    jobs = jobs_for(a, b, n, seed)
    env = dict(os.environ)
    env["MICROPYPATH"] = os.path.join(ROOT, "firmware")
    tmp = tempfile.mkdtemp(prefix="ladder")
    running = []
    for k in range(procs):
        path = os.path.join(tmp, "jobs%d.txt" % k)
        with open(path, "w") as f:
            for j in jobs[k::procs]:
                f.write("%d %d %d %d %s\n" % j)
        cmd = ["nice", "-n", "10", mp, os.path.join(ROOT, "bench", "ladder_mp.py"),
               str(a), str(b), str(nodes), str(tt), path]
        running.append(subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, text=True))
    rows = []
    for p in running:
        out, _ = p.communicate()
        if p.returncode:
            raise SystemExit("ladder_mp.py failed (exit %d)" % p.returncode)
        rows += [line.split() for line in out.splitlines() if line.strip()]
    rows.sort(key=lambda r: int(r[0]))
    if len(rows) != n:
        raise SystemExit("ladder_mp.py played %d of %d games" % (len(rows), n))
    r = {"a": "L%d" % a, "b": "L%d" % b, "games": n, "w": 0, "l": 0, "d": 0, "plies": 0,
         "a_moves": 0, "a_depth": 0, "a_nodes": 0, "b_moves": 0, "b_depth": 0, "b_nodes": 0, "rows": rows}
    for row in rows:
        r[row[1]] += 1
        r["plies"] += int(row[2])
        for k, name in enumerate(("a_moves", "a_depth", "a_nodes", "b_moves", "b_depth", "b_nodes")):
            r[name] += int(row[3 + k])
    return r


HEADER = "%-6s %-6s %6s %5s %6s %5s %6s %7s %7s %7s %7s %6s" % (
    "player", "vs", "games", "wins", "losses", "draws", "wins%", "depth", "opp d.", "nodes", "opp n.", "plies")


def fmt(r):
    am = r["a_moves"] or 1
    bm = r["b_moves"] or 1
    return "%-6s %-6s %6d %5d %6d %5d %5.1f%% %7.2f %7.2f %7d %7d %6.1f" % (
        r["a"], r["b"], r["games"], r["w"], r["l"], r["d"], 100.0 * r["w"] / r["games"],
        r["a_depth"] / am, r["b_depth"] / bm, r["a_nodes"] / am, r["b_nodes"] / bm, r["plies"] / r["games"])


def check(a, b, n, nodes, tt, seed, procs, mp):
    """The first n games on CPython (host_tools.match) and here: the same?"""
    mine = run_pair(a, b, n, nodes, tt, seed, procs, mp)["rows"]
    for i in range(n):
        res, plies, _, _ = match._game_job((match.player_name(a), match.player_name(b), i,
                                            match.NODES_MS, seed, tt, nodes, "nehren"))
        if (res, plies) != (mine[i][1], int(mine[i][2])):
            raise SystemExit("game %d differs: CPython %s in %d plies, MicroPython %s in %s"
                             % (i, res, plies, mine[i][1], mine[i][2]))
    print("check: the first %d games of L%d-L%d are the same on CPython and MicroPython" % (n, a, b))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--nodes", type=int, default=CHIP_NODES)
    ap.add_argument("--games", type=int, default=GAMES)
    ap.add_argument("--tt", type=int, default=TT)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--procs", type=int, default=2)
    ap.add_argument("--pair", action="append", help="A:B (default 2:1 3:2 4:3 5:4)")
    ap.add_argument("--micropython", default=MICROPYTHON)
    ap.add_argument("--check", type=int, default=0, help="compare N games with CPython first")
    args = ap.parse_args(argv)
    pairs = [tuple(int(x) for x in p.split(":")) for p in args.pair] if args.pair else PAIRS
    if args.check:
        check(pairs[0][0], pairs[0][1], args.check, args.nodes, args.tt, args.seed, args.procs, args.micropython)
    print("Level ladder: %d games a pairing, at most about %d nodes a search, %d TT entries, "
          "set-ups from seed %d (MicroPython unix port, %d processes)"
          % (args.games, args.nodes, args.tt, args.seed, args.procs))
    print(HEADER, flush=True)
    ok = True
    t0 = time.time()
    for a, b in pairs:
        r = run_pair(a, b, args.games, args.nodes, args.tt, args.seed, args.procs, args.micropython)
        print(fmt(r), flush=True)
        if r["w"] < TARGET * r["games"]:
            ok = False
    print("(%.0f s)" % (time.time() - t0))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
