# What the page says in words at this moment about what to do now: its
# headline (whose turn) and its line (the instruction and any fault, joined),
# from a frame (simulator/frame.py). Made here, once, in Python: the page
# shows it as it is (static/render.js reads frame["say"]) and a script's
# `say` line prints it (simulator/script.py), so the two never disagree.
# The fault's words come from the board's own diagnosis (`evt fix`, the
# record its lights are drawn from: triad.games.text.fix_words), never from
# a guess of the host's.
from simulator.game import GAME, PIECE, PIECES, N_SITES
from triad.games import text as game_text

SITE = "cell" if all(GAME.SITE_KIND[i] == 0 for i in range(N_SITES)) else "spot"

_BOARD_STATE_TEXT = {
    "off": "The board is switched off. Power it on in the developer panel.",
    "setup": "Set-up: put the pieces on their lit sites.",
    "sync": "Put the pieces where the board shows (white blinks: a piece is missing; red: one too many) "
            "and the game resumes.",
    "play": "Lift one of your pieces: the lit sites show where it can go.",
    "lifted": "Put the piece on a lit site to move it there, or back where it came from (grey) to take it back.",
    "selftest": "Self-test: walk a piece over every site, press each button; hold menu to end it.",
    "over": "Game over. Press new for the next game.",
}


def fill_words(t):
    """The page's placeholders in the game's own words ({piece}, {site})."""
    return (t.replace("{pieces}", PIECES).replace("{piece}", PIECE).replace("{site}", SITE)
            .replace("{score}", GAME.SCORE_WORD or "capture"))


def state_texts():
    out = dict(_BOARD_STATE_TEXT)
    own = dict(game_text.words(GAME, "STATE_TEXT", {}))
    out.update(own)
    # The game's help for the controller's phases goes by the names the
    # board reports them under (Nehren: finish -> remove, choose -> note2).
    for k, name in enumerate(GAME.PHASE_NAMES):
        t = own.get(("finish", "choose")[k])
        if t:
            out[name] = t
    return out


STATE_TEXT = state_texts()
NOTICE_TEXT = dict(game_text.words(GAME, "NOTICE_TEXT", {}))


def fault_words(f):
    """The fault in words, from the board's diagnosis in the frame ("" when
    nothing is to be put right)."""
    if not f.get("power"):
        return ""
    state = f.get("state")
    if state in ("over", "setup", "selftest", "off"):
        return ""
    rec = game_text.fix_record(f.get("fix_record") or "")
    pos = None
    if state == "play" or state in GAME.PHASE_NAMES:
        # (a turn played: whose piece and why a step may not stand are said
        # from the position; never while the pieces are set as the game)
        try:
            pos = GAME.parse_position(f.get("position") or "")
        except ValueError:
            pos = None
    # (the turn so far, in a later phase: a game's reasons may read it)
    so_far = f.get("so_far") if state in GAME.PHASE_NAMES else ("" if state == "play" else None)
    text = game_text.fix_words(GAME, rec, f.get("fault") or "", pos, reasons=state == "play", so_far=so_far)
    if not text:
        return ""
    if state == "sync":
        return "The board does not match the game yet: " + text[0].lower() + text[1:]
    return text


def _side_name(letter):
    try:
        return GAME.SIDE_NAMES[GAME.SIDES.index(letter)]
    except ValueError:
        return letter


def lesson_text(les):
    if not les:
        return ""
    if les.get("status") == "done":
        return "All lessons solved. Well played! Pick one again, or leave the lessons to go back to your game."
    head = "Lesson %s of %d: %s" % (les["n"], len(GAME.LESSONS()), les["goal"])
    st = les.get("status")
    if st == "solved":
        return head + " — Solved (" + str(les["move"]) + ")! The next lesson follows in a moment."
    if st == "wrong":
        return (head + " — Not this one (" + str(les["move"]) + "). Put the " + PIECE
                + " back where the board shows it (blinking in its light), then try again.")
    if st == "hint":
        return (head + " — The right move is lit: lift the cyan " + PIECE + " and put it on the " + SITE
                + " lit in its light (" + str(les["move"]) + ").")
    return head


def page_words(f):
    """(headline, line, fault) as the page shows them for frame f."""
    state = f.get("state")
    side = f.get("side")
    msg = f.get("finish_text") or f.get("choose_text") or STATE_TEXT.get(state, "")
    forfeit = game_text.words(GAME, "forfeit_text")
    if f.get("forfeit") and forfeit is not None and state in GAME.PHASE_NAMES:
        # A capture forfeit: said with its rule, and the swap no longer asked.
        try:
            p = GAME.parse_position(f.get("position") or "")
            if forfeit.__code__.co_argcount >= 3:
                # (with the board's diagnosis: what the turn still needs, named)
                msg = forfeit(p, f["forfeit"], game_text.fix_record(f.get("fix_record") or "")) or msg
            else:
                msg = forfeit(p, f["forfeit"]) or msg
        except ValueError:
            pass
    turn = "—"
    if not f.get("power"):
        turn = "Power off"
    elif state == "over":
        r = f.get("result") or {"head": (_side_name(f["winner"]) + " wins") if f.get("winner") else "Game over",
                                "reason": ""}
        turn = r["head"] + ": " + r["reason"] if r.get("reason") else r["head"]
        # (the headline says who won and why: the line only what to do now,
        # not the result a second time: issue 35.13)
        msg = "Press new for the next game."
    elif state == "setup":
        turn = "Set-up"
    elif state == "selftest":
        turn = "Self-test"
    elif side:
        turn = _side_name(side) + " to move"
    # A piece lifted (the board lights where it came from in grey): what to
    # do now, not the line that asks to lift one.
    if f.get("power") and state == "play" and "source" in (f.get("names") or []) and STATE_TEXT.get("lifted") \
            and f.get("missing"):
        msg = STATE_TEXT["lifted"]
    elif f.get("power") and state == "play" and f.get("notice"):
        # The game's notice (Nehren's Note 2: the dice that can act pulse
        # grey, nothing is lifted): what the turn is now, and why.
        msg = NOTICE_TEXT.get(f["notice"]) or msg
    opp = f.get("opponent")
    if (f.get("power") and opp and side and side in opp
            and (state == "play" or state in GAME.PHASE_NAMES)):
        turn = "The board's move (" + _side_name(side) + ")"
        # (the headline names the board's move and its side: the line says
        # what to do, once: issue 35.13)
        msg = ("Now carry out its move for it: %s (%s)." % (f.get("engine_words"), f.get("engine_move"))
            if f.get("engine_move") else
            "The board is choosing " + _side_name(side) + "'s move (a blue light circles the centre)…")
    far = f.get("remote_seats") or ""
    if f.get("power") and side and side in far and (state == "play" or state in GAME.PHASE_NAMES):
        # A seat played from afar (issue 43): its move, once it has come,
        # said in the words of its lights; before, that it is awaited.
        turn = _side_name(side) + "'s move, from afar"
        msg = ("%s's move, from afar: %s. Carry it out on the board (%s)."
               % (_side_name(side), f.get("remote_words"), f.get("remote_move"))
               if f.get("remote_move") else
               "Waiting for %s's move from afar: the board takes no move for that seat until it comes." % _side_name(side))
    les = f.get("lesson")
    if les and les.get("status") != "done" and state != "over":
        lt = lesson_text(les)
        msg = (lt + " " + fill_words("Set it up: put the {pieces} on the {site}s that blink in their light "
                                     "(or press \u201cplace the lesson's {pieces}\u201d in the lessons card).")
               if state == "setup" else lt)
    after = game_text.words(GAME, "after_move_text")
    if after is not None and state == "play" and f.get("moves") and not (opp and side and side in opp):
        # The game's word on the last turn (Browne: the drop's colour, which
        # the board cannot see), said until the next turn.
        try:
            note = after(GAME.parse_position(f.get("position") or ""), f["moves"][-1])
        except (ValueError, IndexError):
            note = ""
        if note:
            msg = note + " " + msg
    if f.get("hint_words") and state == "play":
        msg = f["hint_words"] + " " + msg
    rv = f.get("review")
    if rv and f.get("power"):
        if not rv.get("trying"):
            # The board's review steps (issue 46): the table rests, the
            # lights show the move under review; no fault, no turn to play.
            return "Review", review_line(rv), ""
        turn = "Review: try again"
    fault = fault_words(f)
    if fault:
        # The fault first (what to put right), then what the turn asks for:
        # one line, so the person never has to choose between two.
        msg = fault + (" Then: " + msg[0].lower() + msg[1:] if msg and state not in ("sync",) else "")
    return turn, msg, fault


def review_line(rv):
    """The page's line while the board reviews a game (frame's review)."""
    out = "Turn %d of %d: %s." % (rv["ply"], rv["n"], rv.get("move") or "")
    mk = rv.get("mark")
    if mk:
        out += " Marked %s: the better move %s is lit in cyan; confirm tries again from before it." % (
            mk["kind"], mk["best"])
    last = rv.get("last")
    if last and last["word"] == "good":
        out += " %s was as good as the better move." % last["move"]
    return out + " Menu: the next move, hint: the one before, new: leave the review."


def say_text(f):
    """The `say` line's text: the page's line as it is shown."""
    return page_words(f)[1]
