"""The review's speed (issue 46: "the default effort reviews a 60-move game
within a minute on a 2-core machine"): for each game, a seeded game of 60
moves (the longest of the first seeds' random games where the game ends
before; Browne's random games do) saved as a record, then
`python -m host_tools review RECORD` run as a player runs it, at its
default effort, timed (wall and CPU, the interpreter's start included).
Run by bench/bench.py (figures cpy.review_*) or alone:

    .venv/bin/python bench/review_bench.py [--quick]

--quick: Nehren's game only."""
import os
import random
import resource
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

PLIES = 60
SEEDS = 40  # random games tried for one of PLIES moves


def random_game(g, seed):
    """(start text, move texts): a random game from the start, at most PLIES moves."""
    from host_tools import games

    rng = random.Random(seed)
    pos = g.parse_position(g.START)
    start = g.format_position(pos)
    texts = []
    while g.outcome(pos) < 0 and len(texts) < PLIES:
        ms = games.legal_moves(g, pos)
        if not ms:
            break
        m = rng.choice(ms)
        texts.append(g.format_move(pos, m))
        pos.make(m)
    return start, texts


def longest_game(g):
    best = ("", [])
    for seed in range(1, SEEDS + 1):
        start, texts = random_game(g, seed)
        if len(texts) > len(best[1]):
            best = (start, texts)
        if len(texts) >= PLIES:
            break
    return best


def children_cpu():
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def main(argv):
    from host_tools import games, records

    names = ("nehren",) if "--quick" in argv else games.NAMES
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            g = games.load(name)
            start, texts = longest_game(g)
            path = os.path.join(tmp, name + ".triad")
            records.Record(start=start, moves=texts, game=g).save(path)
            cpu0 = children_cpu()
            t0 = time.monotonic()
            p = subprocess.run([sys.executable, "-m", "host_tools", "review", path], cwd=ROOT,
                               capture_output=True, text=True, timeout=600)
            wall = time.monotonic() - t0
            cpu = children_cpu() - cpu0
            if p.returncode != 0 or not p.stdout.splitlines()[-1].startswith("review: "):
                sys.stderr.write(p.stdout + p.stderr)
                raise SystemExit("review_bench: host_tools review failed on %s's game" % name)
            marks = int(p.stdout.splitlines()[-1].split()[1])
            print("review_%s_plies: %d moves (a seeded random game)" % (name, len(texts)))
            print("review_%s_marks: %d marks" % (name, marks))
            print("review_%s_wall_s: %.1f s (host_tools review, default effort, wall)" % (name, wall))
            print("review_%s_cpu_s: %.1f s (its CPU)" % (name, cpu))
            sys.stdout.flush()


if __name__ == "__main__":
    main(sys.argv[1:])
