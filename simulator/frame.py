# What the page shows, as one frame (JSON): the LEDs (and the palette name of
# each colour), the pieces and the hand, the switch matrix the firmware read,
# and what the firmware's state and events mean in words.
from simulator.game import GAME, N_SITES, result_words, move_words, finish_words
from simulator.say import page_words
from triad.games.text import fix_record
from triad.games import text as game_text


def palette():
    """Named colours of the firmware's palette, for naming what a LED shows."""
    from triad.board import palette as pal
    from triad.board.lessons import LESSON_RGB

    named = [
        ("value1", pal.VALUE[1]),
        ("value2", pal.VALUE[2]),
        ("value3", pal.VALUE[3]),
        ("source", pal.SOURCE),
        ("error", pal.ERROR),
        ("missing", pal.MISSING),
        ("triad", pal.TRIAD),
        ("last", pal.LAST_MOVE),
        ("hint", pal.HINT),
        ("think", pal.THINK),
        ("level", pal.LEVEL),
        ("status", pal.STATUS_ON),
        ("turn", pal.TURN),
        ("win-b", pal.WIN[0]),
        ("win-w", pal.WIN[1]),
        ("lesson", LESSON_RGB),
    ]
    return [(n, tuple(c)) for n, c in named]


def led_name(names, brightness, rgb):
    """The palette name (names: palette()) of what a LED shows at brightness."""
    if not any(rgb):
        return "off"
    b = brightness
    best, bestd = "other", None
    for name, c in names:
        scaled = tuple(v * b // 255 for v in c)
        if scaled == tuple(rgb):
            return name
        d = sum((x - y) ** 2 for x, y in zip(scaled, rgb))
        if bestd is None or d < bestd:
            best, bestd = name, d
    return best


_SIDES_CACHE = [None, None]


def move_sides(start, moves):
    """The side that made each of moves (a list of letters), replayed from
    start by the rules (Browne's next player is the landing cell's owner,
    not the next seat), or None where they do not replay."""
    key = (start, tuple(moves))
    if _SIDES_CACHE[0] == key:
        return _SIDES_CACHE[1]
    out = []
    try:
        pos = GAME.parse_position(start)
        for t in moves:
            out.append(GAME.SIDES[pos.side])
            pos.make(GAME.parse_move(pos, t))
    except (ValueError, IndexError):
        out = None
    _SIDES_CACHE[0], _SIDES_CACHE[1] = key, out
    return out


def state_label(pos, so_far, state, forfeit=""):
    """The board's state as the page names it (the game's phase_label: a
    phase named by what it asks, issue 35.9; forfeit: the board's `evt
    forfeit` of the turn under way, after which it asks for no swap)."""
    fn = game_text.words(GAME, "phase_label")
    if fn is None or state not in GAME.PHASE_NAMES:
        return state
    try:
        p = GAME.parse_position(pos)
        if fn.__code__.co_argcount >= 4:
            return fn(p, so_far or "", state, forfeit or "") or state
        return fn(p, so_far or "", state) or state
    except ValueError:
        return state


def choose_words(pos, site):
    """The choice the buttons make in words (the board's `evt choose
    <site>`): the game's choose_text (Nehren's Note 2: which values the die
    may show and why), or "" for the game's one line."""
    fn = game_text.words(GAME, "choose_text")
    if fn is None or not site:
        return ""
    try:
        return fn(GAME.parse_position(pos), site) or ""
    except ValueError:
        return ""


def move_notes(moves):
    """A note per move for the move list ("" for most): the game's
    move_note (Cornelson's forfeit, rule 3.1)."""
    fn = game_text.words(GAME, "move_note")
    return [fn(m) if fn is not None else "" for m in moves]


def frame(ws):
    """What the page shows of the WebSim ws, as one JSON-ready dict."""
    sim = ws.sim
    leds = sim.leds()
    b = max(1, ws.brightness)
    glow = [[min(255, (v * 255 + b // 2) // b) for v in rgb] for rgb in leds]
    snap = sim.board.snapshot()
    fw = ws.track.fw
    pos = fw.get("position") or ""
    side = score = winner = start_side = None
    try:
        p = GAME.parse_position(pos)
        side = GAME.SIDES[p.side]
        score = [GAME.score(p, k) for k in range(len(GAME.SIDES))]
        w = GAME.outcome(p)
        winner = GAME.SIDES[w] if 0 <= w < len(GAME.SIDES) else None
        start_side = GAME.SIDES[GAME.parse_position(fw.get("start", "")).side]
    except ValueError:
        score = [0] * len(GAME.SIDES)
    # Where the board and the game disagree (what a fault is about).
    missing, extra = [], []
    exp = bytearray(N_SITES)
    try:
        GAME.expected(GAME.parse_position(pos), exp)
        for i, c in enumerate(snap["cells"]):
            if exp[i] and c is None:
                missing.append(GAME.SITE_NAMES[i])
            elif not exp[i] and c is not None:
                extra.append(GAME.SITE_NAMES[i])
    except ValueError:
        pass
    ev = ws.track.ev
    state = fw["state"] if sim.running else "off"
    result = None
    if state == "over":
        result = result_words(ev["result"] if ev["result"] is not None else ws.track.result_from_game(), pos)
        if not result["reason"]:
            # The board says only "draw" for a draw by the rules (Browne's:
            # two players tied): the reason, from the final position.
            try:
                text = GAME.outcome_text(GAME.parse_position(pos))
                said = result["text"].split()
                if text and said and text.split()[0] == said[0]:
                    result = result_words(text, pos)
            except ValueError:
                pass
    settings = fw.get("settings") or {}
    opponent = settings.get("opponent")
    engine = ev["engine"] if ev["think_pos"] == pos else None
    clock = sim.clock
    f = {
        "power": sim.running,
        "crash": sim.crash,
        "leds": [list(c) for c in leds],
        "glow": glow,
        "names": [led_name(ws.names, ws.brightness, c) for c in leds],
        "brightness": ws.brightness,
        "cells": snap["cells"],
        "hand": snap["hand"],
        "buttons": snap["buttons"],
        "matrix": list(getattr(sim.board, "last_read", b"")),
        "state": fw["state"] if sim.running else "off",
        "position": pos,
        "side": side,
        "score": score,
        "moves": fw.get("moves", []),
        "move_sides": move_sides(fw.get("start", ""), fw.get("moves", [])),
        "start": fw.get("start", ""),
        "start_side": start_side,
        "winner": winner,
        "result": result,
        "fault": ev["fault"] if sim.running else None,
        "missing": missing,
        "extra": extra,
        "notice": ev["notice"] if sim.running else "",
        "unsaved": ev.get("unsaved") if sim.running else None,
        "lost": ev.get("lost") if sim.running else None,
        "lesson": ev["lesson"] if sim.running else None,
        "review": ev.get("review") if sim.running else None,
        "opponent": opponent if opponent and opponent != "off" else None,  # the seats: "w", "gb"
        "level": settings.get("level"),
        "engine_move": engine,
        "engine_words": move_words(pos, engine) if engine else None,
        "finish_text": finish_words(pos, ev["finish"], fix=fix_record(ev.get("fix", "")) or {}) if state in GAME.PHASE_NAMES else "",
        # The board's diagnosis (`evt fix`: the sites its lights show to put
        # right), the one source of the fault's words.
        "fix_record": ev.get("fix", "") if sim.running else "",
        "speed": getattr(clock, "speed", None) or getattr(sim, "speed", 1.0),
        "noise": sim.board.noise,
        "seed": ws.seed,
        "state_dir": ws.state_dir,
        "boots": sim.boots,
    }
    # A seat played from afar (a relay's room): its move, lit to carry out, in words.
    remote = fw.get("remote") or {}
    f["remote_seats"] = remote.get("seats", "") if sim.running else ""
    f["remote_move"] = remote.get("move") if sim.running and (state == "play" or state in GAME.PHASE_NAMES) else None
    f["remote_words"] = move_words(pos, f["remote_move"]) if f["remote_move"] else None
    f["relay"] = getattr(ws, "relay", None)  # the room this board plays at (host_tools/relay/sim_seat.py)
    # The hint in words while its light shows (the cyan HINT light: issue 35.7).
    hint = ev.get("hint")
    f["hint_words"] = ("Hint: " + move_words(pos, hint[0]) + "." if hint and hint[1] == pos and "hint" in f["names"]
                       and sim.running else "")
    f["forfeit"] = ev.get("forfeit", "") if sim.running and state in GAME.PHASE_NAMES else ""
    # The turn so far (the board's `evt capture`/`evt landed`/...): a later
    # phase's refusal reads it (say.fault_words).
    f["so_far"] = ev.get("finish", "") if sim.running and state in GAME.PHASE_NAMES else ""
    f["choose_text"] = choose_words(pos, ev.get("choose", "")) if state == GAME.PHASE_NAMES[1] else ""
    f["state_label"] = state_label(pos, ev["finish"], f["state"], f["forfeit"])
    f["move_notes"] = move_notes(f["moves"])
    # What the page says (simulator/say.py): the page shows these as they
    # are, a script's `say` line prints say.
    f["headline"], f["say"], f["say_fault"] = page_words(f)
    return f
