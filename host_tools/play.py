"""A game against the engine in the terminal, for any game behind the face.

Type moves in the game's notation (Nehren: c1c3, c1c3xd3, c1=2); other
commands: show, moves, hint, undo (takes back your last move and the
engine's replies), help, quit. The set-up roll comes from --seed. A game
without an engine (no new_engine in its face) is played against its
quick_move.
"""
import sys

import host_tools  # noqa: F401  (puts firmware/ on the path)
from host_tools import games
from host_tools.match import host_now_ms, new_engine, setup_position, DEFAULT_TT

COMMANDS = "commands: show, moves, hint, undo, help, quit"


def _render(game, pos, colour, marks=()):
    from host_tools.board_text import render

    return render(pos, colour=colour, marks=marks, game=game)


class QuickEngine:
    """The engine's interface over the face's quick_move (games without one)."""

    depth = nodes = score = 0

    def __init__(self, game):
        self.game = game
        self.buf = games.move_buffer(game)

    def choose(self, pos, budget_ms, clock, keys=None, max_nodes=0):
        return self.game.quick_move(pos)

    def history_keys(self, start, moves):
        return []

    def key(self, pos):
        return 0


def _help(game):
    words = games.word(game, "MOVE_HELP")
    if not words:
        return COMMANDS
    return words + "\n" + COMMANDS


def play(level=3, human="b", ms=1000, seed=None, start=None, colour=False,
         inp=input, out=print, tt=DEFAULT_TT, game=None):
    """Run one game; returns the winning side's index (Nehren: 0 Black, 1
    White), 2 for a draw in a two-sided game (the number of sides in general)
    or -1 (quit). inp/out are replaceable for tests."""
    game = game or games.load()
    n_sides = len(game.SIDES)
    names = game.SIDE_NAMES
    if start is None:
        import random

        if seed is None:
            seed = random.randrange(1 << 30)
        start = setup_position(seed, game.SIDES[0], game)
        out("set-up roll %d" % seed)
    start_pos = game.parse_position(start)
    pos = start_pos.copy()
    eng = new_engine(game, level, tt, seed=(seed or 0) + 1) if game.new_engine is not None else None
    if eng is None:
        eng = QuickEngine(game)
    me = games.side_index(game, human)
    if me < 0:
        me = 0
    others = " and ".join(names[s] for s in range(n_sides) if s != me)
    if isinstance(eng, QuickEngine):
        out("you play %s, the board's quick move plays %s" % (names[me], others))
    else:
        out("you play %s, the engine (level %d, %d ms) plays %s" % (names[me], level, ms, others))
    moves = []
    marks = ()
    shown = False
    draw_names = game.DRAW_NAMES

    def draw_reason():
        """The draw rule over the whole game so far, and the names of its
        reasons (rebuilt each time: undo takes moves back)."""
        if game.draw_watch is None:
            return 0, ()
        w = game.draw_watch(start_pos.copy())
        p = start_pos.copy()
        r = 0
        for m in moves:
            p.make(m)
            r = w.push(p, m)
        return r, draw_names

    while True:
        if not shown:
            out(_render(game, pos, colour, marks))
            out(game.format_position(pos))
            shown = True
        reason, reasons = draw_reason()
        if reason:
            out("draw (%s)" % (reasons[reason] if reason < len(reasons) else reason))
            return n_sides
        w = game.outcome(pos)
        if w >= 0:
            if w == games.DRAW:
                out("draw (%s)" % game.outcome_text(pos))
                return n_sides
            out("%s wins" % names[w] + (" (you)" if w == me else " (the engine)"))
            return w
        if pos.side != me:
            hist = eng.history_keys(start_pos, moves)
            m = eng.choose(pos, ms, host_now_ms, hist)
            if not m:
                out("the engine finds no move")
                return n_sides
            text = game.format_move(pos, m)
            if isinstance(eng, QuickEngine):
                out("engine plays %s" % text)
            else:
                out("engine plays %s   (depth %d, %d nodes, score %d)" % (text, eng.depth, eng.nodes, eng.score))
            marks = games.move_marks(game, pos, m)
            pos.make(m)
            moves.append(m)
            shown = False
            continue
        try:
            text = inp("%s> " % names[me]).strip()
        except EOFError:
            # The input ended (Ctrl-D, or a pipe ran dry): end the prompt's
            # line and say the game was left, as `quit` would leave it.
            out("")
            out("end of input: game left at move %d" % (len(moves) + 1))
            return -1
        if not text:
            continue
        cmd = text.lower()
        if cmd in ("quit", "exit", "q"):
            return -1
        if cmd in ("help", "?"):
            out(_help(game))
        elif cmd == "show":
            shown = False
        elif cmd == "moves":
            out(" ".join(game.format_move(pos, m) for m in games.legal_moves(game, pos)))
        elif cmd == "hint":
            m = eng.choose(pos, ms, host_now_ms, eng.history_keys(start_pos, moves))
            out("hint: %s" % game.format_move(pos, m))
        elif cmd == "undo":
            # back to the human's previous turn: the engine's replies and the human's move
            k = len(moves)
            while k > 0:
                k -= 1
                if _side_before(game, start_pos, moves, k) == me:
                    break
            if len(moves) < 2 or _side_before(game, start_pos, moves, k) != me:
                out("nothing to undo")
            else:
                while len(moves) > k:
                    pos.unmake(moves.pop())
                marks = ()
                shown = False
        else:
            try:
                m = game.parse_move(pos, text)
            except game.NotationError as e:
                out(games.move_error(game, pos, text, e))
                continue
            pos.make(m)
            moves.append(m)
            marks = ()
            shown = False


def _side_before(game, start_pos, moves, k):
    """The side that played moves[k]."""
    p = start_pos.copy()
    for m in moves[:k]:
        p.make(m)
    return p.side


def cmd_play(args):
    if args.server:
        from host_tools.relay import terminal

        return terminal.cmd(args)
    if args.room or args.token or args.watch or args.create or args.mode:
        games.usage_error("--room, --token, --watch, --create and --mode need --server")
    game = games.load(args.game)
    colour = args.color == "always" or (args.color == "auto" and sys.stdout.isatty())
    human = args.colour if args.colour is not None else game.SIDES[0]
    if games.side_index(game, human) < 0:
        games.usage_error("argument --colour: %r is not a side of %s (one of %s)"
                          % (human, game.TITLE, ", ".join(game.SIDES)))
    start = None
    if args.position:
        games.parse_position(game, args.position)
        start = args.position
    res = play(args.level, human, args.ms, args.seed, start, colour, game=game)
    return 0 if res >= -1 else 1


def add_parser(sub):
    p = sub.add_parser("play", help="play a game against the engine in the terminal, "
                       "or a room of a relay (--server URL --room R --token T | --watch)")
    p.add_argument("--level", type=int, default=3, choices=(1, 2, 3, 4, 5))
    p.add_argument("--colour", default=None,
                   help="your side, its letter (Nehren: b or w; the first side begins; default the first)")
    p.add_argument("--ms", type=int, default=1000, help="engine time per move")
    p.add_argument("--seed", type=int, help="set-up roll (random if not given)")
    p.add_argument("--position", help="start from this position instead of a roll")
    p.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                   help="ANSI colours on the board")
    games.add_game_arg(p)
    from host_tools.relay import terminal

    terminal.add_arguments(p)
    p.set_defaults(fn=cmd_play)
    return p
