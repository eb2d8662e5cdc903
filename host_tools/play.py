"""A game against the engine in the terminal.

Type moves in the board's notation (c1c3, c1c3xd3, c1=2); other commands:
show, moves, hint, undo (takes back your last move and the engine's
reply), help, quit. The set-up roll comes from --seed.
"""
import sys

import host_tools  # noqa: F401  (puts firmware/ on the path)
from triad.games.nehren import core, notation, repetition
from host_tools.match import host_now_ms, setup_position, DEFAULT_TT

HELP = """moves: c1c3 (the new value is the distance), c1c3xd3 (remove d3 after a Triad),
       c1=2 (Note 2: turn in place), c1c2 (Note 2: move keeping the value)
commands: show, moves, hint, undo, help, quit"""


def _render(pos, colour, marks=()):
    from host_tools.board_text import render

    return render(pos, colour=colour, marks=marks)


def play(level=3, human="b", ms=1000, seed=None, start=None, colour=False,
         inp=input, out=print, tt=DEFAULT_TT):
    """Run one game; returns 0 (Black won), 1 (White won), 2 (draw) or -1
    (quit). inp/out are replaceable for tests."""
    from triad.games.nehren.engine.search import Engine

    if start is None:
        import random

        if seed is None:
            seed = random.randrange(1 << 30)
        start = setup_position(seed)
        out("set-up roll %d" % seed)
    pos = notation.parse_position(start)
    eng = Engine(level, tt, seed=(seed or 0) + 1)
    me = 0 if human in ("b", "black") else 1
    out("you play %s, the engine (level %d, %d ms) plays %s"
        % (("Black", "White")[me], level, ms, ("Black", "White")[me ^ 1]))
    moves = []
    marks = ()
    shown = False
    while True:
        if not shown:
            out(_render(pos, colour, marks))
            out(notation.format_position(pos))
            shown = True
        reason = repetition.draw_reason(notation.parse_position(start), moves)
        if reason != repetition.NONE:
            out("draw (%s)" % repetition.NAMES[reason])
            return 2
        if pos.game_over():
            w = pos.winner()
            out("%s wins" % ("Black", "White")[w] + (" (you)" if w == me else " (the engine)"))
            return w
        if pos.side != me:
            hist = _history_keys(eng, start, moves)
            m = eng.choose(pos, ms, host_now_ms, hist)
            out("engine plays %s   (depth %d, %d nodes, score %d)"
                % (notation.format_move(m), eng.depth, eng.nodes, eng.score))
            pos.make(m)
            moves.append(m)
            marks = (notation.cell_name(core.m_from(m)), notation.cell_name(core.m_to(m)))
            shown = False
            continue
        try:
            text = inp("%s> " % ("Black", "White")[me]).strip()
        except EOFError:
            return -1
        if not text:
            continue
        cmd = text.lower()
        if cmd in ("quit", "exit", "q"):
            return -1
        if cmd in ("help", "?"):
            out(HELP)
        elif cmd == "show":
            shown = False
        elif cmd == "moves":
            out(" ".join(notation.format_move(m) for m in pos.legal_moves()))
        elif cmd == "hint":
            m = eng.choose(pos, ms, host_now_ms, _history_keys(eng, start, moves))
            out("hint: %s" % notation.format_move(m))
        elif cmd == "undo":
            if len(moves) < 2:
                out("nothing to undo")
            else:
                for _ in range(2):
                    pos.unmake(moves.pop())
                marks = ()
                shown = False
        else:
            try:
                m = notation.parse_move(pos, text)
            except notation.NotationError as e:
                out(str(e))
                continue
            pos.make(m)
            moves.append(m)
            marks = ()
            shown = False


def _history_keys(eng, start, moves):
    """Engine keys of the positions since the last Triad, without the
    current one."""
    return eng.history_keys(notation.parse_position(start), moves)


def cmd_play(args):
    colour = args.color == "always" or (args.color == "auto" and sys.stdout.isatty())
    start = None
    if args.position:
        try:
            notation.parse_position(args.position)
        except notation.NotationError as e:
            raise SystemExit("host_tools: bad position: %s" % e)
        start = args.position
    res = play(args.level, args.colour, args.ms, args.seed, start, colour)
    return 0 if res >= -1 else 1


def add_parser(sub):
    p = sub.add_parser("play", help="play a game against the engine in the terminal")
    p.add_argument("--level", type=int, default=3, choices=(1, 2, 3, 4, 5))
    p.add_argument("--colour", choices=("b", "w"), default="b",
                   help="your colour (Black begins)")
    p.add_argument("--ms", type=int, default=1000, help="engine time per move")
    p.add_argument("--seed", type=int, help="set-up roll (random if not given)")
    p.add_argument("--position", help="start from this position instead of a roll")
    p.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                   help="ANSI colours on the board")
    p.set_defaults(fn=cmd_play)
    return p
