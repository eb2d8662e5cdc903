"""Engines against each other (or against simple players) over many set-ups.

Players: 1..5 (engine levels), "random" (any legal move) and "greedy" (a
Triad when it can make one, else a random move). Game i uses set-up roll
number i // 2 and the players swap colours between the two games of a roll;
Black begins. A game ends at three Triads or at the board's draw rule
(triad.games.nehren.repetition).
"""
import random
import time

import host_tools  # noqa: F401  (puts firmware/ on the path)
from triad.games.nehren import core, notation, repetition

DEFAULT_TT = 1 << 15
NODES_MS = 3600000  # the time budget when a node cap bounds the search
MAX_PLIES = 2000  # a safety net; the draw rule ends games long before


def host_now_ms():
    """time.ticks_ms for the host: milliseconds wrapping at 2**30."""
    return int(time.perf_counter() * 1000) & 0x3FFFFFFF


def setup_position(seed, start="b"):
    """The start position of set-up roll `seed`: each player rolls six dice,
    placed ascending from the player's left."""
    rng = random.Random(seed)
    b = sorted(rng.randint(1, 3) for _ in range(6))
    w = sorted(rng.randint(1, 3) for _ in range(6))
    rank6 = "".join("w%d" % v for v in reversed(w))
    rank1 = "".join("b%d" % v for v in b)
    return "%s/....../....../....../....../%s %s 0 0" % (rank6, rank1, start)


def player_name(spec):
    spec = str(spec).lower()
    if spec in ("random", "greedy"):
        return spec
    if spec.startswith("l"):
        spec = spec[1:]
    if spec in ("1", "2", "3", "4", "5"):
        return "L" + spec
    raise ValueError("unknown player %r: use 1..5, random or greedy" % spec)


class Player:
    """One seat: choose(pos, history_keys) -> move int."""

    def __init__(self, spec, ms, tt=DEFAULT_TT, seed=1, nodes=0):
        self.name = player_name(spec)
        self.ms = ms
        self.nodes = nodes  # a node cap per search (0: none); see run_match
        self.rng = random.Random(seed)
        self.engine = None
        if self.name.startswith("L"):
            from triad.games.nehren.engine.search import Engine

            self.engine = Engine(int(self.name[1:]), tt, seed=seed)

    def key(self, pos):
        return self.engine.key(pos) if self.engine else 0

    def choose(self, pos, history):
        if self.engine:
            return self.engine.choose(pos, self.ms, host_now_ms, history, self.nodes)
        moves = pos.legal_moves()
        if self.name == "greedy":
            triads = [m for m in moves if core.m_removed(m)]
            if triads:
                return self.rng.choice(triads)
        return self.rng.choice(moves)


def play_game(black, white, start_text, max_plies=MAX_PLIES):
    """Play one game; return (result, plies, stats) where result is 0 (Black
    won), 1 (White won) or 2 (draw) and stats[side] = [moves, seconds]."""
    pos = notation.parse_position(start_text)
    watch = repetition.DrawWatch(pos)
    players = (black, white)
    keys = [black.key(pos) if black.engine else white.key(pos)]
    stats = [[0, 0.0], [0, 0.0]]
    plies = 0
    while not pos.game_over() and plies < max_plies:
        side = pos.side
        pl = players[side]
        t = time.perf_counter()
        m = pl.choose(pos, keys[:-1])
        stats[side][1] += time.perf_counter() - t
        stats[side][0] += 1
        pos.make(m)  # raises nothing: the move comes from the position
        plies += 1
        if core.m_removed(m):
            keys = []
        keys.append(black.key(pos) if black.engine else white.key(pos))
        if watch.push(pos, m) != repetition.NONE:
            return 2, plies, stats
    w = pos.winner()
    return (w if w >= 0 else 2), plies, stats


def _game_job(job):
    a, b, i, ms, seed, tt, nodes = job
    pa = Player(a, ms, tt, seed=seed * 7919 + i * 2 + 1, nodes=nodes)
    pb = Player(b, ms, tt, seed=seed * 7919 + i * 2 + 2, nodes=nodes)
    start = setup_position(seed * 100003 + i // 2)
    if i % 2 == 0:
        res, plies, st = play_game(pa, pb, start)
        a_res = {0: "w", 1: "l", 2: "d"}[res]
        a_st, b_st = st[0], st[1]
    else:
        res, plies, st = play_game(pb, pa, start)
        a_res = {1: "w", 0: "l", 2: "d"}[res]
        a_st, b_st = st[1], st[0]
    return a_res, plies, a_st, b_st


def run_match(a, b, games=20, ms=100, jobs=1, seed=1, tt=DEFAULT_TT, nodes=0):
    """Play `games` games of a against b; return a result dict. nodes > 0
    caps every engine search at about that many nodes (the engine looks at
    the cap where it looks at the clock, every CHECK_EVERY + 1 nodes) and
    then the time budget is an hour: the search is bounded by nodes alone,
    as on a slower machine (the emulated Pico's nodes in its time budget)."""
    a = player_name(a)
    b = player_name(b)
    if nodes > 0:
        ms = NODES_MS
    work = [(a, b, i, ms, seed, tt, nodes) for i in range(games)]
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
    try:
        for x, y in pairs:
            player_name(x)
            player_name(y)
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
        r = run_match(x, y, args.games, args.ms, args.jobs, args.seed, args.tt, args.nodes)
        print(format_row(r), flush=True)
    return 0


def add_parser(sub):
    p = sub.add_parser("match", help="play engines/levels against each other and print a table")
    p.add_argument("a", nargs="?", default="5", help="player: 1..5 (engine level), greedy or random")
    p.add_argument("b", nargs="?", default="greedy", help="opponent: 1..5, greedy or random")
    p.add_argument("--pair", action="append", help="A:B, repeatable (instead of a b)")
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--ms", type=int, default=100, help="engine time per move in ms")
    p.add_argument("--jobs", type=int, default=1, help="processes (one per core)")
    p.add_argument("--seed", type=int, default=1, help="set-up rolls seed")
    p.add_argument("--tt", type=int, default=DEFAULT_TT, help="transposition table entries")
    p.add_argument("--nodes", type=int, default=0,
                   help="cap each engine search at about N nodes instead of --ms (e.g. what the Pico reaches)")
    p.set_defaults(fn=cmd_match)
    return p
