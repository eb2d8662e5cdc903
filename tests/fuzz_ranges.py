"""`make fuzz` in seed ranges that resume and add up across runs (issue 47.7).

Ten thousand scripts a game (tests/fuzz_board.py) take hours of CPU on a
shared machine: too long for one run. So each configuration's scripts are
cut into ranges: range r of a configuration is fuzz_board.py with seed
SEED_BASE + r and RANGE scripts. A range that has run leaves its summary in
the repository (docs/fuzz/<game>-<mode>-<seats>/seed-<seed>.txt:
the fuzzer's own summary line, the commit it ran on, the date); the next
run begins at the first range that has none, so runs resume where the last
stopped, and `totals` adds the ranges up (per configuration and per game)
into docs/fuzzing.md between its markers.

    python tests/fuzz_ranges.py run nehren.standard.0.2 --total 10000 --range 100 --ranges 1
    python tests/fuzz_ranges.py totals [--write docs/fuzzing.md]

A configuration is game.mode.seats.share (the Makefile's FUZZ_CONFIGS): a
game's --total scripts are shared among its `share` configurations. A range
that fails keeps its summary with the FAIL line and the failing script next
to it (seed-<seed>.fail.txt), and `run` stops there with status 1. A failed
range is not done: the next run (after the fix) runs it again whole, and
first keeps what it found as seed-<seed>.found-<commit>.txt (and
.found-<commit>.script.txt), so the totals count every failure found and,
as scripts, only ranges' last runs."""
import argparse
import datetime
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
DIR = os.path.join(ROOT, "docs", "fuzz")
SEED_BASE = 1000  # (the single-stream runs before used seeds 1-20: these are other scripts)
# A mode whose scripts at a seed are another mode's draws seeds of its own:
# Cornelson's Trap ran standard's very scripts at seed 1000 (every count of
# its 100 scripts equal: they differ only where a game ends by Breach or
# Capture, or a jewel may enter a dock), so its ranges were no new scripts.
MODE_SEEDS = {"trap": 20000}
BEGIN = "<!-- fuzz-ranges:begin (python tests/fuzz_ranges.py totals --write docs/fuzzing.md) -->"
END = "<!-- fuzz-ranges:end -->"

# What the totals add up, from the fuzzer's summary line.
COUNTS = (("scripts", r"(\d+) scripts"), ("turns", r"(\d+) turns"), ("power cuts", r"(\d+) power cuts"),
          ("crashes", r"crashes (\d+)"), ("illegal", r"illegal (\d+)"), ("wrong", r"wrong (\d+)"),
          ("lost", r"lost (\d+)"), ("hangs", r"hangs (\d+)"), ("refused lines", r"refused lines (\d+)"),
          ("words checks", r"words: (\d+) checks"), ("needs named", r"(\d+) naming what the turn still needs"),
          ("words bad", r"(\d+) bad"))


def config_dir(config, root=DIR):
    game, mode, seats, _ = config.split(".")
    return os.path.join(root, "%s-%s-%s" % (game, mode, seats))


def per_config(config, total):
    share = int(config.split(".")[3])
    return (total + share - 1) // share


def ranges_of(config, total, size):
    """[(seed, scripts)] of a configuration's ranges, in order."""
    n = per_config(config, total)
    base = SEED_BASE + MODE_SEEDS.get(config.split(".")[1], 0)
    out = []
    r = 0
    while r * size < n:
        out.append((base + r, min(size, n - r * size)))
        r += 1
    return out


# What a range runs: its summary names the commit, "+changes" when these
# differ from it (a range run on a working tree, not on a commit).
CODE = ("firmware", "simulator", "host_tools", "tests/fuzz_board.py", "tests/reference_cornelson.py")


def _commit():
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                              text=True).stdout.strip() or "?"
        dirty = subprocess.run(["git", "diff", "--quiet", "HEAD", "--"] + list(CODE), cwd=ROOT).returncode
    except OSError:
        return "?"
    return head + ("+changes" if dirty else "")


def range_failed(path):
    """Whether a kept summary is of a range that failed."""
    with open(path) as f:
        return any(ln.startswith("FAIL ") for ln in f)


def _keep_found(path, fail):
    """A failed range's record, kept under the commit it ran on before the
    range runs again."""
    with open(path) as f:
        m = re.search(r"commit (\S+),", f.readline())
    tag = m.group(1) if m else "unknown"
    base = path[:-len(".txt")] + ".found-" + tag
    with open(path) as f:
        text = f.read()
    with open(base + ".txt", "w") as f:
        # (its FAIL line names the failing script where it is kept now)
        f.write(text.replace(os.path.basename(fail), os.path.basename(base) + ".script.txt"))
    os.remove(path)
    if os.path.exists(fail):
        os.replace(fail, base + ".script.txt")


def run(config, total, size, most, turns, root=DIR, fuzzer=None, extra=()):
    """Run up to `most` (0: all) of the configuration's ranges that have no
    summary yet. Returns (ranges run, status)."""
    game, mode, seats, _ = config.split(".")
    d = config_dir(config, root)
    os.makedirs(d, exist_ok=True)
    done = 0
    for k, (seed, n) in enumerate(ranges_of(config, total, size)):
        path = os.path.join(d, "seed-%d.txt" % seed)
        fail = os.path.join(d, "seed-%d.fail.txt" % seed)
        if os.path.exists(path) and not range_failed(path):
            continue  # (ran in an earlier run: resumed after it)
        if most and done >= most:
            break
        if os.path.exists(path):
            _keep_found(path, fail)  # (it failed: run again whole, what it found kept)
        cmd = [sys.executable, fuzzer or os.path.join(HERE, "fuzz_board.py"), "--game", game, "--mode", mode,
               "--seats", seats, "--scripts", str(n), "--turns", str(turns), "--seed", str(seed), "--words",
               "--out", fail] + list(extra)
        r = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
        lines = [ln for ln in r.stdout.splitlines() if ln.strip()]
        summary = [ln for ln in lines if ln.startswith("fuzz ")]
        failed = [ln for ln in lines if ln.startswith("FAIL ")]
        if not summary:
            sys.stderr.write(r.stdout[-2000:] + r.stderr[-2000:])
            return done, 2
        with open(path, "w") as f:
            f.write("# range %d of %s: %d scripts from seed %d, --turns %d, commit %s, %s\n" % (
                k, config, n, seed, turns, _commit(), datetime.date.today().isoformat()))
            for ln in failed:
                f.write(ln.replace(fail, os.path.basename(fail)) + "\n")  # (no machine's path in the repository)
            f.write(summary[-1] + "\n")
        print(summary[-1], flush=True)
        done += 1
        if r.returncode != 0:
            print("\n".join(failed) or "fuzz_board.py exited %d" % r.returncode)
            return done, 1
    return done, 0


def read(root=DIR, found=False):
    """{config dir name: [summary line, ...]} of every range kept (its last
    run); found: of the failed runs kept before a range ran again instead."""
    out = {}
    if not os.path.isdir(root):
        return out
    pattern = r"seed-\d+\.found-[^.]+\.txt" if found else r"seed-\d+\.txt"
    for name in sorted(os.listdir(root)):
        d = os.path.join(root, name)
        if not os.path.isdir(d):
            continue
        lines = []
        for fn in sorted(os.listdir(d)):
            if re.fullmatch(pattern, fn):
                with open(os.path.join(d, fn)) as f:
                    got = [ln.strip() for ln in f if ln.startswith("fuzz ")]
                if got:
                    lines.append(got[-1])
        out[name] = lines
    return out


def add_up(lines, strict=False):
    """The counts of summary lines added up; strict: a line that lacks one
    is an error (a total that silently left a count out would lie)."""
    tot = dict.fromkeys([k for k, _ in COUNTS], 0)
    for ln in lines:
        for k, rx in COUNTS:
            m = re.search(rx, ln)
            if m:
                tot[k] += int(m.group(1))
            elif strict:
                raise ValueError("no %r in the summary %r" % (k, ln))
    return tot


def failures(lines):
    """How many of these runs failed (a run's summary counts one of crashes,
    illegal, wrong, lost, hangs or words bad; the first failure stops it)."""
    keys = ("crashes", "illegal", "wrong", "lost", "hangs", "words bad")
    return sum(1 for ln in lines if any(add_up([ln])[k] for k in keys))


def table(root=DIR):
    """The totals as markdown: one row a configuration, one a game."""
    got = read(root)
    found = read(root, found=True)
    keys = [k for k, _ in COUNTS]
    rows = ["| configuration | ranges | " + " | ".join(keys) + " | failures found |",
            "| --- | ---: | " + " | ".join("---:" for _ in keys) + " | ---: |"]
    games = {}
    for name in sorted(set(got) | set(found)):
        lines = got.get(name, [])
        t = add_up(lines)
        # (failures found: the failed runs kept before their ranges ran
        # again, and the last runs that still fail)
        f = failures(found.get(name, [])) + failures(lines)
        rows.append("| %s | %d | %s | %d |" % (name, len(lines), " | ".join("{:,}".format(t[k]) for k in keys), f))
        g = games.setdefault(name.split("-")[0], [0, dict.fromkeys(keys, 0), 0])
        g[0] += len(lines)
        g[2] += f
        for k in keys:
            g[1][k] += t[k]
    for game in sorted(games):
        n, t, f = games[game]
        rows.append("| **%s** (all its configurations) | %d | %s | **%d** |" % (
            game, n, " | ".join("**{:,}**".format(t[k]) for k in keys), f))
    return "\n".join(rows)


def write(doc, root=DIR):
    with open(doc) as f:
        text = f.read()
    if BEGIN not in text or END not in text:
        raise SystemExit("%s has no fuzz-ranges markers" % doc)
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    with open(doc, "w") as f:
        f.write(head + BEGIN + "\n" + table(root) + "\n" + END + tail)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="run a configuration's ranges not yet run")
    r.add_argument("config", help="game.mode.seats.share, e.g. nehren.standard.0.2")
    r.add_argument("--total", type=int, default=10000, help="scripts a game, over its configurations")
    r.add_argument("--range", type=int, default=100, help="scripts a range")
    r.add_argument("--ranges", type=int, default=0, help="ranges to run now at most (0: every one left)")
    r.add_argument("--turns", type=int, default=8)
    r.add_argument("--dir", default=DIR)
    t = sub.add_parser("totals", help="add the ranges kept up")
    t.add_argument("--write", default=None, help="a document to write the table into (between its markers)")
    t.add_argument("--dir", default=DIR)
    args = ap.parse_args(argv)
    if args.cmd == "run":
        n, rc = run(args.config, args.total, args.range, args.ranges, args.turns, root=args.dir)
        kept = [os.path.join(config_dir(args.config, args.dir), "seed-%d.txt" % seed)
                 for seed, _ in ranges_of(args.config, args.total, args.range)]
        left = sum(1 for p in kept if not os.path.exists(p) or range_failed(p))
        print("fuzz ranges %s: %d run now, %d left of %d" % (
            args.config, n, left, len(ranges_of(args.config, args.total, args.range))))
        return rc
    if args.write:
        write(args.write, args.dir)
    print(table(args.dir))
    return 0


if __name__ == "__main__":
    sys.exit(main())
