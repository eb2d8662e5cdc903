"""`make bench-uct` (bench/bench.py --only uct) goes on where it stopped
(issue 48): bench/uct.py --results keeps each finished game's line, a run
plays only the games not yet kept and counts the kept ones in its result,
a line cut by a stop is played again, and a file made for another match or
with other code starts again. `make bench` itself leaves the UCT matches to
it and says so. Tiny matches (Nehren, a few games at 100 nodes against UCT
of 20 playouts)."""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "bench"))
import bench  # noqa: E402


def uct(results, games, nodes=100, extra=()):
    r = subprocess.run([sys.executable, "bench/uct.py", "nehren", "--games", str(games), "--nodes", str(nodes),
                        "--playouts", "20", "--results", str(results)] + list(extra),
                       cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    played = sorted(int(m) for m in re.findall(r"^game (\d+) seat \d+: \w+ \(\d+ plies\)$", r.stdout, re.M))
    kept = sorted(int(m) for m in re.findall(r"^game (\d+) seat \d+: \w+ \(\d+ plies; kept\)$", r.stdout, re.M))
    total = re.search(r"of (\d+) \(", r.stdout)
    return played, kept, int(total.group(1))


def test_a_stopped_match_goes_on_from_the_games_it_kept(tmp_path):
    f = tmp_path / "m.txt"
    assert uct(f, 2) == ([0, 1], [], 2)
    head, g0, g1 = f.read_text().splitlines()
    assert head.startswith("# uct nehren level 5 nodes 100 playouts 20 seed 1 lone 0 code ")
    # More games asked: only the new ones are played, all counted.
    assert uct(f, 4) == ([2, 3], [0, 1], 4)
    # A stop in the middle of writing game 3's line: game 3 is played again.
    lines = f.read_text().splitlines()
    f.write_text("\n".join(lines[:4]) + "\n" + lines[4][:6])
    assert uct(f, 4) == ([3], [0, 1, 2], 4)
    assert uct(f, 4) == ([], [0, 1, 2, 3], 4)
    # Another match in the same file (another node budget): begins again.
    assert uct(f, 2, nodes=120) == ([0, 1], [], 2)
    assert "nodes 120" in f.read_text().splitlines()[0]


def test_other_code_begins_the_match_again(tmp_path):
    f = tmp_path / "m.txt"
    uct(f, 1)
    lines = f.read_text().splitlines()
    f.write_text(lines[0][:-4] + "beef\n" + "\n".join(lines[1:]) + "\n")  # (made with other code)
    assert uct(f, 1) == ([0], [], 1)


def test_make_bench_leaves_uct_to_its_own_target():
    args = {"quick": False, "only": None}
    figs = list(bench.runner_uct(args))
    assert figs == [("uct.skipped", "1", "(make bench-uct: the UCT matches, two to three hours on two cores, "
                                           "resumable)")]
    r = subprocess.run([sys.executable, "bench/bench.py", "--only", "no_such"], cwd=ROOT, capture_output=True,
                       text=True, timeout=60)
    assert r.returncode != 0 and "--only takes one of" in r.stderr and "uct" in r.stderr
