# The host tools for any game behind the face (issue 12: --game NAME), and
# the command-line defects of issue 16 item 9.
import os
from array import array
import signal
import subprocess
import sys
import time
import types
from array import array

import pytest

import host_tools  # noqa: F401  (puts firmware/ on the path)
import triad.games
from host_tools import games, match, play, records
from host_tools.__main__ import main
from host_tools.board_text import render

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SAMPLE = os.path.join(ROOT, "tests", "records", "sample_game.triad")
START = "w3w3w2w2w1w1/....../....../....../....../b1b1b2b2b3b3 b 0 0"


def cli(*args, **kw):
    return subprocess.run([sys.executable, "-m", "host_tools", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=300, **kw)


# -- issue 16, item 9 ------------------------------------------------------------------


def test_ctrl_c_during_perft_prints_one_line_and_exits_130():
    # SIGINT as the default action in the child, whatever the test runner ignores
    p = subprocess.Popen([sys.executable, "-m", "host_tools", "perft", START, "8"], cwd=ROOT,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        time.sleep(3)  # well into the count
        assert p.poll() is None
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    assert p.returncode == 130
    assert out == ""
    assert "Traceback" not in err
    assert err.strip().splitlines() == ["host_tools: interrupted"]


@pytest.mark.parametrize("args, what", [
    (("--games", "-2"), "--games"),
    (("--games", "0"), "--games"),
    (("--jobs", "0"), "--jobs"),
])
def test_match_refuses_no_games_or_no_jobs(args, what):
    r = cli("match", "random", "greedy", *args)
    assert r.returncode == 2
    assert r.stdout == ""  # no table
    assert "argument %s: must be 1 or more" % what in r.stderr
    assert "Traceback" not in r.stderr


def test_play_answers_a_bad_move_about_the_move():
    out = []
    answers = iter(["xyz", "quit"])
    res = play.play(level=1, human="b", ms=5, seed=3, inp=lambda prompt: next(answers), out=out.append)
    assert res == -1
    (said,) = [line for line in out if "xyz" in line]
    assert "is not a move" in said and "bad cell" not in said and "'yz'" not in said


def test_play_at_the_end_of_its_input_ends_the_line_and_says_so():
    # An empty line and then nothing (a pipe that ran dry, Ctrl-D): the
    # prompt's line is ended and the person told the game was left.
    r = cli("play", "--game", "browne", "--seed", "3", "--level", "1", "--ms", "5", "--color", "never",
            input="\n")
    assert r.returncode == 0, r.stderr
    assert r.stdout.endswith("Red> Red> \nend of input: game left at move 1\n"), r.stdout[-200:]


def test_moves_of_the_opponents_piece_or_an_empty_cell_say_why_there_are_none():
    r = cli("moves", START, "--cell", "a6")
    assert r.returncode == 0 and r.stdout == ""
    assert "a6" in r.stderr and "White's" in r.stderr and "Black's turn" in r.stderr
    r = cli("moves", START, "--cell", "c3")
    assert r.returncode == 0 and r.stdout == ""
    assert "no piece on c3" in r.stderr
    r = cli("moves", START.replace("b 0 0", "b 3 0"))
    assert r.stdout == "" and "the game is over (Black wins)" in r.stderr


# -- --game NAME -------------------------------------------------------------------------


@pytest.mark.parametrize("args", [
    ("perft", START, "2", "--divide"),
    ("moves", START, "--cell", "c1", "--count"),
    ("show", START, "--move", "c1c4", "--color", "never"),
    ("replay", SAMPLE, "--color", "never"),
    ("replay", SAMPLE, "--script"),
    ("match", "5", "greedy", "--games", "2", "--nodes", "64", "--tt", "512"),
])
def test_game_nehren_explicitly_is_the_default(args, capsys):
    assert main(list(args)) == 0
    default = capsys.readouterr()
    assert main(list(args) + ["--game", "nehren"]) == 0
    named = capsys.readouterr()
    if args[0] == "match":  # times differ; the games do not
        default = [line.split()[:7] for line in default.out.splitlines()[1:]]
        named = [line.split()[:7] for line in named.out.splitlines()[1:]]
    assert named == default


def test_play_with_game_nehren():
    r = cli("play", "--game", "nehren", "--seed", "3", "--level", "1", "--ms", "5", "--color", "never",
            input="moves\nquit\n")
    assert r.returncode == 0, r.stderr
    assert "you play Black" in r.stdout and "Black> " in r.stdout


def test_monitor_and_record_with_game_nehren(tmp_path, capsys):
    assert main(["monitor", "--sim", "--game", "nehren", "--color", "never", "--idle", "1", "--count", "1"]) == 0
    assert capsys.readouterr().out.startswith("triad-board ")
    # the board names its game; another --game is refused
    with pytest.raises(SystemExit, match="the board plays nehren, not browne"):
        from host_tools import live

        class Args:
            sim = True
            port = None
            seed = 1
            game = "browne"

        live.connect(Args())


@pytest.mark.parametrize("cmd", [
    ["perft", START, "1"], ["moves", START], ["show", START], ["play"], ["match"], ["monitor", "--sim"],
    ["record", "--sim"], ["replay", SAMPLE],
])
def test_an_unknown_game_is_a_clear_error(cmd, capsys):
    with pytest.raises(SystemExit) as e:
        main(cmd + ["--game", "chess"])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert "argument --game: invalid choice: 'chess'" in err and "nehren" in err


def test_an_unknown_game_in_the_library_is_a_clear_error(capsys):
    with pytest.raises(SystemExit) as e:
        games.load("chess")
    assert e.value.code == 2
    assert "unknown game 'chess'" in capsys.readouterr().err


def test_records_name_their_game():
    rec = records.load(SAMPLE)  # written before records named a game: Nehren's
    assert "Game" not in open(SAMPLE).read() and rec.game.NAME == "nehren"
    text = rec.format()
    assert text.splitlines()[1] == "Game: nehren"
    assert records.parse(text).format() == text
    with pytest.raises(records.RecordError, match="Game: unknown game 'chess'"):
        records.parse(text.replace("Game: nehren", "Game: chess"))


def test_no_host_tool_imports_a_particular_game():
    folder = os.path.join(ROOT, "host_tools")
    for name in sorted(os.listdir(folder)):
        if name.endswith(".py"):
            text = open(os.path.join(folder, name)).read()
            for game in ("nehren", "browne", "cornelson"):
                assert "triad.games.%s" % game not in text, name
                assert "games.%s import" % game not in text, name


# -- a game of another shape, through the face only ------------------------------------------

def _fake_game():
    """Three sides on seven hex sites; a turn moves one's piece to any empty
    site; a piece on P7 wins (and scores 1); six turns without: a draw."""
    g = types.ModuleType("triad.games.trio")
    g.NAME = "trio"
    g.TITLE = "Trio"
    g.SIDES = "rgb"
    g.SIDE_NAMES = ("Red", "Green", "Blue")
    g.SIDE_RGB = ((255, 0, 0), (0, 255, 0), (0, 0, 255))
    g.N_SITES = 7
    g.SITE_NAMES = tuple("P%d" % (i + 1) for i in range(7))
    g.SITE_KIND = bytes(7)
    g.MAX_MOVES = 64
    g.START = "rg.b... r 0"
    g.FIRST_ALTERNATES = False
    g.SETTINGS = {}
    g.draw_watch = None
    g.new_engine = None

    class NotationError(ValueError):
        pass

    class Position:
        def __init__(self):
            self.occ = [-1] * 7
            self.side = 0
            self.plies = 0

        def copy(self):
            p = Position()
            p.occ = list(self.occ)
            p.side = self.side
            p.plies = self.plies
            return p

        def make(self, m):
            self.occ[m >> 8] = self.occ[m & 255]
            self.occ[m & 255] = -1
            self.side = (self.side + 1) % 3
            self.plies += 1

        def unmake(self, m):
            self.occ[m & 255] = self.occ[m >> 8]
            self.occ[m >> 8] = -1
            self.side = (self.side - 1) % 3
            self.plies -= 1

    g.NotationError = NotationError
    g.Position = Position
    g.site_xy = lambda i: (0.5 * i, float(i % 2))
    g.site_shape = lambda i: "hex"
    g.site_index = lambda name: g.SITE_NAMES.index(name) if name in g.SITE_NAMES else -1

    def parse_position(text):
        f = text.split()
        if len(f) != 3 or len(f[0]) != 7 or f[1] not in g.SIDES or not f[2].isdigit():
            raise NotationError("bad position %r" % text)
        p = Position()
        p.occ = [g.SIDES.index(c) if c in g.SIDES else -1 for c in f[0]]
        p.side = g.SIDES.index(f[1])
        p.plies = int(f[2])
        return p

    g.parse_position = parse_position
    g.format_position = lambda p: "%s %s %d" % ("".join(g.SIDES[o] if o >= 0 else "." for o in p.occ),
                                                g.SIDES[p.side], p.plies)

    def outcome(p):
        if p.occ[6] >= 0:
            return p.occ[6]
        return triad.games.DRAW if p.plies >= 6 else -1

    g.outcome = outcome
    g.outcome_text = lambda p: "draw" if outcome(p) == triad.games.DRAW else g.SIDES[outcome(p)]
    g.score = lambda p, side: 1 if p.occ[6] == side else 0

    def gen(p, buf, start=0, sel=-1):
        n = start
        if outcome(p) >= 0:
            return n
        for s in range(7):
            if p.occ[s] == p.side and (sel < 0 or sel == s):
                for t in range(7):
                    if p.occ[t] < 0:
                        buf[n] = s | t << 8
                        n += 1
        return n

    g.gen = gen
    g.format_move = lambda p, m: "%s-%s" % (g.SITE_NAMES[m & 255], g.SITE_NAMES[m >> 8])

    def parse_move(p, text):
        buf = array("i", bytes(4 * 64))
        for i in range(gen(p, buf)):
            if g.format_move(p, buf[i]) == text.strip():
                return buf[i]
        raise NotationError("no move %s here" % text)

    g.parse_move = parse_move

    def perft(p, depth):
        if depth == 0:
            return 1
        buf = array("i", bytes(4 * 64))
        total = 0
        for i in range(gen(p, buf)):
            p.make(buf[i])
            total += perft(p, depth - 1)
            p.unmake(buf[i])
        return total

    g.perft = perft

    def expected(p, out):
        for i in range(7):
            out[i] = 1 if p.occ[i] >= 0 else 0

    g.expected = expected

    def footprint(p, m, out):
        out[0] = (m & 255) | triad.games.LIFT << 8 | triad.games.ROLE_SOURCE << 10
        out[1] = (m >> 8) | triad.games.PLACE << 8 | (triad.games.ROLE_GAME + p.side) << 10
        return 2

    g.footprint = footprint
    g.shows = lambda p, site: 0
    g.owner = lambda p, site: p.occ[site]
    g.ROLE_RGB = g.SIDE_RGB
    g.new_game = lambda roll, first: (g.START.replace(" r ", " %s " % g.SIDES[first]), "-")
    g.apply_setting = lambda p, name, value: None
    scratch = array("i", bytes(4 * 64))
    g.quick_move = lambda p: scratch[0] if gen(p, scratch) else 0
    return g


@pytest.fixture
def trio(monkeypatch):
    g = _fake_game()
    monkeypatch.setitem(sys.modules, "triad.games.trio", g)
    monkeypatch.setattr(triad.games, "NAMES", triad.games.NAMES + ("trio",))
    monkeypatch.setattr(games, "NAMES", triad.games.NAMES)
    return g


def test_a_three_sided_game_through_the_face(trio, capsys):
    assert games.load("trio") is trio
    pos = trio.parse_position(trio.START)
    text = render(pos, game=trio, marks=("P1",))
    # Plotted where the game draws its sites (x 0.5 a site, y alternating),
    # rows labelled by what their names share, the mark bracketed, a key.
    assert text.splitlines() == ["P [r]  .   .   .",
                                 "P    G   B   .",
                                 "key: r Red, G Green, B Blue, . empty cell",
                                 "Score  Red 0  Green 0  Blue 0   Red to move"]
    assert main(["perft", trio.START, "2", "--game", "trio"]) == 0
    assert capsys.readouterr().out == "%d\n" % trio.perft(pos, 2)
    assert main(["moves", trio.START, "--game", "trio", "--cell", "P2"]) == 0
    cap = capsys.readouterr()
    assert cap.out == "" and "Green's and it is Red's turn" in cap.err
    assert main(["show", trio.START, "--game", "trio", "--move", "P1-P7", "--color", "never"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "P [.]  .   .  [r]" and "Red wins" in out  # the move: from P1 to P7


def test_records_and_scripts_of_a_three_sided_game(trio):
    rec = records.Record(game=trio, players=["Ada", "Bo", "Cy"], moves=["P1-P3", "P2-P5", "P4-P7"])
    text = rec.format()
    assert "Game: trio" in text and "Red: Ada" in text and "Blue: Cy" in text
    back = records.parse(text)
    assert back.players == ["Ada", "Bo", "Cy"] and back.game is trio
    assert rec.computed_result() == "b"
    script = records.to_script(rec)
    assert "lift P4\nplace P7\nwait 1000" in script
    tracker = records.Tracker(game=trio, players=["Ada", "Bo", "Cy"])
    tracker.feed("position " + trio.START)
    for m in rec.moves[:-1]:
        assert tracker.feed("move " + m) is None
    done = tracker.feed("move " + rec.moves[-1])
    assert done is not None and done.result == "b"


def test_match_and_play_a_three_sided_game(trio):
    r = match.run_match("greedy", "random", games=3, game="trio")
    assert r["w"] + r["l"] + r["d"] == 3
    assert r["w"] == 3  # greedy goes to P7 at once
    out = []
    answers = iter(["P2-P5", "nonsense", "quit"])
    res = play.play(human="g", seed=1, inp=lambda prompt: next(answers), out=out.append, game=trio)
    assert out[:2] == ["set-up roll 1", "you play Green, the board's quick move plays Red and Blue"]
    assert "engine plays P1-P3" in out  # Red's quick move
    assert "no move nonsense here" in out  # the game's own words: they name the move
    assert "br..g.. g 4" in out  # after Green's P2-P5, Blue's and Red's quick moves
    assert res == -1


def _board_lines(text):
    lines = text.splitlines()
    return lines[:[i for i, ln in enumerate(lines) if ln.startswith("key: ")][0]]


def test_browne_is_drawn_as_its_hexagon_with_a_key():
    g = games.load("browne")
    text = render(g.parse_position(g.START), game=g)
    rows = _board_lines(text)
    # Nine rows A..I of 5, 6, 7, 8, 9, 8, 7, 6, 5 cells, each row centred
    # (the hexagon's outline), 9 pieces of each side.
    assert [r.split()[0] for r in rows] == list("ABCDEFGHI")
    assert [len(r.split()) - 1 for r in rows] == [5, 6, 7, 8, 9, 8, 7, 6, 5]
    starts = [len(r) - len(r[1:].lstrip()) for r in rows]
    assert starts[:5] == sorted(starts[:5], reverse=True) and starts[4:] == sorted(starts[4:])
    body = "".join(r[2:] for r in rows)  # less the row labels
    assert (body.count("r"), body.count("G"), body.count("B")) == (9, 9, 9)
    assert "key: r Red, G Green, B Blue, . empty cell" in text
    assert "A3: G2" not in text


def test_cornelson_is_drawn_as_its_triangle_of_posts_and_treys():
    g = games.load("cornelson")
    text = render(g.parse_position(g.START), game=g)
    rows = _board_lines(text)
    assert [r[0] for r in rows if r[0] != " "] == list("NGfFeEdDcCbBaAS")  # the rows' labels
    body = "".join(r[2:] for r in rows)
    kinds = [games.KIND_NAMES[k] for k in g.SITE_KIND]
    # Every empty post a dot, every trey ^ or v, the docks and portals _,
    # and the six jewels of the start on their docks.
    assert body.count(".") == kinds.count("post")
    assert body.count("^") + body.count("v") == kinds.count("trey")
    assert body.count("_") == kinds.count("dock") + kinds.count("portal") - 6
    assert body.count("s") == 3 and body.count("N") == 3
    assert "v ^ empty trey" in text and "_ empty dock/portal" in text
