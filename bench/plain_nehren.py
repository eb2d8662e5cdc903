# A plain, obviously-correct Nehren's Triad perft: the yardstick the fast
# rules core (firmware/triad/games/nehren/core.py) is measured against in the
# same `make bench` run. No cleverness on purpose: a 6x6 list of lists of
# (colour, value) tuples or None, moves as tuples, every move builds a fresh
# board, every Triad is looked for again from scratch. Runs unchanged on
# CPython and the MicroPython unix port. It must never import the firmware.
#
# Rules (as tests/reference_nehren.py states them): a regular turn turns a
# die to a different value v and moves it exactly v cells in one of the 8
# straight directions over empty cells; only with no regular move at all
# (Note 2) a die may instead turn in place or move its current value without
# turning. A Triad is three dice in a row on a line containing the acted-on
# die, of both colours, values all equal or all different; then the mover
# removes one own die of one of those Triads (each choice is its own move)
# and scores. Three Triads win; a won game has no moves.

DIRECTIONS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))
LINES = ((1, 0), (0, 1), (1, 1), (1, -1))


def parse(text):
    """Position text -> (board, side, scores); board[rank][file]."""
    fields = text.split(" ")
    board = [[None] * 6 for _ in range(6)]
    ranks = fields[0].split("/")
    for row in range(6):
        rank = 5 - row
        t = ranks[row]
        f = 0
        i = 0
        while i < len(t):
            if t[i] == ".":
                i += 1
            else:
                board[rank][f] = (t[i], int(t[i + 1]))
                i += 2
            f += 1
    return (board, fields[1], {"b": int(fields[2]), "w": int(fields[3])})


def on_board(f, r):
    return 0 <= f < 6 and 0 <= r < 6


def copy_board(board):
    return [list(row) for row in board]


def is_triad(dice):
    colours = [d[0] for d in dice]
    values = [d[1] for d in dice]
    if "b" not in colours or "w" not in colours:
        return False
    if values[0] == values[1] and values[1] == values[2]:
        return True
    return values[0] != values[1] and values[1] != values[2] and values[0] != values[2]


def removal_choices(board, f0, r0, side):
    """Own dice (f, r) in any Triad through (f0, r0), without repeats."""
    choices = []
    for df, dr in LINES:
        for back in range(3):
            cells = []
            for k in range(3):
                f = f0 + df * (k - back)
                r = r0 + dr * (k - back)
                if on_board(f, r) and board[r][f] is not None:
                    cells.append((f, r))
            if len(cells) != 3:
                continue
            if is_triad([board[r][f] for f, r in cells]):
                for f, r in cells:
                    if board[r][f][0] == side and (f, r) not in choices:
                        choices.append((f, r))
    return choices


def destinations(board, f0, r0, distance):
    result = []
    for df, dr in DIRECTIONS:
        ok = True
        for step in range(1, distance + 1):
            f = f0 + df * step
            r = r0 + dr * step
            if not on_board(f, r) or board[r][f] is not None:
                ok = False
                break
        if ok:
            result.append((f0 + df * distance, r0 + dr * distance))
    return result


def results_of(pos, board_after, f, r):
    """Every (move, position) an action that left board_after yields."""
    board, side, scores = pos
    other = "w" if side == "b" else "b"
    choices = removal_choices(board_after, f, r, side)
    if not choices:
        yield ((f, r, None), (board_after, other, dict(scores)))
    for rf, rr in choices:
        b2 = copy_board(board_after)
        b2[rr][rf] = None
        s2 = dict(scores)
        s2[side] += 1
        yield ((f, r, (rf, rr)), (b2, other, s2))


def regular(pos):
    board, side, scores = pos
    for r in range(6):
        for f in range(6):
            die = board[r][f]
            if die is None or die[0] != side:
                continue
            for v in (1, 2, 3):
                if v == die[1]:
                    continue
                for tf, tr in destinations(board, f, r, v):
                    b2 = copy_board(board)
                    b2[r][f] = None
                    b2[tr][tf] = (side, v)
                    for res in results_of(pos, b2, tf, tr):
                        yield res


def note2(pos):
    board, side, scores = pos
    for r in range(6):
        for f in range(6):
            die = board[r][f]
            if die is None or die[0] != side:
                continue
            for v in (1, 2, 3):
                if v == die[1]:
                    continue
                b2 = copy_board(board)
                b2[r][f] = (side, v)
                for res in results_of(pos, b2, f, r):
                    yield res
            for tf, tr in destinations(board, f, r, die[1]):
                b2 = copy_board(board)
                b2[r][f] = None
                b2[tr][tf] = die
                for res in results_of(pos, b2, tf, tr):
                    yield res


def legal(pos):
    """Every (move, next position), one at a time: the regular moves, or the
    Note 2 ones when there is no regular move; none once a side has won."""
    board, side, scores = pos
    if scores["b"] >= 3 or scores["w"] >= 3:
        return
    found = False
    for res in regular(pos):
        found = True
        yield res
    if not found:
        for res in note2(pos):
            yield res


def perft(pos, depth):
    if depth == 0:
        return 1
    total = 0
    for _, nxt in legal(pos):
        total += 1 if depth == 1 else perft(nxt, depth - 1)
    return total
