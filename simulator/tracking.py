# What the page knows of the firmware: its state, position, moves, start and
# settings (asked over the serial line: simulator/websim.py polls) and what
# its events said (the result and its reason, a fault, a notice, the board's
# chosen move, a lesson). Plain data in, plain data out: no threads, no I/O.
from simulator.game import GAME
from triad.board.replay import replay  # (on the path: simulator.game put firmware/ there)
from triad.games.text import read_turns

FINISH_EVENT = GAME.FINISH_EVENT
LOST = ("saved game", "settings not read")  # `evt error` texts of what flash did not give back


class Tracker:
    def __init__(self):
        self.fw = {"state": "off", "position": "", "moves": [], "start": ""}
        self.ev = {"result": None, "fault": None, "notice": "", "engine": None, "think_pos": None, "lesson": None,
                   "review": None, "unsaved": None, "finish": "", "lost": None, "fix": "", "forfeit": "", "hint": None, "choose": ""}
        self._turn_cache = None

    def power_cut(self):
        self.fw = dict(self.fw, state="off")
        self.ev.update(fault=None, notice="", engine=None, lesson=None, review=None, lost=None, fix="", forfeit="", hint=None, choose="")

    def on_event(self, text, shadow):
        """What the page must say, from the board's events: the result and
        its reason, a fault, a notice (Note 2), the board's chosen move."""
        kind, _, arg = text.partition(" ")
        ev = self.ev
        if kind in ("setup", "position", "resume"):
            ev.update(result=None, fault=None, engine=None, think_pos=None)
        if kind in ("move", "play", "setup", "position", "resume"):
            ev["forfeit"] = ""  # (a forfeit is of the turn under way)
            ev["hint"] = None
        elif kind == "forfeit":
            ev["forfeit"] = arg
        elif kind == "hint":
            # (with the position it was asked in: its words are made there)
            ev["hint"] = (arg, GAME.format_position(shadow) if shadow is not None else None)
        if kind == "fix":
            # The board's diagnosis, the record its lights are drawn from
            # (issue 35): the fault's words are made from it alone, and go
            # the moment it says "none".
            ev["fix"] = "" if arg == "none" else arg
        if kind in ("move", "play", "triad", "state", "setup", "position", "resume", FINISH_EVENT):
            if kind != "state" or arg in ("play", "over", "setup", "sync"):
                ev["fault"] = None
        if kind == "move":
            ev["lost"] = None
        if kind == "over":
            ev["result"] = arg
        elif kind == FINISH_EVENT:
            ev["finish"] = arg  # the move so far: the finish phase's words (finish_words)
        elif kind == "fault":
            ev["fault"] = arg
        elif kind == "notice":
            ev["notice"] = "" if arg == "none" else arg
        elif kind == "choose":
            ev["choose"] = arg  # the site whose outcome the buttons pick (until the state changes)
        if kind == "state":
            ev["choose"] = ""
        elif kind == "unsaved":
            ev["unsaved"] = arg or "flash write failed"
        elif kind == "saved":
            ev["unsaved"] = None
        elif kind == "error" and arg.startswith(LOST):
            # What the board could not read back from flash (a saved game
            # cut short or not resumed, settings at their defaults): said
            # until a move, as the turn LEDs' fast red blink is until a
            # button or a move (issue 36).
            ev["lost"] = arg if not ev["lost"] else ev["lost"] + " | " + arg
        elif kind == "think":
            ev["engine"] = arg
            # (shadow: the firmware's position as its events told it)
            ev["think_pos"] = GAME.format_position(shadow) if shadow is not None else None
        elif kind in ("move", "opponent"):
            ev["engine"] = None
        elif kind == "lesson":
            ev["lesson"] = lesson_state(ev["lesson"], arg)
        elif kind == "review":
            ev["review"] = review_state(ev["review"], arg)

    def poll(self, command):
        """Ask the firmware (command(line, quiet=True)) for its state, moves,
        start and settings; True when something changed."""
        st = command("state", quiet=True)
        mv = command("moves", quiet=True)
        sp = command("start", quiet=True)
        fw = dict(self.fw)
        parts = st.split(" ", 3)
        if len(parts) == 4 and parts[0] == "ok":
            fw["state"] = parts[2]
            fw["position"] = parts[3]
        if sp.startswith("ok start "):
            fw["start"] = sp[len("ok start ") :]
        # The remote seats (played from afar over a relay: docs/protocol.md)
        # and the remote move waiting to be carried out: said in words.
        rm = command("remote", quiet=True).split()
        if len(rm) == 4 and rm[:2] == ["ok", "remote"]:
            fw["remote"] = {"seats": "" if rm[2] == "off" else rm[2], "move": None if rm[3] == "-" else rm[3]}
        gt = command("get", quiet=True)
        if gt.startswith("ok get "):
            fw["settings"] = dict(w.split("=", 1) for w in gt[len("ok get ") :].split() if "=" in w)
        if mv.startswith("ok moves"):
            fw["moves"] = self._turns(fw.get("start", ""), mv[len("ok moves") :].split(), fw.get("settings") or {})
        if fw == self.fw:
            return False
        self.fw = fw
        return True

    def _turns(self, start, words, settings):
        """The words of the `moves` reply grouped into turns. A game whose
        turns have several words (Cornelson: "D4 S1-a2 S2-a4 S3-a6") says
        so with MOVE_WORDS (the most words of one turn); the longest group
        the game reads as a legal turn is taken, replaying from the start,
        remembered between polls so only new turns are read."""
        if GAME.MOVE_WORDS <= 1:
            return words
        key = start + "|" + " ".join("%s=%s" % (k, settings.get(k.replace("_", "-"), "")) for k in GAME.SETTINGS)
        c = self._turn_cache
        if c is None or c[0] != key or words[: len(c[1])] != c[1]:
            try:
                pos = GAME.parse_position(start)
                for k in GAME.SETTINGS:  # the game's rules in effect (a mode)
                    v = settings.get(k.replace("_", "-"))
                    words_k = GAME.SETTING_CHOICES.get(k, ())
                    if v in words_k:
                        GAME.apply_setting(pos, k, words_k.index(v))
            except (ValueError, IndexError):
                return words
            c = (key, [], [], pos)
        _, done, turns, pos = c
        pos = pos.copy()
        new = words[len(done) :]
        more, used = read_turns(GAME, pos, new)
        turns = turns + more
        if used < len(new):
            return turns + new[used:]  # not readable: the rest as words
        self._turn_cache = (key, words, turns, pos)
        return turns

    def result_from_game(self):
        """The result text of a finished game the board resumed (its evt
        over went out before this page's server heard it)."""
        fw = self.fw
        try:
            p = GAME.parse_position(fw.get("start", ""))
            draw = replay(GAME, p, fw.get("moves", []))[2]
            w = GAME.outcome(p)
            if draw and w < 0:
                return "draw " + GAME.DRAW_NAMES[draw]
            return GAME.outcome_text(p) if w >= 0 else "draw"
        except (ValueError, IndexError, TypeError):
            return ""


def lesson_state(old, arg):
    """The teaching mode as the page shows it, from `evt lesson ...`:
    {n, goal, status (goal, wrong, hint, solved, done), move}, or None."""
    word, _, rest = arg.partition(" ")
    if word.isdigit():
        return {"n": int(word), "goal": rest, "status": "goal", "move": None}
    if word == "off":
        return None
    if word == "done":
        return {"n": 0, "goal": "", "status": "done", "move": None}
    if word in ("solved", "wrong", "hint") and old is not None:
        move = rest.partition(" ")[2]
        return dict(old, status=word, move=move)
    return old


def review_state(old, arg):
    """The board's review mode as the page shows it, from `evt review ...`
    (docs/protocol.md): {n, ply, move, mark {kind, best}, trying, last
    (good/wrong/better and a move), done (marks, once analysed)}, or None."""
    word, _, rest = arg.partition(" ")
    if word == "off":
        return None
    if word == "on":
        n = int(rest) if rest.isdigit() else 0
        return {"n": n, "ply": n, "move": "", "mark": None, "trying": False, "last": None, "done": None}
    if old is None:
        return None
    ply, _, text = rest.partition(" ")
    if word == "move":
        return dict(old, ply=int(ply), move=text, mark=None, last=None if old["trying"] else old["last"])
    if word == "mark":
        kind, _, best = text.partition(" better ")
        return dict(old, mark={"kind": kind, "best": best})
    if word == "try":
        return dict(old, trying=True, last=None)
    if word in ("good", "wrong", "better"):
        return dict(old, trying=word != "good", last={"word": word, "move": text})
    if word == "done":
        return dict(old, done=int(ply) if ply.isdigit() else 0)
    if word == "nomark":
        return dict(old, last={"word": "nomark", "move": ""})
    return old
