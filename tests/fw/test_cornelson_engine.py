# The engine of Cornelson's TRIAD, under CPython (pytest) and MicroPython
# (mp_run). Time is never measured: a fake clock advances one ms per look.
from triad.compat import MICROPYTHON, micropython
from triad.games import cornelson as G
from triad.games.cornelson import core
from triad.games.cornelson.engine import Engine, CHECK_EVERY

P = G.parse_position
F = G.format_position


class FakeClock:
    def __init__(self, step=1):
        self.t = 0
        self.step = step

    def __call__(self):
        self.t += self.step
        return self.t


def choose(text, mode="standard", level=5, budget=200, max_nodes=0):
    pos = P(text, mode)
    before = F(pos)
    eng = Engine(level)
    m = eng.choose(pos, budget, FakeClock(), None, max_nodes)
    assert F(pos) == before  # pos unchanged
    return pos, eng, m


def wins_with(pos, m):
    """(winner, reason) after m."""
    pos.make(m)
    r = (pos.result, pos.reason)
    pos.unmake(m)
    return r


def winning_moves(pos, reason):
    out = []
    for m in pos.legal_moves():
        if wins_with(pos, m) == (pos.side, reason):
            out.append(m)
    return out


# South's jewel on f4 steps onto the empty North dock N2.
BREACH_IN_ONE = "..../...../....../......./....../...../.... S:f4,a1,a7 N:N1,N3,c6 s 0 0"
# North's jewels wait on their docks; South's jewel on f3 steps onto f2 or
# f4 and the jewel on N1 or N2 cannot move.
TRAP_IN_ONE = "..../...../....../......./....../...../.... S:f3,c5,c7 N:N1,N2,N3 s 0 0"
# South has 9; a gem on D3 captures D2 (D1 D2 D3: s n .).
CAPTURE_IN_ONE = "..../...../....../sn...../....../...../.... S:S1,S2,S3 N:N1,N2,N3 s 9 0"
# North's jewel on a4 threatens S2 (border A2-A3); South holds A2, so only a
# gem on A3 makes the Barrier.
BLOCK_BREACH = "..../...../....../......./....../...../.s.. S:c3,c5,c7 N:a4,f2,f6 s 0 0"


def test_a_legal_turn_from_the_start():
    pos, eng, m = choose(G.START)
    assert m in pos.legal_moves()
    assert eng.depth >= 1 and eng.nodes > 0


def test_takes_a_breach_in_one():
    pos = P(BREACH_IN_ONE)
    assert winning_moves(pos, core.WHY_BREACH)
    pos, eng, m = choose(BREACH_IN_ONE)
    assert wins_with(pos, m) == (core.SOUTH, core.WHY_BREACH)


def test_takes_a_trap_in_one():
    pos = P(TRAP_IN_ONE)
    assert winning_moves(pos, core.WHY_TRAP)
    assert not winning_moves(pos, core.WHY_BREACH)
    pos, eng, m = choose(TRAP_IN_ONE)
    assert wins_with(pos, m) == (core.SOUTH, core.WHY_TRAP)


def test_takes_a_capture_win_in_one():
    pos = P(CAPTURE_IN_ONE)
    assert winning_moves(pos, core.WHY_CAPTURE)
    pos, eng, m = choose(CAPTURE_IN_ONE)
    assert wins_with(pos, m) == (core.SOUTH, core.WHY_CAPTURE)


def test_blocks_a_breach_in_one():
    pos = P(BLOCK_BREACH)
    # Without a gem on A3 North breaches next turn.
    assert not winning_moves(pos, core.WHY_BREACH)
    pos, eng, m = choose(BLOCK_BREACH)
    assert G.SITE_NAMES[m & 63] == "A3"
    pos.make(m)
    assert pos.result == -1
    assert not winning_moves(pos, core.WHY_BREACH)


def test_every_level_blocks_and_wins_in_one_without_blunder_levels():
    for level in (2, 3, 4, 5):
        pos, eng, m = choose(BREACH_IN_ONE, level=level)
        assert wins_with(pos, m) == (core.SOUTH, core.WHY_BREACH)
        pos, eng, m = choose(BLOCK_BREACH, level=level)
        assert G.SITE_NAMES[m & 63] == "A3"


def test_game_over_gives_no_turn():
    pos = P(BREACH_IN_ONE)
    m = winning_moves(pos, core.WHY_BREACH)[0]
    pos.make(m)
    eng = Engine(5)
    assert eng.choose(pos, 100, FakeClock()) == 0


def test_node_budget():
    for cap in (16, 200, 1000):
        pos, eng, m = choose(BLOCK_BREACH, budget=1000000, max_nodes=cap)
        assert m in pos.legal_moves()
        assert 0 < eng.nodes <= cap + CHECK_EVERY + 1


def test_time_budget():
    # With a clock that advances 1 ms per look and 40 ms, the search stops
    # after at most 40 looks (a look every CHECK_EVERY + 1 nodes).
    pos = P(G.START)
    eng = Engine(5)
    clock = FakeClock()
    m = eng.choose(pos, 40, clock)
    assert m in pos.legal_moves()
    assert eng.nodes <= 41 * (CHECK_EVERY + 1)


def test_each_mode_plays_legal_turns():
    for mode in core.MODE_NAMES:
        pos = P(G.START, mode)
        eng = Engine(5)
        other = Engine(1)
        other.seed(7)
        ply = 0
        while pos.result == -1 and ply < 80:
            e = eng if ply % 2 == 0 else other
            m = e.choose(pos, 1000000, FakeClock(), None, 150)
            assert m in pos.legal_moves(), (mode, F(pos), m)
            pos.make(m)
            ply += 1
        # (a game may go on past 80 plies: both sides defend their docks)
        if pos.result == -1:
            continue
        if mode == "breach":
            assert pos.reason == core.WHY_BREACH
        elif mode == "trap":
            assert pos.reason in (core.WHY_TRAP, core.WHY_STUCK)
        elif mode == "capture":
            assert pos.reason in (core.WHY_CAPTURE, core.WHY_FULL)


def test_candidates_below_the_root_are_legal_in_each_mode():
    for mode in core.MODE_NAMES:
        pos = P(G.START, mode)
        eng = Engine(5)
        rnd = Engine(1)
        rnd.seed(3)
        ply = 0
        while pos.result == -1 and ply < 30:
            legal = pos.legal_moves()
            eng._copy(pos)
            eng.deadline = 1000  # (its clock says 0: the time is not up)
            end = eng._cands(0)
            assert end > 0
            for i in range(end):
                # (inside the search the gem on A1 alone may be 0, which
                # make() reads as the same turn; the root's moves, which
                # choose() returns, come from the core's gen with NONZERO)
                assert (eng.mv[i] or core.NONZERO) in legal, (mode, F(pos), eng.mv[i])
            m = legal[(ply * 7919) % len(legal)]
            pos.make(m)
            ply += 1


def test_trap_mode_offers_no_dock():
    # In a game of Trap the docks are shut: the jewel on f4 must not step
    # onto N2; the engine still finds a legal turn.
    pos, eng, m = choose(BREACH_IN_ONE, mode="trap")
    assert m in pos.legal_moves()
    assert wins_with(pos, m)[1] != core.WHY_BREACH


def test_levels_are_deterministic_for_a_seed():
    pos = P(G.START)
    for level in (1, 2, 3, 4, 5):
        a = Engine(level)
        b = Engine(level)
        ma = a.choose(pos, 1000000, FakeClock(), None, 300)
        mb = b.choose(pos, 1000000, FakeClock(), None, 300)
        assert ma == mb and ma in pos.legal_moves()


def test_face_new_engine():
    eng = G.new_engine(3, 512)
    pos = P(G.START)
    eng.set_level(5)
    assert eng.history_keys(pos, []) == []
    assert eng.key(pos) == eng.key(P(G.START))
    m = eng.choose(pos, 1000000, FakeClock(), [], 100)
    assert m in pos.legal_moves()


def test_search_allocates_nothing_per_node():
    # heap_lock makes any allocation raise MemoryError on MicroPython; on
    # CPython the same code simply runs.
    pos = P(BLOCK_BREACH)
    eng = Engine(5)
    clock = FakeClock()
    eng.choose(pos, 5, clock)  # warm up
    mid = P("..../.n.../..s.../...n.../.s..../...../.s.. S:c3,c5,c7 N:a4,f2,f6 s 2 1")
    eng.choose(mid, 5, clock)
    micropython.heap_lock()
    try:
        m = eng.choose(pos, 300, clock)
        m2 = eng.choose(mid, 1000000, clock, None, 2000)
    finally:
        micropython.heap_unlock()
    assert m in pos.legal_moves() and m2 in mid.legal_moves()
    assert eng.nodes > 100 and eng.depth >= 2


def test_the_written_out_tables_are_what_the_geometry_gives():
    from triad.games.cornelson import engine as E

    assert E.BORDER_AT == E._border_at()
    s, n = E._progress()
    assert E.PROG_S == s and E.PROG_N == n
    assert len(E.BORDER_AT) == 6 * 37 and len(E.PROG_S) == len(E.PROG_N) == 72


def test_the_viper_selection_is_the_plain_one():
    from array import array
    from triad.games.cornelson import engine as E

    rng = E.Rng(9)
    for trial in range(60):
        n = 1 + rng.below(300)
        start = rng.below(4)
        end = start + n
        k = rng.below(40)
        if k > n:
            k = n
        buf = array("i", [rng.next() for _ in range(end + 2)])
        sc = array("h", [(rng.below(60001) - 30000) if trial % 2 else (rng.below(9) - 4) for _ in range(end + 2)])
        noise = array("h", [rng.below(80) for _ in range(end + 2)])
        a = (array("i", buf), array("h", sc), array("h", noise))
        b = (array("i", buf), array("h", sc), array("h", noise))
        E._select_py(a[0], a[1], a[2], start, end, k)
        E._select_v(b[0], b[1], b[2], start, end, k)
        assert [list(x) for x in a] == [list(x) for x in b], (trial, n, k)
        for i in range(start + 1, start + k):
            assert a[1][i - 1] >= a[1][i]


def test_choose_returns_the_gem_on_a1_when_it_is_the_turn():
    # Issue 23, case 6: in capture mode the gem on A1 alone was the turn 0,
    # which the board reads as "no move": the board's side never moved.
    pos = P(G.START, "capture")
    legal = pos.legal_moves()
    assert 0 not in legal and core.NONZERO in legal
    for level in (4, 5):
        eng = Engine(level)
        t = [0]

        def clock():
            t[0] += 1
            return t[0]

        m = eng.choose(pos, 2500, clock, None, 2000)
        assert m and m in legal, (level, m)
