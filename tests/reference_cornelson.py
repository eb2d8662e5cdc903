"""Deliberately simple reference implementation of Don Cornelson's TRIAD.

A test oracle, written from the rules text
(/work/shared/rules/cornelson-triad-rules.txt) and issue 14's settled
readings and notation contract -- NOT from the firmware's fast core, which it
must never import. It favours obviously-correct code over speed: names
everywhere, sets and dicts, a fresh state per turn, and every order of the
jewel steps tried by brute force. It runs unchanged on CPython and the
MicroPython unix port (bench/plain_cornelson.py uses it as the yardstick of
the speed ratio), so no itertools.

Geometry (issue 14): posts A1..G4, row y = 0..6, lattice X = |y-3| +
2*(index-1), neighbours at (+-2, 0) and (+-1, +-1). Treys row by row: rows
a-c alternate down/up starting with a down trey (a1 = A1 B1 B2), rows d-f
alternate up/down starting with an up trey (d1 = D1 D2 E1). Docks S1-S3
below A1-A2, A2-A3, A3-A4 and N1-N3 above G1-G2, G2-G3, G3-G4; portals
P1..P12 on the slanted sides, paired P1-P9 P2-P8 P3-P7 P4-P12 P5-P11 P6-P10.

Rules: see docs/cornelson.md (the same readings as the firmware).

The tourney (rules 12.0-12.4) is here too, from the rulebook alone: a Game
Tally (the outcomes each side has won), the rules of its next game and the
verdict on a finished game (tourney_rules, tourney_record). A game's rules
are the outcomes that end it and whether jewels play (a named mode or such
a pair), so a tourney's games are read by the same code as the named modes.
"""

ROWS = "ABCDEFG"
ROW_LEN = (4, 5, 6, 7, 6, 5, 4)
TREY_ROWS = "abcdef"
START = "..../...../....../......./....../...../.... S:S1,S2,S3 N:N1,N2,N3 s 0 0"
MODES = ("standard", "breach", "trap", "capture")
OUTCOMES = ("breach", "trap", "capture")
# A named mode's rules (13.1-13.3): (the outcomes that end a game, jewels play).
NAMED_RULES = {
    "standard": (frozenset(OUTCOMES), True),
    "breach": (frozenset(["breach"]), True),
    "trap": (frozenset(["trap"]), True),
    "capture": (frozenset(["capture"]), False),
}


def rules_of(mode):
    """(outcomes that end the game, jewels play) of a mode name or of such
    a pair (a tourney game's rules, tourney_rules)."""
    if mode in NAMED_RULES:
        return NAMED_RULES[mode]
    ends, jewels = mode
    return frozenset(ends), bool(jewels)


def _geometry():
    coord = {}
    rows = []
    for y in range(7):
        row = []
        for k in range(ROW_LEN[y]):
            name = ROWS[y] + str(k + 1)
            coord[name] = (abs(y - 3) + 2 * k, y)
            row.append(name)
        rows.append(row)
    at = {}
    for name in coord:
        at[coord[name]] = name
    lines = []  # (p, q, r) three consecutive posts on a straight line
    for name in coord:
        x, y = coord[name]
        for dx, dy in ((2, 0), (1, 1), (-1, 1), (-2, 0), (-1, -1), (1, -1)):
            q = at.get((x + dx, y + dy))
            r = at.get((x + 2 * dx, y + 2 * dy))
            if q and r:
                lines.append((name, q, r))
    treys = {}
    order = []
    for r in range(6):
        low = rows[r]
        up = rows[r + 1]
        tris = []
        if r < 3:
            for j in range(len(low)):
                tris.append((low[j], up[j], up[j + 1]))
                if j + 1 < len(low):
                    tris.append((low[j], low[j + 1], up[j + 1]))
        else:
            for j in range(len(up)):
                tris.append((low[j], low[j + 1], up[j]))
                if j + 1 < len(up):
                    tris.append((low[j + 1], up[j], up[j + 1]))
        for i in range(len(tris)):
            name = TREY_ROWS[r] + str(i + 1)
            treys[name] = frozenset(tris[i])
            order.append(name)
    outer = {
        "S1": "A1 A2", "S2": "A2 A3", "S3": "A3 A4",
        "N1": "G1 G2", "N2": "G2 G3", "N3": "G3 G4",
        "P1": "A4 B5", "P2": "B5 C6", "P3": "C6 D7", "P4": "D7 E6",
        "P5": "E6 F5", "P6": "F5 G4", "P7": "F1 G1", "P8": "E1 F1",
        "P9": "D1 E1", "P10": "C1 D1", "P11": "B1 C1", "P12": "A1 B1",
    }
    across = {}
    for a, b in (("P1", "P9"), ("P2", "P8"), ("P3", "P7"), ("P4", "P12"), ("P5", "P11"), ("P6", "P10")):
        across[a] = b
        across[b] = a
    # links[space] = list of (neighbour space, border or None for a transfer)
    links = {}
    for t in order:
        links[t] = []
    for a in order:
        for b in order:
            if a != b and len(treys[a] & treys[b]) == 2:
                links[a].append((b, treys[a] & treys[b]))
    spaces = list(order)
    for name in ("S1", "S2", "S3", "N1", "N2", "N3") + tuple("P" + str(i) for i in range(1, 13)):
        border = frozenset(outer[name].split())
        trey = [t for t in order if border <= treys[t]]
        assert len(trey) == 1
        links[name] = [(trey[0], border)]
        links[trey[0]].append((name, border))
        if name in across:
            links[name].append((across[name], None))
        spaces.append(name)
    return coord, lines, treys, links, spaces


COORD, LINES, TREYS, LINKS, SPACES = _geometry()
POSTS = sorted(COORD, key=lambda n: (ROWS.index(n[0]), int(n[1:])))
BORDERS = set()
for _t in TREYS.values():
    _l = sorted(_t)
    BORDERS.add(frozenset((_l[0], _l[1])))
    BORDERS.add(frozenset((_l[0], _l[2])))
    BORDERS.add(frozenset((_l[1], _l[2])))


def dock_owner(space):
    if space in ("S1", "S2", "S3"):
        return "s"
    if space in ("N1", "N2", "N3"):
        return "n"
    return None


def other(side):
    return "n" if side == "s" else "s"


class State:
    def __init__(self):
        self.posts = {}  # post -> 's' / 'n' (absent: empty)
        self.jewels = {"s": [], "n": []}  # lists of [space, arrived_by_transfer]
        self.side = "s"
        self.tally = {"s": 0, "n": 0}
        self.mode = "standard"
        self.ends, self.jewels_play = NAMED_RULES["standard"]
        self.winner = None  # None, 's', 'n' or 'draw'
        self.reason = None  # how: 'breach', 'trap', 'stuck', 'capture', 'full'

    def copy(self):
        c = State()
        c.posts = dict(self.posts)
        c.jewels = {"s": [list(j) for j in self.jewels["s"]], "n": [list(j) for j in self.jewels["n"]]}
        c.side = self.side
        c.tally = dict(self.tally)
        c.mode = self.mode
        c.ends = self.ends
        c.jewels_play = self.jewels_play
        c.winner = self.winner
        c.reason = self.reason
        return c

    def occupant(self, space):
        for side in "sn":
            for j in self.jewels[side]:
                if j[0] == space:
                    return side
        return None


def parse(text, mode="standard"):
    f = text.split()
    st = State()
    st.mode = mode
    st.ends, st.jewels_play = rules_of(mode)
    rows = f[0].split("/")
    for i in range(7):
        y = 6 - i
        for k in range(len(rows[i])):
            if rows[i][k] != ".":
                st.posts[ROWS[y] + str(k + 1)] = rows[i][k]
    for side, field in (("s", f[1]), ("n", f[2])):
        body = field[2:]
        if body != "-":
            for name in body.split(","):
                if name.endswith("!"):
                    st.jewels[side].append([name[:-1], True])
                else:
                    st.jewels[side].append([name, False])
    st.side = f[3]
    st.tally = {"s": int(f[4]), "n": int(f[5])}
    if not st.jewels_play:
        st.jewels = {"s": [], "n": []}  # (13.3, 12.4: jewels are not used at all)
    static_outcome(st)
    return st


def fmt(st):
    rows = []
    for y in range(6, -1, -1):
        rows.append("".join(st.posts.get(ROWS[y] + str(k + 1), ".") for k in range(ROW_LEN[y])))

    def jw(side):
        if not st.jewels[side]:
            return side.upper() + ":-"
        js = sorted(st.jewels[side], key=lambda j: SPACES.index(j[0]))
        return side.upper() + ":" + ",".join(j[0] + ("!" if j[1] else "") for j in js)

    return "%s %s %s %s %d %d" % ("/".join(rows), jw("s"), jw("n"), st.side, st.tally["s"], st.tally["n"])


def jewels_used(st):
    return st.jewels_play


def win(st, side, reason):
    st.winner = side
    st.reason = reason


def barrier(st, border, for_side):
    """A border is a Barrier for for_side's jewels when both posts hold the
    other side's gems."""
    return all(st.posts.get(p) == other(for_side) for p in border)


def can_step(st, side, jewel, to, in_trap_check=False):
    """May side's jewel [space, flag] step to `to` now (one step, the board
    as it stands)? Opponent docks count as reachable here (breach)."""
    frm, flag = jewel
    for nb, border in LINKS[frm]:
        if nb != to:
            continue
        if border is None:
            if flag:
                return False
        elif barrier(st, border, side):
            return False
        if dock_owner(to) == side:
            return False
        if dock_owner(to) and "breach" not in st.ends:
            return False  # (no Breach to win: the opponent's docks are shut)
        occ = st.occupant(to)
        if in_trap_check:
            return occ != other(side)
        return occ is None
    return False


def place(st, post):
    """Place the mover's gem and resolve the capture chain."""
    me = st.side
    st.posts[post] = me
    new = [post]
    while new:
        p = new.pop(0)
        for a, b, c in LINES:
            if a == p and st.posts.get(b) == other(me) and st.posts.get(c) == me:
                st.posts[b] = me
                st.tally[me] += 1
                new.append(b)


def capture_wins(st):
    return "capture" in st.ends and st.tally[st.side] >= 10


def trapped(st, side, jewel):
    for nb, border in LINKS[jewel[0]]:
        if can_step(st, side, jewel, nb, in_trap_check=True):
            return False
    return True


def _product(lists):
    if not lists:
        yield ()
        return
    for x in lists[0]:
        for rest in _product(lists[1:]):
            yield (x,) + rest


def _permutations(items):
    if not items:
        yield ()
        return
    for i in range(len(items)):
        for rest in _permutations(items[:i] + items[i + 1:]):
            yield (items[i],) + rest


def try_order(st, side, steps):
    """Carry out the steps (jewel index, target) in this order on a copy;
    the new state or None if a step is not possible when made."""
    s2 = st.copy()
    for idx, to in steps:
        j = s2.jewels[side][idx]
        if not can_step(s2, side, j, to):
            return None
        transfer = False
        for nb, border in LINKS[j[0]]:
            if nb == to and border is None:
                transfer = True
        j[0] = to
        j[1] = transfer
    return s2


def step_sets(st, movers):
    """{frozenset of (from, to): state after} for every set in which exactly
    the jewels `movers` (indices) step once, onto no dock of the opponent,
    in some executable order (every order tried)."""
    side = st.side
    found = {}
    options = []
    for idx in movers:
        frm = st.jewels[side][idx][0]
        options.append([(idx, nb) for nb, b in LINKS[frm] if dock_owner(nb) is None])
    for choice in _product(options):
        key = frozenset((st.jewels[side][idx][0], to) for idx, to in choice)
        if len(key) != len(choice) or key in found:
            continue
        for order in _permutations(list(choice)):
            s2 = try_order(st, side, order)
            if s2 is not None:
                found[key] = (s2, order)
                break
    return found


def finish(st, breach=False):
    """After the mover's turn: outcomes, then pass the turn."""
    me = st.side
    if breach:
        win(st, me, "breach")
    elif jewels_used(st):
        for j in list(st.jewels[other(me)]):
            if trapped(st, other(me), j):
                if "trap" not in st.ends:
                    # (a game of Breach; a tourney's game once both have
                    # won by Trap, 12.3: the trapped jewel leaves play)
                    st.jewels[other(me)].remove(j)
                else:
                    win(st, me, "trap")
                    break
    if st.winner is None and len(st.posts) == 37:
        if not jewels_used(st) or not (st.jewels["s"] or st.jewels["n"]):
            win(st, "draw", "full")
    st.side = other(me)
    return st


def static_outcome(st):
    """The outcome a position shows by itself (as the firmware derives it)."""
    st.winner = None
    st.reason = None
    if "breach" in st.ends:
        for side in "sn":
            for j in st.jewels[side]:
                if dock_owner(j[0]) == other(side):
                    win(st, side, "breach")
                    return
    if "capture" in st.ends:
        for side in "sn":
            if st.tally[side] >= 10:
                win(st, side, "capture")
                return
    if "trap" in st.ends:
        for j in st.jewels[st.side]:
            if trapped(st, st.side, j):
                win(st, other(st.side), "trap")
                return
    if len(st.posts) == 37 and (not st.jewels_play or not (st.jewels["s"] or st.jewels["n"])):
        win(st, "draw", "full")


def turns(st):
    """{(post or None, frozenset of (from, to)): (next state, text)}."""
    out = {}
    for key, s2, text in iter_turns(st):
        out[key] = (s2, text)
    return out


def iter_turns(st, posts=None):
    """Each turn once as (key, next state, text), one at a time (so a perft
    keeps only its current line in memory). posts: only the turns that
    place on these (None for the turn that places nothing)."""
    if st.winner is not None:
        return
    me = st.side
    vacant = [p for p in POSTS if p not in st.posts]
    heads = vacant or [None]
    if posts is not None:
        heads = [p for p in heads if p in posts]
    for post in heads:
        s1 = st.copy()
        if post is not None:
            place(s1, post)
        head = post or "-"
        if capture_wins(s1):
            win(s1, me, "capture")
            s1.side = other(me)
            yield (post, frozenset()), s1, head
            continue
        if not jewels_used(s1):
            yield (post, frozenset()), finish(s1), head
            continue
        mine = s1.jewels[me]
        any_breach = False
        for idx in range(len(mine)):
            for nb, b in LINKS[mine[idx][0]]:
                if dock_owner(nb) == other(me) and can_step(s1, me, mine[idx], nb):
                    s2 = try_order(s1, me, [(idx, nb)])
                    yield ((post, frozenset([(mine[idx][0], nb)])),
                           finish(s2, breach=True), head + " " + mine[idx][0] + "-" + nb)
                    any_breach = True
        sets = step_sets(s1, list(range(len(mine))))
        if not sets and "trap" not in s1.ends:
            # (no Trap to win: a player who cannot step every jewel steps
            # as many as possible)
            size = len(mine) - 1
            while not sets and size >= 0:
                for sub in _subsets(list(range(len(mine))), size):
                    sets.update(step_sets(s1, list(sub)))
                size -= 1
        for key in sets:
            s2, order = sets[key]
            text = " ".join([head] + [s1.jewels[me][i][0] + "-" + to for i, to in order])
            yield (post, key), finish(s2), text
        if not sets and not any_breach:
            win(s1, other(me), "stuck")  # (a Trap for the other side)
            s1.side = other(me)
            yield (post, frozenset()), s1, head


def random_turn(st, rng):
    """A random legal turn (key, next state, text) without listing them all
    (the fuzzer's: listing every turn costs a whole jewel phase per vacant
    post): a vacant post uniformly, then one of that post's turns uniformly.
    Every post has at least one turn (a stuck player's is the placement
    alone), so this is always legal; and the jewel steps scarcely depend on
    the post, so it is close to uniform over all turns. None when the game
    is over."""
    if st.winner is not None:
        return None
    vacant = [p for p in POSTS if p not in st.posts]
    post = rng.choice(vacant) if vacant else None
    ts = list(iter_turns(st, [post]))
    return rng.choice(ts)


def turns_placing(st, head):
    """The turns whose head (a post, or "-" for none) is head: a turn's
    text begins with it."""
    post = None if head == "-" else head
    if post is not None and post not in COORD:
        return []
    return list(iter_turns(st, [post]))


# -- the tourney (12.0-12.4) ----------------------------------------------------


def tourney_rules(won):
    """The rules of a tourney's next game, from its Game Tally won = {"s":
    set of outcomes, "n": set}: an outcome both players have won ends no
    game any more (12.2; once both have Trap a trapped jewel leaves play,
    12.3, as in a game of Breach); once both have Breach and Trap the game
    is gems only until a Capture (12.4)."""
    both = set(won["s"]) & set(won["n"])
    if "breach" in both and "trap" in both:
        return (frozenset(["capture"]), False)
    return (frozenset(o for o in OUTCOMES if o not in both), True)


def outcome_of(winner, reason):
    """The tourney outcome a finished game (a state's winner and reason) was
    won by (a stuck player's loss is a Trap, 5.8), or None (not won: a draw
    or unfinished)."""
    if winner not in ("s", "n"):
        return None
    return "trap" if reason == "stuck" else reason


def tourney_record(won, winner, outcome):
    """Enter a finished game into the Game Tally: (verdict, tally after).
    Verdicts: "none" (no winner), "drawn" (12.1: an outcome only one player
    has already won, the winner or the other), "tally" (counted), "won" (the
    winner now has all three outcomes: the tourney is won, and the next game
    begins a new one with an empty tally)."""
    after = {"s": set(won["s"]), "n": set(won["n"])}
    if winner not in ("s", "n") or outcome is None:
        return "none", after
    if (outcome in after["s"]) != (outcome in after["n"]):
        return "drawn", after
    after[winner].add(outcome)
    if len(after[winner]) == 3:
        return "won", {"s": set(), "n": set()}
    return "tally", after


def tally_word(won):
    """The Game Tally as the board's setting `series` writes it: south's
    outcomes then north's, each the letters b, t, c in that order or "-"."""
    parts = []
    for side in "sn":
        parts.append("".join(o[0] for o in OUTCOMES if o in won[side]) or "-")
    return ":".join(parts)


def _subsets(items, size):
    if size == 0:
        yield ()
        return
    for i in range(len(items)):
        for rest in _subsets(items[i + 1:], size - 1):
            yield (items[i],) + rest


def perft_state(st, depth):
    if depth == 0:
        return 1
    total = 0
    for key, s2, text in iter_turns(st):
        total += 1 if depth == 1 else perft_state(s2, depth - 1)
    return total


def perft(text, depth, mode="standard"):
    return perft_state(parse(text, mode), depth)


def turn_texts(text, mode="standard"):
    """{normalised turn: resulting position text} where a normalised turn is
    (post or '-', sorted tuple of 'from-to')."""
    out = {}
    ts = turns(parse(text, mode))
    for key in ts:
        post, steps = key
        norm = (post or "-", tuple(sorted(a + "-" + b for a, b in steps)))
        out[norm] = fmt(ts[key][0])
    return out
