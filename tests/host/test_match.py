# The host CLI's `match` and `play` commands over the engine.
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, ROOT)


def cli(*args):
    return subprocess.run(
        [sys.executable, "-m", "host_tools", *args], cwd=ROOT, capture_output=True, text=True, timeout=300
    )


def test_match_prints_the_table():
    r = cli("match", "1", "greedy", "--games", "2", "--ms", "20", "--jobs", "1")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[1].split()[:6] == ["player", "vs", "games", "wins", "losses", "draws"]
    row = lines[2].split()
    assert row[0] == "L1" and row[1] == "greedy" and row[2] == "2"
    assert int(row[3]) + int(row[4]) + int(row[5]) == 2
    assert float(row[7]) >= 0.0  # ms per move


def test_match_pairs_and_two_jobs():
    r = cli("match", "--pair", "random:greedy", "--pair", "2:1", "--games", "2", "--ms", "10", "--jobs", "2")
    assert r.returncode == 0, r.stderr
    rows = [l.split() for l in r.stdout.splitlines()[2:]]
    assert [x[:3] for x in rows] == [["random", "greedy", "2"], ["L2", "L1", "2"]]


def test_match_with_a_node_cap_instead_of_time():
    r = cli("match", "5", "greedy", "--games", "2", "--nodes", "64", "--tt", "512", "--jobs", "1")
    assert r.returncode == 0, r.stderr
    assert "at most about 64 nodes per engine move" in r.stdout.splitlines()[0]
    row = r.stdout.splitlines()[2].split()
    assert row[:3] == ["L5", "greedy", "2"]
    from host_tools import match
    from triad.games.nehren import notation

    p = match.Player("5", match.NODES_MS, 512, nodes=64)
    pos = notation.parse_position(match.setup_position(3))
    m = p.choose(pos, [])
    assert m in pos.legal_moves()
    assert 0 < p.engine.nodes <= 64  # the cap is looked at every 64 nodes


def test_match_rejects_unknown_players():
    r = cli("match", "7", "greedy", "--games", "1")
    assert r.returncode != 0 and "unknown player" in r.stderr


def test_play_a_game_with_typed_moves():
    from host_tools import play
    from triad.games.nehren import notation

    out = []
    pos_holder = []

    def inp(prompt):
        # Always answer with the first legal move of the shown position.
        text = [l for l in out if l.count("/") == 5][-1]
        pos = notation.parse_position(text)
        pos_holder.append(text)
        if len(pos_holder) == 1:
            return "show"
        if len(pos_holder) == 2:
            return "zz9"  # a bad move: an error message, and asked again
        return notation.format_move(pos.legal_moves()[0])

    res = play.play(level=1, human="b", ms=5, seed=3, inp=inp, out=out.append)
    assert res in (0, 1, 2)
    assert any("engine plays" in l for l in out)
    assert any("malformed move" in l or "bad cell" in l for l in out)
    assert "wins" in out[-1] or "draw" in out[-1]
