# A plain, obviously-correct perft of Cameron Browne's Triad: the yardstick
# the fast rules core (firmware/triad/games/browne/core.py) is measured
# against in the same run (bench/browne_bench.py). No cleverness on purpose:
# a dict from (row, number) to 'r'/'g'/'b', turns as tuples, every turn
# builds a fresh board, captures and the max-capture rule are worked out
# again from scratch for every slide. Runs unchanged on CPython and the
# MicroPython unix port. It must never import the firmware.
#
# Rules (as tests/reference_browne.py states them): slide one own piece in a
# straight line over empty cells onto an empty cell not of its own colour
# ((row + number) % 3: 0 red, 1 green, 2 blue); capture every opponent piece
# next to the landing cell; only slides capturing the most are allowed;
# unless a player was left without pieces, drop a piece of the bunny (the
# opponent not owning the landing cell) on any empty cell; the landing
# cell's owner moves next. A game with a player out of pieces, or whose
# player to move has no slide, has no turns.

PLAYERS = "rgb"
ROWS = "ABCDEFGHI"
STEPS = ((0, 1), (1, 1), (1, 0), (0, -1), (-1, -1), (-1, 0))


def on_board(r, n):
    return 0 <= r <= 8 and max(1, r - 3) <= n <= min(r + 5, 9)


CELLS = [(r, n) for r in range(9) for n in range(1, 10) if on_board(r, n)]


def parse(text):
    """Position text -> (pieces, player to move)."""
    fields = text.split(" ")
    pieces = {}
    for i in range(3):
        body = fields[i][2:]
        if body:
            for name in body.split(","):
                pieces[(ROWS.index(name[0]), int(name[1:]))] = PLAYERS[i]
    return (pieces, fields[3])


def colour(r, n):
    return PLAYERS[(r + n) % 3]


def count(pieces, player):
    k = 0
    for p in pieces.values():
        if p == player:
            k += 1
    return k


def victims(pieces, player, r, n):
    out = []
    for dr, dn in STEPS:
        c = (r + dr, n + dn)
        if c in pieces and pieces[c] != player:
            out.append(c)
    return out


def slides(pieces, player):
    out = []
    for c in CELLS:
        if pieces.get(c) != player:
            continue
        for dr, dn in STEPS:
            r = c[0] + dr
            n = c[1] + dn
            while on_board(r, n) and (r, n) not in pieces:
                if colour(r, n) != player:
                    out.append((c, (r, n), victims(pieces, player, r, n)))
                r += dr
                n += dn
    return out


def legal(pos):
    """Every (turn, next position), one at a time."""
    pieces, player = pos
    for p in PLAYERS:
        if count(pieces, p) == 0:
            return
    found = slides(pieces, player)
    if not found:
        return
    most = 0
    for s in found:
        if len(s[2]) > most:
            most = len(s[2])
    for fr, to, caught in found:
        if len(caught) != most:
            continue
        after = dict(pieces)
        del after[fr]
        after[to] = player
        for c in caught:
            del after[c]
        cand = colour(to[0], to[1])
        bunny = [p for p in PLAYERS if p != player and p != cand][0]
        out = False
        for p in PLAYERS:
            if count(after, p) == 0:
                out = True
        if out:
            yield ((fr, to, None), (after, cand))
            continue
        for c in CELLS:
            if c not in after:
                b2 = dict(after)
                b2[c] = bunny
                yield ((fr, to, c), (b2, cand))


def perft(pos, depth):
    if depth == 0:
        return 1
    total = 0
    for _, nxt in legal(pos):
        total += 1 if depth == 1 else perft(nxt, depth - 1)
    return total
