# The engines against an independent player (issue 26, item 4): UCT on top
# of each game's plain rules reference (tests/reference_<game>.py, written
# from the rules, never from the firmware's core), not the project's core.
# CPython only (the references are):
#
#   python3 bench/uct.py GAME [--games 30] [--nodes N] [--playouts N]
#                             [--level 5] [--seed 1] [--jobs 1]
#
# The engine (through the game face, every search capped at --nodes, no
# clock) plays one seat against UCT seats of --playouts playouts a turn (in
# Browne's game alone against two), its seat rotated (game i: seat i % the
# number of players), each game from two random turns (one opening per
# round of seats). Every engine turn is checked against the reference's
# legal turns. A game longer than MAX_PLIES is a tie. Prints the engine's
# wins, ties and losses with a 95% Wilson interval for its win rate.
#
# UCT: a tree over the reference's turns (every legal turn a child), UCB1
# with c = 1.0 from the view of the player to move at each node, one random
# playout a visit (each game's adapter's random turn: the reference's own
# primitives, without listing every turn), a win scored 1 to the winner, a
# tie 0.5 to each player still in, and the most visited child played.
# --jobs plays the games in that many processes; each game's engine, seeds
# and opening depend on its number only, so the result does not depend on
# --jobs.
#
# --results FILE keeps each finished game's line in FILE (appended as it
# finishes, under a first line naming the match and a digest of the code it
# was played with): a run stopped part-way goes on from the games not yet in
# it, and a match whose code changed starts again (`make bench-uct`).
#
# --lone-uct P puts a UCT player of P playouts a turn in the engine's seat
# instead (the same games, openings and seats): what UCT itself scores
# there, the scale the engine's figure is read against (a fair share alone
# against two is not a win rate of 33%: ties take part of it).
import argparse
import hashlib
import math
import os
import random
import sys

_here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(_here, "..", "firmware"))
sys.path.insert(0, os.path.join(_here, "..", "tests"))

from triad import games  # noqa: E402

BIG_BUDGET_MS = 1 << 28
MAX_PLIES = 300  # a match game longer than this is a tie
MAX_PLAYOUT = 400  # a playout longer than this is a tie (Nehren's can wander)


def no_clock():
    return 0


# -- game adapters: each game's reference behind one shape -------------------
# PLAYERS (the reference's players in seat order), start(), opening(state,
# rng), mover(state), result(state) ({player: score} once the game is over,
# else None), face_text(state) (the position in
# the face's notation) and after_engine(state, face move text) (the next
# state, SystemExit if the turn is not legal in the reference), after_uct.
# The tree and the playouts run on tree_state(state): tree_turns, tree_mover,
# random_next, playout_result.


class Browne:
    """Browne's Triad: alone against two. The playout's random turn: a
    random slide among the most-capturing, then a random drop."""

    def __init__(self):
        import reference_browne as ref

        self.ref = ref
        self.PLAYERS = ref.PLAYERS

    def start(self):
        return self.ref.START

    def opening(self, text, rng):
        ref = self.ref
        for _ in range(2):
            text = ref.apply(text, rng.choice(ref.legal_moves(text)))
        return text

    def mover(self, text):
        return text.split()[-1]

    def result(self, text):
        if self.ref.outcome(text) is None:
            return None
        return self._score(self.ref.parse(text))

    def _score(self, pos):
        ref = self.ref
        o = ref.outcome(ref.fmt(pos))
        if o == "draw":
            pieces, to_move = pos
            still = [p for p in ref.PLAYERS if ref.count(pieces, p) > 0]
            if len(still) == 3:
                still.remove(to_move)
            return {p: 0.5 for p in still}
        return {o: 1.0}

    # the tree and the playouts run on (pieces, player); texts only at the
    # match's level
    def tree_state(self, text):
        return self.ref.parse(text)

    def tree_turns(self, pos):
        return self.ref.turns(pos)

    def tree_mover(self, pos):
        return pos[1]

    def random_next(self, pos, rng):
        ref = self.ref
        pieces, player = pos
        if ref.game_over(pos):
            return None
        ss = ref.slides(pieces, player)
        caps = [ref.captured_by(pieces, player, t) for _, t in ss]
        most = max(len(c) for c in caps)
        k = rng.choice([i for i in range(len(ss)) if len(caps[i]) == most])
        fr, to = ss[k]
        after = dict(pieces)
        del after[fr]
        after[to] = player
        for c in caps[k]:
            del after[c]
        cand = ref.colour(to)
        bunny = [p for p in ref.others(player) if p != cand][0]
        if all(ref.count(after, p) for p in ref.PLAYERS):
            empty = [c for c in ref.CELLS if c not in after]
            after[rng.choice(empty)] = bunny
        return after, cand

    def playout_result(self, pos):
        return self._score(pos)

    def face_text(self, text):
        return text

    def after_engine(self, text, move):
        if move not in self.ref.legal_moves(text):
            raise SystemExit("engine turn %r is not legal in %r" % (move, text))
        return self.ref.apply(text, move)

    def after_uct(self, text, move):
        return self.ref.apply(text, move)


class Nehren:
    """Nehren's Triad, two players. The playout's random turn: the
    reference's random_result (a random die with a regular move, then one
    of its moves)."""

    def __init__(self):
        import reference_nehren as ref

        self.ref = ref
        self.PLAYERS = ref.COLOURS

    def start(self):
        return self.ref.parse_position(self.ref.START)

    def opening(self, pos, rng):
        for _ in range(2):
            pos = rng.choice(self.ref.legal_results(pos))[1]
        return pos

    def mover(self, pos):
        return pos["side"]

    def result(self, pos):
        w = self.ref.winner_of(pos)
        if w is not None:
            return {w: 1.0}
        if not self.ref.legal_results(pos):
            return {"b": 0.5, "w": 0.5}
        return None

    def tree_state(self, pos):
        return pos

    def tree_turns(self, pos):
        return self.ref.legal_results(pos)

    def tree_mover(self, pos):
        return pos["side"]

    def random_next(self, pos, rng):
        r = self.ref.random_result(pos, rng)
        return None if r is None else r[1]

    def playout_result(self, pos):
        return self.result(pos) or {"b": 0.5, "w": 0.5}

    def face_text(self, pos):
        return self.ref.format_position(pos)

    def after_engine(self, pos, move):
        for m, nxt in self.ref.legal_results(pos):
            if m == move:
                return nxt
        raise SystemExit("engine turn %r is not legal in %r" % (move, self.face_text(pos)))

    def after_uct(self, pos, move):
        return self.after_engine(pos, move)


class Cornelson:
    """Cornelson's Triad, two players. The playout's random turn: the
    reference's random_turn (a random vacant post, then one of its turns);
    states carry their outcome (a player who cannot move has lost, which a
    position's text alone does not show)."""

    def __init__(self):
        import reference_cornelson as ref

        self.ref = ref
        self.PLAYERS = "sn"

    def start(self):
        return self.ref.parse(self.ref.START)

    def opening(self, st, rng):
        for _ in range(2):
            st = rng.choice(list(self.ref.iter_turns(st)))[1]
        return st

    def mover(self, st):
        return st.side

    def result(self, st):
        w = st.winner
        if w is None:
            return None
        if w == "draw":
            return {"s": 0.5, "n": 0.5}
        return {w: 1.0}

    def tree_state(self, st):
        return st

    def tree_turns(self, st):
        return [(text, s2) for key, s2, text in self.ref.iter_turns(st)]

    def tree_mover(self, st):
        return st.side

    def random_next(self, st, rng):
        r = self.ref.random_turn(st, rng)
        return None if r is None else r[1]

    def playout_result(self, st):
        return self.result(st) or {"s": 0.5, "n": 0.5}

    def face_text(self, st):
        return self.ref.fmt(st)

    @staticmethod
    def _key(text):
        f = text.split()
        return (None if f[0] == "-" else f[0]), frozenset(tuple(s.split("-")) for s in f[1:])

    def after_engine(self, st, move):
        want = self._key(move)
        for key, s2, text in self.ref.iter_turns(st):
            if key == want:
                return s2
        raise SystemExit("engine turn %r is not legal in %r" % (move, self.face_text(st)))

    def after_uct(self, st, move):
        return self.after_engine(st, move)


ADAPTERS = {"browne": Browne, "nehren": Nehren, "cornelson": Cornelson}


# -- UCT -----------------------------------------------------------------------


class Node:
    __slots__ = ("pos", "turns", "kids", "n", "w")

    def __init__(self, pos, players):
        self.pos = pos
        self.turns = None  # [(text, next pos)], listed at the first visit
        self.kids = {}
        self.n = 0
        self.w = {p: 0.0 for p in players}


def uct(game, pos, playouts, rng, c=1.0):
    """The turn (its text) UCT plays in the tree state pos."""
    root = Node(pos, game.PLAYERS)
    for _ in range(playouts):
        node = root
        path = [node]
        # select / expand
        while True:
            if node.turns is None:
                node.turns = game.tree_turns(node.pos)
            if not node.turns:
                break
            untried = [i for i in range(len(node.turns)) if i not in node.kids]
            if untried:
                i = rng.choice(untried)
                child = Node(node.turns[i][1], game.PLAYERS)
                node.kids[i] = child
                path.append(child)
                node = child
                break
            me = game.tree_mover(node.pos)
            ln = math.log(node.n)
            best = None
            bv = -1.0
            for i, k in node.kids.items():
                v = k.w[me] / k.n + c * math.sqrt(ln / k.n)
                if v > bv:
                    bv = v
                    best = k
            node = best
            path.append(node)
        # playout
        p = node.pos
        for _ply in range(MAX_PLAYOUT):
            nxt = game.random_next(p, rng)
            if nxt is None:
                break
            p = nxt
        score = game.playout_result(p)
        for nd in path:
            nd.n += 1
            for q, s in score.items():
                nd.w[q] += s
    best = max(root.kids.items(), key=lambda kv: kv[1].n)[0]
    return root.turns[best][0]


def wilson(k, n, z=1.96):
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    d = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    # (clamped: at 0 or n wins rounding printed "-0.0")
    return (max(0.0, mid - half), min(1.0, mid + half))


def play_game(job):
    """One game: (game number, 'win' | 'tie' | 'loss', plies)."""
    name, level, nodes, playouts, seed, i, opening_seed, lone = job
    game = ADAPTERS[name]()
    g = games.load(name)
    eng = g.new_engine(level, 0)
    me = game.PLAYERS[i % len(game.PLAYERS)]
    state = game.opening(game.start(), random.Random(opening_seed))
    eng.seed(seed * 7919 + i)
    urng = random.Random(seed * 104729 + i)
    lrng = random.Random(seed * 15485863 + i)
    plies = 0
    score = None
    for plies in range(MAX_PLIES):
        score = game.result(state)
        if score is not None:
            break
        mover = game.mover(state)
        if mover == me and not lone:
            gp = g.parse_position(game.face_text(state))
            m = eng.choose(gp, BIG_BUDGET_MS, no_clock, None, nodes)
            state = game.after_engine(state, g.format_move(gp, m))
        else:
            # a UCT seat: the lone one (--lone-uct) with its own playouts and stream
            n, r = (lone, lrng) if mover == me else (playouts, urng)
            state = game.after_uct(state, uct(game, game.tree_state(state), n, r))
    if score is None:
        score = game.result(state)
    if score is None:  # cut at MAX_PLIES
        return i, "tie", plies
    mine = score.get(me, 0.0)
    return i, ("win" if mine == 1.0 else "tie" if mine > 0 else "loss"), plies


def code_digest(game):
    """A digest of what a match's games depend on: the firmware (the
    engine and its game), the game's rules reference and this file."""
    root = os.path.normpath(os.path.join(_here, ".."))
    paths = [os.path.join(_here, "uct.py"), os.path.join(root, "tests", "reference_%s.py" % game)]
    for top, dirs, files in os.walk(os.path.join(root, "firmware", "triad")):
        dirs.sort()
        paths.extend(os.path.join(top, f) for f in sorted(files) if f.endswith(".py"))
    h = hashlib.sha256()
    for p in paths:
        h.update(os.path.relpath(p, root).encode())
        with open(p, "rb") as f:
            h.update(f.read())
    return h.hexdigest()[:16]


def read_results(path, head):
    """{game number: (result, plies)} of a results file made for this match
    with this code, else {} (a missing file, another match or other code:
    it starts again)."""
    try:
        with open(path) as f:
            lines = f.read().splitlines()
    except OSError:
        return {}
    if not lines or lines[0] != head:
        return {}
    done = {}
    for ln in lines[1:]:
        parts = ln.replace(":", "").split()
        # (a line cut by a stop part-way is left out: that game is played again)
        if len(parts) == 4 and parts[0] == "game" and parts[2] in ("win", "tie", "loss") and parts[1].isdigit() \
                and parts[3].isdigit():
            done[int(parts[1])] = (parts[2], int(parts[3]))
    return done


def main(argv=None):
    ap = argparse.ArgumentParser(description="An engine against UCT players on the game's plain rules reference")
    ap.add_argument("game", choices=sorted(ADAPTERS))
    ap.add_argument("--games", type=int, default=30)
    ap.add_argument("--nodes", type=int, required=True, help="the engine's node cap a search")
    ap.add_argument("--playouts", type=int, required=True, help="UCT playouts a turn")
    ap.add_argument("--level", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--lone-uct", type=int, default=0, metavar="P",
                    help="a UCT player of P playouts in the engine's seat instead (calibration)")
    ap.add_argument("--results", default=None, metavar="FILE",
                    help="keep finished games here; a run goes on from those not yet in it")
    args = ap.parse_args(argv)
    seats = len(ADAPTERS[args.game]().PLAYERS)
    rng = random.Random(args.seed)
    jobs = []
    for i in range(args.games):
        if i % seats == 0:
            opening_seed = rng.randrange(1 << 30)
        jobs.append((args.game, args.level, args.nodes, args.playouts, args.seed, i, opening_seed, args.lone_uct))
    tally = {"win": 0, "tie": 0, "loss": 0}
    kept = None
    if args.results:
        head = "# uct %s level %d nodes %d playouts %d seed %d lone %d code %s" % (
            args.game, args.level, args.nodes, args.playouts, args.seed, args.lone_uct, code_digest(args.game))
        done = read_results(args.results, head)
        for i, (r, plies) in sorted(done.items()):
            if i < args.games:
                tally[r] += 1
                print("game %d seat %d: %s (%d plies; kept)" % (i, i % seats, r, plies), flush=True)
        jobs = [j for j in jobs if j[5] not in done]
        if not done:
            os.makedirs(os.path.dirname(os.path.abspath(args.results)), exist_ok=True)
            with open(args.results, "w") as f:
                f.write(head + "\n")
        with open(args.results, "rb") as f:
            cut = not f.read().endswith(b"\n")
        kept = open(args.results, "a")
        if cut:
            kept.write("\n")  # (after a line cut by a stop part-way)
    if args.jobs > 1 and len(jobs) > 1:
        import multiprocessing

        pool = multiprocessing.Pool(args.jobs)
        results = pool.imap_unordered(play_game, jobs)
    else:
        pool = None
        results = map(play_game, jobs)
    for i, r, plies in results:
        tally[r] += 1
        print("game %d seat %d: %s (%d plies)" % (i, i % seats, r, plies), flush=True)
        if kept is not None:
            kept.write("game %d: %s %d\n" % (i, r, plies))
            kept.flush()
    if pool is not None:
        pool.close()
    if kept is not None:
        kept.close()
    n = args.games
    lo, hi = wilson(tally["win"], n)
    who = ("UCT of %d playouts" % args.lone_uct) if args.lone_uct else ("L%d at %d nodes" % (args.level, args.nodes))
    print("uct: %s %s %s UCT of %d playouts: %d wins, %d ties, %d losses of %d"
          " (%.1f%% wins, 95%% interval %.1f-%.1f%%)"
          % (args.game, who, "alone against two" if seats == 3 else "against",
             args.playouts, tally["win"], tally["tie"], tally["loss"], n, 100.0 * tally["win"] / n,
             100 * lo, 100 * hi))


if __name__ == "__main__":
    main()
