"""Deliberately simple reference implementation of Cameron Browne's Triad.

A test oracle for CPython only: obviously-correct code over speed, written
from the rules (/work/shared/rules/browne-triad-page.txt and issue 13's
statement of the official rules v2.0) and the notation contract -- NOT from
the firmware's fast core (firmware/triad/games/browne), which it must never
import.

Rules as implemented
--------------------
* 61 hexagonal cells: rows A..I (r = 0..8) hold numbers 1-5, 1-6, 1-7, 1-8,
  1-9, 2-9, 3-9, 4-9, 5-9. Neighbours of (r, n): (r, n-1), (r, n+1),
  (r+1, n), (r+1, n+1), (r-1, n), (r-1, n-1); those six steps are the
  straight directions.
* A cell belongs to Red if (r + n) % 3 == 0, Green if 1, Blue if 2.
* A turn: slide one own piece any distance in a straight line over empty
  cells onto an empty cell not of the mover's colour. The landing cell's
  owner is the candidate, the other opponent the bunny. Every opponent piece
  next to the landing cell is captured. Only slides capturing the most
  pieces (over all the mover's slides) are allowed. Then, unless some player
  has no piece left, one bunny piece is dropped on any empty cell. The
  candidate moves next.
* The game is over when a player has no pieces, or the player to move has
  no legal slide (that player is out). Of the players still in, the one with
  more pieces wins; equal counts are a draw (tie of the two); a lone
  survivor wins outright.

Notation
--------
Position ``R:<cells> G:<cells> B:<cells> <next>`` (cells in board order
when written), turn ``E3-H6@C4`` or ``E3-H6`` (no drop after an
elimination).
"""

ROWS = "ABCDEFGHI"
PLAYERS = "rgb"
STEPS = [(0, -1), (0, 1), (1, 0), (1, 1), (-1, 0), (-1, -1)]

START = ("R:C1,D1,D2,E1,E2,E3,F2,F3,G3 G:A3,A4,A5,B4,B5,B6,C5,C6,C7 "
         "B:G7,G8,G9,H7,H8,H9,I7,I8,I9 r")


def row_range(r):
    return range(max(1, r - 3), min(r + 5, 9) + 1)


CELLS = [(r, n) for r in range(9) for n in row_range(r)]
CELL_SET = set(CELLS)


def name(cell):
    return ROWS[cell[0]] + str(cell[1])


def cell_of(text):
    for c in CELLS:
        if name(c) == text:
            return c
    raise ValueError("no cell %r" % (text,))


def colour(cell):
    return PLAYERS[(cell[0] + cell[1]) % 3]


def neighbours(cell):
    r, n = cell
    out = []
    for dr, dn in STEPS:
        c = (r + dr, n + dn)
        if c in CELL_SET:
            out.append(c)
    return out


# ---------------------------------------------------------------------------
# Positions: (dict cell -> player letter, player to move)
# ---------------------------------------------------------------------------

def parse(text):
    fields = text.split()
    assert len(fields) == 4
    pieces = {}
    for label, field in zip("RGB", fields[:3]):
        assert field.startswith(label + ":")
        body = field[2:]
        if body:
            for cname in body.split(","):
                c = cell_of(cname)
                assert c not in pieces
                pieces[c] = label.lower()
    assert fields[3] in PLAYERS
    return pieces, fields[3]


def fmt(pos):
    pieces, to_move = pos
    parts = []
    for label in "RGB":
        cells = [name(c) for c in CELLS if pieces.get(c) == label.lower()]
        parts.append(label + ":" + ",".join(cells))
    return " ".join(parts) + " " + to_move


def count(pieces, player):
    return sum(1 for p in pieces.values() if p == player)


def others(player):
    return [p for p in PLAYERS if p != player]


def slides(pieces, player):
    """Every (from, to) straight slide of player onto an empty foreign cell."""
    out = []
    for c in CELLS:
        if pieces.get(c) != player:
            continue
        for dr, dn in STEPS:
            k = 1
            while True:
                t = (c[0] + dr * k, c[1] + dn * k)
                if t not in CELL_SET or t in pieces:
                    break
                if colour(t) != player:
                    out.append((c, t))
                k += 1
    return out


def captured_by(pieces, player, to):
    return [c for c in neighbours(to) if c in pieces and pieces[c] != player]


def game_over(pos):
    pieces, to_move = pos
    if any(count(pieces, p) == 0 for p in PLAYERS):
        return True
    return not slides(pieces, to_move)


def turns(pos):
    """Every legal turn as (text, next position)."""
    pieces, player = pos
    if game_over(pos):
        return []
    all_slides = slides(pieces, player)
    most = max(len(captured_by(pieces, player, t)) for _, t in all_slides)
    result = []
    for fr, to in all_slides:
        caught = captured_by(pieces, player, to)
        if len(caught) != most:
            continue
        after = dict(pieces)
        del after[fr]
        after[to] = player
        for c in caught:
            del after[c]
        candidate = colour(to)
        bunny = [p for p in others(player) if p != candidate][0]
        text = name(fr) + "-" + name(to)
        if any(count(after, p) == 0 for p in PLAYERS):
            result.append((text, (after, candidate)))
            continue
        for c in CELLS:
            if c not in after:
                dropped = dict(after)
                dropped[c] = bunny
                result.append((text + "@" + name(c), (dropped, candidate)))
    return result


def legal_moves(text):
    return [t for t, _ in turns(parse(text))]


def apply(text, move):
    for t, nxt in turns(parse(text)):
        if t == move:
            return fmt(nxt)
    raise ValueError("illegal turn %r in %r" % (move, text))


def outcome(text):
    """None while the game goes on, else the winner 'r'/'g'/'b' or 'draw'."""
    pieces, to_move = parse(text)
    if not game_over((pieces, to_move)):
        return None
    still_in = [p for p in PLAYERS if count(pieces, p) > 0]
    if len(still_in) == 3:
        still_in.remove(to_move)     # out: no legal slide
    if not still_in:
        return "draw"
    if len(still_in) == 1:
        return still_in[0]
    a, b = still_in
    if count(pieces, a) == count(pieces, b):
        return "draw"
    return a if count(pieces, a) > count(pieces, b) else b


def perft(text, depth):
    return _perft(parse(text), depth)


def _perft(pos, depth):
    if depth == 0:
        return 1
    ts = turns(pos)
    if depth == 1:
        return len(ts)
    return sum(_perft(nxt, depth - 1) for _, nxt in ts)
