"""Cornelson's engine node rate before and after (issue 26), one run.

    python3 bench/cornelson_engine_speed_run.py [--micropython PATH] [--before COMMIT] [quick]

Extracts firmware/triad/games/cornelson/ of COMMIT (default BEFORE, the
engine before the node work of issue 26's third session) from git into a
temporary package `cornelsonbefore` (its imports of itself renamed), then
runs bench/cornelson_engine_speed.py on the MicroPython unix port for it and
for today's engine, each in a process of its own, on the same fixed-node
searches. Prints the script's figure lines prefixed with mp. (the old
engine's as cornelson_engine_before_*) and the speedups.
"""
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BEFORE = "8cc0ee7"
PKG = "firmware/triad/games/cornelson"


def extract(dest, commit):
    names = subprocess.run(["git", "ls-tree", "-r", "--name-only", commit, PKG], cwd=ROOT, check=True,
                           capture_output=True, text=True).stdout.split()
    for name in names:
        if not name.endswith(".py"):
            continue
        rel = name[len(PKG) + 1:]
        path = os.path.join(dest, "cornelsonbefore", rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        src = subprocess.run(["git", "show", "%s:%s" % (commit, name)], cwd=ROOT, check=True,
                             capture_output=True, text=True).stdout
        with open(path, "w") as f:
            f.write(src.replace("triad.games.cornelson", "cornelsonbefore"))


def main(argv):
    mp = os.path.join(ROOT, ".venv", "bin", "micropython")
    commit = BEFORE
    extra = []
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("--micropython", "--before") and i + 1 < len(argv):
            i += 1
            if a == "--micropython":
                mp = argv[i]
            else:
                commit = argv[i]
        elif a == "quick":
            extra.append(a)
        else:
            raise SystemExit(__doc__)
        i += 1
    with tempfile.TemporaryDirectory() as tmp:
        extract(tmp, commit)
        env = dict(os.environ, MICROPYPATH=tmp + ":" + os.path.join(ROOT, "firmware"))
        figs = {}
        for which in ("before", "after"):
            args = [mp, "-X", "heapsize=256K", "bench/cornelson_engine_speed.py"] + extra
            if which == "before":
                args.append("before")
            p = subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True)
            if p.returncode:
                sys.stderr.write(p.stderr)
                return 1
            for line in p.stdout.splitlines():
                name, rest = line.split(": ", 1)
                if which == "before":
                    name = name.replace("cornelson_engine_", "cornelson_engine_before_")
                figs[name] = rest
                print("mp.%s: %s" % (name, rest), flush=True)
        for name in list(figs):
            if name.startswith("cornelson_engine_n") and name.endswith("_rate"):
                b = figs[name.replace("cornelson_engine_", "cornelson_engine_before_")]
                a = figs[name]
                same = "yes" if a.split("(")[1] == b.split("(")[1] else "NO"
                print("mp.%s: %.2f x (same trees: %s)" % (name.replace("_rate", "_speedup"),
                                                      int(a.split()[0]) / int(b.split()[0]), same), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
