# The game the simulated board runs, through the game face only: the
# simulator names sites, dresses pieces and draws the page from it, so a
# board description that names another game gets its own simulator.
import os
import sys

_FIRMWARE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "firmware")
if _FIRMWARE not in sys.path:
    # Appended: firmware/code.py and boot.py must not shadow the stdlib's.
    sys.path.append(_FIRMWARE)

from triad import boards, games  # noqa: E402
from triad.games import text as game_text  # noqa: E402
from simulator import choice  # noqa: E402


SimError = choice.SimError

# The board description: the firmware's own choice (triad.boards.ACTIVE)
# unless TRIAD_SIM_BOARD names another (python -m simulator --game NAME or
# --board NAME sets it before this module loads; simulator/choice.py).
DESC = choice.description(os.environ["TRIAD_SIM_BOARD"]) if os.environ.get("TRIAD_SIM_BOARD") else boards.ACTIVE
GAME = games.load(DESC.GAMES[0])
N_SITES = GAME.N_SITES
_INDEX = {name: i for i, name in enumerate(GAME.SITE_NAMES)}
# What the page and the log call a piece (Nehren: a die) and a scoring move.
PIECE, PIECES = GAME.PIECE_NAMES
SCORE_WORD = GAME.SCORE_WORD


def site_index(name):
    i = _INDEX.get(name) if isinstance(name, str) else None
    if i is None:
        raise SimError("bad %s %r: one of %s..%s" % (
            games.KIND_NAMES[GAME.SITE_KIND[0]], name, GAME.SITE_NAMES[0], GAME.SITE_NAMES[-1]))
    return i


def site_name(i):
    return GAME.SITE_NAMES[i]


def piece(pos, site):
    """(side letter, label) of the piece the game has on site, or None. The
    label is what a person sets on the piece (a die's value), or None."""
    owner = GAME.owner(pos, site)
    if owner < 0:
        return None
    label = GAME.label(pos, site)
    return GAME.SIDES[owner], label


def parse_position(text):
    try:
        return GAME.parse_position(text)
    except ValueError as e:
        raise SimError("bad position: %s" % e)


def _has_board(game):
    try:
        choice.board_for_game(game)
        return True
    except SimError:
        return False


def layout():
    """What the page needs to draw this board: the game's drawing (sites,
    sides: simulator/drawing.py, shared with the relay's page), and the
    board's own: status LEDs, words, legend, lessons."""
    from simulator.drawing import board_drawing

    drawing = board_drawing(GAME)
    n_sides = len(GAME.SIDES)
    status = []
    for p in range(n_sides):
        status.append({"side": GAME.SIDES[p], "name": GAME.SIDE_NAMES[p],
                       "turn": N_SITES + DESC.STATUS_TURN[p],
                       "score": [N_SITES + s for s in DESC.STATUS_SCORE[p]]})
    extra = getattr(DESC, "STATUS_GAME", b"")
    return dict(drawing, **{
        "status_game": [DESC.N_SITES + s for s in extra],
        "games": [g for g in games.NAMES if _has_board(g)],
        # The games' titles for the page's menu (its names are ids).
        "game_titles": {g: games.load(g).TITLE for g in games.NAMES if _has_board(g)},
        "status": status,
        "state_text": dict(game_text.words(GAME, "STATE_TEXT", {})),
        "rules": game_text.words(GAME, "RULES", ""),
        "notice_text": dict(game_text.words(GAME, "NOTICE_TEXT", {})),
        # The game's own legend (its words.py LEGEND: [colours, look, words]),
        # or None: the page's list of the board's lights.
        "legend": _legend(),
        "finish_event": GAME.FINISH_EVENT,
        "score_word": SCORE_WORD,
        "marks_text": GAME.MARKS_TEXT,
        "start": GAME.START if isinstance(GAME.START, str) else GAME.format_position(GAME.START),
        "roles": [list(c) for c in GAME.ROLE_RGB] if GAME.LABELS else [],
        "phases": list(GAME.PHASE_NAMES),
        # The board's sound cues (board/sound.py): the page plays the same
        # tone patterns, {name: [hz, ms, ...]}; whether this board has a piezo.
        "cues": _cues(),
        "buzzer": getattr(DESC, "BUZZER_PIN", None) is not None,
        # The teaching mode's lessons (their goals; started by `lesson <n>`).
        "lessons": [item[0] for item in GAME.LESSONS()],
    })


def _legend():
    rows = game_text.words(GAME, "LEGEND")
    if rows is None:
        return None
    out = []
    for colours, look, text in rows:
        many = colours and isinstance(colours[0], (tuple, list))
        out.append([[list(c) for c in (colours if many else (colours,))], look, text])
    return out


def _cues():
    from triad.board import sound

    return {name: list(cue) for name, cue in sound.CUES}


def _side_name(word, g=None):
    g = g or GAME
    return g.SIDE_NAMES[g.SIDES.index(word)] if len(word) == 1 and word in g.SIDES else word


def result_words(text, pos_text=None, game=None):
    """{"head", "reason"} in words for the board's `evt over` text: "b" ->
    Black wins; "draw repetition" -> Draw, by the game's DRAW_TEXT; Browne's
    "r wins: g eliminated" -> Red wins, Green eliminated. With the final
    position, the game's words may say more (its result_reason: which jewel
    is trapped and by what)."""
    g = game or GAME
    text = (text or "").strip()
    words = text.split()
    if not words:
        return {"head": "Game over", "reason": "", "text": text}
    reason = ""
    explain = game_text.words(g, "result_reason")
    if explain is not None and pos_text:
        try:
            reason = explain(g.parse_position(pos_text), text)
        except ValueError:
            reason = ""
    if words[0] == "draw":
        why = " ".join(words[1:])
        names = list(g.DRAW_NAMES)
        texts = game_text.words(g, "DRAW_TEXT")
        if texts and why in names and names.index(why) < len(texts):
            why = texts[names.index(why)]
        else:
            why = " ".join(_side_name(w.strip(":"), g) + (":" if w.endswith(":") else "") for w in words[1:])
        return {"head": "Draw", "reason": reason or why, "text": text}
    head = _side_name(words[0].strip(":"), g) + " wins"
    rest = words[1:]
    if rest and rest[0].strip(":") == "wins":
        rest = rest[1:]
    if not reason:
        reason = " ".join(_side_name(w.strip(":,"), g) + ("," if w.endswith(",") else "") for w in rest)
    if not reason:
        reason = game_text.words(g, "WIN_TEXT", "")
    return {"head": head, "reason": reason, "text": text}


def finish_words(pos_text, so_far, game=None, fix=None):
    """The headline while a move is partly done, when the game's words say
    it by the move so far (the finish event's text: Cornelson's placed gem
    captures or not); "" for the game's one finish text. fix: the board's
    diagnosis (triad.games.text.fix_record), for a game whose words say
    the next step by what is still to do (Browne: captures still to take
    off, then the drop)."""
    g = game or GAME
    fn = game_text.words(g, "finish_state_text")
    if fn is None or not so_far:
        return ""
    try:
        p = g.parse_position(pos_text)
        if fn.__code__.co_argcount >= 3:
            return fn(p, so_far, fix) or ""
        return fn(p, so_far) or ""
    except ValueError:
        return ""


def move_words(pos_text, move_text, game=None):
    """A move in words, step by step from the game's footprint: "lift d6,
    put it on d5 showing 1"; a piece that comes new to the board is named
    with its side ("put a new North gem on A1"), a piece taken off or
    replaced in place says whose it was ("replace the North gem on A3 with
    a South gem"). game: another game's face (tests), else the board's."""
    g = game or GAME
    try:
        pos = g.parse_position(pos_text)
        m = g.parse_move(pos, move_text)
    except ValueError:
        return move_text
    return move_words_of(g, pos, m) or move_text


def move_words_of(g, pos, m):
    """move_words for move m of game face g in position pos (a position
    object: a mode applied to it stays), "" if it has no steps."""
    from array import array

    from triad.games import LIFT, PLACE, TOUCH, ROLE_GAME, ROLE_SOURCE

    fp = array("i", bytes(4 * 32))
    n = g.footprint(pos, m, fp)
    after = pos.copy()
    after.make(m)
    labels = g.LABELS
    # What a piece is called on each kind of site (Cornelson: a gem on a
    # post, a jewel on a trey), else the game's one name for its pieces.
    kinds = game_text.words(g, "PIECE_KINDS", None) or {}
    default = g.PIECE_NAMES[0]

    def who(p, site, role):
        owner = g.owner(p, site) if site < g.N_SITES else -1
        if owner < 0 and not labels and ROLE_GAME <= role < ROLE_GAME + len(g.SIDES):
            owner = role - ROLE_GAME  # (a site chosen later: the role's side)
        return g.SIDE_NAMES[owner] + " " if owner >= 0 else ""

    def called(site):
        if site >= g.N_SITES:
            return default
        return kinds.get(games.KIND_NAMES[g.SITE_KIND[site]], default)

    def on(site, name):
        # A game whose pieces are named by their spot's kind (Cornelson):
        # the spot's printed name is under the piece to lift, so the piece
        # is named with its spot ("the jewel on dock N1": issue 47).
        if not kinds or site >= g.N_SITES:
            return name
        return "the %s on %s %s" % (called(site), games.KIND_NAMES[g.SITE_KIND[site]], name)

    out = []
    in_hand = False
    for j in range(n):
        site = fp[j] & 255
        act = (fp[j] >> 8) & 3
        role = fp[j] >> 10
        name = g.SITE_NAMES[site] if site < g.N_SITES else "any empty " + games.KIND_NAMES[g.SITE_KIND[0]]
        shown = ""
        if labels and site < g.N_SITES and g.owner(after, site) >= 0:
            lab = g.label(after, site)
            shown = " showing %s" % lab if lab is not None else ""
        if act == LIFT:
            if role == ROLE_SOURCE:
                out.append("lift %s" % on(site, name))
                in_hand = True
            else:
                out.append("take the %s%s on %s off" % (who(pos, site, role), called(site), name))
        elif act == PLACE:
            if in_hand:
                out.append("put it on %s%s" % (name, shown))
                in_hand = False
            else:
                out.append("put a new %s%s on %s%s" % (who(after, site, role), called(site), name, shown))
        elif act == TOUCH:
            before = who(pos, site, -1)
            now = who(after, site, -1)
            if before != now:
                out.append("replace the %s%s on %s with a %s%s" % (before, called(site), name, now, called(site)))
            else:
                out.append("lift %s and put it back%s" % (on(site, name), shown))
    return ", ".join(out)


_fix_cache = {}


def smallest_fix(pos_text, occupied, so_far="", game=None):
    """The smallest correction that makes the board a legal turn under way,
    in words, or "" (issue 24: not "put back every piece and take the whole
    turn off" for one jewel on a wrong trey). occupied: the sites the board
    senses. Every legal turn, and every first part of it (its footprint's
    steps in order), is a way the board could be right; the one the fewest
    sites away from the board wins (on a tie: the one that follows the move
    announced so far, the finish event's text, then the longest part). What
    is left is said: a piece in the hand put where it may not stand, a
    stray object, a piece missing."""
    from array import array

    from triad.games import LIFT, PLACE, ROLE_SOURCE

    g = game or GAME
    occ = bytearray(g.N_SITES)
    for i in occupied:
        occ[i] = 1
    key = (g.NAME, pos_text, bytes(occ), so_far)
    if key in _fix_cache:
        return _fix_cache[key]
    try:
        pos = g.parse_position(pos_text)
    except ValueError:
        return ""
    exp = bytearray(g.N_SITES)
    g.expected(pos, exp)
    d0 = sum(1 for i in range(g.N_SITES) if exp[i] != occ[i])
    if d0 == 0:
        return ""
    buf = array("i", bytes(4 * g.MAX_MOVES))
    fp = array("i", bytes(4 * 64))
    n = g.gen(pos, buf, 0)
    best = (d0, 1, 0)  # (sites away, not the announced move, -steps)
    best_fp = []
    for i in range(n):
        nf = g.footprint(pos, buf[i], fp)
        steps = [fp[j] for j in range(nf)]
        first = ""
        for e in steps:
            if (e >> 8) & 3 == PLACE:
                first += g.SITE_NAMES[e & 255] if (e & 255) < g.N_SITES else ""
                break
            if not first:
                first = g.SITE_NAMES[e & 255] if (e & 255) < g.N_SITES else ""
        other = 0 if so_far and first == so_far.split()[0] else 1
        d = d0
        for k, e in enumerate(steps):
            s = e & 255
            if s >= g.N_SITES:
                break
            act = (e >> 8) & 3
            if act == LIFT:
                d += 1 if occ[s] else -1
            elif act == PLACE:
                d += -1 if occ[s] else 1
            cand = (d, other, -(k + 1))
            if cand < best:
                best = cand
                best_fp = steps[:k + 1]
    state = bytearray(exp)
    hand = -1
    new = set()  # where the turn so far put a piece new to the board
    for e in best_fp:
        s = e & 255
        act = (e >> 8) & 3
        if act == LIFT:
            state[s] = 0
            hand = s if (e >> 10) == ROLE_SOURCE else hand
        elif act == PLACE:
            state[s] = 1
            if hand < 0:
                new.add(s)
            hand = -1
    missing = [i for i in range(g.N_SITES) if state[i] and not occ[i]]
    # A new piece missing where any of its kind could go: not "put it on
    # A1" (one of many), but first things first.
    fresh = [i for i in missing if i in new]
    missing = [i for i in missing if i not in new]
    extra = [i for i in range(g.N_SITES) if occ[i] and not state[i]]
    kinds = game_text.words(g, "PIECE_KINDS", None) or {}
    default = g.PIECE_NAMES[0]

    def kind(i):
        return games.KIND_NAMES[g.SITE_KIND[i]]

    def called(i):
        return kinds.get(kind(i), default)

    def names(sites):
        a = [g.SITE_NAMES[i] for i in sites]
        return a[0] if len(a) == 1 else ", ".join(a[:-1]) + " and " + a[-1]

    out = []
    if fresh:
        out.append("put a new %s on a lit %s first" % (called(fresh[0]), kind(fresh[0])))
    if hand >= 0 and len(extra) == 1 and not missing:
        x = extra[0]
        out.append("the %s from %s may not stand on %s: put it on a lit %s (or back on %s)"
                   % (called(hand), g.SITE_NAMES[hand], g.SITE_NAMES[x], kind(x), g.SITE_NAMES[hand]))
    else:
        if missing:
            out.append("put the %s back on %s" % (
                (called(missing[0]) + "s") if len(missing) > 1 else called(missing[0]), names(missing)))
        if extra:
            out.append("take what stands on %s off (nothing may stand there now)" % names(extra))
    text = " and ".join(out)
    if text:
        text = text[0].upper() + text[1:] + "."
    if len(_fix_cache) > 8:
        _fix_cache.clear()
    _fix_cache[key] = text
    return text
