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


# -- the diagnosis in words (issue 35) ------------------------------------------
# The board's `evt fix` line is the record its lights are drawn from (board/
# lights.py, FIX_EMPTY): the sites to empty, to fill, the one a misplaced
# piece came from, and whether the board declares a fault (it has rested in
# it) or two turns fit. The page, the monitor and a script's `say` line say
# it with these words, so they name the very spots that blink.

_FIX_KEYS = ("empty", "fill", "back", "take")


def fix_record(text):
    """An `evt fix` text ("empty H6 fill E3 back S1 fault") as a dict
    {empty, fill, back, take: [site names], fault, ambiguous: bool}; None
    for "none" or an empty text. (take: pieces the turn under way still
    takes off, no fault: the game's words for its next step read them.)"""
    words = (text or "").split()
    if not words or words == ["none"]:
        return None
    sites = {"empty": [], "fill": [], "back": [], "take": []}  # type: dict
    flags = {"fault": False, "ambiguous": False}
    key = None
    for w in words:
        if w in _FIX_KEYS:
            key = w
        elif w in flags:
            flags[w] = True
            key = None
        elif key is not None:
            sites[key].append(w)
    rec = dict(sites)  # type: dict
    rec.update(flags)
    return rec


def _names(sites):
    return sites[0] if len(sites) == 1 else ", ".join(sites[:-1]) + " and " + sites[-1]


def fix_words(game, rec, why="", pos=None, reasons=True, so_far=None):
    """The diagnosis rec (fix_record) in words: what to put right, naming
    exactly the sites the lights show; "" when nothing is to be put right.
    why: the board's fault text (`evt fault`), for the two turns that fit
    the same switches ("ambiguous <move> or <move>: ..."). pos: the game's
    position while a turn is played (not while the board waits for the
    pieces to stand as the game): then a piece not the mover's is named
    with its side and the turn said, and a piece of the mover's put where
    it may not stand with the game's reason (its words' refusal(pos, from,
    to): issue 47); reasons False: no rule's reason (a turn's later phase,
    where the piece's step was made already), unless so_far, the turn so
    far, is given and the game's refusal reads it (refusal(pos, from, to,
    so_far): Cornelson's jewels step after the gem, whose captures make
    and break Barriers)."""
    if not rec:
        return ""
    kinds = words(game, "PIECE_KINDS", None) or {}
    default = game.PIECE_NAMES[0]
    index = {name: i for i, name in enumerate(game.SITE_NAMES)}
    kind_names = __import__("triad.games", None, None, ("KIND_NAMES",)).KIND_NAMES

    def kind(site):
        i = index.get(site)
        return kind_names[game.SITE_KIND[i]] if i is not None else "site"

    def called(site):
        return kinds.get(kind(site), default)

    def owner(site):
        i = index.get(site)
        return game.owner(pos, i) if pos is not None and i is not None else -1

    empty, fill, back = rec["empty"], rec["fill"], rec["back"]
    out = []
    turn = ""
    if back and empty:
        b = back[0]
        refusal = words(game, "refusal") if pos is not None and len(empty) == 1 else None
        reason = ""
        if refusal is not None and b in index and empty[0] in index:
            if so_far is not None and refusal.__code__.co_argcount >= 4:
                reason = refusal(pos, index[b], index[empty[0]], so_far)
            elif reasons:
                reason = refusal(pos, index[b], index[empty[0]])
        # (where it may go, by the piece: a jewel put on a post or a dock is
        # not told "a lit post"; the game's LIT_FOR, else the wrong spot's kind)
        lit = (words(game, "LIT_FOR", None) or {}).get(called(b)) or kind(empty[0])
        out.append("the %s from %s may not stand on %s%s: put it back on %s (grey) or on a lit %s"
                   % (called(b), b, _names(empty), " (" + reason + ")" if reason else "", b, lit))
    elif empty:
        out.append("take what stands on %s off (blinking red)" % _names(empty))
    if fill:
        # One group a kind of piece (a jewel is never called a gem) and,
        # while a turn is played, a side: whose piece it is.
        groups = []  # type: list
        for site in fill:
            key = (owner(site), called(site))
            for grp in groups:
                if grp[0] == key:
                    grp[1].append(site)
                    break
            else:
                groups.append((key, [site]))
        told = []
        mine = False
        for (side, piece), sites in groups:
            plural = game.PIECE_NAMES[1] if piece == default and len(game.PIECE_NAMES) > 1 else piece + "s"
            noun = plural if len(sites) > 1 else piece
            if side < 0 or side == pos.side:
                mine = True
                told.append("the %s back on %s" % (noun, _names(sites)))
            else:
                told.append("%s's %s back on %s" % (game.SIDE_NAMES[side], noun, _names(sites)))
        out.append("put " + " and ".join(told) + " (blinking white)")
        if not mine:
            turn = ": it is %s's turn" % game.SIDE_NAMES[pos.side]
    if rec.get("ambiguous") and not out:
        said = why.partition(":")[0] if why.startswith("ambiguous") else ""
        moves = said[len("ambiguous"):].strip()
        return ("Two turns fit the board%s: put the pieces back and play the turn again."
                % ((" (" + moves + ")") if moves else ""))
    if not out:
        return ""
    text = " and ".join(out) + turn
    return text[0].upper() + text[1:] + ". Nothing counts until then."
