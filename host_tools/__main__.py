"""python -m host_tools {perft,moves,show,play,match,monitor,record,replay,flash,firmware} ..."""
import argparse
import sys

import host_tools  # noqa: F401  (puts firmware/ on the path)
from triad.games.nehren import core, notation


def _position(text):
    try:
        return notation.parse_position(text)
    except notation.NotationError as e:
        raise SystemExit("host_tools: bad position: %s" % e)


def cmd_perft(args):
    pos = _position(args.position)
    if args.depth < 0:
        raise SystemExit("host_tools: depth must be 0 or more")
    if not args.divide:
        print(core.perft(pos, args.depth))
        return 0
    rows = []
    for m in pos.legal_moves():
        pos.make(m)
        rows.append((notation.format_move(m), core.perft(pos, args.depth - 1)))
        pos.unmake(m)
    print(sum(n for _, n in rows) if args.depth > 0 else 1)
    for text, n in rows:
        print(text, n)
    return 0


def cmd_moves(args):
    pos = _position(args.position)
    moves = pos.legal_moves()
    if args.cell:
        try:
            sq = notation.parse_cell(args.cell)
        except notation.NotationError as e:
            raise SystemExit("host_tools: %s" % e)
        moves = [m for m in moves if core.m_from(m) == sq]
    for m in moves:
        print(notation.format_move(m))
    if args.count:
        print("%d moves%s" % (len(moves), " (Note 2)" if pos.is_note2() else ""), file=sys.stderr)
    return 0


def cmd_show(args):
    from host_tools.board_text import render

    pos = _position(args.position)
    marks = ()
    if args.move:
        try:
            m = notation.parse_move(pos, args.move)
        except notation.NotationError as e:
            raise SystemExit("host_tools: %s" % e)
        pos.make(m)
        marks = (notation.cell_name(core.m_from(m)), notation.cell_name(core.m_to(m)))
    colour = args.color == "always" or (args.color == "auto" and sys.stdout.isatty())
    print(render(pos, colour=colour, marks=marks))
    print(notation.format_position(pos))
    return 0


def build_parser():
    ap = argparse.ArgumentParser(prog="python -m host_tools", description="Triad smart board host tools")
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("perft", help="count the leaf nodes of the move tree")
    p.add_argument("position")
    p.add_argument("depth", type=int)
    p.add_argument("--divide", action="store_true", help="also count per root move")
    p.set_defaults(fn=cmd_perft)
    p = sub.add_parser("moves", help="list the legal moves of a position")
    p.add_argument("position")
    p.add_argument("--cell", help="only the moves of the die on this cell")
    p.add_argument("--count", action="store_true", help="print the count to stderr")
    p.set_defaults(fn=cmd_moves)
    p = sub.add_parser("show", help="draw a position in the terminal")
    p.add_argument("position")
    p.add_argument("--move", help="play this move first and mark it")
    p.add_argument("--color", choices=("auto", "always", "never"), default="auto")
    p.set_defaults(fn=cmd_show)
    from host_tools import flash, live

    live.add_parsers(sub)
    flash.add_parsers(sub)
    from host_tools import match, play

    play.add_parser(sub)
    match.add_parser(sub)
    return ap


def main(argv=None):
    args = build_parser().parse_args(argv)
    return args.fn(args)


if __name__ == "__main__":
    sys.exit(main())
