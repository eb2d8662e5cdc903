# The engine of Cornelson's TRIAD, under CPython (pytest) and MicroPython
# (mp_run). Time is never measured: a fake clock advances one ms per look.
from triad.compat import MICROPYTHON, micropython
from triad.games import cornelson as G
from triad.games.cornelson import core
from triad.games.cornelson.engine.search import Engine, CHECK_EVERY

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


def test_every_level_blocks_and_wins_in_one_without_its_random_turns():
    # The levels differ by their random turns (their deliberate mistakes);
    # each level's search, with those switched off, wins and blocks in one.
    for level in (1, 2, 3, 4, 5):
        for text, want in ((BREACH_IN_ONE, "win"), (BLOCK_BREACH, "A3")):
            pos = P(text)
            eng = Engine(level)
            eng.blunder = 0
            m = eng.choose(pos, 200, FakeClock(), None, 0)
            if want == "win":
                assert wins_with(pos, m) == (core.SOUTH, core.WHY_BREACH), level
            else:
                assert G.SITE_NAMES[m & 63] == "A3", level
    # with them, the lower levels do miss a win now and then (seeds 1..20)
    missed = 0
    for seed in range(1, 21):
        pos = P(BREACH_IN_ONE)
        m = Engine(1, 0, seed).choose(pos, 200, FakeClock(), None, 0)
        if wins_with(pos, m) != (core.SOUTH, core.WHY_BREACH):
            missed += 1
    assert missed > 0


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


def test_the_clock_is_read_every_fourth_node_and_the_deadline_holds():
    # A node costs about as much as the board's clock read on the chip
    # (docs/performance.md, issue 26): the engine reads it every fourth
    # node (CLOCK_MASK 3), plus twice an inner node's candidate list: far
    # fewer reads than nodes; a 1 ms-a-read clock and 30 ms stop the search
    # within a few nodes of the 30th read.
    from triad.games import engine_kit

    assert Engine.CLOCK_MASK == 3 and engine_kit.EngineBase.CLOCK_MASK == 0
    pos = P(G.START)
    eng = Engine(5)
    clock = FakeClock()
    eng.choose(pos, 1000000, clock, None, 800)
    assert eng.nodes >= 800 and eng.depth >= 3
    assert eng.nodes // 4 <= clock.t < eng.nodes * 3 // 5, (clock.t, eng.nodes)
    eng = Engine(5)
    clock = FakeClock()
    m = eng.choose(pos, 30, clock)
    assert m in pos.legal_moves()
    assert clock.t <= 32 and clock.t < eng.nodes <= 4 * 32, (clock.t, eng.nodes)


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
    from triad.games.cornelson.engine import tables as E

    assert E.BORDER_AT == E._border_at()
    s, n = E._progress()
    assert E.PROG_S == s and E.PROG_N == n
    assert len(E.BORDER_AT) == 6 * 37 and len(E.PROG_S) == len(E.PROG_N) == 72
    # _leaf_v's one table: each part at the offset its viper body reads it
    from triad.games.cornelson import geometry as g
    from triad.games.cornelson.engine import evaluate as V

    geo = V.LEAF_GEO
    at = 0
    for name, part in (("", g.EXIT_TO), ("_O_EXIT_BORDER", g.EXIT_BORDER), ("_O_DOCK_OWNER", g.DOCK_OWNER),
                       ("_O_BU", g.BORDER_U), ("_O_BV", g.BORDER_V), ("_O_LINE1", g.LINE1), ("_O_LINE2", g.LINE2),
                       ("_O_PROG_S", E.PROG_S), ("_O_PROG_N", E.PROG_N), ("_O_OUTER", g.OUTER_BORDER)):
        assert geo[at:at + len(part)] == bytes(part)
        assert getattr(V, name, at) == at, name  # (CPython sees the private consts; MicroPython folds them)
        at += len(part)
    assert at == len(geo) == 1272 + 18  # (_O_OUTER + the dock borders)
    assert list(V.LEAF_MOB) == list(E.MOB_STM) + list(E.MOB_MOVED)


def test_the_viper_selection_is_the_plain_one():
    from array import array
    from triad.games.cornelson.engine import search as E
    from triad.games.engine_kit import Rng

    rng = Rng(9)
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


def test_the_viper_exits_evaluation_and_post_values_are_the_plain_ones():
    # MicroPython runs the viper path, CPython the plain one (on CPython
    # the viper source runs as Python): over the positions of random games
    # in every mode, with random Barrier values.
    from array import array
    from triad.games.cornelson import geometry as g
    from triad.games.cornelson.engine import evaluate as V
    from triad.games.cornelson.engine import tables as T
    from triad.games.engine_kit import Rng

    rng = Rng(26)
    buf = core.MoveStack(1).buf
    n_posts = len(G.parse_position(G.START).posts)
    bw = array("h", bytes(2 * 128))
    bm = array("h", bytes(2 * 128))
    pv = [array("h", bytes(2 * n_posts)) for _ in range(2)]
    pf = [bytearray(n_posts) for _ in range(2)]
    opens = [bytearray(6) for _ in range(2)]
    sv = [array("h", bytes(2 * core.MAX_MOVES)) for _ in range(2)]
    checked = 0
    for mode in G.MODE_NAMES:
        pos = G.parse_position(G.START)
        G.apply_setting(pos, "mode", G.SETTING_CHOICES["mode"].index(mode))
        for ply in range(80):
            for breach in (0, 1):
                V._open_all_py(pos.jewel, pos.flags, pos.posts, pos.occ, breach, opens[0])
                V._open_all_v(pos.jewel, pos.flags, pos.posts, pos.occ, breach, opens[1])
                assert opens[0] == opens[1], (mode, breach)
            for side in (0, 1):
                for rules in (core.MODE_STANDARD, core.MODE_BREACH, core.MODE_TRAP, core.MODE_CAPTURE):
                    t = rng.below(10)
                    to = rng.below(10)
                    a = V._eval_all_py(pos.jewel, pos.flags, pos.posts, pos.occ, opens[0], side, rules, t, to)
                    b = V._eval_all_v(pos.jewel, pos.flags, pos.posts, pos.occ, opens[1], side, rules, t, to)
                    assert a == b, (mode, side, rules)
                    if a != V.BREACH_NEXT:  # (else the viper one stops at the breach)
                        assert opens[0] == opens[1], (mode, side, rules)
                    checked += 1
            for i in range(len(bw)):
                bw[i] = rng.below(4000)
                bm[i] = rng.below(200)
            for own in (1, 2):
                for dock in (0, 1):
                    V._post_base_py(pos.posts, pv[0], pf[0], bw, bm, own, dock)
                    V._post_base_v(pos.posts, pv[1], pf[1], bw, bm, own, dock)
                    assert list(pv[0]) == list(pv[1]) and pf[0] == pf[1]
            n = pos.gen(buf, 0)
            if n == 0:
                break
            for side in (0, 1):
                for rules in (core.MODE_STANDARD, core.MODE_BREACH, core.MODE_TRAP):
                    got = []
                    for f in (V._prepare_tables_py, V._prepare_tables_v):
                        t = [array("h", bytes(2 * 128)) for _ in range(3)]
                        tb = bytearray(64)
                        ts = bytearray(16)
                        r = f(pos.jewel, pos.posts, opens[0], side, rules, t[0], t[1], t[2], tb, ts, g.OUTER_BORDER,
                              T.BLOCK_W)
                        got.append((r, [list(x) for x in t], tb[: r & 255], ts[: r >> 8]))
                    assert got[0] == got[1], (mode, side, rules)
            blk = bm  # (random 0..199 per space)
            for side_prog in (T.PROG_S, T.PROG_N, T._ZERO72):
                V._set_vals_py(buf, 0, n, sv[0], pos.jewel, pos.side, side_prog, blk)
                V._set_vals_v(buf, 0, n, sv[1], pos.jewel, pos.side, side_prog, blk)
                assert list(sv[0][:n]) == list(sv[1][:n]), mode
            pos.make(buf[rng.below(n)])
    assert checked > 300


def test_the_viper_leaf_is_the_plain_one_and_the_made_turns_score():
    # _leaf_score (a leaf's turn made, evaluated and taken back in one
    # call), viper and plain, over every turn of the positions of random
    # games in every mode: the same score as making the turn with the
    # Position and evaluating it as the search does, and the position
    # unchanged after.
    from triad.games.cornelson.engine import evaluate as V
    from triad.games.engine_kit import Rng

    rng = Rng(5)
    buf = core.MoveStack(1).buf
    eng = Engine(5)
    checked = 0
    slow = 0
    for mode in G.MODE_NAMES:
        for game in range(2):
            pos = P(G.START, mode)
            for ply in range(70):
                n = pos.gen(buf, 0)
                if n == 0:
                    break
                side = pos.side
                text = G.format_position(pos)
                r = (pos._ply % core.RING) * core.REC
                for i in range(0, n, 1 + n // 12):
                    m = buf[i]
                    args = (m, side, pos.mode, pos.tally[side], pos.tally[side ^ 1], pos.filled, 3, pos.posts, pos.jewel,
                            pos.flags, pos.occ, pos._ring, r, eng.opens)
                    a = V._leaf_py(*args)
                    b = V._leaf_v(*args)
                    assert a == b, (mode, text, m)
                    assert G.format_position(pos) == text
                    eng.pos.set_from(pos)
                    eng.pos.make(m)
                    res = eng.pos.result
                    if res == -1:
                        want = eng.evaluate(3)
                    elif res == core.DRAW:
                        want = 0
                    else:
                        want = V.WIN - 3 if res == eng.pos.side else 3 - V.WIN
                    if a == V.LEAF_SLOW:
                        slow += 1
                        assert res == -1 and pos.tally[side ^ 1] >= V.TALLY_LATE
                    else:
                        assert a == want, (mode, text, m)
                    checked += 1
                pos.make(buf[rng.below(n)])
    assert checked > 1000 and slow > 0, (checked, slow)


def test_the_viper_top_lists_are_the_plain_ones():
    # The best step sets (_top: signed values, ties, k above n) and the best
    # vacant posts (_top_posts) of a node, viper and plain, on random values.
    from array import array
    from triad.games.cornelson.engine import search as S
    from triad.games.engine_kit import Rng

    rng = Rng(7)
    val = array("h", bytes(2 * 40))
    out = [bytearray(8), bytearray(8)]
    posts = bytearray(37)
    for trial in range(300):
        n = rng.below(33)
        k = 1 + rng.below(8)
        spread = 1 + rng.below(20000)
        for i in range(40):
            val[i] = rng.below(spread) - spread // 2
        a = S._top_py(val, n, out[0], k)
        b = S._top_v(val, n, out[1], k)
        assert a == b and out[0][:a] == out[1][:b], (n, k)
        for i in range(37):
            posts[i] = rng.below(3) if rng.below(4) else 0
            val[i] = rng.below(spread)
        a = S._top_posts_py(posts, val, out[0], k)
        b = S._top_posts_v(posts, val, out[1], k)
        assert a == b and out[0][:a] == out[1][:b], k
        assert all(not posts[x] for x in out[0][:a])


def test_the_viper_pairing_sort_and_table_clearing_are_the_plain_ones():
    # A node's candidates (_pair: posts with the best step sets, stopping at
    # a post whose captures change the sets), their stable sort and the undo
    # of the per-node tables, viper and plain, on random values (negative
    # set values, ties, sums above BIG).
    from array import array
    from triad.games.cornelson.engine import evaluate as V
    from triad.games.cornelson.engine import search as S
    from triad.games import engine_kit
    from triad.games.engine_kit import Rng

    assert getattr(S, "_BIG", V.BIG) == V.BIG  # (the viper one's copy; CPython sees it)
    rng = Rng(11)
    for trial in range(300):
        pv = array("h", [rng.below(V.BIG + 1) if rng.below(3) else rng.below(40) for _ in range(37)])
        pflag = bytearray(rng.below(8) // 3 if rng.below(2) else 0 for _ in range(37))
        ns = 1 + rng.below(27)
        sets = array("i", [rng.below(1 << 20) << 6 for _ in range(32)])
        sv = array("h", [rng.below(2 * V.BIG) - V.BIG if rng.below(4) else rng.below(5) for _ in range(32)])
        pi = bytearray(rng.below(37) for _ in range(8))
        np_ = rng.below(6)
        si = bytearray(rng.below(ns) for _ in range(8))
        nsel = rng.below(5)
        a0 = rng.below(3)
        start = 24 * rng.below(3)
        got = []
        for f in (S._pair_py, S._pair_v):
            mv = array("i", bytes(4 * 100))
            mo = array("h", bytes(2 * 100))
            x = f(mv, mo, start, pi, a0, np_, pflag, pv, si, nsel, sets, sv)
            got.append((x, list(mv), list(mo)))
        assert got[0] == got[1], trial
        end = got[0][0] & 0xFFFF
        # the sort, with ties (few distinct values) half of the time
        mo = array("h", [(rng.below(7) - 3) if trial % 2 else rng.below(60001) - 30000 for _ in range(100)])
        mv = array("i", range(100))
        a = (array("i", mv), array("h", mo))
        b = (array("i", mv), array("h", mo))
        engine_kit.sort(a[0], a[1], start, end)
        S._sort_v(b[0], b[1], start, end)
        assert [list(x) for x in a] == [list(x) for x in b], trial
        # the tables' undo
        tb = bytearray(rng.below(128) for _ in range(64))
        ts = bytearray(rng.below(72) for _ in range(16))
        ntb = rng.below(65)
        nts = rng.below(17)
        w = [rng.below(900) for _ in range(128)]
        t = []
        for f in (V._clear_tables_py, V._clear_tables_v):
            bw = array("h", w)
            bm = array("h", w)
            blk = array("h", w[:72])
            f(bw, bm, blk, tb, ntb, ts, nts)
            t.append((list(bw), list(bm), list(blk)))
        assert t[0] == t[1], trial
        assert t[0][0].count(0) >= (1 if ntb else 0)


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
