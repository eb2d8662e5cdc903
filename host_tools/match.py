"""Engines against each other (or against simple players) over many set-ups.

Players: 1..5 (engine levels), "random" (any legal move), "greedy" (a move
that raises its score when there is one, else a random move: for Nehren a
Triad) and "quick" (the game's quick_move, the board's hint without its
engine). With n sides, game i uses set-up roll number i // n and the first
player takes seat i % n (for two sides: the players swap colours between the
two games of a roll); the first side begins. A game ends at the game's result
or its draw rule (draw_watch).

With three sides the first player sits alone against two seats of the
second: "wins" are games it finishes first alone, "draws" ties it shares
(the face's optional drawn_sides(pos) names the tied sides), everything else
a loss. There "greedy" takes the most pieces from the opponents (the score
they lose), a random one of those; under Browne's max-capture rule every
legal turn captures the same, so it is a random slide and a random drop.
"""
import argparse
import random
import time

import host_tools  # noqa: F401  (puts firmware/ on the path)
from host_tools import games

DEFAULT_TT = 1 << 15
NODES_MS = 3600000  # the time budget when a node cap bounds the search
MAX_PLIES = 2000  # a safety net; the draw rule ends games long before


def host_now_ms():
    """time.ticks_ms for the host: milliseconds wrapping at 2**30."""
    return int(time.perf_counter() * 1000) & 0x3FFFFFFF


def setup_position(seed, start="b", game=None):
    """The start position of set-up roll `seed` (for Nehren: each player
    rolls six dice, placed ascending from the player's left); `start` the
    letter of the side that begins."""
    game = game or games.load()
    first = game.SIDES.index(start) if start in game.SIDES else 0
    return games.new_start(game, seed, first)[0]


def player_name(spec):
    spec = str(spec).lower()
    if spec in ("random", "greedy", "quick"):
        return spec
    if spec.startswith("l"):
        spec = spec[1:]
    if spec in ("1", "2", "3", "4", "5"):
        return "L" + spec
    raise ValueError("unknown player %r: use 1..5, random, greedy or quick" % spec)


def new_engine(game, level, tt, seed=1):
    """The game's engine at a level, its random choices seeded (optional
    engine attributes: seed(n), or an `rng` whose class takes a seed)."""
    if game.new_engine is None:
        return None
    eng = game.new_engine(level, tt)
    if callable(getattr(eng, "seed", None)):
        eng.seed(seed)
    elif getattr(eng, "rng", None) is not None:
        eng.rng = type(eng.rng)(seed)
    return eng


class Player:
    """One seat: choose(pos, history_keys) -> move int."""

    def __init__(self, spec, ms, tt=DEFAULT_TT, seed=1, nodes=0, game=None):
        self.game = game or games.load()
        self.name = player_name(spec)
        self.ms = ms
        self.nodes = nodes  # a node cap per search (0: none); see run_match
        self.rng = random.Random(seed)
        self.engine = None
        self.buf = games.move_buffer(self.game)
        if self.name.startswith("L"):
            self.engine = new_engine(self.game, int(self.name[1:]), tt, seed)
            if self.engine is None:
                raise ValueError("%s has no engine: use random, greedy or quick" % self.game.TITLE)

    def key(self, pos):
        return self.engine.key(pos) if self.engine else 0

    def choose(self, pos, history):
        g = self.game
        if self.engine:
            return self.engine.choose(pos, self.ms, host_now_ms, history, self.nodes)
        if self.name == "quick":
            m = g.quick_move(pos)
            if m:
                return m
        moves = games.legal_moves(g, pos, buf=self.buf)
        if self.name == "greedy" and len(g.SIDES) > 2:
            return self.rng.choice(most_taken(g, pos, moves))
        if self.name == "greedy":
            side = pos.side
            before = g.score(pos, side)
            scoring = []
            for m in moves:
                pos.make(m)
                if g.score(pos, side) > before:
                    scoring.append(m)
                pos.unmake(m)
            if scoring:
                return self.rng.choice(scoring)
        return self.rng.choice(moves)


def most_taken(game, pos, moves):
    """The moves that raise the mover's score most and, among those, take
    the most from the other sides' scores (a game of three or more)."""
    side = pos.side
    n = len(game.SIDES)
    best = None
    out = []
    for m in moves:
        before = [game.score(pos, s) for s in range(n)]
        pos.make(m)
        gain = game.score(pos, side) - before[side]
        taken = sum(before[s] - game.score(pos, s) for s in range(n) if s != side)
        pos.unmake(m)
        key = (gain, taken)
        if best is None or key > best:
            best = key
            out = [m]
        elif key == best:
            out.append(m)
    return out


def seat_result(game, pos, res, seat):
    """"w" when seat won (alone), "d" for a draw it shares, else "l". With
    two sides every draw is shared; with more, the face's drawn_sides(pos)
    names the sides of a draw (every side for a game without the hook)."""
    if res == games.DRAW:
        if seat not in game.drawn_sides(pos):
            return "l"
        return "d"
    return "w" if res == seat else "l"


def play_game(players, start_text, max_plies=MAX_PLIES, game=None, final=None):
    """Play one game, players[i] on side i; return (result, plies, stats)
    where result is the winning side's index or DRAW and stats[side] =
    [moves, seconds]. final: a list that gets the last position."""
    if not isinstance(players, (list, tuple)):  # play_game(black, white, start)
        raise TypeError("players: one Player per side")
    game = game or players[0].game
    start = game.parse_position(start_text)
    pos = start.copy()
    watch = game.draw_watch(start.copy()) if game.draw_watch is not None else None
    history = []
    stats = [[0, 0.0] for _ in players]
    plies = 0
    while game.outcome(pos) < 0 and plies < max_plies:
        side = pos.side
        pl = players[side]
        t = time.perf_counter()
        keys = pl.engine.history_keys(start, history) if pl.engine else []
        m = pl.choose(pos, keys)
        stats[side][1] += time.perf_counter() - t
        stats[side][0] += 1
        if not m:
            break  # no move although the game goes on: call it a draw
        pos.make(m)  # raises nothing: the move comes from the position
        history.append(m)
        plies += 1
        if watch is not None and watch.push(pos, m):
            if final is not None:
                final.append(pos)
            return games.DRAW, plies, stats
    if final is not None:
        final.append(pos)
    w = game.outcome(pos)
    return (w if w >= 0 else games.DRAW), plies, stats


def _game_job(job):
    a, b, i, ms, seed, tt, nodes, name = job
    game = games.load(name)
    n = len(game.SIDES)
    seat = i % n
    players = []
    for s in range(n):
        if s == seat:
            players.append(Player(a, ms, tt, seed=seed * 7919 + i * 2 + 1, nodes=nodes, game=game))
        else:
            k = (s - seat) % n - 1  # 0 for the first opponent
            players.append(Player(b, ms, tt, seed=seed * 7919 + i * 2 + 2 + 7919 * k, nodes=nodes, game=game))
    start = setup_position(seed * 100003 + i // n, game.SIDES[0], game)
    final = []
    res, plies, st = play_game(players, start, game=game, final=final)
    a_res = seat_result(game, final[-1], res, seat)
    b_st = [0, 0.0]
    for s in range(n):
        if s != seat:
            b_st[0] += st[s][0]
            b_st[1] += st[s][1]
    return a_res, plies, st[seat], b_st


def run_match(a, b, games=20, ms=100, jobs=1, seed=1, tt=DEFAULT_TT, nodes=0, game="nehren"):
    """Play `games` games of a against b; return a result dict. nodes > 0
    caps every engine search at about that many nodes (the engine looks at
    the cap where it looks at the clock, every CHECK_EVERY + 1 nodes) and
    then the time budget is an hour: the search is bounded by nodes alone,
    as on a slower machine (the emulated Pico's nodes in its time budget)."""
    a = player_name(a)
    b = player_name(b)
    if nodes > 0:
        ms = NODES_MS
    work = [(a, b, i, ms, seed, tt, nodes, game) for i in range(games)]
    if jobs > 1:
        import multiprocessing

        with multiprocessing.Pool(jobs) as pool:
            results = pool.map(_game_job, work, chunksize=1)
    else:
        results = [_game_job(w) for w in work]
    r = {"a": a, "b": b, "games": games, "ms": ms, "nodes": nodes, "w": 0, "l": 0, "d": 0, "plies": 0}
    am = at = bm = bt = 0
    for res, plies, ast, bst in results:
        r[res] += 1
        r["plies"] += plies
        am += ast[0]
        at += ast[1]
        bm += bst[0]
        bt += bst[1]
    r["a_ms"] = 1000.0 * at / am if am else 0.0
    r["b_ms"] = 1000.0 * bt / bm if bm else 0.0
    return r


HEADER = "%-7s %-7s %6s %5s %6s %5s %7s %8s %8s %7s" % (
    "player", "vs", "games", "wins", "losses", "draws", "score", "ms/move", "opp ms", "plies",
)


def format_row(r):
    score = (r["w"] + 0.5 * r["d"]) / r["games"] if r["games"] else 0.0
    return "%-7s %-7s %6d %5d %6d %5d %6.1f%% %8.1f %8.1f %7.1f" % (
        r["a"], r["b"], r["games"], r["w"], r["l"], r["d"], 100.0 * score,
        r["a_ms"], r["b_ms"], r["plies"] / float(r["games"] or 1),
    )


def cmd_match(args):
    pairs = []
    if args.pair:
        for p in args.pair:
            x, _, y = p.partition(":")
            pairs.append((x, y))
    else:
        pairs.append((args.a, args.b))
    game = games.load(args.game)
    try:
        for x, y in pairs:
            for spec in (x, y):
                if player_name(spec).startswith("L") and game.new_engine is None:
                    raise ValueError("%s has no engine: use random, greedy or quick" % game.TITLE)
    except ValueError as e:
        raise SystemExit("host_tools: %s" % e)
    if args.nodes > 0:
        budget = "at most about %d nodes per engine move (no time limit)" % args.nodes
    else:
        budget = "%d ms per engine move" % args.ms
    print("%d games per pairing, %s, %d TT entries, set-ups from seed %d, %d jobs"
          % (args.games, budget, args.tt, args.seed, args.jobs))
    print(HEADER)
    for x, y in pairs:
        r = run_match(x, y, args.games, args.ms, args.jobs, args.seed, args.tt, args.nodes, game.NAME)
        print(format_row(r), flush=True)
    return 0


def at_least(low):
    """An argparse type: an int of at least `low` (a clear error, exit 2)."""

    def parse(text):
        try:
            v = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError("%r is not a whole number" % text)
        if v < low:
            raise argparse.ArgumentTypeError("must be %d or more, not %d" % (low, v))
        return v

    parse.__name__ = "int"
    return parse


def add_parser(sub):
    p = sub.add_parser("match", help="play engines/levels against each other and print a table")
    p.add_argument("a", nargs="?", default="5", help="player: 1..5 (engine level), greedy, random or quick")
    p.add_argument("b", nargs="?", default="greedy", help="opponent: 1..5, greedy, random or quick")
    p.add_argument("--pair", action="append", help="A:B, repeatable (instead of a b)")
    p.add_argument("--games", type=at_least(1), default=20, help="games per pairing (1 or more)")
    p.add_argument("--ms", type=at_least(1), default=100, help="engine time per move in ms")
    p.add_argument("--jobs", type=at_least(1), default=1, help="processes (one per core)")
    p.add_argument("--seed", type=int, default=1, help="set-up rolls seed")
    p.add_argument("--tt", type=at_least(1), default=DEFAULT_TT, help="transposition table entries")
    p.add_argument("--nodes", type=at_least(0), default=0,
                   help="cap each engine search at about N nodes instead of --ms (e.g. what the Pico reaches)")
    games.add_game_arg(p)
    p.set_defaults(fn=cmd_match)
    return p
