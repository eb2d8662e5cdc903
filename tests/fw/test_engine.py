# The searching engine, under CPython (pytest) and MicroPython (mp_run).
# Time is never measured here: a fake clock advances one ms per look.
from array import array

from triad.compat import MICROPYTHON, micropython
from triad.games.nehren import core, notation
from triad.games.nehren.engine import search
from triad.games.nehren.engine.search import Engine
from triad.games.nehren.engine import evaluate as ev

P = notation.parse_position
F = notation.format_move


class FakeClock:
    """now_ms that advances by `step` every time it is read."""

    def __init__(self, step=1):
        self.t = 0
        self.step = step
        self.calls = 0

    def __call__(self):
        self.calls += 1
        self.t += self.step
        return self.t


def choose(text, level=5, budget=60, max_nodes=0, tt=256):
    pos = P(text)
    eng = Engine(level, tt)
    m = eng.choose(pos, budget, FakeClock(), None, max_nodes)
    assert notation.format_position(pos) == notation.format_position(P(text))  # unchanged
    return pos, eng, m


def triad_moves(pos):
    return [m for m in pos.legal_moves() if core.m_removed(m)]


# Black has two Triads; c1c3 (or a1c3) makes the third with the two white 2s.
WIN_IN_ONE = ".....w3/....../....../w2w2..../....../b1.b3..b1 b 2 1"
# White has two Triads and threatens e1c3 (w2 w2... with b2 b2 on rank 3).
DEFEND = "....../...w3../....../b2b2..../....../b1...w1w1 b 0 2"


def test_finds_the_winning_triad_in_one():
    for level in (1, 3, 5):
        pos, eng, m = choose(WIN_IN_ONE, level=level if level > 1 else 2)
        assert m in pos.legal_moves()
        pos.make(m)
        assert pos.winner() == core.BLACK, F(m)


def test_does_not_hand_the_opponent_a_winning_triad():
    for level in (3, 4, 5):
        pos, eng, m = choose(DEFEND, level=level)
        assert m in pos.legal_moves()
        pos.make(m)
        assert triad_moves(pos) == [], F(m)


def test_note2_positions_get_a_legal_move():
    for text in (
        "....../....../....../w3.w3.../w3w1..../b1w2w2... b 0 0",
        "....../....../....../....../w1w1..../b2w1.... b 0 0",
        "....../....../....../w1w1..../.w1..../b1w1.... b 0 0",
    ):
        pos = P(text)
        assert pos.is_note2()
        for level in (1, 5):
            pos, eng, m = choose(text, level=level)
            assert m in pos.legal_moves(), text


def test_removal_choices_are_complete_moves():
    # b3b4 makes a Triad on the a3-b4-c5 diagonal; both black dice in it may go.
    text = "....../..w3.../....../b2b2..../....../b1...w1w1 b 0 0"
    pos, eng, m = choose(text)
    assert m in pos.legal_moves()
    assert core.m_removed(m) != 0  # it takes the Triad, with a removal


def test_game_over_gives_no_move():
    pos, eng, m = choose(".....w3/....../....../w2w2..../....../b1.b3..b1 w 3 1")
    assert m == 0


def test_time_budget_by_clock_reads():
    start = notation.START
    for budget in (1, 5, 40):
        clock = FakeClock()
        pos = P(start)
        eng = Engine(5, 256)
        m = eng.choose(pos, budget, clock)
        assert m in pos.legal_moves()
        # The clock is read at the start, four times before the root's first
        # node (between the steps that order its moves: the board reads its
        # switches from the clock) and then every CLOCK_EVERY + 1 nodes: the
        # search stops at the first read past the budget.
        per = search.CHECK_EVERY + 1
        assert clock.calls <= budget + 6
        assert eng.nodes <= (budget + 1) * per + per


def test_time_out_before_depth_one_still_moves_and_prefers_a_triad():
    # A clock that is already past the deadline at its first node check.
    pos = P(WIN_IN_ONE)
    eng = Engine(5, 64)
    m = eng.choose(pos, 1, FakeClock(step=1000))
    assert m in pos.legal_moves() and core.m_removed(m)


def test_node_limit():
    pos = P(notation.START)
    eng = Engine(5, 256)
    m = eng.choose(pos, 100000, FakeClock(), None, 300)
    assert m in pos.legal_moves()
    assert eng.nodes <= 300 + search.CHECK_EVERY + 1


def test_levels_all_move_and_are_deterministic_for_a_seed():
    for level in (1, 2, 3, 4, 5):
        got = []
        for _ in range(2):
            pos = P(notation.START)
            eng = Engine(level, 128, seed=7)
            got.append(eng.choose(pos, 30, FakeClock()))
        assert got[0] == got[1] and got[0] in P(notation.START).legal_moves()


def _random_game_positions(seed, plies):
    rng = search.Rng(seed)
    pos = P(notation.START)
    buf = array("i", bytes(4 * core.MAX_MOVES))
    out = []
    for _ in range(plies):
        if pos.game_over():
            break
        n = pos.gen(buf, 0)
        m = buf[rng.below(n)]
        out.append((pos.copy(), m))
        pos.make(m)
    return out


def test_incremental_hash_equals_full_recomputation():
    checked = 0
    for seed in (1, 2, 3, 4):
        for pos, m in _random_game_positions(seed, 60):
            side = pos.side
            t = pos.score[side]
            h1 = search.hash_pair(pos, 1)
            h2 = search.hash_pair(pos, 2)
            pos.make(m)
            assert search.hash_after(h1, m, side, t, 1) == search.hash_pair(pos, 1)
            assert search.hash_after(h2, m, side, t, 2) == search.hash_pair(pos, 2)
            assert 0 <= search.hash_pair(pos, 1) < (1 << 30)
            checked += 1
    assert checked > 50


def test_triad_generator_matches_the_rules_core():
    buf = array("i", bytes(4 * core.MAX_MOVES))
    checked = 0
    for seed in (5, 6, 7, 8, 9):
        for pos, m in _random_game_positions(seed, 40):
            if pos.is_note2():
                continue
            ev.evaluate(pos)
            if ev.OUT[3] >= ev.MAX_THREATS:
                continue
            n = search.gen_triads(pos.board, pos.side, buf, 0)
            got = sorted(buf[i] for i in range(n))
            assert got == sorted(triad_moves(pos)), notation.format_position(pos)
            checked += 1
    assert checked > 50


def test_evaluation_is_symmetric_in_colour():
    # The same position with colours swapped (and the board turned) scores the same.
    for pos, m in _random_game_positions(11, 30):
        flip = core.Position()
        for sq in core.CELLS:
            p = pos.board[sq]
            f = core.file_of(sq)
            r = core.rank_of(sq)
            flip.board[core.sq_of(5 - f, 5 - r)] = (p ^ 4) if p else 0
        flip.side = pos.side ^ 1
        flip.score[0] = pos.score[1]
        flip.score[1] = pos.score[0]
        assert ev.evaluate(pos) == ev.evaluate(flip)


def test_search_allocates_nothing_per_node():
    # heap_lock makes any allocation raise MemoryError on MicroPython; on
    # CPython the same code simply runs.
    pos = P("....../...w3../....../b2b2..../....../b1...w1w1 b 0 2")
    eng = Engine(5, 256)
    clock = FakeClock()
    hist = array("i", (1, 2, 3))
    eng.choose(pos, 5, clock)  # warm up (first calls may intern names)
    micropython.heap_lock()
    try:
        m = eng.choose(pos, 400, clock, hist)
        m2 = eng.choose(pos, 400, clock, None, 500)
    finally:
        micropython.heap_unlock()
    assert m in pos.legal_moves() and m2 in pos.legal_moves()
    assert eng.nodes > 100


def test_a_position_in_the_game_history_counts_as_a_draw():
    # Black is a Triad ahead, so a draw (score 0) is worse than any other
    # move: give the engine the position after its favourite move as an
    # earlier position of the game and it plays something else.
    text = "....../....w1./....../....../.b1..../...... b 1 0"
    pos, eng, m = choose(text, budget=200)
    assert eng.score > 500
    pos.make(m)
    hist = [eng.key(pos)]
    pos.unmake(m)
    eng2 = Engine(5, 256)
    m2 = eng2.choose(pos, 200, FakeClock(), hist)
    assert m2 in pos.legal_moves() and m2 != m


def test_history_keys_since_the_last_triad():
    text = "....../..w3.../....../b2b2..../....../b1...w1w1 b 0 0"
    start = P(text)
    pos = P(text)
    eng = Engine(5, 64)
    moves = []
    for t in ("a1c1", "e1e3", "b3b4xa3", "e3e4", "c1c2"):
        m = notation.parse_move(pos, t)
        pos.make(m)
        moves.append(m)
    keys = eng.history_keys(start, moves)
    # After the Triad (third move): the positions after moves 3 and 4.
    assert len(keys) == 2
    p2 = P(text)
    for m in moves[:3]:
        p2.make(m)
    assert keys[0] == eng.key(p2)
    assert notation.format_position(start) == text


def test_history_keys_equal_each_position_hashed_from_scratch():
    # history_keys follows the keys move by move (what the board hands the
    # engine before each search, issue 15): they must be the keys of the
    # positions themselves, or a repetition would go unseen.
    eng = Engine(5, 64)
    checked = 0
    for seed in (1, 2, 3):
        game = _random_game_positions(seed, 60)
        if not game:
            continue
        start = game[0][0].copy()
        pos = start.copy()
        moves = []
        want = [search.hash_pair(pos, 1)]
        for _, m in game:
            pos.make(m)
            moves.append(m)
            if core.m_removed(m):
                want = []
            want.append(search.hash_pair(pos, 1))
            assert eng.history_keys(start, moves) == want[:-1]
            checked += 1
    assert checked > 50
