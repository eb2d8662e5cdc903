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
    """What the page needs to draw this board: sites, sides, status LEDs."""
    sites = []
    for i in range(N_SITES):
        x, y = GAME.site_xy(i)
        sites.append({"name": GAME.SITE_NAMES[i], "kind": games.KIND_NAMES[GAME.SITE_KIND[i]],
                      "x": x, "y": y, "shape": GAME.site_shape(i),
                      # the side the site belongs to (its colour on the board), -1 none
                      "owner": GAME.site_owner(i)})
    n_sides = len(GAME.SIDES)
    status = []
    for p in range(n_sides):
        status.append({"side": GAME.SIDES[p], "name": GAME.SIDE_NAMES[p],
                       "turn": N_SITES + DESC.STATUS_TURN[p],
                       "score": [N_SITES + s for s in DESC.STATUS_SCORE[p]]})
    extra = getattr(DESC, "STATUS_GAME", b"")
    return {
        "status_game": [DESC.N_SITES + s for s in extra],
        "game": GAME.NAME,
        "games": [g for g in games.NAMES if _has_board(g)],
        # The games' titles for the page's menu (its names are ids).
        "game_titles": {g: games.load(g).TITLE for g in games.NAMES if _has_board(g)},
        "title": GAME.TITLE,
        "sides": [{"letter": GAME.SIDES[p], "name": GAME.SIDE_NAMES[p], "rgb": list(GAME.SIDE_RGB[p])}
                  for p in range(n_sides)],
        "sites": sites,
        "status": status,
        "state_text": dict(game_text.words(GAME, "STATE_TEXT", {})),
        "labels": list(GAME.LABELS),
        "rules": game_text.words(GAME, "RULES", ""),
        "notice_text": dict(game_text.words(GAME, "NOTICE_TEXT", {})),
        # The game's own legend (its words.py LEGEND: [colours, look, words]),
        # or None: the page's list of the board's lights.
        "legend": _legend(),
        "finish_event": GAME.FINISH_EVENT,
        # Words for people, the game's own: never a die where there are none.
        "piece": [PIECE, PIECES],
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
    }


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


def _side_name(word):
    return GAME.SIDE_NAMES[GAME.SIDES.index(word)] if len(word) == 1 and word in GAME.SIDES else word


def result_words(text):
    """{"head", "reason"} in words for the board's `evt over` text: "b" ->
    Black wins; "draw repetition" -> Draw, by the game's DRAW_TEXT; Browne's
    "r wins: g eliminated" -> Red wins, Green eliminated."""
    text = (text or "").strip()
    words = text.split()
    if not words:
        return {"head": "Game over", "reason": "", "text": text}
    if words[0] == "draw":
        why = " ".join(words[1:])
        names = list(GAME.DRAW_NAMES)
        texts = game_text.words(GAME, "DRAW_TEXT")
        if texts and why in names and names.index(why) < len(texts):
            why = texts[names.index(why)]
        else:
            why = " ".join(_side_name(w.strip(":")) + (":" if w.endswith(":") else "") for w in words[1:])
        return {"head": "Draw", "reason": why, "text": text}
    head = _side_name(words[0].strip(":")) + " wins"
    rest = words[1:]
    if rest and rest[0].strip(":") == "wins":
        rest = rest[1:]
    reason = " ".join(_side_name(w.strip(":,")) + ("," if w.endswith(",") else "") for w in rest)
    if not reason:
        reason = game_text.words(GAME, "WIN_TEXT", "")
    return {"head": head, "reason": reason, "text": text}


def move_words(pos_text, move_text):
    """A move in words, step by step from the game's footprint: "lift d6,
    put it on d5 showing 1"."""
    from array import array

    from triad.games import LIFT, PLACE, TOUCH

    try:
        pos = GAME.parse_position(pos_text)
        m = GAME.parse_move(pos, move_text)
    except ValueError:
        return move_text
    fp = array("i", bytes(4 * 32))
    n = GAME.footprint(pos, m, fp)
    after = pos.copy()
    after.make(m)
    labels = GAME.LABELS
    out = []
    lifted = False
    for j in range(n):
        site = fp[j] & 255
        act = (fp[j] >> 8) & 3
        name = GAME.SITE_NAMES[site] if site < N_SITES else "any empty site"
        p = piece(after, site) if site < N_SITES else None
        shown = " showing %s" % p[1] if labels and p is not None and p[1] is not None else ""
        if act == LIFT:
            out.append(("take %s off" if lifted else "lift %s") % name)
            lifted = True
        elif act == PLACE:
            out.append("put it on %s%s" % (name, shown))
        elif act == TOUCH:
            out.append("lift %s and put it back%s" % (name, shown))
    return ", ".join(out) or move_text
