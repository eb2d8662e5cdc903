"""python -m host_tools {perft,moves,show,play,match,monitor,record,replay,review,flash,firmware,serve,online} ..."""
import argparse
import os
import sys

if not __package__:
    # Run as a folder (python /path/to/host_tools ...: an invitation's line,
    # from any folder): the project, not this folder, on the path.
    _here = os.path.dirname(os.path.abspath(__file__))
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != _here]
    sys.path.insert(0, os.path.dirname(_here))

import host_tools  # noqa: F401,E402  (puts firmware/ on the path)
from host_tools import games  # noqa: E402


def _position(args):
    game = games.load(args.game)
    return game, games.parse_position(game, args.position)


def cmd_perft(args):
    game, pos = _position(args)
    if args.depth < 0:
        raise SystemExit("host_tools: depth must be 0 or more")
    if not args.divide:
        print(game.perft(pos, args.depth))
        return 0
    rows = []
    for m in games.legal_moves(game, pos):
        text = game.format_move(pos, m)
        pos.make(m)
        rows.append((text, game.perft(pos, args.depth - 1)))
        pos.unmake(m)
    print(sum(n for _, n in rows) if args.depth > 0 else 1)
    for text, n in rows:
        print(text, n)
    return 0


def why_no_moves(game, pos, site=-1):
    """Why pos has no legal move (of the piece on `site` when site >= 0)."""
    over = games.outcome_words(game, pos)
    if over:
        return "no moves: the game is over (%s)" % over
    if site < 0:
        return "no moves: %s has no legal move" % game.SIDE_NAMES[pos.side]
    name = game.SITE_NAMES[site]
    exp = bytearray(game.N_SITES)
    game.expected(pos, exp)
    if not exp[site]:
        return "no moves of %s: there is no piece on %s" % (name, name)
    side = game.owner(pos, site)
    turn = game.SIDE_NAMES[pos.side]
    if side >= 0 and side != pos.side:
        return "no moves of %s: the piece there is %s's and it is %s's turn" % (name, game.SIDE_NAMES[side], turn)
    others = len(games.legal_moves(game, pos))
    return "no moves of %s: the piece there cannot move now (%s has %d move%s with other pieces)" % (
        name, turn, others, "" if others == 1 else "s")


def cmd_moves(args):
    game, pos = _position(args)
    sel = -1
    if args.cell:
        sel = game.site_index(args.cell)
        if sel < 0:
            raise SystemExit("host_tools: bad cell %r: %s has no such site (%s .. %s)"
                             % (args.cell, game.TITLE, game.SITE_NAMES[0], game.SITE_NAMES[-1]))
    moves = games.legal_moves(game, pos, sel)
    for m in moves:
        print(game.format_move(pos, m))
    if not moves:
        print("host_tools: %s" % why_no_moves(game, pos, sel), file=sys.stderr)
    if args.count:
        note = games.notice_text(game, pos, short=True)
        print("%d moves%s" % (len(moves), " (%s)" % note if note else ""), file=sys.stderr)
    return 0


def cmd_show(args):
    from host_tools.board_text import render

    game, pos = _position(args)
    marks = ()
    if args.move:
        try:
            m = game.parse_move(pos, args.move)
        except game.NotationError as e:
            raise SystemExit("host_tools: %s" % e)
        marks = games.move_marks(game, pos, m)
        pos.make(m)
    colour = args.color == "always" or (args.color == "auto" and sys.stdout.isatty())
    print(render(pos, colour=colour, marks=marks, game=game))
    print(game.format_position(pos))
    return 0


def build_parser():
    ap = argparse.ArgumentParser(prog="python -m host_tools", description="Triad smart board host tools")
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("perft", help="count the leaf nodes of the move tree")
    p.add_argument("position")
    p.add_argument("depth", type=int)
    p.add_argument("--divide", action="store_true", help="also count per root move")
    games.add_game_arg(p)
    p.set_defaults(fn=cmd_perft)
    p = sub.add_parser("moves", help="list the legal moves of a position")
    p.add_argument("position")
    p.add_argument("--cell", help="only the moves of the piece on this cell (site)")
    p.add_argument("--count", action="store_true", help="print the count to stderr")
    games.add_game_arg(p)
    p.set_defaults(fn=cmd_moves)
    p = sub.add_parser("show", help="draw a position in the terminal")
    p.add_argument("position")
    p.add_argument("--move", help="play this move first and mark it")
    p.add_argument("--color", choices=("auto", "always", "never"), default="auto")
    games.add_game_arg(p)
    p.set_defaults(fn=cmd_show)
    from host_tools import flash, live

    live.add_parsers(sub)
    flash.add_parsers(sub)
    from host_tools import match, play

    play.add_parser(sub)
    match.add_parser(sub)
    from host_tools.relay import server

    server.add_parser(sub)
    from host_tools.relay import online

    online.add_parser(sub)
    from host_tools import review

    review.add_parser(sub)
    return ap


# Options whose value is a relay's secret or id: such a value may begin with
# '-' (a token from an older relay, or one typed by hand), which argparse
# takes for another option ("expected one argument").
DASH_VALUE_OPTIONS = ("--token", "--room")


def _glue_dash_values(parser, argv):
    """`--token -xY` -> `--token=-xY` (argparse's own spelling for such a
    value), unless the next word is itself one of the command's options
    (`--token --watch` stays an error)."""
    known = set()
    stack = [parser]
    # Every option string of the parser and its subcommands (argparse keeps
    # them in _option_string_actions, unchanged since Python 3.2; it has no
    # public list of them).
    while stack:
        p = stack.pop()
        known.update(p._option_string_actions)
        for act in p._actions:
            if isinstance(act, argparse._SubParsersAction):
                stack.extend(act.choices.values())
    out = []
    i = 0
    while i < len(argv):
        word = argv[i]
        nxt = argv[i + 1] if i + 1 < len(argv) else None
        if (word in DASH_VALUE_OPTIONS and nxt is not None and nxt.startswith("-") and nxt != "--"
                and nxt.split("=", 1)[0] not in known):
            out.append(word + "=" + nxt)
            i += 2
            continue
        out.append(word)
        i += 1
    return out


def main(argv=None):
    try:
        parser = build_parser()
        argv = list(sys.argv[1:] if argv is None else argv)
        if argv[:1] == ["sim-seat"]:
            # (not for people: `python -m simulator --relay ...` runs it, with
            # the simulator's own arguments: host_tools/relay/sim_seat.py)
            from host_tools.relay.sim_seat import cmd_sim_seat

            return cmd_sim_seat(argv[1:])
        args = parser.parse_args(_glue_dash_values(parser, argv))
        return args.fn(args)
    except KeyboardInterrupt:
        # Ctrl-C: one line, the shell's status for SIGINT, no traceback
        try:
            sys.stdout.flush()
        except OSError:
            pass
        print("host_tools: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    from simulator import closed_pipe

    sys.exit(closed_pipe.run(main))
