# The games' texts for the host side: the words a game has for people (its
# words.py) and the grouping of a move list's words into turns. Used by the
# simulator and the host tools alike (both sit above the firmware; neither
# imports the other's helpers for this), never by the board: the board's
# RAM holds no text it never shows.


def words(game, name, default=None):
    """A text of the game for people (RULES, STATE_TEXT, NOTICE_TEXT,
    DRAW_TEXT, ...) from its words.py; default when it has none. (The
    face's own words, PIECE_NAMES and the like, are read from the face:
    docs/architecture.md.)"""
    try:
        mod = __import__("triad.games." + game.NAME + ".words", None, None, ("RULES",))
    except ImportError:
        return default
    v = mod.__dict__.get(name)
    return default if v is None else v


def read_turns(game, pos, words, canonical=False):
    """Words of several moves (a `moves` reply, a record's body) read as
    turns and made on pos, as far as they read. A game whose turn has
    several words (Cornelson: "D4 S1-a2 S2-a4 S3-a6") says so with
    MOVE_WORDS; the longest group that reads as a legal move is taken (a
    turn's later words are steps, which never begin one). Returns (turns,
    used): the turns' texts (canonical: as the game formats them, else as
    read) and how many words they took; used < len(words) where a group
    did not read."""
    most = game.MOVE_WORDS
    out = []
    i = 0
    while i < len(words):
        for k in range(min(most, len(words) - i), 0, -1):
            text = " ".join(words[i : i + k])
            try:
                m = game.parse_move(pos, text)
            except (ValueError, IndexError):  # the game's NotationError is a ValueError
                continue
            out.append(game.format_move(pos, m) if canonical else text)
            pos.make(m)
            i += k
            break
        else:
            break
    return out, i
