# A plain Cornelson's TRIAD perft that is not wasteful: the yardstick of
# issue 26. The reference of the tests (tests/reference_cornelson.py, names,
# dicts, a fresh state per turn) builds every leaf; this one, written as
# plainly, counts the last ply the way a careful implementer would: the
# jewel phase (the step sets) once per set of captured posts, paired with
# every placement that captures those (the mover's own new gem never bars
# its own jewels: only the opponent's gems make Barriers against it), each
# post's captures found through the lines at that post without copying the
# state. The plies above walk the reference's turns. It must never import
# the firmware.
import sys

_here = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
_tests = _here + "/../tests"
if _tests not in sys.path:
    sys.path.append(_tests)

import reference_cornelson as R  # noqa: E402
from reference_cornelson import START, parse  # noqa: E402,F401



def _phase_count(s1):
    """The number of turns that follow the placement that made s1 (the
    reference's rules: a Capture win or no jewels is the placement alone;
    breach singles, step sets, the breach game's smaller sets, a stuck
    side's losing turn)."""
    me = s1.side
    if R.capture_wins(s1) or not R.jewels_used(s1):
        return 1
    mine = s1.jewels[me]
    n = 0
    for idx in range(len(mine)):
        for nb, b in R.LINKS[mine[idx][0]]:
            if R.dock_owner(nb) == R.other(me) and R.can_step(s1, me, mine[idx], nb):
                n += 1
    sets = R.step_sets(s1, list(range(len(mine))))
    if not sets and s1.mode == "breach":
        size = len(mine) - 1
        while not sets and size >= 0:
            for sub in R._subsets(list(range(len(mine))), size):
                sets.update(R.step_sets(s1, list(sub)))
            size -= 1
    if not sets and not n:
        return 1
    return n + len(sets)


# The lines through each post, looked up by the post (the reference walks
# every line per placed gem): {post: [(next, beyond), ...]}.
_LINES_AT = {}
for _a, _b, _c in R.LINES:
    _LINES_AT.setdefault(_a, []).append((_b, _c))


def _chain(posts, me, post):
    """The posts a gem of me on post would capture (its chain), without
    changing posts: a set."""
    them = R.other(me)
    taken = set()
    new = [post]
    while new:
        p = new.pop()
        for b, c in _LINES_AT.get(p, ()):
            if b not in taken and posts.get(b) == them and (c == post or c in taken or posts.get(c) == me):
                taken.add(b)
                new.append(b)
    return taken


def count(st):
    """The turns of st, the jewel phase once per set of captured posts (a
    placement is copied and played only for the first post of each set)."""
    if st.winner is not None:
        return 0
    vacant = [p for p in R.POSTS if p not in st.posts]
    if not vacant:
        return _phase_count(st.copy())
    me = st.side
    seen = {}
    n = 0
    for post in vacant:
        captured = frozenset(_chain(st.posts, me, post))
        if captured not in seen:
            # (the same captures give the same tally: a Capture win too)
            s1 = st.copy()
            R.place(s1, post)
            seen[captured] = _phase_count(s1)
        n += seen[captured]
    return n


def perft(state, depth):
    if depth == 0:
        return 1
    if depth == 1:
        return count(state)
    total = 0
    for key, s2, text in R.iter_turns(state):
        total += perft(s2, depth - 1)
    return total
