"""Deliberately simple reference implementation of Klaus Nehren's "Triad".

This module is a test oracle.  It is written for CPython only, favours
obviously-correct code over speed, and is derived from the rules text
(/work/shared/rules/nehren-triad-rules.txt) and the project's notation
contract -- NOT from the firmware's fast core, which it must never import.

Rules as implemented
--------------------
* 6x6 board, cells a1..f6.  Files a..f run left to right from Black's seat,
  rank 1 is Black's home row.
* Each die belongs to Black ('b') or White ('w') and shows 1, 2 or 3.
* A regular turn: pick one of your dice, turn it to a DIFFERENT value v, and
  move it exactly v cells in one of the 8 straight directions.  Every cell
  on the way and the landing cell must be on the board and empty.
* Note 2: only if the side to move has no regular move at all, it may
  instead either (a) turn one of its dice to a different value in place, or
  (b) move one die, keeping its value, exactly that value of cells (usual
  path rules).
* A Triad is three dice on three consecutive cells of one straight line
  (horizontal, vertical, diagonal), containing dice of both colours, whose
  values are all equal or all different.  Only Triads that contain the die
  just acted on count (those are exactly the newly formed ones).
* If at least one Triad is formed, the mover removes exactly one of its own
  dice that belongs to one of those Triads (the acted-on die included) and
  scores one Triad.  Each removal choice is a separate move.
* A player with 3 Triads has won; a finished game has no legal moves.

Notation
--------
Position: ``<rank6>/<rank5>/.../<rank1> <side> <black score> <white score>``
where each rank is six tokens, each ``.`` or colour letter + value.
Moves: ``c1c3``, ``c1c3xd3`` (with removal), ``c1=2`` / ``c1=2xd3``
(Note 2 value change in place).  A Note 2 move that keeps its value is
written like any other move.
"""

FILES = "abcdef"
RANKS = "123456"
COLOURS = ("b", "w")
VALUES = (1, 2, 3)
WIN_SCORE = 3

# The 8 straight directions as (file step, rank step).
DIRECTIONS = [
    (1, 0), (-1, 0), (0, 1), (0, -1),
    (1, 1), (1, -1), (-1, 1), (-1, -1),
]

# The 4 line orientations used to look for Triads.
LINE_DIRECTIONS = [(1, 0), (0, 1), (1, 1), (1, -1)]


# ---------------------------------------------------------------------------
# Cells
# ---------------------------------------------------------------------------

def cell_name(file_index, rank_index):
    """(0, 0) -> 'a1', (5, 5) -> 'f6'."""
    return FILES[file_index] + RANKS[rank_index]


def cell_coords(name):
    """'a1' -> (0, 0).  Raises ValueError on a bad cell name."""
    if len(name) != 2 or name[0] not in FILES or name[1] not in RANKS:
        raise ValueError("bad cell name: %r" % (name,))
    return FILES.index(name[0]), RANKS.index(name[1])


def on_board(file_index, rank_index):
    return 0 <= file_index < 6 and 0 <= rank_index < 6


def all_cells():
    """All 36 cell names, in a fixed order (a1, b1, ..., f1, a2, ...)."""
    return [cell_name(f, r) for r in range(6) for f in range(6)]


# ---------------------------------------------------------------------------
# Positions
# ---------------------------------------------------------------------------

def other(side):
    return "w" if side == "b" else "b"


def parse_position(text):
    """Parse a position string.

    Returns a dict:
        {"board": {cell_name: (colour, value)}, "side": "b"|"w",
         "scores": {"b": int, "w": int}}
    Raises ValueError on malformed text.
    """
    if not isinstance(text, str):
        raise ValueError("position must be a string")
    fields = text.split(" ")
    if len(fields) != 4:
        raise ValueError("position needs 4 space-separated fields: %r" % (text,))
    placement, side, black_score, white_score = fields

    ranks = placement.split("/")
    if len(ranks) != 6:
        raise ValueError("placement needs 6 ranks, got %d" % len(ranks))

    board = {}
    for row_number, rank_text in enumerate(ranks):
        rank_index = 5 - row_number          # first rank in the text is rank 6
        tokens = []
        i = 0
        while i < len(rank_text):
            ch = rank_text[i]
            if ch == ".":
                tokens.append(None)
                i += 1
            elif ch in COLOURS:
                if i + 1 >= len(rank_text) or rank_text[i + 1] not in "123":
                    raise ValueError("die %r needs a value 1..3" % (ch,))
                tokens.append((ch, int(rank_text[i + 1])))
                i += 2
            else:
                raise ValueError("bad character %r in placement" % (ch,))
        if len(tokens) != 6:
            raise ValueError("rank %d has %d tokens, needs 6"
                             % (rank_index + 1, len(tokens)))
        for file_index, token in enumerate(tokens):
            if token is not None:
                board[cell_name(file_index, rank_index)] = token

    if side not in COLOURS:
        raise ValueError("side to move must be 'b' or 'w', got %r" % (side,))

    scores = {}
    for colour, score_text in (("b", black_score), ("w", white_score)):
        if score_text not in ("0", "1", "2", "3"):
            raise ValueError("score must be 0..3, got %r" % (score_text,))
        scores[colour] = int(score_text)

    for colour in COLOURS:
        count = sum(1 for die in board.values() if die[0] == colour)
        if count > 6:
            raise ValueError("%s has %d dice, at most 6" % (colour, count))
    if scores["b"] >= WIN_SCORE and scores["w"] >= WIN_SCORE:
        raise ValueError("both players cannot have three Triads")

    return {"board": board, "side": side, "scores": scores}


def format_position(pos):
    """Inverse of parse_position (canonical text)."""
    rank_texts = []
    for rank_index in range(5, -1, -1):
        text = ""
        for file_index in range(6):
            die = pos["board"].get(cell_name(file_index, rank_index))
            if die is None:
                text += "."
            else:
                text += die[0] + str(die[1])
        rank_texts.append(text)
    return "%s %s %d %d" % ("/".join(rank_texts), pos["side"],
                            pos["scores"]["b"], pos["scores"]["w"])


# ---------------------------------------------------------------------------
# Rules
# ---------------------------------------------------------------------------

def winner_of(pos):
    if pos["scores"]["b"] >= WIN_SCORE:
        return "b"
    if pos["scores"]["w"] >= WIN_SCORE:
        return "w"
    return None


def destinations(board, cell, distance):
    """Cells reachable from `cell` by moving exactly `distance` in a straight
    line, never passing through or landing on a die, never leaving the board.
    """
    f0, r0 = cell_coords(cell)
    result = []
    for df, dr in DIRECTIONS:
        ok = True
        for step in range(1, distance + 1):
            f, r = f0 + df * step, r0 + dr * step
            if not on_board(f, r) or cell_name(f, r) in board:
                ok = False
                break
        if ok:
            result.append(cell_name(f0 + df * distance, r0 + dr * distance))
    return result


def is_triad(dice):
    """dice: list of three (colour, value)."""
    colours = set(d[0] for d in dice)
    values = [d[1] for d in dice]
    if colours != {"b", "w"}:
        return False
    all_equal = values[0] == values[1] == values[2]
    all_different = len(set(values)) == 3
    return all_equal or all_different


def triads_through(board, cell):
    """All Triads (as tuples of 3 cell names) that contain `cell`."""
    f0, r0 = cell_coords(cell)
    found = []
    for df, dr in LINE_DIRECTIONS:
        # `cell` can be the first, second or third of the three cells.
        for back in range(3):
            start_f, start_r = f0 - df * back, r0 - dr * back
            cells = []
            for k in range(3):
                f, r = start_f + df * k, start_r + dr * k
                if on_board(f, r):
                    cells.append(cell_name(f, r))
            if len(cells) != 3:
                continue
            if not all(c in board for c in cells):
                continue
            if is_triad([board[c] for c in cells]):
                found.append(tuple(cells))
    return found


def removal_choices(board, acted_cell, mover):
    """Own dice of `mover` that belong to a Triad through `acted_cell`
    (sorted cell names; empty list if no Triad was formed)."""
    choices = set()
    for triad in triads_through(board, acted_cell):
        for c in triad:
            if board[c][0] == mover:
                choices.add(c)
    return sorted(choices)


def _results_of_action(pos, base_move, new_board, acted_cell):
    """Expand one action (move or in-place change) into full moves with the
    removal variants.  Returns list of (move string, resulting position)."""
    mover = pos["side"]
    results = []
    choices = removal_choices(new_board, acted_cell, mover)
    if not choices:
        new_pos = {"board": new_board, "side": other(mover),
                   "scores": dict(pos["scores"])}
        results.append((base_move, new_pos))
    else:
        for removed in choices:
            board_after = dict(new_board)
            del board_after[removed]
            scores = dict(pos["scores"])
            scores[mover] += 1
            new_pos = {"board": board_after, "side": other(mover),
                       "scores": scores}
            results.append((base_move + "x" + removed, new_pos))
    return results


def regular_results(pos):
    mover = pos["side"]
    board = pos["board"]
    results = []
    for cell in all_cells():
        if cell not in board or board[cell][0] != mover:
            continue
        colour, value = board[cell]
        for new_value in VALUES:
            if new_value == value:
                continue
            for target in destinations(board, cell, new_value):
                new_board = dict(board)
                del new_board[cell]
                new_board[target] = (colour, new_value)
                results += _results_of_action(pos, cell + target, new_board, target)
    return results


def note2_results(pos):
    """Note 2 alternatives (only meaningful when there is no regular move)."""
    mover = pos["side"]
    board = pos["board"]
    results = []
    for cell in all_cells():
        if cell not in board or board[cell][0] != mover:
            continue
        colour, value = board[cell]
        # (a) turn to a different value, stay in place.
        for new_value in VALUES:
            if new_value == value:
                continue
            new_board = dict(board)
            new_board[cell] = (colour, new_value)
            results += _results_of_action(pos, "%s=%d" % (cell, new_value),
                                          new_board, cell)
        # (b) keep the value, move exactly that many cells.
        for target in destinations(board, cell, value):
            new_board = dict(board)
            del new_board[cell]
            new_board[target] = (colour, value)
            results += _results_of_action(pos, cell + target, new_board, target)
    return results


def legal_results(pos):
    """List of (move string, resulting position dict)."""
    if winner_of(pos) is not None:
        return []
    results = regular_results(pos)
    if not results:
        results = note2_results(pos)
    return results


def random_result(pos, rng):
    """A random legal (move string, resulting position), None when the game
    is over: a random own die that has a regular move, then a random one of
    its regular moves and removals (Note 2 only when no die has a regular
    move). Cheaper than listing every move for a random playout
    (bench/uct.py); not uniform over the moves, but every move drawn is one
    of legal_results'."""
    if winner_of(pos) is not None:
        return None
    mover = pos["side"]
    board = pos["board"]
    cells = [c for c in all_cells() if c in board and board[c][0] == mover]
    rng.shuffle(cells)
    for cell in cells:
        colour, value = board[cell]
        options = []
        for new_value in VALUES:
            if new_value != value:
                for target in destinations(board, cell, new_value):
                    options.append((new_value, target))
        if options:
            new_value, target = rng.choice(options)
            new_board = dict(board)
            del new_board[cell]
            new_board[target] = (colour, new_value)
            return rng.choice(_results_of_action(pos, cell + target, new_board, target))
    results = note2_results(pos)
    return rng.choice(results) if results else None


# ---------------------------------------------------------------------------
# Public string API
# ---------------------------------------------------------------------------

def legal_moves(pos_str):
    """All legal move strings in the position (removal variants separate)."""
    return [m for m, _ in legal_results(parse_position(pos_str))]


def apply(pos_str, move_str):
    """Return the position string after `move_str`; ValueError if illegal."""
    for m, new_pos in legal_results(parse_position(pos_str)):
        if m == move_str:
            return format_position(new_pos)
    raise ValueError("illegal move %r in %r" % (move_str, pos_str))


def _perft(pos, depth):
    if depth == 0:
        return 1
    results = legal_results(pos)
    if depth == 1:
        return len(results)
    return sum(_perft(new_pos, depth - 1) for _, new_pos in results)


def perft(pos_str, depth):
    return _perft(parse_position(pos_str), depth)


def winner(pos_str):
    return winner_of(parse_position(pos_str))


START = "w3w3w2w2w1w1/....../....../....../....../b1b1b2b2b3b3 b 0 0"
