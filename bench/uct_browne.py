# Browne's engine against an independent player (issue 26, item 4): UCT on
# top of the plain rules reference (tests/reference_browne.py, written from
# the rules, never from the firmware's core), not the project's core. CPython
# only (the reference is):
#
#   python3 bench/uct_browne.py [--games 30] [--nodes 90] [--playouts 90]
#                               [--level 5] [--seed 1]
#
# The engine (through the game face, every search capped at --nodes, no
# clock) plays one seat alone against two UCT seats of --playouts playouts a
# turn, its seat rotated (game i: seat i % 3), each game from two random turns
# (one opening per round of three). Every engine turn is checked against the
# reference's legal turns. Prints the engine's wins, ties and losses with a
# 95% Wilson interval for its win rate (a fair share is 1/3).
#
# UCT: a tree over the reference's turns (every legal turn a child), UCB1
# with c = 1.0 from the view of the player to move at each node, one random
# playout a visit (a random slide among the most-capturing, then a random
# drop: the reference's primitives, without listing every drop), a win
# scored 1 to the winner, a tie 0.5 to each player still in, and the most
# visited child played.
import argparse
import math
import os
import random
import sys

_here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(_here, "..", "firmware"))
sys.path.insert(0, os.path.join(_here, "..", "tests"))

import reference_browne as ref  # noqa: E402
from triad import games  # noqa: E402

BIG_BUDGET_MS = 1 << 28


def no_clock():
    return 0


def _random_turn(pieces, player, rng):
    """A random legal turn as the next (pieces, player), None when the game
    is over (the reference's game_over)."""
    if ref.game_over((pieces, player)):
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


def _result(pos):
    """{player: score} of a finished game (the reference's outcome)."""
    o = ref.outcome(ref.fmt(pos))
    if o == "draw":
        pieces, to_move = pos
        still = [p for p in ref.PLAYERS if ref.count(pieces, p) > 0]
        if len(still) == 3:
            still.remove(to_move)
        return {p: 0.5 for p in still}
    return {o: 1.0}


class Node:
    __slots__ = ("pos", "turns", "kids", "n", "w")

    def __init__(self, pos):
        self.pos = pos
        self.turns = None  # [(text, next pos)], listed at the first visit
        self.kids = {}
        self.n = 0
        self.w = {p: 0.0 for p in ref.PLAYERS}


def uct(pos, playouts, rng, c=1.0):
    root = Node(pos)
    for _ in range(playouts):
        node = root
        path = [node]
        # select / expand
        while True:
            if node.turns is None:
                node.turns = ref.turns(node.pos)
            if not node.turns:
                break
            untried = [i for i in range(len(node.turns)) if i not in node.kids]
            if untried:
                i = rng.choice(untried)
                child = Node(node.turns[i][1])
                node.kids[i] = child
                path.append(child)
                node = child
                break
            me = node.pos[1]
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
        while True:
            nxt = _random_turn(p[0], p[1], rng)
            if nxt is None:
                break
            p = nxt
        score = _result(p)
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
    return (mid - half, mid + half)


def main(argv=None):
    ap = argparse.ArgumentParser(description="Browne's engine alone against two UCT players on the reference")
    ap.add_argument("--games", type=int, default=30)
    ap.add_argument("--nodes", type=int, default=90)
    ap.add_argument("--playouts", type=int, default=90)
    ap.add_argument("--level", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    g = games.load("browne")
    eng = g.new_engine(args.level, 0)
    rng = random.Random(args.seed)
    wins = ties = losses = 0
    for i in range(args.games):
        seat = i % 3
        if seat == 0:
            opening_seed = rng.randrange(1 << 30)
        orng = random.Random(opening_seed)
        text = ref.START
        for _ in range(2):
            ms = ref.legal_moves(text)
            text = ref.apply(text, orng.choice(ms))
        eng.seed(args.seed * 7919 + i)
        urng = random.Random(args.seed * 104729 + i)
        me = ref.PLAYERS[seat]
        for _ply in range(300):
            if ref.outcome(text) is not None:
                break
            pos = ref.parse(text)
            if pos[1] == me:
                gp = g.parse_position(text)
                m = eng.choose(gp, BIG_BUDGET_MS, no_clock, None, args.nodes)
                move = g.format_move(gp, m)
                if move not in ref.legal_moves(text):
                    raise SystemExit("engine turn %r is not legal in %r" % (move, text))
            else:
                move = uct(pos, args.playouts, urng)
            text = ref.apply(text, move)
        o = ref.outcome(text)
        if o == me:
            wins += 1
        elif o == "draw" and ref.count(ref.parse(text)[0], me) > 0 and _result(ref.parse(text)).get(me):
            ties += 1
        else:
            losses += 1
        print("game %d seat %s: %s" % (i, me, o), flush=True)
    lo, hi = wilson(wins, args.games)
    print("uct_browne: L%d at %d nodes alone against two UCT of %d playouts: %d wins, %d ties, %d losses of %d"
          " (%.1f%% wins, 95%% interval %.1f-%.1f%%)"
          % (args.level, args.nodes, args.playouts, wins, ties, losses, args.games, 100.0 * wins / args.games,
             100 * lo, 100 * hi))


if __name__ == "__main__":
    main()
