# Rules-core checks of Cornelson's TRIAD; run under CPython (pytest) and
# MicroPython (tests/mp_run.py). Expected values are worked out by hand from
# the rulebook and issue 14's readings (docs/cornelson.md); the perft counts
# are also checked against tests/reference_cornelson.py.
import sys

from fwtest import raises
from triad.compat import micropython
from triad import games
from triad.games import cornelson as C
from triad.games import engine_kit
from triad.games.cornelson import core
from triad.games.cornelson import geometry as g

P = C.parse_position
F = C.format_position
ROWS = "ABCDEFG"
LENS = (4, 5, 6, 7, 6, 5, 4)


def text(gems="", s="-", n="-", side="s", ts=0, tn=0):
    """Position text from 'D3:s D4:n' style gems and jewel lists."""
    cells = {}
    for tok in gems.split():
        name, v = tok.split(":")
        cells[name] = v
    rows = []
    for y in range(6, -1, -1):
        rows.append("".join(cells.get(ROWS[y] + str(k + 1), ".") for k in range(LENS[y])))
    return "%s S:%s N:%s %s %d %d" % ("/".join(rows), s, n, side, ts, tn)


def turns(t, mode="standard"):
    pos = P(t, mode)
    return sorted(C.format_move(pos, m) for m in pos.legal_moves())


def steps_of(t, post, mode="standard"):
    """The step parts of the turns placing on `post`, each sorted."""
    out = []
    for tt in turns(t, mode):
        parts = tt.split()
        if parts[0] == post:
            out.append(" ".join(sorted(parts[1:])))
    return sorted(out)


def play(t, turn, mode="standard"):
    """The position after `turn`; checks unmake restores the text."""
    pos = P(t, mode)
    m = C.parse_move(pos, turn)
    before = F(pos)
    pos.make(m)
    after = F(pos)
    res = (pos.result, pos.reason)
    pos.unmake(m)
    assert F(pos) == before
    assert pos.result == -1
    pos.make(m)
    assert F(pos) == after and (pos.result, pos.reason) == res
    return pos


# -- geometry ------------------------------------------------------------------


def test_geometry_counts_and_names():
    assert g.N_POSTS == 37 and len(g.POST_NAMES) == 37
    assert g.POST_NAMES[0] == "A1" and g.POST_NAMES[36] == "G4"
    assert len(g.BORDER_U) == 90
    assert g.N_TREYS == 54 and g.SPACE_NAMES[53] == "f7"
    rows = {}
    for t in range(54):
        rows[g.SPACE_NAMES[t][0]] = rows.get(g.SPACE_NAMES[t][0], 0) + 1
    assert [rows[r] for r in "abcdef"] == [7, 9, 11, 11, 9, 7]
    assert C.N_SITES == 109 and len(C.SITE_NAMES) == 109 and len(C.SITE_KIND) == 109
    assert C.SITE_NAMES[37] == "a1" and C.SITE_NAMES[91] == "S1" and C.SITE_NAMES[108] == "P12"
    assert C.SITE_KIND[0] == games.KIND_POST and C.SITE_KIND[37] == games.KIND_TREY
    assert C.SITE_KIND[91] == games.KIND_DOCK and C.SITE_KIND[97] == games.KIND_PORTAL
    assert C.site_index("d1") == 37 + 27 and C.site_index("Z9") == -1
    # Boundary borders: one trey only; 3 per side of the hexagon.
    boundary = 0
    for b in range(90):
        inner = (g.BORDER_SIDE_A[b] < 54) + (g.BORDER_SIDE_B[b] < 54)
        assert inner in (1, 2)
        boundary += inner == 1
    assert boundary == 18


def _trey(name):
    t = g.space_index(name)
    return sorted(g.POST_NAMES[p] for p in g.TREY_POSTS[t * 3 : t * 3 + 3]), g.TREY_UP[t]


def test_named_treys():
    assert _trey("a1") == (["A1", "B1", "B2"], 0)
    assert _trey("a2") == (["A1", "A2", "B2"], 1)
    assert _trey("a7") == (["A4", "B4", "B5"], 0)
    assert _trey("c11") == (["C6", "D6", "D7"], 0)
    assert _trey("d1") == (["D1", "D2", "E1"], 1)
    assert _trey("d2") == (["D2", "E1", "E2"], 0)
    assert _trey("f7") == (["F4", "F5", "G4"], 1)
    assert C.site_shape(37) == "tri-down" and C.site_shape(38) == "tri-up"
    assert C.site_shape(0) == "circle" and C.site_shape(91) == "square" and C.site_shape(100) == "square"


def _outer(name):
    s = g.space_index(name)
    b = g.EXIT_BORDER[s * 3]
    return g.POST_NAMES[g.BORDER_U[b]] + "-" + g.POST_NAMES[g.BORDER_V[b]], g.SPACE_NAMES[g.EXIT_TO[s * 3]]


def test_docks_and_portals_with_their_borders():
    want = {
        "S1": ("A1-A2", "a2"), "S2": ("A2-A3", "a4"), "S3": ("A3-A4", "a6"),
        "N1": ("G1-G2", "f2"), "N2": ("G2-G3", "f4"), "N3": ("G3-G4", "f6"),
        "P1": ("A4-B5", "a7"), "P2": ("B5-C6", "b9"), "P3": ("C6-D7", "c11"),
        "P4": ("D7-E6", "d11"), "P5": ("E6-F5", "e9"), "P6": ("F5-G4", "f7"),
        "P7": ("F1-G1", "f1"), "P8": ("E1-F1", "e1"), "P9": ("D1-E1", "d1"),
        "P10": ("C1-D1", "c1"), "P11": ("B1-C1", "b1"), "P12": ("A1-B1", "a1"),
    }
    for name in want:
        assert _outer(name) == want[name], name
        s = g.space_index(name)
        if name[0] != "P":
            assert g.EXIT_TO[s * 3 + 1] == core.NONE


def test_portal_pairs_lie_directly_across():
    pairs = {"P1": "P9", "P2": "P8", "P3": "P7", "P4": "P12", "P5": "P11", "P6": "P10"}
    for a in pairs:
        for x, y in ((a, pairs[a]), (pairs[a], a)):
            s = g.space_index(x)
            assert g.SPACE_NAMES[g.EXIT_TO[s * 3 + 1]] == y
            assert g.EXIT_BORDER[s * 3 + 1] == core.NONE
        # The line between the pair is perpendicular to the portal's border.
        s = g.space_index(a)
        b = g.EXIT_BORDER[s * 3]
        ux, uy = C.site_xy(g.BORDER_U[b])
        vx, vy = C.site_xy(g.BORDER_V[b])
        ax, ay = C.site_xy(37 + s)
        bx, by = C.site_xy(37 + g.space_index(pairs[a]))
        assert abs((vx - ux) * (bx - ax) + (vy - uy) * (by - ay)) < 1e-4  # single-precision floats on the 32-bit port


def test_site_xy_posts_on_the_lattice():
    x, y = C.site_xy(g.post_index("D1"))
    assert x == 0.0 and abs(y - 3 * 0.8660254) < 1e-6
    x, y = C.site_xy(g.post_index("A1"))
    assert x == 1.5 and abs(y - 6 * 0.8660254) < 1e-6
    # A trey is drawn at its centroid, a dock below the bottom row.
    assert C.site_xy(91)[1] > C.site_xy(0)[1]


# -- start, perft, notation ----------------------------------------------------


def test_start_round_trips_and_first_turns():
    pos = P(C.START)
    assert F(pos) == C.START
    ts = turns(C.START)
    assert len(ts) == 37
    assert "D4 S1-a2 S2-a4 S3-a6" in ts
    assert C.outcome(pos) == -1 and C.outcome_text(pos) == ""
    text, meta = C.new_game(None, 1)
    assert text == C.START.replace(" s 0 0", " n 0 0") and "n" in meta


def test_perft_from_start():
    pos = P(C.START)
    assert C.perft(pos, 1) == 37
    assert C.perft(pos, 2) == 1332
    assert F(pos) == C.START


def test_perft_agrees_with_the_reference():
    try:
        import reference_cornelson as R
    except ImportError:
        here = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
        sys.path.append(here + "/..")
        import reference_cornelson as R
    assert R.perft(R.START, 1) == 37
    assert R.perft(R.START, 2) == 1332
    mid = text("D3:s D4:n C3:n B2:s E4:n", "a7,b4,P9!", "c5,f2,P6", "s", 3, 2)
    for mode in C.MODE_NAMES:
        pos = P(mid, mode)
        assert C.perft(pos, 1) == R.perft(mid, 1, mode), mode


def test_position_notation_round_trips():
    for t in (
        C.START,
        text("D3:s D4:n", "a7,b4,P9!", "c5,f2,P6", "n", 3, 12),
        text("", "-", "N1", "s", 0, 0),
        text("A1:s G4:n", "-", "-", "s", 0, 0),
    ):
        assert F(P(t)) == t
    # Any jewel order is read; the text is written in space order.
    pos = P(text("", "S3,a1,P1", "-"))
    assert F(pos) == text("", "a1,S3,P1", "-")


def test_malformed_positions_raise_notation_error():
    bad = [
        "",
        C.START + " x",
        "..../...../....../......./....../..... S:S1 N:N1 s 0 0",
        "..../...../....../......../....../...../.... S:S1 N:N1 s 0 0",
        "..../...../....../......x/....../...../.... S:S1 N:N1 s 0 0",
        "..../...../....../......./....../...../.... S:S1,S2,S3,a1 N:N1 s 0 0",
        "..../...../....../......./....../...../.... S:S1,S1 N:N1 s 0 0",
        "..../...../....../......./....../...../.... S:S1 N:S1 s 0 0",
        "..../...../....../......./....../...../.... S:a9 N:N1 s 0 0",
        "..../...../....../......./....../...../.... S:a1! N:N1 s 0 0",
        "..../...../....../......./....../...../.... S: N:N1 s 0 0",
        "..../...../....../......./....../...../.... N:N1 S:S1 s 0 0",
        "..../...../....../......./....../...../.... S:S1 N:N1 x 0 0",
        "..../...../....../......./....../...../.... S:S1 N:N1 s -1 0",
        "..../...../....../......./....../...../.... S:S1 N:N1 s 0 y",
        "..../...../....../......./....../...../.... S:S1 N:N1 s 10 10",
        "..../...../....../......./....../...../.... S:N1 N:S1 s 0 0",
    ]
    for t in bad:
        raises(C.NotationError, P, t)
    raises(C.NotationError, P, C.START, "chess")
    assert issubclass(C.NotationError, ValueError)


def test_malformed_and_illegal_turns_raise_notation_error():
    pos = P(C.START)
    for t in ["", "Z9", "D4 S1", "D4 S1-a9", "D4 S1-a2 S2-a4", "D4 S1-a2 S2-a4 S3-a5",
              "D4 S1-a2 S2-a4 S3-a6 S1-a2", "D4 a1-a2", "- S1-a2 S2-a4 S3-a6", "D4 S1-a2-a3"]:
        raises(C.NotationError, C.parse_move, pos, t)
    assert F(pos) == C.START


# -- captures ------------------------------------------------------------------


def test_single_capture_each_line_kind():
    # Along a row.
    pos = play(text("D3:s D4:n"), "D5")
    assert F(pos) == text("D3:s D4:s D5:s", side="n", ts=1)
    # Along both slanted lines through C3: C3-D4-E4 and C3-D3-E2.
    pos = play(text("D4:n E4:s"), "C3")
    assert F(pos) == text("C3:s D4:s E4:s", side="n", ts=1)
    pos = play(text("D3:n E2:s"), "C3")
    assert F(pos) == text("C3:s D3:s E2:s", side="n", ts=1)
    # North captures too, into its own tally.
    pos = play(text("D3:n D4:s", side="n"), "D5")
    assert F(pos) == text("D3:n D4:n D5:n", side="s", tn=1)


def test_multiple_capture():
    pos = play(text("D5:n D6:s C3:n B2:s"), "D4")
    assert F(pos) == text("D4:s D5:s D6:s C3:s B2:s", side="n", ts=2)


def test_chain_reaction_of_three_like_example_13():
    # D1 brackets D2 (with D3); the new gem on D2 brackets E2 (with F2);
    # the new gem on E2 brackets E3 (with E4): three captures, one gem.
    t = text("D2:n D3:s E2:n F2:s E3:n E4:s", "a3", "N1")
    pos = play(t, "D1 a3-a4")
    assert F(pos) == text("D1:s D2:s D3:s E2:s F2:s E3:s E4:s", "a4", "N1", "n", 3, 0)
    # The board is told the chain in order: place, swap D2, E2, E3, step.
    pos = P(t)
    m = C.parse_move(pos, "D1 a3-a4")
    out = [0] * 16
    n = C.footprint(pos, m, out)
    names = [(C.SITE_NAMES[e & 255], (e >> 8) & 3, e >> 10) for e in out[:n]]
    assert names == [
        ("D1", games.PLACE, C.ROLE_CAPTURING),
        ("D2", games.TOUCH, C.ROLE_SWAP),
        ("E2", games.TOUCH, C.ROLE_SWAP),
        ("E3", games.TOUCH, C.ROLE_SWAP),
        ("a3", games.LIFT, games.ROLE_SOURCE),
        ("a4", games.PLACE, C.ROLE_STEP),
    ]
    assert F(pos) == t


def test_old_brackets_and_safe_posts_stay():
    # D4 was bracketed before this turn: it stays North's.
    pos = play(text("D3:s D4:n D5:s"), "A1")
    assert F(pos) == text("A1:s D3:s D4:n D5:s", side="n")
    # North may place between two South gems: a Safe post.
    pos = play(text("D3:s D5:s", side="n"), "D4")
    assert F(pos) == text("D3:s D4:n D5:s", side="s")


def test_two_in_a_row_are_not_captured():
    pos = play(text("D3:s D4:n D5:n"), "D6")
    assert F(pos) == text("D3:s D4:n D5:n D6:s", side="n")


def test_tally_ten_wins_at_once_without_jewel_steps():
    t = text("D3:s D4:n", "a3", "N1", "s", 9, 0)
    ts = turns(t)
    assert "D5" in ts  # the capture wins: the placement alone
    assert "D5 a3-a4" not in ts
    assert "A1 a3-a4" in ts
    pos = play(t, "D5")
    assert C.outcome(pos) == 0 and C.outcome_text(pos) == "s capture"
    assert C.score(pos, 0) == 10
    assert pos.legal_moves() == []
    # In a game of Breach or Trap captures count but do not end the game.
    for mode in ("breach", "trap"):
        assert "D5" not in turns(t, mode) and "D5 a3-a4" in turns(t, mode)
        assert C.outcome(play(t, "D5 a3-a4", mode)) == -1


# -- jewel steps -----------------------------------------------------------------


def test_barriers_block_only_the_other_side():
    # a3's borders: B2-B3 to b4, A2-B3 to a4, A2-B2 to a2.
    assert steps_of(text("B2:n B3:n", "a3", "N1"), "D4") == ["a3-a2", "a3-a4"]
    assert steps_of(text("B2:s B3:s", "a3", "N1"), "D4") == ["a3-a2", "a3-a4", "a3-b4"]
    assert steps_of(text("B2:n B3:s", "a3", "N1"), "D4") == ["a3-a2", "a3-a4", "a3-b4"]
    # A capture can break a barrier before the jewels move.
    assert steps_of(text("B2:n B3:n C3:s", "a3", "N1"), "A1") == ["a3-a2", "a3-a4", "a3-b4"]


def test_jewels_block_and_vacated_spaces_and_swaps():
    # North's jewel on a4 is a wall for South's a3.
    assert steps_of(text("", "a3", "a4"), "D4") == ["a3-a2", "a3-b4"]
    # Own jewels: a3 may follow a4 (a4 leaves first); a3<->a4 is a swap.
    got = steps_of(text("", "a3,a4", "N1"), "D4")
    assert got == sorted(["a3-b4 a4-a5", "a3-b4 a4-a3", "a3-a4 a4-a5", "a3-a2 a4-a5", "a3-a2 a4-a3"])
    assert "D4 a4-a5 a3-a4" in turns(text("", "a3,a4", "N1"))
    # Never back onto one's own dock: a2 cannot reach S1.
    assert steps_of(text("", "a2", "N1"), "D4") == ["a2-a1", "a2-a3"]


def test_turn_text_must_be_in_an_executable_order():
    t = text("", "a3,a4", "N1")
    pos = P(t)
    m = C.parse_move(pos, "D4 a4-a5 a3-a4")
    assert C.format_move(pos, m) == "D4 a4-a5 a3-a4"
    raises(C.NotationError, C.parse_move, pos, "D4 a3-a4 a4-a5")
    raises(C.NotationError, C.parse_move, pos, "D4 a3-a4 a4-a3")


def test_portals_and_transfers():
    # a7 steps onto its portal P1.
    assert "a7-P1" in steps_of(text("", "a7", "N1"), "D4")
    # From P1: back to a7, or the transfer to P9.
    assert steps_of(text("", "P1", "N1"), "D4") == ["P1-P9", "P1-a7"]
    pos = play(text("", "P1", "N1"), "D4 P1-P9")
    assert F(pos) == text("D4:s", "P9!", "N1", "n")
    # After a transfer the jewel must step onto the trey next.
    assert steps_of(text("", "P9!", "N1"), "D4") == ["P9-d1"]
    # A transfer crosses no border: barriers on P1's border do not stop it.
    assert steps_of(text("A4:n B5:n", "P1", "N1"), "D4") == ["P1-P9"]
    # An occupied far portal stops the transfer.
    assert steps_of(text("", "P1", "P9"), "D4") == ["P1-a7"]
    # Must-step-after-transfer with the trey blocked: nothing else to do.
    pos = P(text("D1:n E1:n", "P9!", "N1"))
    assert pos.legal_moves() == [] or all(m & core.STUCK for m in pos.legal_moves())


def test_breach_is_one_step_onto_an_opponent_dock():
    t = text("", "f2,a3,a5", "d6,d8,d10")
    ts = turns(t)
    assert "D4 f2-N1" in ts
    pos = play(t, "D4 f2-N1")
    assert C.outcome(pos) == 0 and C.outcome_text(pos) == "s breach"
    assert pos.legal_moves() == []
    # A jewel on the dock, or a barrier on its border, keeps it shut.
    assert "D4 f2-N1" not in turns(text("", "f2,a3,a5", "N1,d8,d10"))
    assert "D4 f2-N1" not in turns(text("G1:n G2:n", "f2,a3,a5", "d6,d8,d10"))
    # Own gems do not shut it.
    assert "D4 f2-N1" in turns(text("G1:s G2:s", "f2,a3,a5", "d6,d8,d10"))
    # A game of Trap: the opponent's docks cannot be entered.
    assert "D4 f2-N1" not in turns(t, "trap")
    assert "D4 f2-N1" in turns(t, "breach")


# -- traps -------------------------------------------------------------------------


def test_gem_trap():
    # North's c5 (C3 D3 D4): South holds C3 and D3, D4 closes the third side.
    t = text("C3:s D3:s", "S1,S2,S3", "c5,N2,N3")
    pos = play(t, "D4 S1-a2 S2-a4 S3-a6")
    assert C.outcome(pos) == 0 and C.outcome_text(pos) == "s trap"
    assert C.outcome(play(t, "A1 S1-a2 S2-a4 S3-a6")) == -1


def test_jewel_trap():
    # South's jewels close all three sides of c5: c4, c6, d5.
    t = text("", "c3,c7,d4", "c5,N2,N3")
    pos = play(t, "A1 c3-c4 c7-c6 d4-d5")
    assert C.outcome_text(pos) == "s trap"


def test_combination_trap():
    t = text("C3:s D3:s", "c7,d4,a1", "c5,N2,N3")
    pos = play(t, "A4 c7-c6 d4-d5 a1-a2")
    assert C.outcome_text(pos) == "s trap"


def test_own_jewels_do_not_trap():
    # c5's way to d5 is held by North's own jewel: not trapped.
    t = text("C3:s D3:s", "c7,a1,a3", "c5,d5,N3")
    pos = play(t, "A4 c7-c6 a1-a2 a3-a4")
    assert C.outcome(pos) == -1


def test_trap_by_own_dock_and_by_transfer():
    # f2's exits: its own dock N1 (never), f3 and f1 behind South barriers.
    t = text("F2:s G1:s", "a1,a3,a5", "f2,d8,d10")
    pos = play(t, "G2 a1-a2 a3-a4 a5-a6")
    assert C.outcome_text(pos) == "s trap"
    # A jewel that just transferred may not transfer back.
    t = text("D1:s", "a1,a3,a5", "P9!,d8,d10")
    assert C.outcome_text(play(t, "E1 a1-a2 a3-a4 a5-a6")) == "s trap"
    t = text("D1:s", "a1,a3,a5", "P9,d8,d10")
    assert C.outcome(play(t, "E1 a1-a2 a3-a4 a5-a6")) == -1


def test_a_trapped_position_reads_as_won():
    pos = P(text("C3:s D3:s D4:s", "a2,a4,a6", "c5,N2,N3", "n"))
    assert C.outcome(pos) == 0 and pos.legal_moves() == []
    assert C.outcome(P(text("C3:s D3:s D4:s", "a2,a4,a6", "c5,N2,N3", "n"), "breach")) == -1


def test_stuck_loses_by_trap():
    # a1 can only go to a2 (B1-B2 is a barrier, North's jewel holds P12) and
    # a2 only to a1 (A2-B2 is a barrier, S1 is South's own dock): a swap, so
    # no step set exists and South loses; the turn is the placement alone.
    # Neither jewel is trapped: each has its own jewel as a way out.
    t = text("A2:n B1:n B2:n", "a1,a2", "P12,N2,N3")
    pos = P(t)
    assert C.outcome(pos) == -1
    ts = turns(t)
    assert len(ts) == 34 and "D4" in ts
    pos = play(t, "D4")
    assert C.outcome(pos) == 1 and C.outcome_text(pos) == "n trap (s stuck)"
    assert pos.legal_moves() == []
    # A game of Breach: as many jewels as possible move, here none.
    pos = play(t, "D4", "breach")
    assert C.outcome(pos) == -1 and F(pos) == text("A2:n B1:n B2:n D4:s", "a1,a2", "N2,N3,P12", "n")


# -- modes -------------------------------------------------------------------------


def test_breach_game_removes_trapped_jewels():
    t = text("C3:s D3:s", "S1,S2,S3", "c5,N2,N3")
    pos = P(t, "breach")
    m = C.parse_move(pos, "D4 S1-a2 S2-a4 S3-a6")
    out = [0] * 16
    n = C.footprint(pos, m, out)
    assert (out[n - 1] & 255) == C.site_index("c5") and (out[n - 1] >> 10) == games.ROLE_REMOVE
    pos = play(t, "D4 S1-a2 S2-a4 S3-a6", "breach")
    assert C.outcome(pos) == -1
    assert F(pos) == text("C3:s D3:s D4:s", "a2,a4,a6", "N2,N3", "n")


def test_breach_game_moves_as_many_jewels_as_possible():
    # a1 and a2 boxed in as in the stuck test; a5 is free: only a5 moves.
    t = text("A2:n B1:n B2:n", "a1,a2,a5", "P12,N2,N3")
    got = steps_of(t, "D4", "breach")
    assert got == ["a5-a4", "a5-a6", "a5-b6"]
    assert steps_of(t, "D4") == [""]  # standard: stuck, the placement alone
    assert turns(t).count("D4") == 1


def test_capture_game_uses_gems_only():
    pos = P(C.START)
    C.apply_setting(pos, "mode", "capture")
    assert F(pos) == C.START.replace("S:S1,S2,S3 N:N1,N2,N3", "S:- N:-")
    assert len(pos.legal_moves()) == 37
    assert C.format_move(pos, pos.legal_moves()[0]) == "A1"
    # A capture game with jewels given ignores them.
    assert turns(text("", "a3", "N1"), "capture")[:2] == ["A1", "A2"]
    # A full board without a Capture is a draw.
    full = "snsn/nsnsn/snsnsn/nsnsnsn/snsnsn/nsnsn/sns. S:- N:- s 0 0"
    pos = P(full, "capture")
    assert turns(full, "capture") == ["A4"]
    pos = play(full, "A4", "capture")
    assert C.outcome(pos) == games.DRAW and C.outcome_text(pos) == "draw"
    # ... and a tally of ten wins a capture game.
    pos = play(text("D3:s D4:n", ts=9), "D5", "capture")
    assert C.outcome_text(pos) == "s capture"


def test_full_board_turns_are_steps_only():
    full = "snsn/nsnsn/snsnsn/nsnsnsn/snsnsn/nsnsn/snsn S:a3 N:N1 s 0 0"
    ts = turns(full)
    assert ts == ["- a3-a2", "- a3-b4"]  # A2-B3 is North's barrier
    pos = P(full)
    site = C.site_index("a3")
    buf = core.MoveStack(1).buf
    assert pos.gen(buf, 0, site) == len(ts)
    assert pos.gen(buf, 0, 0) == 0


def test_gen_sel_keeps_the_turns_of_one_post():
    pos = P(text("", "a3", "N1"))
    buf = core.MoveStack(1).buf
    n = pos.gen(buf, 0, g.post_index("D4"))
    assert sorted(C.format_move(pos, buf[i]) for i in range(n)) == ["D4 a3-a2", "D4 a3-a4", "D4 a3-b4"]


def _begin_sites(pos, m, fp):
    # The sites a turn may begin at, from its footprint (the board's
    # matcher, match_kernels.begins): its first step's; a turn that begins
    # with a jewel's lift (no gem: every post taken) at each jewel's lift,
    # as the jewels step in any order (issue 35).
    nf = C.footprint(pos, m, fp)
    if nf == 0:
        return []
    first = fp[0]
    out = [first & 255]
    if (first >> 8) & 3 == games.LIFT and first >> 10 == games.ROLE_SOURCE:
        for j in range(1, nf):
            e = fp[j]
            if (e >> 8) & 3 == games.LIFT and e >> 10 == games.ROLE_SOURCE:
                out.append(e & 255)
    return out


def test_gen_sel_keeps_the_turns_that_may_begin_there_over_random_games():
    # gen(sel) skips the work for the posts and pieces no turn begins at;
    # it must still give exactly the turns that may begin at sel (the
    # footprint's first site, or any jewel of a turn without a gem), in
    # gen's order, and leave the position as it was.
    from array import array

    seed = 777
    buf = core.MoveStack(1).buf
    one = core.MoveStack(1).buf
    fp = array("i", bytes(4 * 32))
    checked = 0
    not_first = 0  # turns kept for a jewel not first in their footprint
    for mode in C.MODE_NAMES:
        pos = P(C.START, mode)
        for ply in range(70):
            n = pos.gen(buf, 0)
            if n == 0:
                break
            before = F(pos)
            sites = [_begin_sites(pos, buf[i], fp) for i in range(n)]
            for site in range(g.N_POSTS + g.N_SPACES):
                want = [buf[i] for i in range(n) if site in sites[i]]
                k = pos.gen(one, 0, site)
                assert [one[i] for i in range(k)] == want, (mode, before, site)
                checked += k
                not_first += sum(1 for i in range(n) if site in sites[i][1:])
            assert F(pos) == before
            seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
            pos.make(buf[seed % n])
    assert checked > 1000 and not_first > 50, (checked, not_first)


def test_make_unmake_over_random_games():
    seed = 12345
    buf = core.MoveStack(1).buf
    for mode in C.MODE_NAMES:
        pos = P(C.START, mode)
        texts = []
        moves = []
        for ply in range(60):
            n = pos.gen(buf, 0)
            if n == 0:
                break
            seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
            m = buf[seed % n]
            assert 0 <= m < (1 << 30)
            texts.append(F(pos))
            moves.append(m)
            assert C.parse_move(pos, C.format_move(pos, m)) == m
            pos.make(m)
        while moves:
            pos.unmake(moves.pop())
            assert F(pos) == texts.pop()
        assert F(pos) == C.START


def test_face_expected_shows_and_quick_move():
    pos = P(text("D4:s D5:n", "a3", "N1"))
    out = bytearray(109)
    C.expected(pos, out)
    assert sum(out) == 4 and out[C.site_index("a3")] == 1 and out[C.site_index("N1")] == 1
    assert C.shows(pos, C.site_index("D4")) == C.ROLE_SOUTH
    assert C.shows(pos, C.site_index("N1")) == C.ROLE_NORTH
    assert C.shows(pos, C.site_index("a1")) == 0
    assert C.owner(pos, C.site_index("D5")) == 1 and C.owner(pos, C.site_index("A1")) == -1
    assert len(C.ROLE_RGB) == 6 and C.ROLE_SOUTH == games.ROLE_GAME
    buf = core.MoveStack(1).buf
    # quick_move takes the breach on offer.
    pos = P(text("", "f2,a3,a5", "d6,d8,d10"))
    m = C.quick_move(pos)
    pos.make(m)
    assert C.outcome_text(pos) == "s breach"


# -- tourney -------------------------------------------------------------------


def _won(side, why):
    pos = core.Position()
    pos.result = side
    pos.reason = why
    return pos


def test_tourney_game_tally():
    from triad.games.cornelson import tourney as T

    t = C.new_tourney()
    assert t.rules() == core.MODE_STANDARD and t.winner() == -1
    assert t.record(_won(0, core.WHY_BREACH)) == T.GAME_WON
    # 12.1: an outcome only one player has makes a drawn game, either way.
    assert t.record(_won(1, core.WHY_BREACH)) == T.GAME_DRAWN
    assert t.record(_won(0, core.WHY_BREACH)) == T.GAME_DRAWN
    assert t.record(_won(1, core.WHY_STUCK)) == T.GAME_WON  # stuck counts as Trap
    assert t.record(_won(0, core.WHY_TRAP)) == T.GAME_DRAWN
    assert t.record(core.Position()) == T.NOTHING
    t = C.new_tourney(t.code())
    assert list(t.won) == [T.OUT_BREACH, T.OUT_TRAP]
    # Both with Breach (12.2): no Breach ends a game, docks stay shut.
    t = C.new_tourney(T.OUT_BREACH | (T.OUT_BREACH << 3))
    pos = P(text("", "f2,a3,a5", "d6,d8,d10"), core.MODE_NAMES.index("standard"))
    pos.mode = t.rules()
    ts = [C.format_move(pos, m) for m in pos.legal_moves()]
    assert "D4 f2-N1" not in ts and ts
    # Both with Trap (12.3): trapped jewels leave play.
    t = C.new_tourney(T.OUT_TRAP | (T.OUT_TRAP << 3))
    assert t.rules() == core.RULE_BREACH | core.RULE_CAPTURE | core.RULE_JEWELS
    pos = P(text("C3:s D3:s", "S1,S2,S3", "c5,N2,N3"))
    pos.mode = t.rules()
    pos.make(C.parse_move(pos, "D4 S1-a2 S2-a4 S3-a6"))
    assert C.outcome(pos) == -1 and F(pos) == text("C3:s D3:s D4:s", "a2,a4,a6", "N2,N3", "n")
    # Both with Breach and Trap (12.4): gems only, until a Capture.
    t = C.new_tourney((T.OUT_BREACH | T.OUT_TRAP) * 9)
    assert t.rules() == core.MODE_CAPTURE
    # The first to all three wins the series.
    t = C.new_tourney(T.OUT_BREACH | T.OUT_TRAP | (T.OUT_CAPTURE << 3))
    assert t.record(_won(0, core.WHY_CAPTURE)) == T.GAME_DRAWN
    t = C.new_tourney(T.OUT_BREACH | T.OUT_TRAP | (T.OUT_BREACH << 3))
    assert t.record(_won(0, core.WHY_CAPTURE)) == T.SERIES_WON and t.winner() == 0


def test_forfeited_captures_stay():
    # Rule 3.1: the chain of Example 13 cut after its first capture (a jewel
    # was lifted before E2 was swapped): E2 and E3 stay North's, safe.
    t = text("D2:n D3:s E2:n F2:s E3:n E4:s", "a3", "N1")
    pos = P(t)
    buf = core.MoveStack(1).buf
    n = pos.gen_forfeit(buf, 0, g.post_index("D1"), 1)
    got = sorted(C.format_move(pos, buf[i]) for i in range(n))
    assert got == ["D1!1 a3-a2", "D1!1 a3-a4", "D1!1 a3-b4"]  # 1 capture kept
    m = buf[0]
    out = [0] * 16
    k = C.footprint(pos, m, out)
    assert [(C.SITE_NAMES[e & 255], (e >> 8) & 3) for e in out[:2]] == [("D1", games.PLACE), ("D2", games.TOUCH)]
    assert ((out[2] >> 8) & 3) == games.LIFT and k == 4
    pos.make(m)
    assert F(pos).split()[0] == text("D1:s D2:s D3:s E2:n F2:s E3:n E4:s").split()[0]
    assert pos.tally[0] == 1
    pos.unmake(m)
    assert F(pos) == t
    # Keeping every capture is the ordinary turn's result.
    n = pos.gen_forfeit(buf, 0, g.post_index("D1"), 3)
    pos.make(buf[0])
    assert pos.tally[0] == 3


def test_count_is_the_number_of_turns_gen_writes_over_random_games():
    # perft's last ply counts the turns without writing them (count): it
    # must agree with gen in every mode, with captures that open Barriers,
    # capture wins, full boards and stuck sides, and leave the position as
    # it was.
    seed = 4242
    buf = core.MoveStack(1).buf
    checked = 0
    for mode in C.MODE_NAMES:
        for game in range(6):
            pos = P(C.START, mode)
            for ply in range(90):
                n = pos.gen(buf, 0)
                before = F(pos)
                assert pos.count(buf, 0) == n, (mode, before)
                assert F(pos) == before
                checked += 1
                if n == 0:
                    break
                seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
                pos.make(buf[seed % n])
    assert checked > 500


def test_gen_count_make_unmake_allocate_nothing():
    # heap_lock makes any allocation raise MemoryError on MicroPython; on
    # CPython the same code simply runs.
    pos = P("n.s./sn.ns/.nsns./ns.s.ns/.snns./ns.n./s.n. S:a4,c5,d2 N:d7,e4,c9 n 3 4")
    stack = core.MoveStack(3)
    want = engine_kit.perft(pos, 2, stack.buf)
    micropython.heap_lock()
    try:
        got = engine_kit.perft(pos, 2, stack.buf)
    finally:
        micropython.heap_unlock()
    assert got == want == 66447  # (the plain reference's count: bench/cornelson_bench.py)


def test_the_viper_loops_are_the_plain_ones_over_random_games():
    # MicroPython runs the viper path, CPython the plain one: both must give
    # the same turns, the same counts and the same positions after make and
    # unmake, in every mode (on CPython the viper source runs as Python).
    names = ("_mark_caps", "_place_chain", "_unplace_chain", "_make_turn", "_unmake_turn", "_jewel_sets", "_mark_bars", "_trapped_mask")
    plain = [core._mark_caps_py, core._place_chain_py, core._unplace_chain_py, core._make_turn_py, core._unmake_turn_py, core._jewel_sets_py, core._mark_bars_py, core._trapped_mask_py]
    viper = [core._mark_caps_v, core._place_chain_v, core._unplace_chain_v, core._make_turn_v, core._unmake_turn_v, core._jewel_sets_v, core._mark_bars_v, core._trapped_mask_v]
    kept = [getattr(core, n) for n in names]

    def use(fns):
        for n, f in zip(names, fns):
            setattr(core, n, f)

    buf = core.MoveStack(1).buf
    other = core.MoveStack(1).buf
    seed = 99
    checked = 0
    try:
        for mode in C.MODE_NAMES:
            for game in range(3):
                pos = P(C.START, mode)
                for ply in range(80):
                    use(plain)
                    n = pos.gen(buf, 0)
                    c = pos.count(buf, 0)
                    use(viper)
                    assert pos.gen(other, 0) == n and pos.count(other, 0) == c == n
                    assert [other[i] for i in range(n)] == [buf[i] for i in range(n)]
                    if n == 0:
                        break
                    before = F(pos)
                    seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
                    m = buf[seed % n]
                    use(plain)
                    pos.make(m)
                    after = (F(pos), pos.result, pos.reason, pos.filled)
                    pos.unmake(m)
                    assert F(pos) == before
                    use(viper)
                    pos.make(m)
                    assert (F(pos), pos.result, pos.reason, pos.filled) == after
                    pos.unmake(m)
                    assert F(pos) == before
                    pos.make(m)
                    checked += n
    finally:
        use(kept)
    assert checked > 3000
