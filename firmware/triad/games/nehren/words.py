# Nehren: the game's words for people -- the rules card, the state lines,
# the notices and the draw reasons -- read by the simulator page and the host
# tools through triad.games.words(). The board never imports this module:
# its RAM holds no text it would not show.

STATE_TEXT = {
    "setup": "Set-up: put the rolled dice on their lit cells (each cell blinks in its die's value colour).",
    "play": "Lift one of your dice: the lit cells show where it can go and in its colour the value to turn it to.",
    "lifted": "Now put the die on a lit cell, turned to the value the cell's light shows (blue 1, orange 2, "
    "purple 3); back on its own cell (grey) takes it back.",
    "finish": "Triad! Take one of your own dice of the Triad off the board (its cell blinks green).",
    "choose": "Note 2: press menu to pick the value the die now shows, then confirm.",
}

RULES = """Each player has six dice showing 1, 2 or 3; Black starts.
A turn: lift one of your dice, turn it to a different value and move it
exactly that many cells (1 to 3) in a straight line: along a row, a column
or a diagonal, never over or onto another die. It can never move its current
value; the new value is the distance.
A Triad: three dice in a row (any line, diagonals too) with both colours
among them, showing all the same value or all different values.
Made a Triad by your move: take one of your own dice of it off the board.
Win: make three Triads.
Note 2: when none of your dice can move, turn one die in place (lift it and
put it back, menu picks its value, confirm) or move a die its current value
without turning it.
Draw (the board's rule): the same position for the third time, or 200 moves
in a row without a Triad.
The board: a move counts once the die has rested 0.8 s on a lit cell; a die
that rests 0.3 s where it may not stand blinks red (sliding across is fine)."""

# The reason of a win (`evt over b` says only who): the page's headline.
WIN_TEXT = "three Triads made"

DRAW_TEXT = ("", "by repetition: the same position stood for the third time",
             "by the 200-move rule: 200 moves in a row without a Triad")

NOTICE_TEXT = {"note2": "Note 2: none of your dice can make a regular move. Move a die its current "
               "value without turning it, or lift a die and put it back, press menu to pick "
               "the value it now shows and confirm (your dice that can act pulse grey)."}


def result_reason(pos, text):
    """Why the game ended: a win is three Triads (the draws keep DRAW_TEXT)."""
    w = "bw".find(text.split()[0]) if text.split() else -1
    if w < 0:
        return ""
    # Said after "<side> wins": the side is not named again.
    return "%s (%d to %d)" % (WIN_TEXT, pos.score[w], pos.score[w ^ 1])


def refusal(pos, frm, to):
    """Why the mover's die from site frm may not stand on site to, and what
    it may do instead ("c1 shows 2: a die must turn, so move it 1 or 3
    cells"); "" when the rules give no reason of a single step (the board's
    lights say the rest). The fault's words (triad.games.text.fix_words)."""
    from triad.games import nehren as G

    names = G.SITE_NAMES
    a, b = names[frm], names[to]
    v = G.label(pos, frm)
    if v is None:
        return ""
    df = ord(b[0]) - ord(a[0])
    dr = int(b[1:]) - int(a[1:])
    if df and dr and abs(df) != abs(dr):
        return "a die moves in a straight line: along a row, a column or a diagonal"
    d = max(abs(df), abs(dr))
    if d > 3:
        return "a die moves 1 to 3 cells"
    sf = (df > 0) - (df < 0)
    sr = (dr > 0) - (dr < 0)
    for k in range(1, d):
        n = "%s%d" % (chr(ord(a[0]) + sf * k), int(a[1:]) + sr * k)
        if G.owner(pos, names.index(n)) >= 0:
            # (the die in the way is not named: the words name only what
            # the lights show, and it is not lit)
            return "another die is in its way: a die never moves over one"
    note2 = pos.is_note2()
    if d == v and not note2:
        others = [str(k) for k in (1, 2, 3) if k != v]
        return "%s shows %d: a die must turn, so move it %s or %s cells" % (a, v, others[0], others[1])
    if d != v and note2:
        return ("Note 2: no die can turn and move, so move it %d cells, its own value, or turn it in place"
                % v)
    return ""


def choose_text(pos, site):
    """Note 2's choice in words (the board's `evt choose <site>`): which
    values the die turned in place may show, and why."""
    from triad.games import nehren as G

    if site not in G.SITE_NAMES:
        return ""
    v = G.label(pos, G.SITE_NAMES.index(site))
    if v is None:
        return ""
    others = [k for k in (1, 2, 3) if k != v]
    return ("Note 2: the die on %s showed %d and is turned in place, so it must show another value: "
            "%d or %d. Press menu to step between them (%s lights in the value: blue 1, orange 2, "
            "purple 3), then confirm." % (site, v, others[0], others[1], site))


def finish_state_text(pos, so_far, fix=None):
    """The line once a move made a Triad (the board's `evt triad <move>`):
    which dice may be taken off, as their cells blink (fix: the board's
    diagnosis, its take sites: issue 47)."""
    take = (fix or {}).get("take") or []
    if not take:
        return ""
    which = take[0] if len(take) == 1 else ", ".join(take[:-1]) + " or " + take[-1]
    return ("Triad! Take one of your own dice of the Triad off the board: the one on %s (%s green)."
            % (which, "its cell blinks" if len(take) == 1 else "their cells blink"))
