"""python -m host_tools review RECORD [--nodes N]: the turns of a recorded
game a player should learn from (issue 46; the analysis is the board's own,
triad/board/review.py, the words triad/games/review_text.py). One line a
mark, in order, `mark PLY MOVE better BEST: KIND, WORDS`, then
`review: N marks`."""
import sys

from host_tools import records
from triad.board import review as R
from triad.games import review_text


def review_record(rec, nodes=R.NODES):
    """(review, positions): the analysis of a record and the positions
    before each move (positions[k] before move k + 1)."""
    played = rec.played()
    rv = R.Review(rec.game, rec.start_position(), [m for _, m in played], nodes=nodes).run()
    return rv, [p for p, _ in played]


def lines(rec, nodes=R.NODES):
    rv, positions = review_record(rec, nodes)
    out = [review_text.mark_line(rec.game, positions[mk[0] - 1], mk, rv) for mk in rv.marks]
    out.append("review: %d marks" % len(rv.marks))
    return out


def cmd_review(args):
    if args.nodes < 0:
        raise SystemExit("host_tools review: --nodes must be 0 or more (0: the rules' marks only)")
    try:
        rec = records.load(args.record)
    except (OSError, UnicodeDecodeError, records.RecordError) as e:
        raise SystemExit("host_tools review: %s: %s" % (args.record, e))
    for line in lines(rec, args.nodes):
        print(line)
    sys.stdout.flush()
    return 0


def add_parser(sub):
    p = sub.add_parser("review", help="the turns of a recorded game to learn from: missed wins, wins allowed, "
                                      "the engine's mistakes")
    p.add_argument("record", metavar="RECORD", help="a record file (docs/records.md), any game")
    p.add_argument("--nodes", type=int, default=R.NODES,
                   help="the engine's effort: nodes searched a position (default %d; 0: the rules' marks only)"
                        % R.NODES)
    p.set_defaults(fn=cmd_review)
