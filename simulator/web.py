# The simulator in a browser: a realtime Simulation of the unchanged
# firmware, a small HTTP server (standard library only) that serves the page
# from simulator/static/, pushes the board's state as Server-Sent Events and
# takes the player's hands (lift, place, knock, buttons, ...) as POSTs.
#
#   GET  /               the page (simulator/static/index.html)
#   GET  /static/NAME    its script and style
#   GET  /events         text/event-stream: "frame" (the whole board as JSON,
#                        sent whenever it changes) and "log" (new log lines)
#   GET  /api/state      the same frame once, as JSON (scripts, curl); besides
#                        LEDs, pieces and the firmware's state it carries what
#                        the page says in words: result {head, reason} (from
#                        evt over), fault (evt fault, while the board differs),
#                        missing/extra sites, notice (evt notice), opponent,
#                        level (get), engine_move/engine_words (evt think),
#                        lesson {n, goal, status, move} (evt lesson),
#                        finish_text (the game's words for a move partly
#                        done, by its finish event), fix (a mismatch's
#                        smallest correction)
#   GET  /api/layout     the board the firmware runs: the game's sites with
#                        their kind and drawing position, its sides, and the
#                        status LEDs of each side (the page draws from it)
#   POST /api/act        {"actions": [{"op": ..., ...}, ...]} carried out in
#                        order; answers {"ok": true, "results": [...]} or
#                        {"ok": false, "error": "...", "results": [...]}
import json
import os
import random
import re
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from simulator.game import (GAME, N_SITES, PIECE, PIECES, layout, parse_position, piece, result_words, move_words,
                            finish_words, smallest_fix)
from simulator.hardware import BUTTONS, Die, PhysicalBoard, SimError, cell_index, cell_name
from simulator.sim import Simulation

FINISH_EVENT = getattr(GAME, "FINISH_EVENT", "triad")
GAME_PHASES = tuple(getattr(GAME, "PHASE_NAMES", ()))
HERE = os.path.dirname(os.path.abspath(__file__))
STATIC = os.path.join(HERE, "static")
LOG_KEEP = 3000
POLL_S = 1.0  # the firmware's state is asked for at least this often
TICK_S = 0.1  # switch readings (bounce, noise) are pushed at this rate
CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
}


def default_state_dir():
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "triad-sim")


class RecordingBoard(PhysicalBoard):
    """The physical board, remembering what each switch read last: the raw
    matrix the firmware saw, noise and bounce included."""

    def __init__(self, seed=0):
        super().__init__(seed)
        self.last_read = bytearray(N_SITES)

    def closed(self, cell, now):
        c = super().closed(cell, now)
        if cell < N_SITES:
            self.last_read[cell] = 1 if c else 0
        return c


def _palette():
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


class WebSim:
    """A realtime Simulation plus what the page needs: a cached frame, a log,
    the firmware's state (asked over the serial line) and change signals."""

    def __init__(self, state_dir=None, seed=None, speed=1.0):
        self.restart = None  # serve(): restart the process as another board
        if seed is None:
            seed = random.SystemRandom().randrange(1, 1 << 30)
        self.state_dir = state_dir or default_state_dir()
        self.sim = Simulation(state_dir=self.state_dir, seed=seed, realtime=True, speed=speed)
        self.sim.board = RecordingBoard(seed)  # before boot: the stand-ins read it
        self.seed = seed
        self.act_lock = threading.RLock()  # actions run one at a time, in order
        self.cmd_lock = threading.Lock()  # one serial command at a time
        self.cond = threading.Condition()
        self.version = 0
        self.log = []  # (seq, text)
        self.log_seq = 0
        self.log_lock = threading.Lock()
        self.fw = {"state": "off", "position": "", "moves": [], "start": ""}
        self._quiet = False  # replies to the poller stay out of the log
        self._poll_now = threading.Event()
        self.stopping = False
        self.brightness = 64
        self.names = _palette()
        self._frame_cache = (None, None)
        self.ev = {"result": None, "fault": None, "notice": "", "engine": None, "think_pos": None, "lesson": None,
                   "unsaved": None, "finish": ""}
        self.settings = {}
        self.sim.listeners.append(self._on_sim)
        self._threads = []

    # -- life -----------------------------------------------------------------
    def start(self):
        self.power_on()
        for fn, name in ((self._poller, "sim-poll"), (self._ticker, "sim-tick")):
            t = threading.Thread(target=fn, name=name, daemon=True)
            t.start()
            self._threads.append(t)

    def stop(self):
        self.stopping = True
        self._poll_now.set()
        self.bump()
        self.sim.shutdown()

    def power_on(self):
        with self.act_lock:
            if self.sim.running:
                return
            self.brightness = self._read_brightness()
            self.sim.boot()
            self.add_log("# power on (boot %d)" % self.sim.boots)
        self._poll_now.set()

    def power_cut(self):
        with self.act_lock:
            if not self.sim.running:
                return
            self.sim.power_cut()
            self.fw = dict(self.fw, state="off")
            self.ev.update(fault=None, notice="", engine=None, lesson=None)
            self.add_log("# power cut")
        self.bump()

    def _read_brightness(self):
        # The firmware keeps its brightness in settings.txt on its flash.
        default = getattr(self.sim.desc, "BRIGHTNESS_DEFAULT", 64)
        try:
            with open(os.path.join(self.state_dir, "settings.txt"), "rb") as f:
                text = f.read(4096).decode("ascii", "replace")
            m = re.search(r"^brightness=(\d+)", text, re.M)
            if m and int(m.group(1)) > 0:
                return int(m.group(1))
        except OSError:
            pass
        return default or 64

    # -- change signals ---------------------------------------------------------
    def bump(self):
        with self.cond:
            self.version += 1
            self.cond.notify_all()

    def wait_change(self, seen, timeout):
        with self.cond:
            if self.version == seen and not self.stopping:
                self.cond.wait(timeout)
            return self.version

    def _on_sim(self, kind, payload):
        # Called from the firmware thread: never block here.
        if kind == "tone":
            return  # the piezo (sim.tones): the page plays its cues from the events
        if kind == "serial":
            line = payload
            if line.startswith("evt "):
                self._on_event(line[4:])
                self.add_log(line)
                self._poll_now.set()
            elif not self._quiet:
                self.add_log(line)
        elif kind == "crash":
            self.add_log("# firmware crashed:\n" + str(payload))
        self.bump()

    def _on_event(self, text):
        """What the page must say, from the board's events: the result and
        its reason, a fault, a notice (Note 2), the board's chosen move."""
        kind, _, arg = text.partition(" ")
        ev = self.ev
        if kind in ("setup", "position", "resume"):
            ev.update(result=None, fault=None, engine=None, think_pos=None)
        if kind in ("move", "play", "triad", "state", "setup", "position", "resume", FINISH_EVENT):
            if kind != "state" or arg in ("play", "over", "setup", "sync"):
                ev["fault"] = None
        if kind == "over":
            ev["result"] = arg
        elif kind == FINISH_EVENT:
            ev["finish"] = arg  # the move so far: the finish phase's words (finish_words)
        elif kind == "fault":
            ev["fault"] = arg
        elif kind == "notice":
            ev["notice"] = "" if arg == "none" else arg
        elif kind == "unsaved":
            ev["unsaved"] = arg or "flash write failed"
        elif kind == "saved":
            ev["unsaved"] = None
        elif kind == "think":
            ev["engine"] = arg
            sh = self.sim.shadow  # the firmware's position as its events told it
            ev["think_pos"] = GAME.format_position(sh) if sh is not None else None
        elif kind in ("move", "opponent"):
            ev["engine"] = None
        elif kind == "lesson":
            ev["lesson"] = lesson_state(ev["lesson"], arg)
        self.bump()

    def add_log(self, text):
        with self.log_lock:
            self.log_seq += 1
            self.log.append((self.log_seq, text))
            if len(self.log) > LOG_KEEP:
                del self.log[: len(self.log) - LOG_KEEP]
        self.bump()

    def log_since(self, seq):
        with self.log_lock:
            if not self.log or self.log[-1][0] <= seq:
                return seq, []
            out = [t for s, t in self.log if s > seq]
            return self.log[-1][0], out

    # -- the serial line ----------------------------------------------------------
    def command(self, line, quiet=False):
        """Send one line to the firmware; its reply (or raises SimError)."""
        with self.cmd_lock:
            if not self.sim.running:
                raise SimError("the board is switched off")
            self._quiet = quiet
            try:
                if not quiet:
                    self.add_log("> " + line)
                return self.sim.send(line, timeout_ms=3000)
            finally:
                self._quiet = False

    def _poller(self):
        while not self.stopping:
            self._poll_now.wait(POLL_S)
            self._poll_now.clear()
            if self.stopping:
                return
            if not self.sim.running:
                continue
            try:
                self._poll()
            except Exception:
                pass  # power cut meanwhile: the next round asks again

    def _turns(self, start, words, settings):
        """The words of the `moves` reply grouped into turns. A game whose
        turns have several words (Cornelson: "D4 S1-a2 S2-a4 S3-a6") says
        so with MOVE_WORDS (the most words of one turn); the longest group
        the game reads as a legal turn is taken, replaying from the start,
        remembered between polls so only new turns are read."""
        most = getattr(GAME, "MOVE_WORDS", 1)
        if most <= 1:
            return words
        key = start + "|" + " ".join("%s=%s" % (k, settings.get(k.replace("_", "-"), "")) for k in GAME.SETTINGS)
        c = getattr(self, "_turn_cache", None)
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
        done = list(done)
        turns = list(turns)
        i = len(done)
        while i < len(words):
            for k in range(min(most, len(words) - i), 0, -1):
                text = " ".join(words[i : i + k])
                try:
                    m = GAME.parse_move(pos, text)
                except (ValueError, IndexError):
                    continue
                pos.make(m)
                turns.append(text)
                done.extend(words[i : i + k])
                i += k
                break
            else:
                return turns + words[i:]  # not readable: the rest as words
        self._turn_cache = (key, done, turns, pos)
        return turns

    def _poll(self):
        st = self.command("state", quiet=True)
        mv = self.command("moves", quiet=True)
        sp = self.command("start", quiet=True)
        fw = dict(self.fw)
        parts = st.split(" ", 3)
        if len(parts) == 4 and parts[0] == "ok":
            fw["state"] = parts[2]
            fw["position"] = parts[3]
        if sp.startswith("ok start "):
            fw["start"] = sp[len("ok start ") :]
        gt = self.command("get", quiet=True)
        if gt.startswith("ok get "):
            fw["settings"] = dict(w.split("=", 1) for w in gt[len("ok get ") :].split() if "=" in w)
        if mv.startswith("ok moves"):
            fw["moves"] = self._turns(fw.get("start", ""), mv[len("ok moves") :].split(), fw.get("settings") or {})
        if fw != self.fw:
            self.fw = fw
            self.bump()

    def _ticker(self):
        last = None
        while not self.stopping:
            time.sleep(TICK_S)
            m = bytes(self.sim.board.last_read)
            if m != last:
                last = m
                self.bump()

    # -- what the page shows -----------------------------------------------------------
    def led_name(self, rgb):
        if not any(rgb):
            return "off"
        b = self.brightness
        best, bestd = "other", None
        for name, c in self.names:
            scaled = tuple(v * b // 255 for v in c)
            if scaled == tuple(rgb):
                return name
            d = sum((x - y) ** 2 for x, y in zip(scaled, rgb))
            if bestd is None or d < bestd:
                best, bestd = name, d
        return best

    def frame(self):
        sim = self.sim
        leds = sim.leds()
        b = max(1, self.brightness)
        glow = [[min(255, (v * 255 + b // 2) // b) for v in rgb] for rgb in leds]
        snap = sim.board.snapshot()
        fw = self.fw
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
        ev = self.ev
        state = fw["state"] if sim.running else "off"
        result = None
        if state == "over":
            result = result_words(ev["result"] if ev["result"] is not None else self._result_from_game(fw), pos)
        settings = fw.get("settings") or {}
        opponent = settings.get("opponent")
        engine = ev["engine"] if ev["think_pos"] == pos else None
        clock = sim.clock
        return {
            "power": sim.running,
            "crash": sim.crash,
            "leds": [list(c) for c in leds],
            "glow": glow,
            "names": [self.led_name(c) for c in leds],
            "brightness": self.brightness,
            "cells": snap["cells"],
            "hand": snap["hand"],
            "buttons": snap["buttons"],
            "matrix": list(sim.board.last_read),
            "state": fw["state"] if sim.running else "off",
            "position": pos,
            "side": side,
            "score": score,
            "moves": fw.get("moves", []),
            "start": fw.get("start", ""),
            "start_side": start_side,
            "winner": winner,
            "result": result,
            "fault": ev["fault"] if sim.running else None,
            "missing": missing,
            "extra": extra,
            "notice": ev["notice"] if sim.running else "",
            "unsaved": ev.get("unsaved") if sim.running else None,
            "lesson": ev["lesson"] if sim.running else None,
            "opponent": opponent if opponent and opponent != "off" else None,  # the seats: "w", "gb"
            "level": settings.get("level"),
            "engine_move": engine,
            "engine_words": move_words(pos, engine) if engine else None,
            "finish_text": finish_words(pos, ev["finish"]) if state in GAME_PHASES else "",
            # A fault's smallest correction (a turn under way stays under way).
            "fix": smallest_fix(pos, [i for i, c in enumerate(snap["cells"]) if c is not None],
                                ev["finish"] if state in GAME_PHASES else "")
            if sim.running and (ev["fault"] or "").startswith("mismatch") and state != "sync" else "",
            "speed": clock.speed if clock is not None else sim.speed,
            "noise": sim.board.noise,
            "seed": self.seed,
            "state_dir": self.state_dir,
            "boots": sim.boots,
        }

    def _result_from_game(self, fw):
        """The result text of a finished game the board resumed (its evt
        over went out before this page's server heard it)."""
        try:
            p = GAME.parse_position(fw.get("start", ""))
            watch = GAME.draw_watch(p.copy()) if getattr(GAME, "draw_watch", None) else None
            draw = 0
            for text in fw.get("moves", []):
                m = GAME.parse_move(p, text)
                p.make(m)
                if watch is not None:
                    draw = watch.push(p, m)
            w = GAME.outcome(p)
            if draw and w < 0:
                return "draw " + GAME.DRAW_NAMES[draw]
            return GAME.outcome_text(p) if w >= 0 else "draw"
        except (ValueError, IndexError, TypeError):
            return ""

    def frame_json(self):
        ver = self.version
        cached_ver, text = self._frame_cache
        if cached_ver != ver:
            text = json.dumps(self.frame(), separators=(",", ":"))
            self._frame_cache = (ver, text)
        return text

    # -- the player's hands ---------------------------------------------------------------
    def act(self, actions):
        results = []
        with self.act_lock:
            try:
                for a in actions:
                    results.append(self._act1(a))
            except (SimError, ValueError, KeyError, TypeError, IndexError) as e:
                self.bump()
                return {"ok": False, "error": str(e), "results": results}
        self.bump()
        return {"ok": True, "results": results}

    def _act1(self, a):
        sim = self.sim
        board = sim.board
        op = a.get("op")
        if op in ("lift", "place", "knock", "bounce"):
            cell = a["cell"]
            cell_index(cell)
            if op == "place" and a.get("hand") is not None:
                i = int(a["hand"])
                with board.lock:
                    if not 0 <= i < len(board.hand):
                        raise SimError("no such %s in the hand" % PIECE)
                    die = board.hand[i]
                    sim.place(cell, die)
            else:
                getattr(sim, op)(cell)
            self.add_log("· %s %s" % (op, cell))
            return None
        if op == "button":
            name = a["name"]
            if name not in BUTTONS:
                raise SimError("unknown button %r" % name)
            down = bool(a.get("down"))
            board.set_button(BUTTONS.index(name), down)
            self.add_log("· button %s %s" % (name, "down" if down else "up"))
            return None
        if op == "take":
            colour = a.get("colour")
            value = a.get("value")
            value = int(value) if value is not None else None
            if colour not in GAME.SIDES or value not in (getattr(GAME, "LABELS", None) or (None,)):
                raise SimError("a piece is one of %s%s" % (
                    ", ".join(GAME.SIDES), " with a label " + ", ".join(map(str, GAME.LABELS)) if getattr(GAME, "LABELS", None) else ""))
            with board.lock:
                board.hand.append(Die(colour, value))
            self.add_log("· take %s%s from the box" % (colour, "" if value is None else value))
            return None
        if op == "turn":
            i = int(a.get("hand", -1))
            with board.lock:
                d = board.hand[i]
                if d.colour is None:
                    raise SimError("that is not a %s" % PIECE)
                labels = getattr(GAME, "LABELS", ())
                if not labels:
                    raise SimError("this game's pieces carry no label")
                d.value = int(a["value"]) if a.get("value") else labels[(labels.index(d.value) + 1) % len(labels)]
            return None
        if op == "drop":
            i = int(a.get("hand", -1))
            with board.lock:
                d = board.hand[i]
                board.remove_from_hand(d)
            self.add_log("· put a %s from the hand back in the box" % PIECE)
            return None
        if op == "setup":
            return self.place_setup_dice()
        if op == "noise":
            p = float(a["p"])
            board.noise = max(0.0, min(0.5, p))
            return None
        if op == "speed":
            x = max(0.05, min(20.0, float(a["x"])))
            sim.speed = x
            if sim.clock is not None and hasattr(sim.clock, "set_speed"):
                sim.clock.set_speed(x)
            return None
        if op == "position":
            return self.load_position(a["text"])
        if op == "powercut":
            self.power_cut()
            return None
        if op == "poweron":
            self.power_on()
            return None
        if op == "game":
            # Another game is another board: the command-line simulator
            # restarts itself as that board (the flash folder, which keeps
            # each game's save, stays the same); the page reloads.
            name = str(a.get("name", ""))
            from simulator.choice import board_for_game

            board = board_for_game(name)
            if self.restart is None:
                raise SimError("switching games needs the simulator started as python -m simulator")
            self.add_log("· switch to %s (board %s)" % (name, board))
            threading.Timer(0.3, self.restart, args=(board,)).start()
            return board
        if op == "serial":
            line = str(a["line"]).strip()
            if not line:
                raise SimError("empty command")
            return self.command(line)
        raise SimError("unknown action %r" % (op,))

    def place_setup_dice(self):
        """Make the board exactly the game's: every piece the game has on
        its site with its colour and label, nothing else on the board and
        nothing left in the hand."""
        sim = self.sim
        shadow = sim.shadow
        if shadow is None:
            raise SimError("the board has not told its game yet")
        placed = []
        with sim.board.lock:
            cells = sim.board.cells
            for c in range(N_SITES):
                p = piece(shadow, c)
                have = cells[c]
                if p is None:
                    cells[c] = None
                elif have is None or (have.colour, have.value) != p:
                    cells[c] = Die(p[0], p[1])
                    placed.append(cell_name(c))
            sim.board.hand = []
        self.add_log("· set-up %s placed on %s" % (PIECES, " ".join(placed) or "(nothing missing)"))
        return placed

    def load_position(self, text):
        text = " ".join(str(text).split())
        parse_position(text)
        self.sim.board.set_position(text)
        reply = self.command("position " + text)
        if not reply.startswith("ok"):
            raise SimError("the board refused the position: " + reply)
        self._poll_now.set()
        return reply


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


_LAYOUT_JSON = json.dumps(layout(), separators=(",", ":"))


class Handler(BaseHTTPRequestHandler):
    server_version = "TriadSim/1"
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):  # quiet: the page polls nothing, but keep the console clean
        pass

    @property
    def ws(self):
        return self.server.websim

    def _send(self, code, body, ctype="application/json"):
        if isinstance(body, str):
            body = body.encode()
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        path = self.path.split("?", 1)[0]
        if path == "/":
            path = "/static/index.html"
        if path == "/events":
            return self._events()
        if path == "/api/state":
            return self._send(200, self.ws.frame_json())
        if path == "/api/layout":
            return self._send(200, _LAYOUT_JSON)
        if path == "/favicon.ico":
            path = "/static/favicon.svg"
        if path.startswith("/static/"):
            name = path[len("/static/") :]
            if "/" in name or "\\" in name or name.startswith("."):
                return self._send(404, "not found", "text/plain")
            full = os.path.join(STATIC, name)
            try:
                with open(full, "rb") as f:
                    data = f.read()
            except OSError:
                return self._send(404, "not found", "text/plain")
            ctype = CONTENT_TYPES.get(os.path.splitext(name)[1], "application/octet-stream")
            return self._send(200, data, ctype)
        self._send(404, "not found", "text/plain")

    def do_POST(self):
        path = self.path.split("?", 1)[0]
        n = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(n) if n else b"{}"
        try:
            body = json.loads(raw.decode() or "{}")
        except ValueError:
            return self._send(400, json.dumps({"ok": False, "error": "bad JSON"}))
        if path == "/api/act":
            actions = body.get("actions")
            if actions is None:
                actions = [body]
            if not isinstance(actions, list) or not all(isinstance(a, dict) for a in actions):
                return self._send(400, json.dumps({"ok": False, "error": "actions must be a list of objects"}))
            return self._send(200, json.dumps(self.ws.act(actions)))
        self._send(404, json.dumps({"ok": False, "error": "not found"}))

    def _events(self):
        ws = self.ws
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        last_text = None
        seq = 0
        ver = -1
        idle = time.monotonic()
        try:
            while not ws.stopping and not self.server.stopping:
                ver = ws.wait_change(ver, 10.0)
                out = []
                text = ws.frame_json()
                if text != last_text:
                    last_text = text
                    out.append("event: frame\ndata: %s\n\n" % text)
                seq, lines = ws.log_since(seq)
                if lines:
                    out.append("event: log\ndata: %s\n\n" % json.dumps(lines))
                if not out and time.monotonic() - idle > 10:
                    out.append(": keep-alive\n\n")
                if out:
                    idle = time.monotonic()
                    self.wfile.write("".join(out).encode())
                    self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError, ConnectionAbortedError, OSError):
            pass


class SimServer(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = False

    def __init__(self, addr, websim, bind=True):
        self.websim = websim
        self.stopping = False
        super().__init__(addr, Handler, bind_and_activate=bind)

    @property
    def url(self):
        host, port = self.server_address[:2]
        if host in ("0.0.0.0", "::", ""):
            host = "127.0.0.1"
        return "http://%s:%d/" % (host, port)


def make_server(host="127.0.0.1", port=8765, websim=None, tries=20, fd=None):
    """Bind to port, or the next free one (port 0: any free port). fd: a
    listening socket handed over by the process this one replaced (a
    restart as another board keeps the page's address)."""
    if fd is not None:
        import socket

        server = SimServer((host, port), websim, bind=False)
        server.socket.close()
        server.socket = socket.socket(fileno=fd)
        server.server_address = server.socket.getsockname()
        return server
    last = None
    for p in [port] if port == 0 else range(port, port + tries):
        try:
            return SimServer((host, p), websim)
        except OSError as e:
            last = e
    raise OSError("no free port from %d to %d: %s" % (port, port + tries - 1, last))


class Running:
    """A started simulator and server (for tests and the screenshot tool)."""

    def __init__(self, host="127.0.0.1", port=0, state_dir=None, seed=None, speed=1.0):
        self.websim = WebSim(state_dir=state_dir, seed=seed, speed=speed)
        self.server = make_server(host, port, self.websim)
        self.url = self.server.url
        self.websim.start()
        self.thread = threading.Thread(target=self.server.serve_forever, name="http", daemon=True)
        self.thread.start()

    def stop(self):
        self.server.stopping = True
        self.websim.stop()
        self.server.shutdown()
        self.server.server_close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


def _has_display():
    if sys.platform.startswith(("win", "darwin")):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def serve(args):
    state_dir = getattr(args, "state_dir", None) or default_state_dir()
    try:
        ws = WebSim(state_dir=state_dir, seed=getattr(args, "seed", None))
        server = make_server(args.host, args.port, ws, fd=getattr(args, "listen_fd", None))
    except OSError as e:
        print("simulator: %s" % e, file=sys.stderr)
        return 2
    def restart(board):
        # The listening socket goes to the new process as it is: the page's
        # address stays, and no other program can take the port meanwhile.
        server.stopping = True
        fd = server.socket.fileno()
        os.set_inheritable(fd, True)
        try:
            ws.stop()
        except Exception:
            pass  # the flash folder is saved move by move; nothing to lose
        argv = [sys.executable, "-m", "simulator", "serve", "--board", board, "--host", args.host,
                "--port", str(server.server_address[1]), "--listen-fd", str(fd),
                "--state-dir", state_dir, "--no-browser"]
        if getattr(args, "seed", None) is not None:
            argv += ["--seed", str(args.seed)]
        os.execv(sys.executable, argv)

    ws.restart = restart
    ws.start()
    url = server.url
    print("Triad board simulator running at %s" % url, flush=True)
    print("  flash (saved game): %s   seed: %d   Ctrl-C stops" % (state_dir, ws.seed), flush=True)
    if not getattr(args, "no_browser", False) and _has_display():
        try:
            import webbrowser

            threading.Thread(target=webbrowser.open, args=(url,), daemon=True).start()
        except Exception:
            pass
    try:
        import signal

        def _term(signum, frame):
            raise KeyboardInterrupt

        signal.signal(signal.SIGTERM, _term)  # `kill` stops as cleanly as Ctrl-C
    except (ValueError, OSError):
        pass  # not the main thread
    try:
        server.serve_forever(poll_interval=0.25)
    except KeyboardInterrupt:
        print("\nsimulator: stopping", flush=True)
    finally:
        server.stopping = True
        ws.stop()
        server.server_close()
    return 0
