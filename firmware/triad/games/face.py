# The game face, declared once (docs/architecture.md, "The game face": that
# table lists exactly these names; tests/host/test_docs.py checks it).
#
# triad.games.load() hands every game through fill(): a name the game does
# not state gets the default below, so every hook exists on every game with
# one type and one signature and nobody probes a game with getattr (as
# python-chess's variant.py states every attribute of every variant, with
# the defaults in a base). A game missing a required name is refused by name.
#
# "Absent" is written one way per hook: a neutral function where calling it
# is cheap and right (finished() says nothing), None where absence selects
# another path of the board's (no gen_cut: no forfeit rule to match; no
# status_lights: the status LEDs show turn and score only).
from triad.compat import const
from triad.games import PLACE

MAX_STEPS = const(32)  # the longest footprint of any game (the board's footprint buffers)

# Every game states these itself.
REQUIRED = (
    "NAME", "TITLE", "SIDES", "SIDE_NAMES", "SIDE_RGB",
    "N_SITES", "SITE_NAMES", "SITE_KIND", "site_xy", "site_shape", "site_index",
    "NotationError", "START", "parse_position", "format_position", "parse_move", "format_move",
    "Position", "gen", "MAX_MOVES", "MAX_SEL_MOVES",
    "outcome", "outcome_text", "score", "perft",
    "expected", "footprint", "shows", "owner", "ROLE_RGB",
    "PHASE_NAMES", "FINISH_EVENT", "CENTRE", "LEVEL_SITES", "HOME",
    "new_game", "FIRST_ALTERNATES", "SETTINGS", "SETTING_CHOICES", "apply_setting", "quick_move",
)


# The defaults of the optional names. Functions with the hook's signature:


def drawn_sides(pos):
    """The sides sharing a draw: without the hook, every side (filled in per
    game by fill(), which knows how many)."""
    return ()


def notice(pos):
    """A position the players must be told of before acting: "" none."""
    return ""


def finished(pos, options):
    """Called once when a game ends: nothing to enter, no text."""
    return None


def label(pos, site):
    """What a person sets on a piece: nothing."""
    return None


def site_owner(i):
    """The side a site belongs to (drawn in its colour), -1 for none."""
    return -1


def LESSONS():
    """The game's lessons for the board's teaching mode: none."""
    return ()


# Optional data and the hooks whose absence (None) selects another path.
DEFAULTS = {
    "bind": None,  # no free drops: gen_open is gen
    "drawn_sides": drawn_sides,
    "draw_watch": None,
    "DRAW_NAMES": (),
    "notice": notice,
    "marks": None,
    "new_engine": None,
    "ENGINE_MODULES": (),
    "DEFAULT_LEVEL": 3,  # the board's level (1-5) until the person sets one
    "LABELS": (),
    "PIECE_NAMES": ("piece", "pieces"),
    "SCORE_WORD": "capture",
    "MARKS_TEXT": "",
    "finish_text": None,  # filled in by fill(): the footprint's first lift and placement
    "LESSONS": LESSONS,
    "idle_hints": None,
    "lift_marks": None,
    "first_site": None,
    "gen_cut": None,
    "finished": finished,
    "MOVE_WORDS": 1,
    "label": label,
    "site_owner": site_owner,
    "status_lights": None,
    # gen_open and MAX_SEL_OPEN: filled in by fill() from gen and MAX_SEL_MOVES.
    "gen_open": None,
    "MAX_SEL_OPEN": 0,
}

NAMES = REQUIRED + tuple(sorted(DEFAULTS))


def _has(mod, name):
    try:
        getattr(mod, name)
        return True
    except AttributeError:
        return False


def fill(mod):
    """Complete the face module `mod` of a game with the defaults of every
    optional name it does not state (once); ImportError naming a required
    name it lacks. Returns mod."""
    if _has(mod, "_FACE_FILLED"):
        return mod
    for name in REQUIRED:
        if not _has(mod, name):
            raise ImportError("game %s: the face's %s is missing" % (getattr(mod, "NAME", "?"), name))
    for name in DEFAULTS:
        if not _has(mod, name):
            setattr(mod, name, DEFAULTS[name])
        elif getattr(mod, name) is None and DEFAULTS[name] is not None:
            # (absent is one way: a hook with a neutral default is left out)
            raise ImportError("game %s: the face's %s is None (leave it out)" % (mod.NAME, name))
    # Defaults that depend on the game.
    if mod.gen_open is None:
        mod.gen_open = mod.gen  # no free drops: the open moves are the moves
    if not mod.MAX_SEL_OPEN:
        mod.MAX_SEL_OPEN = mod.MAX_SEL_MOVES
    if mod.drawn_sides is drawn_sides:
        every = tuple(range(len(mod.SIDES)))
        mod.drawn_sides = lambda pos: every
    if mod.finish_text is None:
        mod.finish_text = _footprint_text(mod)
    mod._FACE_FILLED = True
    return mod


def _footprint_text(g):
    """finish_text(pos, m) of a game that has none: "c4c2", the move so far
    (its first lift and first placement, by the footprint's site names)."""
    from array import array

    fp = array("i", bytes(4 * MAX_STEPS))

    def finish_text(pos, m):
        nf = g.footprint(pos, m, fp)
        a = b = ""
        for j in range(nf):
            e = fp[j]
            if (e >> 8) & 3 == PLACE:
                b = g.SITE_NAMES[e & 255]
                break
            if not a:
                a = g.SITE_NAMES[e & 255]
        return a + b

    return finish_text
