"""The board's physical fuzzer (issue 23): a person playing, as the switches
see it, checked against a rules reference that is not the project's core.

    python tests/fuzz_board.py --game browne --seats 1 --scripts 200 --seed 7
    python tests/fuzz_board.py --game cornelson --mode breach --scripts 200

Each script starts a game (`serial set ...`, `position ...`: the start or a
position a few random reference turns in) and plays turns as a person would,
in the `python -m simulator script` contract's lines, run in-process on one
simulated board (the unchanged firmware on virtual time; flash persists):

* the intended turn is a random legal turn of the reference
  (tests/reference_<game>.py), or the board's own (`evt think`) for the
  sides it plays (--seats: how many, the last sides first);
* its steps are carried out in a person's order, the captured pieces and
  the drop included, with the clumsiness of a person mixed in: slides over
  the cells in between (Browne), pieces lifted and put back, knocks, switch
  bounce, an object put on a wrong cell and taken off again, buttons pressed
  at odd times, failed flash writes (`flashfail`), and power cuts in the
  middle of a turn, after which the person puts the pieces back where the
  saved game has them and plays the turn again.

After every turn it checks: the firmware did not crash; the board committed
exactly one turn, legal in the reference and with the intended result
(committed = intended, compared as positions: 0 illegal, 0 wrong commits);
the board's position is the reference's; after a power cut the board
resumes every committed turn (0 lost: flash faults are given the board's
own 2 s to write the game again first); and a turn carried out completely
is committed within seconds (0 hangs). A finished Cornelson game is said
with the reference's result (`evt over`); in a tourney (--mode tourney:
each script from a random Game Tally, rules 12.0-12.4) the board enters the
reference's verdict (`evt series`), keeps the Game Tally across a power cut,
and the next game (`new` pressed, the gems cleared) begins under the rules
the tally gives. A failing script is written out (in the script contract,
with the seed) and the run fails.

With --words (issue 35) it also checks the board's words against its
lights over the person's mistakes (wrong step, early drop, stray object,
knocked piece, put back, a piece lifted that is not the turn's): at
moments the script marks (`#check legal`: the table shows a legal turn in
progress or the game; `#check any`: a mistake stands), the page's fault
words (made from the board's `evt fix`) are read beside the LED frame the
board draws then, blink phases on: every spot the words name is lit as
wrong (blinking red or white, or the misplaced piece's grey), every spot lit red or
white where the board differs from the game is named (or the words speak
of "the blinking spots"), and at `#check legal` there are no fault words.
Its counts: "words: <checks> checks (<faults> with fault words), <bad> bad".

The CPython simulator runs one game per process (the board description is
chosen at import): run once per game. tests/host/test_fuzz_board.py runs a
bounded part in `make test`; `make fuzz` the long run (docs/fuzzing.md).
"""
import argparse
import os
import random
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def _setup(game):
    for p in (ROOT, HERE):
        if p not in sys.path:
            sys.path.insert(0, p)
    from simulator.choice import board_for_game

    os.environ["TRIAD_SIM_BOARD"] = board_for_game(game)


# -- the references (never the firmware's core) ------------------------------


class RefNehren:
    def __init__(self, mode):
        import reference_nehren as R

        self.R = R
        self.start = R.START

    def moves(self, pos):
        return self.R.legal_moves(pos)

    def random_move(self, pos, rng):
        return rng.choice(self.R.legal_moves(pos))

    def apply(self, pos, text):
        return self.R.apply(pos, text)  # ValueError when illegal

    def over(self, pos):
        return self.R.winner(pos) is not None or not self.R.legal_moves(pos)

    def norm(self, pos):
        return pos

    def count(self, moves_text):
        return len(moves_text.split())


class RefBrowne:
    def __init__(self, mode):
        import reference_browne as R

        self.R = R
        self.start = R.START

    def moves(self, pos):
        return self.R.legal_moves(pos)

    def random_move(self, pos, rng):
        return rng.choice(self.R.legal_moves(pos))

    def apply(self, pos, text):
        return self.R.apply(pos, text)

    def over(self, pos):
        return self.R.outcome(pos) is not None

    def norm(self, pos):
        f = pos.split()
        out = []
        for part in f[:3]:
            side, _, cells = part.partition(":")
            out.append(side + ":" + ",".join(sorted(c for c in cells.split(",") if c)))
        return " ".join(out + f[3:])

    def count(self, moves_text):
        return len(moves_text.split())


class RefCornelson:
    """The reference under a mode's rules, or a tourney's: its Game Tally
    (self.won) gives the rules of the game being played (12.2-12.4) and
    takes each finished game's verdict (12.1)."""

    def __init__(self, mode):
        import reference_cornelson as R

        self.R = R
        self.tourney = mode == "tourney"
        self.mode = mode
        self.set_tally({"s": set(), "n": set()})

    def set_tally(self, won):
        R = self.R
        self.won = won
        self.rules = R.tourney_rules(won) if self.tourney else self.mode
        self.start = R.fmt(R.parse(R.START, self.rules))
        # The outcome of the turn that led to a position: a stuck player's
        # loss is known from the turn, not from the position's text.
        self.finished = {}

    def _key(self, text):
        w = text.split()
        return (w[0], tuple(sorted(w[1:])))

    def _after(self, s2):
        text = self.R.fmt(s2)
        self.finished[text] = (s2.winner, s2.reason)
        return text

    def moves(self, pos):
        return [t for _, _, t in self.R.iter_turns(self.R.parse(pos, self.rules))]

    def random_move(self, pos, rng):
        # A random post, then one of its turns (reference_cornelson.random_turn):
        # listing every turn of every post costs ~0.4 s a script.
        _, s2, text = self.R.random_turn(self.R.parse(pos, self.rules), rng)
        self._after(s2)
        return text

    def apply(self, pos, text):
        want = self._key(text)
        st = self.R.parse(pos, self.rules)
        for key, s2, t in self.R.turns_placing(st, want[0]):
            if self._key(t) == want:
                return self._after(s2)
        raise ValueError("illegal turn %r in %r (%s)" % (text, pos, self.mode))

    def outcome(self, pos):
        """(winner, reason) or (None, None): see reference_cornelson.win."""
        if pos in self.finished:
            return self.finished[pos]
        st = self.R.parse(pos, self.rules)
        return st.winner, st.reason

    def over(self, pos):
        return self.outcome(pos)[0] is not None

    def over_text(self, pos):
        """What the board says of the finished game (`evt over`): the
        protocol's result text."""
        w, why = self.outcome(pos)
        if w == "draw":
            return "draw"
        if why == "stuck":
            return "%s trap (%s stuck)" % (w, self.R.other(w))
        return "%s %s" % (w, why)

    def norm(self, pos):
        return self.R.fmt(self.R.parse(pos, self.rules))

    def count(self, moves_text):
        # A turn begins with its post (or "-", or a forfeit "C3!1"); its
        # jewel steps ("a2-a3") follow.
        return len([w for w in moves_text.split() if w == "-" or "-" not in w])


REFS = {"nehren": RefNehren, "browne": RefBrowne, "cornelson": RefCornelson}


# wait_commit's word for "the board waits: two turns fit the switches".
AMBIGUOUS = "ambiguous"


def _jewel_spaces(pos):
    # Cornelson's jewels in a position's text, without the transfer marks.
    return [sorted(w.replace("!", "") for w in f[2:].split(",") if w and w != "-") for f in pos.split()[1:3]]


class Failure(AssertionError):
    pass


class EndScript(Exception):
    """The script ends here (a saved game the board could not resume)."""


# -- the person ------------------------------------------------------------------


class Person:
    """Turns a turn into script lines, tracking what stands where."""

    def __init__(self, fz, rng):
        self.fz = fz
        self.rng = rng
        self.occ = set()  # sites with something on them, as the person knows

    def reset(self, occupied):
        self.occ = set(occupied)

    def lift(self, out, s):
        out.append("lift " + s)
        self.occ.discard(s)

    def place(self, out, s):
        out.append("place " + s)
        self.occ.add(s)

    def knock(self, out, s):
        out.append("knock " + s)
        self.occ.discard(s)

    def noise(self, out, turn_sites, kinds):
        """One bit of clumsiness that leaves the table as it was."""
        rng = self.rng
        fz = self.fz
        k = rng.choice(kinds)
        fz.stats["noise"] += 1
        others = [s for s in self.occ if s not in turn_sites]
        empty = [s for s in fz.sites if s not in self.occ and s not in turn_sites]
        check = fz.words
        if k == "put_back" and others:
            s = rng.choice(others)
            self.lift(out, s)
            out.append("wait %d" % rng.choice((50, 200, 700, 1500)))
            if check:
                out.append("#check any")
            self.place(out, s)
        elif k == "knock" and others:
            s = rng.choice(others)
            self.knock(out, s)
            out.append("wait %d" % rng.choice((100, 400, 1200)))
            if check:
                out.append("#check any")
            self.place(out, s)
        elif k == "bounce":
            out.append("bounce " + rng.choice(fz.sites))
        elif k == "stray" and empty:
            s = rng.choice(empty)
            self.place(out, s)
            # (taken off again before the board's settle time: an object
            # left on a Cornelson post is a gem placed, a whole turn there)
            out.append("wait %d" % rng.choice((100, 300, 600)))
            if check:
                out.append("#check any")
            self.knock(out, s)
        elif k == "button":
            out.append("press " + rng.choice(("menu", "menu", "confirm", "hint")))
        elif k == "wait":
            out.append("wait %d" % rng.choice((30, 300, 1000)))


class Fuzzer:
    def __init__(self, game, mode, seats, seed, verbose=False, level=1, fast=False, words=False):
        _setup(game)
        from host_tools import games as hg
        from host_tools.records import choice_presses
        from simulator.game import GAME
        from simulator.sim import Simulation

        self.hg = hg
        self.choice_presses = choice_presses
        self.G = GAME
        self.game = game
        self.mode = mode
        self.seats = seats
        self.level = level
        self.ref = REFS[game](mode)
        self.sites = list(GAME.SITE_NAMES)
        self.rng = random.Random(seed)
        self.seed = seed
        self.verbose = verbose
        self.sim = Simulation(seed=seed)
        self.sim.boot()
        self.stats = dict(scripts=0, turns=0, board_turns=0, actions=0, noise=0, power_cuts=0,
                          flash_faults=0, board_passes=0, games_over=0, tourney_games=0, tourney_tally=0,
                          tourney_drawn=0, tourney_none=0, tourney_won=0, new_games=0, crashes=0, illegal=0, wrong=0, lost=0,
                          hangs=0, ambiguous_waits=0, ambiguous_asks=0, played_again=0, refused_lines=0, strays_at_power_up=0,
                          settings_damaged=0, snapshots_deleted=0, snapshots_rebuilt=0, snapshots_not_resumed=0,
                          words_checks=0, words_faults=0, words_bad=0, words_needs=0, mistakes=0)
        # --fast (issue 36.4): a person's ordinary speed at a capture. After a
        # landing, the next piece of the turn (a capture, Nehren's removal, a
        # swapped gem) is taken off 0 to 150 ms later (10 ms steps) instead of
        # the 100 ms at least of the plain person; a turn the board does not
        # commit is counted with why (its fault, its announcement) and
        # played again in the plain order, which must commit it.
        self.fast = fast
        self.fast_delay = None  # this turn's delay after its landing, ms
        self.fast_turns = {}  # delay -> turns played with it
        self.fast_refused = {}  # delay -> turns the board did not commit
        self.fast_reasons = {}  # why -> count
        self.words = words
        self._app = (None, None)  # (boot, the firmware's App) for the words checks
        self.turn_pos = None  # the position the turn under way began in (reference text)
        self.text = []  # the current script, for a failure report
        self.by_rules = {}  # tourney games finished, by the rules they were played under

    def close(self):
        self.sim.shutdown()

    # -- running lines ----------------------------------------------------------

    def run(self, lines):
        from simulator.script import parse, run

        self.text.extend(lines)
        self.stats["actions"] += sum(1 for ln in lines if not ln.startswith(("wait", "#", "serial")))
        chunk = []
        for ln in lines + ["#check end"]:
            if not ln.startswith("#check "):
                chunk.append(ln)
                continue
            try:
                run(self.sim, parse("\n".join(chunk) + "\n"))
            except Exception as e:
                if self.sim.crash or "crashed" in str(e):
                    self.stats["crashes"] += 1
                raise Failure("script error: %s" % e)
            if self.sim.crash:
                self.stats["crashes"] += 1
                raise Failure("the firmware crashed:\n%s" % self.sim.crash)
            chunk = []
            if self.words and ln != "#check end":
                self.check_words(ln.split()[1])

    # -- the words against the lights (issue 35) ------------------------------

    def _firmware_app(self):
        """The firmware's App object of this boot (the CPython target runs it
        in this process): its controller draws a frame on demand."""
        import gc

        boot = self.sim.boots
        if self._app[0] != boot:
            mod = sys.modules.get("triad.app")
            apps = [o for o in gc.get_objects() if type(o).__name__ == "App" and mod is not None
                    and type(o) is getattr(mod, "App", None)]
            self._app = (boot, apps[-1] if apps else None)
        return self._app[1]

    def check_words(self, kind):
        """The page's fault words now against the frame the board draws now,
        at an instant when both blinks are on (drawn into a frame of our
        own: the board's time does not move)."""
        from triad.board import palette as pal
        from triad.games import text as game_text
        from simulator.say import fault_words

        app = self._firmware_app()
        if app is None or not self.sim.running:
            return
        ctl = app.ctl
        G = self.G
        fix = ""
        state = ctl.state_name()
        for line in reversed(self.sim.lines):
            if line.startswith("evt fix "):
                fix = line[len("evt fix "):]
                break
            if line.startswith(("evt play", "evt setup", "evt position", "evt resume")):
                break
        f = {"power": True, "state": state, "fix_record": "" if fix == "none" else fix, "fault": "",
             "position": ctl.record.position_text()}
        words = fault_words(f)
        t = self.sim.now_ms()
        fast, slow = pal.FAST_BLINK_MS, pal.SLOW_BLINK_MS
        while not ((t // fast) & 1 and (t // slow) & 1):
            t += 10
        occ = app.scanner.stable

        def draw(at):
            frame = bytearray(len(app.frame))
            ctl.render(frame, at, occ)
            return [tuple(frame[3 * i: 3 * i + 3]) for i in range(G.N_SITES)]

        # Lit as wrong: blinking red (fast) or white (slow), or the
        # misplaced piece's source blinking grey: on when the blink is on,
        # off when it is off (a steady red is a side's colour: Browne's Red).
        on, fast_off, slow_off = draw(t), draw(t + fast), draw(t + slow)
        err, miss, src = tuple(pal.ERROR), tuple(pal.MISSING), tuple(pal.SOURCE)
        lit_as = {}
        for i in range(G.N_SITES):
            if on[i] == err and fast_off[i] != err:
                lit_as[G.SITE_NAMES[i]] = "red"
            elif on[i] == miss and slow_off[i] != miss:
                lit_as[G.SITE_NAMES[i]] = "white"
            elif on[i] == src:
                lit_as[G.SITE_NAMES[i]] = "grey"  # (steady while the piece counts as lifted from it)
        exp = ctl.matcher.expected
        wrong_lit = {s for s, c in lit_as.items() if c != "grey" and occ[G.SITE_NAMES.index(s)] != exp[G.SITE_NAMES.index(s)]}
        lit = set(lit_as)
        named = {w.strip(".,:()") for w in words.split()} & set(G.SITE_NAMES)
        self.stats["words_checks"] += 1
        if words:
            self.stats["words_faults"] += 1
        bad = []
        if kind == "legal" and words and not (fix.startswith("fault ambiguous") and self._truly_ambiguous(occ)):
            bad.append("fault words while the table shows a legal turn or the game: %r" % words)
        if named - lit:
            bad.append("the words name %s, not lit as wrong: %r" % (sorted(named - lit), words))
        if wrong_lit - named and "blinking spots" not in words:
            bad.append("%s lit as wrong, not named in the words %r" % (sorted(wrong_lit - named), words))
        # What the turn still needs (the lights' take sites: a capture to
        # take off or swap, a jewel to step), with nothing wrong: the page's
        # line names each (issue 47).
        rec = game_text.fix_record("" if fix == "none" else fix) or {}
        if rec.get("take") and not rec.get("fault") and not words:
            line = self._turn_line(ctl, fix, state)
            said = {w.strip(".,:;()") for w in line.split()}
            left = [s for s in rec["take"] if s not in said]
            self.stats["words_needs"] += 1
            if left:
                bad.append("the turn still needs %s, not named in the words %r" % (left, line))
        if bad:
            self.stats["words_bad"] += 1
            raise Failure("words (%s, state %s, evt fix %s): %s" % (kind, state, fix or "none", "; ".join(bad)))

    def _turn_line(self, ctl, fix, state):
        """The page's line now (simulator/say.py), from the board's own
        words: its position, diagnosis, the turn's move so far and forfeit."""
        from simulator.game import finish_words
        from simulator.say import page_words
        from triad.games import text as game_text

        G = self.G
        so_far = forfeit = ""
        for line in reversed(self.sim.lines):
            if line.startswith(("evt move", "evt play", "evt setup", "evt position", "evt resume")):
                break
            if not so_far and line.startswith("evt %s " % G.FINISH_EVENT):
                so_far = line[len("evt %s " % G.FINISH_EVENT):]
            if not forfeit and line.startswith("evt forfeit "):
                forfeit = line[len("evt forfeit "):]
        pos = ctl.record.position_text()
        phase = state in G.PHASE_NAMES
        rec = game_text.fix_record("" if fix == "none" else fix) or {}
        f = {"power": True, "state": state, "position": pos, "fix_record": "" if fix == "none" else fix,
             "fault": "", "finish_text": finish_words(pos, so_far, fix=rec) if phase else "",
             "forfeit": forfeit if phase else "", "names": [], "moves": [], "side": None}
        return page_words(f)[1]

    def _truly_ambiguous(self, occ):
        """Do two or more legal turns of the position the turn began in end
        with the pieces where the switches now read them? Then the board
        cannot tell which was played (Nehren: the moved die taken off as
        the Triad's removal, after it stood on two cells that each make a
        Triad), and asking for the turn again is its honest answer, not a
        fault (docs/fuzzing.md). The reference, not the firmware, decides."""
        pos = self.turn_pos
        if pos is None:
            return False
        sensed = sorted(self.sites[i] for i in range(len(occ)) if occ[i])
        fits = 0
        for t in self.ref.moves(pos):
            if sorted(self.occupied(self.ref.apply(pos, t))[0]) == sensed:
                fits += 1
                if fits >= 2:
                    self.stats["ambiguous_asks"] += 1
                    return True
        return False

    def events(self, since):
        return self.sim.lines[since:]

    # -- positions ----------------------------------------------------------------

    def occupied(self, pos_text):
        """The sites a position fills (the face's expected(): occupancy)."""
        from array import array

        if self.game == "cornelson":
            # (Read without the Capture rule's check: the reference's position
            # is one of the game's, and without Capture, in Breach say, both
            # tallies may pass 10, which a text read under the standard
            # rules refuses; the game's own mode is set next.)
            pos = self.G.parse_position(pos_text, "breach")
            if self.mode == "tourney":
                word = self.ref.R.tally_word(self.ref.won)
                self.G.apply_setting(pos, "series", self.G.SETTING_CHOICES["series"].index(word))
            self.G.apply_setting(pos, "mode", self.G.SETTING_CHOICES["mode"].index(self.mode))
        else:
            pos = self.G.parse_position(pos_text)
        exp = bytearray(self.G.N_SITES)
        self.G.expected(pos, exp)
        return [self.sites[i] for i in range(len(exp)) if exp[i]], pos

    def start_position(self):
        """A random position a few random reference turns in (Cornelson up
        to 60: a board nearly full, where games end). The turn that would
        have ended the game is kept (self.finisher): the script's first
        turn is often it, so that games end on the board."""
        rng = self.rng
        pos = self.ref.start
        self.finisher = None
        depths = (0, 0, 1, 2, 4, 8, 14)
        if self.game == "cornelson":
            # (random games end at ply 10 to 40, by Trap mostly; 60: up to
            # the turn that would end it, or a full board's jewel phase)
            depths += (20, 26, 34, 60, 60, 60)
        if self.mode == "tourney":
            # (a tourney is about its games' ends: most scripts begin near
            # one; first in the list, where hypothesis's draws lean)
            depths = (60, 60, 60, 60, 0, 4, 14, 26, 34)
        for _ in range(rng.choice(depths)):
            if self.ref.over(pos):
                break
            text = self.ref.random_move(pos, rng)
            nxt = self.ref.apply(pos, text)
            if self.ref.over(nxt):
                self.finisher = text
                break
            if self.game == "cornelson" and min(int(w) for w in nxt.split()[4:6]) >= 10:
                # Where a Capture ends no game (Breach, Trap, a tourney once
                # both have Capture) both tallies may pass 10 in play; the
                # position notation refuses such a text (parse_position
                # reads it under the standard rules), so no script can
                # begin there: a limitation of loading, stated in
                # docs/fuzzing.md, not of play.
                break
            pos = nxt
        return pos

    def random_tally(self):
        """A tourney's Game Tally (not yet won), drawn so that every set of
        rules it can give (12.2-12.4) comes up: first the outcomes both
        players have, then some only one has."""
        rng = self.rng
        outs = self.ref.R.OUTCOMES
        both = set(rng.choice(((), ("breach",), ("trap",), ("capture",), ("breach", "capture"),
                               ("trap", "capture"), ("breach", "trap"))))
        won = {"s": set(both), "n": set(both)}
        for o in outs:
            if o not in both and rng.random() < 0.35:
                side = rng.choice("sn")
                if len(won[side]) < 2:
                    won[side].add(o)
        return won

    # -- one script ------------------------------------------------------------------

    def script(self, n_turns):
        rng = self.rng
        self.text = ["# fuzz %s mode=%s seats=%d seed=%d script=%d" % (
            self.game, self.mode, self.seats, self.seed, self.stats["scripts"])]
        head = []
        if self.game == "cornelson":
            if self.mode == "tourney":
                # (a first game, -:-, now and then; else a tourney under way)
                won = self.random_tally() if rng.random() < 0.85 else {"s": set(), "n": set()}
                self.ref.set_tally(won)
                head.append("serial set series " + self.ref.R.tally_word(won))
            head.append("serial set mode " + self.mode)
        sides = self.G.SIDES
        n = len(sides)
        seat_bits = 0
        for k in range(self.seats):
            seat_bits |= 1 << (n - 1 - k)
        from triad.board.seats import seats_word

        head.append("serial set level %d" % self.level)
        head.append("serial set opponent " + seats_word(sides, seat_bits))
        pos = self.start_position()
        if self.game == "cornelson" and self.mode == "capture":
            # (the board takes the jewels off in Capture: so does the person)
            f = pos.split()
            f[1], f[2] = "S:-", "N:-"
            pos = " ".join(f)
        head.append("position " + pos)
        self.mark = len(self.sim.lines)  # the board may think from here
        head.append("wait 1500")
        self.run(head)
        person = Person(self, rng)
        occ, _ = self.occupied(pos)
        person.reset(occ)
        committed = []  # the reference positions after each committed turn
        start_lines = len(self.sim.lines)
        self.stats["scripts"] += 1
        if rng.random() < 0.1:
            # (at the game's start: Cornelson's Capture begins on an empty
            # table, where a piece standing at power-up once became a move)
            self.await_saved(start_lines)
            self.power_cycle(person, pos, committed, stray_p=1.0)
        pos = self.board_pass(pos, committed, self.mark)
        for t in range(n_turns):
            if self.ref.over(pos):
                break  # (ended by the board's pass at the start)
            side = self._side(pos)
            board_side = (seat_bits >> side) & 1
            before = len(self.sim.lines)
            try:
                pos = self.turn(person, pos, board_side, committed)
            except EndScript:
                break
            self.check(pos, committed, start_lines)
            if self.ref.over(pos):
                self.stats["games_over"] += 1
                if self.game == "cornelson":
                    self.check_over(pos, before)
                if self.mode != "tourney" or t == n_turns - 1:
                    break
                # A tourney goes on: the gems cleared, a new game (12.0)
                # under the rules of the Game Tally.
                pos = self.next_game(person)
                committed = []
                start_lines = len(self.sim.lines)

    def _side(self, pos):
        letter = pos.split()[-1] if self.game == "browne" else pos.split()[3 if self.game == "cornelson" else 1]
        return list(self.G.SIDES).index(letter)

    def turn(self, person, pos, board_side, committed):
        rng = self.rng
        before = len(self.sim.lines)
        self.turn_pos = pos  # (the position the turn began in: _truly_ambiguous)
        if board_side:
            text = self.await_think(self.mark)
            self.stats["board_turns"] += 1
        elif self.finisher and rng.random() < (0.9 if self.mode == "tourney" else 0.7):
            text = self.finisher  # (a person who sees a win takes it)
        else:
            text = self.ref.random_move(pos, rng)
        self.finisher = None
        intended = self.ref.apply(pos, text)
        core_pos = self.occupied(pos)[1]
        m = self.G.parse_move(core_pos, text)
        steps = self.hg.footprint(self.G, core_pos, m)
        lines = ["# turn %s%s" % (text, " (the board's)" if board_side else "")]
        if rng.random() < 0.08:
            k = rng.choice((1, 2, 3))
            lines.append("flashfail %d" % k)
            self.stats["flash_faults"] += 1
        cut_at = -1
        if not board_side and steps and rng.random() < 0.12:
            cut_at = rng.randrange(len(steps))  # before this step (never the commit)
        done = len(committed)
        if cut_at >= 0:
            part = self.actions(person, core_pos, steps, noisy=True, stop=cut_at)
            self.run(lines + part + ["powercut %d" % rng.choice((200, 1000)), "wait 1500"])
            self.stats["power_cuts"] += 1
            lines = []
            self.restore(person, pos)
        self.fast_delay = None
        body = self.actions(person, core_pos, steps, noisy=True)
        start = len(self.sim.lines)
        self.run(lines + body + ["wait 1200"])
        got = self.wait_commit(done, start=before)
        d = self.fast_delay
        if d is not None:
            self.fast_turns[d] = self.fast_turns.get(d, 0) + 1
            if got is None or got is AMBIGUOUS:
                # The board did not commit the turn a fast hand played:
                # why, then the turn again (as the board asks, or the
                # lights show), in the plain order.
                self.fast_refused[d] = self.fast_refused.get(d, 0) + 1
                why = self.why_waiting(start, text)
                self.fast_reasons[why] = self.fast_reasons.get(why, 0) + 1
                self.restore(person, pos)
                start = len(self.sim.lines)
                body = self.actions(person, core_pos, steps, noisy=False)
                self.run(["# turn %s again: taken fast, not committed (%s)" % (text, why)] + body + ["wait 1200"])
                got = self.wait_commit(done, start=start)
        again = 0
        while got is AMBIGUOUS and again < 3:
            # Two turns fit what the switches saw: as the board asks, the
            # pieces go back and the turn is played again (in its plain
            # order this time). A turn that never commits so is a hang.
            again += 1
            self.stats["played_again"] += 1
            self.restore(person, pos)
            start = len(self.sim.lines)
            body = self.actions(person, core_pos, steps, noisy=False)
            self.run(["# turn %s again: the board asked" % text] + body + ["wait 1200"])
            got = self.wait_commit(done, start=start)
        got = self.own_commits(got, intended)
        self.mark = self.commit_line
        if got is None or got is AMBIGUOUS:
            raise Failure("hang: the turn %s carried out%s, nothing committed (state %s)"
                          % (text, " (played again %d times: ambiguous)" % again if again else "",
                             self.sim.state()))
        self.verify(pos, got, intended, text)
        self.turn_pos = None
        committed.append(intended)
        self.stats["turns"] += 1
        faulted = "flashfail" in " ".join(self.text[-len(body) - 5:])
        intended = self.board_pass(intended, committed, self.commit_line + 1)
        if faulted or rng.random() < 0.1:
            # The board writes an unsaved game again every 2 s until it is
            # safe (and says so: evt unsaved, evt saved): give it that, then
            # cut the power between turns: nothing committed is lost.
            self.await_saved(before)
            self.power_cycle(person, intended, committed)
        elif rng.random() < 0.1:
            self.refused_lines(intended)
        return intended

    # -- issue 36: power-up, refused lines, a damaged flash ----------------------

    def power_cycle(self, person, pos, committed, stray_p=0.25):
        """A power cut between turns. Sometimes a piece is left standing on
        a site the game has empty (the board must not take it for a move
        at power-up: it resumes on a debounced snapshot and waits), and
        sometimes the flash is damaged while the power is off: the settings
        file (a bit flipped: the board says which settings are at their
        defaults, and the person sets the seats again) or the snapshot
        deleted (the board rebuilds the game from its log, or says why it
        cannot; the script then ends with a new game held by hand)."""
        from simulator.hardware import FlashFaults

        rng = self.rng
        self.stats["power_cuts"] += 1
        stray = None
        if rng.random() < stray_p:
            empty = [s for s in self.sites if s not in person.occ]
            if empty:
                stray = rng.choice(empty)
                out = []
                person.place(out, stray)
                self.run(out + ["wait %d" % rng.choice((0, 100, 300))])
                self.stats["strays_at_power_up"] += 1
        damage = rng.choice(("settings", "snapshot")) if rng.random() < 0.3 else None
        if damage == "settings" and self.mode == "tourney" and self.ref.over(pos):
            # (the tally the person would set again is the one after this
            # game's verdict, which the fuzzer takes only after the turn)
            damage = None
        self.text.append("powercut 500" + ("  # the flash damaged meanwhile: %s" % damage if damage else ""))
        since = len(self.sim.lines)
        self.sim.power_cut()
        FlashFaults.of(self.sim).pending = 0
        try:
            if damage and not self.damage(damage):
                damage = None
            self.sim.run(500)
        finally:
            self.sim.boot()  # (whatever happened: the next script needs a board)
        self.run(["wait 2000"])
        said = [ln for ln in self.sim.lines[since:] if ln.startswith("evt error ")]
        if stray is not None:
            moved = [ln for ln in self.sim.lines[since:] if ln.startswith("evt move ")]
            if moved:
                self.stats["wrong"] += 1
                raise Failure("a move nobody made at power-up (%s left on %s): %s" % (moved, stray, said))
            st = self.sim.state()[0]
            if st not in ("sync", "setup"):
                raise Failure("power-up with %s left on an empty site: state %s, not sync" % (stray, st))
            out = []
            person.knock(out, stray)
            self.run(out + ["wait 1500"])
        if damage == "settings":
            if not any(ln.startswith("evt error settings not read") and "opponent=off" in ln for ln in said):
                raise Failure("a damaged settings file was not said (by name): %s" % said)
            from triad.board.seats import seats_word

            sides = self.G.SIDES
            bits = 0
            for k in range(self.seats):
                bits |= 1 << (len(sides) - 1 - k)
            self.mark = len(self.sim.lines)  # (the board thinks again for its seat)
            again = ["serial set level %d" % self.level, "serial set opponent " + seats_word(sides, bits)]
            # What else the board named at its default, the person sets
            # again as it was: Cornelson's rules, a tourney's tally (the
            # board takes them from a resumed game unless it is over).
            told = [ln for ln in said if ln.startswith("evt error settings not read")][0]
            defaults = told.split(": at their defaults: ", 1)[1].split(";")[0].split()
            names = [w.split("=")[0] for w in defaults]
            if "mode" in names:
                again.append("serial set mode " + self.mode)
            if "series" in names and self.mode == "tourney":
                again.append("serial set series " + self.ref.R.tally_word(self.ref.won))
            self.run(again)
        elif damage == "snapshot":
            lost = [ln for ln in said if ln.startswith("evt error saved game: snapshot missing")]
            if not lost:
                raise Failure("a deleted snapshot was not said: %s" % said)
            if "not resumed" in lost[0]:
                # (the log began after a compaction: the game cannot be rebuilt)
                self.stats["snapshots_not_resumed"] += 1
                self.run(["press new long", "wait 500"])
                raise EndScript()
            self.stats["snapshots_rebuilt"] += 1
        self.check_resumed(pos, committed)

    def damage(self, what):
        from triad.board.store import save_base

        """Damage the flash (the power off); False if there was nothing to
        damage (no such file)."""
        d = self.sim.state_dir
        if what == "settings":
            name = "settings.txt" if self.game == "nehren" else "settings-%s.txt" % self.game
            path = os.path.join(d, name)
            if not os.path.exists(path):
                return False
            with open(path, "rb") as f:
                data = bytearray(f.read())
            data[self.rng.randrange(4, len(data) - 10)] ^= 1 << self.rng.randrange(7)
            with open(path, "wb") as f:
                f.write(bytes(data))
            self.stats["settings_damaged"] += 1
        else:
            path = os.path.join(d, save_base(self.game) + ".snap")
            if not os.path.exists(path):
                return False
            os.remove(path)
            self.stats["snapshots_deleted"] += 1
        return True

    def refused_lines(self, pos):
        """Lines the board must refuse, sent between turns: after each `err`
        the state, position, moves, settings and lesson are as they were,
        and nothing happened (issue 36: a refused `position` ended a lesson
        and, in Cornelson, began the game afresh)."""
        rng = self.rng
        sim = self.sim

        def everything():
            return [sim.send(c) for c in ("state", "moves", "start", "get", "lesson")]

        lesson = bool(self.G.LESSONS()) and rng.random() < 0.5
        if lesson:
            # (a lesson running: a refused line must not end it)
            reply = sim.send("lesson 1")
            self.text.append("# serial lesson 1 -> %s" % reply)
            if not reply.startswith("ok lesson 1"):
                raise Failure("lesson 1 answered %r" % reply)
        before = everything()
        half = len(pos) // 2
        bad = ["position " + pos[:half] + "#" + pos[half:], "position # " + pos, "position " + pos + " #",
               "set level 9", "set opponent zz", "set brightness 999", "new now", "game nosuch", "lesson 0",
               "lesson 999", "set mode nosuch", "set nosuch 1", "state now", "position"]
        for line in rng.sample(bad, 3):
            since = len(sim.lines)
            reply = sim.send(line)
            self.stats["refused_lines"] += 1
            self.text.append("# serial %s -> %s" % (line, reply))
            if not reply.startswith("err ") or reply.startswith("err internal"):
                raise Failure("%r answered %r, not a refusal" % (line, reply))
            evs = [ln for ln in sim.lines[since:] if ln.startswith("evt ") and not ln.startswith("evt think ")]
            after = everything()
            if after != before or evs:
                self.stats["wrong"] += 1
                raise Failure("the refused %r changed the board: %s -> %s, events %s" % (line, before, after, evs))
        if lesson:
            # The lesson left: the saved game resumes, its pieces in place.
            self.run(["lesson off", "wait 1500"])
            st, board_pos = sim.state()
            if st not in ("play", "over") or self.ref.norm(board_pos) != self.ref.norm(pos):
                raise Failure("after a lesson the board resumed %s in %s, not %s" % (board_pos, st, pos))

    def board_pass(self, pos, committed, since):
        """Where the side to move has only a turn with nothing to do in it
        (Cornelson's `-`: a full board, no jewel to step), the board plays
        it itself, 2 s on (`evt pass`, then `evt move -`): wait for it and
        check it like any turn. The position after it (or pos)."""
        if not self.passes_itself(pos):
            return pos
        got = []
        for _ in range(12):
            got = [ln[len("evt move "):] for ln in self.sim.lines[since:] if ln.startswith("evt move ")]
            if got:
                break
            self.run(["wait 500"])
        if not got:
            raise Failure("hang: the side to move has only the empty turn; the board never played it")
        after = self.ref.apply(pos, "-")
        self.verify(pos, got, after, "- (the board's pass)")
        lines = self.sim.lines
        self.commit_line = max(i for i in range(since, len(lines)) if lines[i].startswith("evt move "))
        self.mark = self.commit_line
        committed.append(after)
        self.stats["turns"] += 1
        self.stats["board_passes"] += 1
        return after

    def own_commits(self, got, intended):
        """The turn's commits of those wait_commit found: without the next
        side's only turn, the empty `-`, when the board played it itself
        (2 s on) before the wait ended (the turn's last steps, a piece
        knocked and put back, came over 2 s after the board had it): that
        pass is board_pass's, checked there as a turn of its own."""
        if got and got is not AMBIGUOUS and got[1:] == ["-"] and self.passes_itself(intended):
            self.commit_line = self.commit_lines[0]
            return got[:1]
        return got

    def passes_itself(self, pos):
        """The side to move has only the empty turn, which the board plays,
        when nothing is to be done on the table: in Breach (no Trap rule)
        the empty turn may trap an opponent jewel, which leaves play, and
        the person takes it off (its footprint); the board waits for that."""
        if self.game != "cornelson" or self.ref.over(pos) or "." in pos.split()[0]:
            return False
        if self.ref.moves(pos) != ["-"]:
            return False
        return _jewel_spaces(self.ref.apply(pos, "-")) == _jewel_spaces(pos)

    def check_over(self, pos, since):
        """The game the reference finished: the board says so, with the
        same result (`evt over`) and, in a tourney, enters the same verdict
        into the Game Tally (`evt series`; kept across a power cut)."""
        R = self.ref.R
        want = self.ref.over_text(pos)
        got = None
        for _ in range(6):
            overs = [ln[len("evt over "):] for ln in self.sim.lines[since:] if ln.startswith("evt over ")]
            series = [ln[len("evt series "):] for ln in self.sim.lines[since:] if ln.startswith("evt series ")]
            if overs and (series or self.mode != "tourney"):
                break
            self.run(["wait 500"])
        got = overs[-1] if overs else None
        if got != want:
            self.stats["wrong"] += 1
            raise Failure("the game is over (%s) but the board says %r" % (want, got))
        if self.mode != "tourney":
            return
        verdict, after = R.tourney_record(self.ref.won, *self._won_by(pos))
        word = R.tally_word(after)
        want = "won " + self._winner(pos) if verdict == "won" else verdict + " " + word
        if series != [want]:
            self.stats["wrong"] += 1
            raise Failure("the tourney's verdict %s (Game Tally %s) but the board says %s"
                          % (want, R.tally_word(self.ref.won), series))
        ends, jewels = self.ref.rules
        self.ref.set_tally(after)
        self.stats["tourney_games"] += 1
        self.stats["tourney_" + verdict] += 1
        key = "+".join(o for o in R.OUTCOMES if o in ends) + ("" if jewels else " gems only")
        self.by_rules[key] = self.by_rules.get(key, 0) + 1
        if self.rng.random() < 0.3:
            self.run(["powercut 500", "wait 2000"])
            self.stats["power_cuts"] += 1
        self.run(["serial get series"])
        replies = [ln for ln in self.sim.lines if ln.startswith("ok get series ")]
        if not replies or replies[-1] != "ok get series " + word:
            self.stats["lost"] += 1
            raise Failure("the Game Tally is %s, the board keeps %s" % (word, replies[-1:]))

    def _winner(self, pos):
        return self.ref.outcome(pos)[0]

    def _won_by(self, pos):
        w, why = self.ref.outcome(pos)
        return w, self.ref.R.outcome_of(w, why)

    def next_game(self, person):
        """The next game of a tourney: `new` pressed on the finished game,
        the gems cleared and the jewels put on their docks as the board
        lights them; it must be the start under the Game Tally's rules."""
        since = len(self.sim.lines)
        self.run(["press new", "wait 500"])
        setups = [ln[len("evt setup "):] for ln in self.sim.lines[since:] if ln.startswith("evt setup ")]
        if len(setups) != 1:
            raise Failure("new pressed on a finished tourney game: %s" % self.sim.lines[since:])
        pos = setups[0]
        f = pos.split()
        want = self.ref.start.split()
        want[3] = f[3] if len(f) > 3 else "?"  # (who begins is the board's: they alternate)
        if self.ref.norm(pos) != self.ref.norm(" ".join(want)):
            self.stats["wrong"] += 1
            raise Failure("the next game of the tourney (%s) begins at %s, not the start %s"
                          % (self.ref.R.tally_word(self.ref.won), pos, " ".join(want)))
        self.restore(person, pos)
        self.mark = len(self.sim.lines)
        st, board_pos = self.sim.state()
        if st != "play" or self.ref.norm(board_pos) != self.ref.norm(pos):
            raise Failure("hang: the new game set up as lit, the board is in %s at %s" % (st, board_pos))
        self.stats["new_games"] += 1
        return pos

    def why_waiting(self, start, text):
        """What the board said of a turn it did not commit: its last fault
        (kind only), or the turn it announced as under way if another."""
        lines = self.sim.lines[start:]
        fault = [ln.split()[2] for ln in lines if ln.startswith("evt fault ")]
        told = [ln.split(" ", 2)[2] for ln in lines if ln.startswith("evt %s " % self.G.FINISH_EVENT)]
        st = self.sim.state()[0]
        if told and not text.startswith(told[-1].split()[0]):
            return "another turn announced under way (evt %s), state %s" % (self.G.FINISH_EVENT, st)
        if fault:
            return "fault %s, state %s" % (fault[-1], st)
        return "no fault said, state %s" % st

    def await_saved(self, since):
        for _ in range(30):
            last = None
            for ln in self.sim.lines[since:]:
                if ln.startswith("evt unsaved"):
                    last = "unsaved"
                elif ln.startswith("evt saved"):
                    last = "saved"
            if last != "unsaved":
                return
            self.run(["wait 500"])
        raise Failure("hang: the board never wrote the unsaved game again")

    def await_think(self, since):
        for _ in range(40):
            # (the latest: after a power cut the board thinks again)
            for ln in reversed(self.sim.lines[since:]):
                if ln.startswith("evt think "):
                    return ln[len("evt think "):]
            self.run(["wait 250"])
        raise Failure("hang: the board's side never moved (no evt think)")

    def actions(self, person, core_pos, steps, noisy, stop=None):
        rng = self.rng
        G = self.G
        hg = self.hg
        out = []
        names = [G.SITE_NAMES[e & 255] for e in steps]
        turn_sites = set(names)
        kinds = ["put_back", "knock", "bounce", "stray", "button", "wait"]
        if self.game == "nehren":
            kinds.remove("put_back")  # (a Note 2 die lifted and put back is a turn)
        p_noise = 0.35 if noisy else 0.0
        words = self.words
        if rng.random() < p_noise:
            person.noise(out, turn_sites, kinds)
        if words:
            out.extend(("wait 60", "#check legal"))  # (the switches debounced first)
        end = len(steps) if stop is None else stop
        j = 0
        while j < end:
            e = steps[j]
            name = names[j]
            act = (e >> 8) & 3
            if act == hg.TOUCH:
                person.lift(out, name)
                out.append("wait 300")
                person.place(out, name)
                out.append("wait 1000")
                presses = self.choice_presses(G, core_pos, e & 255, e >> 10) if j == 0 else None
                if presses is not None:
                    out.extend(["press menu"] * presses)
                    out.append("press confirm")
                    out.append("wait 300")
            elif act == hg.LIFT:
                nxt_place = j + 1 < len(steps) and (steps[j + 1] >> 8) & 3 == hg.PLACE
                if j == 0 and nxt_place and j + 1 < end and self.game == "browne" and rng.random() < 0.5:
                    # (the mover slides over the cells in between)
                    path = self.path(name, names[j + 1], person)
                    if path:
                        out.append("slide " + " ".join([name] + path + [names[j + 1]]))
                        person.occ.discard(name)
                        person.occ.add(names[j + 1])
                        j += 2
                        # (the slide ends on its landing; the next piece comes
                        # after: not in the same instant as the last cell left)
                        out.append("wait %d" % rng.choice((100, 300, 1000)))
                        continue
                person.lift(out, name)
                if not nxt_place:
                    out.append("wait %d" % rng.choice((0, 100, 300, 1000)))
                elif names[j + 1] == name:
                    out.append("wait 150")  # (one piece off, another on: not in one instant)
            else:
                if name in names[:j] and (steps[j - 1] >> 8) & 3 == hg.LIFT:
                    out.append("wait 150")  # (on a cell just cleared: not in the same instant)
                if words and noisy and rng.random() < 0.3:
                    self.wrong_step(out, person, core_pos, steps, j, turn_sites)
                person.place(out, name)
                if self.fast and noisy and self._landing_then_capture(steps, names, j, end):
                    d = rng.randrange(0, 160, 10)
                    if self.fast_delay is None:
                        self.fast_delay = d
                    out.append("wait %d" % d)
                else:
                    # (a piece rests a moment where it is put: a place and a
                    # lift in one instant are no event the switches can see)
                    out.append("wait %d" % rng.choice((100, 150, 300, 1000)))
            j += 1
            if words and (act != hg.LIFT or j == end):
                out.extend(("wait 60", "#check legal"))
            # Clumsiness between steps: Browne and Cornelson only where it
            # cannot change the turn (Cornelson: never while a swap is owed,
            # a jewel lifted then would forfeit it; Nehren: never mid-turn).
            if noisy and j < end and rng.random() < p_noise * 0.5 and self._may_fidget(steps, j):
                person.noise(out, turn_sites, [k for k in kinds if k != "button" or self.game != "nehren"])
        if noisy and stop is None and self.game != "nehren" and rng.random() < 0.15:
            # A piece the turn put down knocked off and put back, soon after
            # (before or after the board has settled on the turn).
            placed = [nm for e, nm in zip(steps, names) if (e >> 8) & 3 == hg.PLACE and nm in person.occ]
            if placed:
                s = rng.choice(placed)
                self.stats["noise"] += 1
                out.append("wait %d" % rng.choice((50, 200, 600)))
                person.knock(out, s)
                out.append("wait %d" % rng.choice((100, 300)))
                person.place(out, s)
        if noisy and stop is None and rng.random() < p_noise * 0.5:
            out.append("wait 200")
        return out

    def _landing_then_capture(self, steps, names, j, end):
        # steps[j] is the turn's landing (a PLACE right after its first
        # LIFT, or its first step: Cornelson's gem) and the next step lifts
        # another piece (a capture, a removal, a captured gem swapped)
        hg = self.hg
        landing = j == 0 or (j == 1 and (steps[0] >> 8) & 3 == hg.LIFT)
        return (landing and j + 1 < end and (steps[j + 1] >> 8) & 3 == hg.LIFT
                and names[j + 1] != names[j])

    def wrong_step(self, out, person, core_pos, steps, j, turn_sites):
        """A mistake before step j (a placement): the piece goes to another
        empty spot of the same kind first (a wrong step; Browne's drop, an
        early drop when captures are still on), rests there long enough for
        the board to call it (0.3 s), then goes where it belongs."""
        rng = self.rng
        G = self.G
        want = steps[j] & 255
        kind = G.SITE_KIND[want]
        spots = [s for i, s in enumerate(self.sites) if G.SITE_KIND[i] == kind and s not in person.occ
                 and s not in turn_sites]
        if not spots:
            return
        s = rng.choice(spots)
        self.stats["mistakes"] += 1
        person.place(out, s)
        out.append("wait %d" % rng.choice((350, 500)))
        out.append("#check any")
        person.lift(out, s)
        out.append("wait 100")
        out.append("#check any")

    def _may_fidget(self, steps, j):
        if self.game == "nehren":
            return False
        if self.game == "cornelson":
            # no TOUCH still owed at or after j, and the hand empty
            for e in steps[j:]:
                if (e >> 8) & 3 == self.hg.TOUCH:
                    return False
            prev = steps[j - 1]
            return (prev >> 8) & 3 != self.hg.LIFT
        prev = steps[j - 1]
        return (prev >> 8) & 3 != self.hg.LIFT or (steps[j] >> 8) & 3 != self.hg.PLACE

    def path(self, a, b, person):
        """The cells strictly between a and b on a straight Browne line
        (empty ones: a slide passes over empty cells)."""
        R = self.ref.R
        ca, cb = R.cell_of(a), R.cell_of(b)
        for dr, dn in R.STEPS:
            cur = (ca[0] + dr, ca[1] + dn)
            out = []
            while cur in R.CELL_SET:
                if cur == cb:
                    return [R.name(c) for c in out] if all(R.name(c) not in person.occ for c in out) else None
                out.append(cur)
                cur = (cur[0] + dr, cur[1] + dn)
        return None

    def restore(self, person, pos):
        """After a power cut: the pieces put back where the saved game has
        them (the board shows where), then the board settles to play."""
        want, _ = self.occupied(pos)
        want = set(want)
        out = []
        for s in sorted(person.occ - want):
            person.knock(out, s)
        for s in sorted(want - person.occ):
            person.place(out, s)
        out.append("wait 1500")
        self.run(out)

    def wait_commit(self, done, start):
        """The turns committed since line start; AMBIGUOUS when the board
        still waits on `evt fault ambiguous` a second later (it asks for
        the pieces back and the turn again); None when nothing came."""
        for k in range(12):
            lines = self.sim.lines
            moves = [ln[len("evt move "):] for ln in lines[start:] if ln.startswith("evt move ")]
            if moves:
                self.commit_lines = [i for i in range(start, len(lines)) if lines[i].startswith("evt move ")]
                self.commit_line = self.commit_lines[-1]
                return moves
            if any(ln.startswith("evt fault ambiguous") for ln in lines[start:]):
                self.stats["ambiguous_waits"] += 1
                if k >= 2:
                    return AMBIGUOUS
            self.run(["wait 500"])
        return None

    def verify(self, pos, got, intended, text):
        if len(got) != 1:
            self.stats["wrong"] += 1
            raise Failure("%d turns committed for one: %s (intended %s)" % (len(got), got, text))
        try:
            after = self.ref.apply(pos, got[0])
        except ValueError as e:
            self.stats["illegal"] += 1
            raise Failure("illegal commit %s (intended %s): %s" % (got[0], text, e))
        if self.ref.norm(after) != self.ref.norm(intended):
            self.stats["wrong"] += 1
            raise Failure("wrong commit %s for %s" % (got[0], text))

    def check(self, pos, committed, start_lines):
        st, board_pos = self.sim.state()
        if self.ref.norm(board_pos) != self.ref.norm(pos):
            self.stats["wrong"] += 1
            raise Failure("the board's position %s is not the reference's %s" % (board_pos, pos))

    def check_resumed(self, pos, committed):
        st, board_pos = self.sim.state()
        if self.ref.norm(board_pos) != self.ref.norm(pos):
            self.stats["lost"] += 1
            raise Failure("after a power cut the board resumed %s, not %s" % (board_pos, pos))
        n = self.ref.count(self.sim.moves())
        if n < len(committed):
            self.stats["lost"] += 1
            raise Failure("after a power cut %d turns of %d resumed" % (n, len(committed)))


def _hypothesis_run(fz, n, turns):
    from hypothesis import HealthCheck, given, settings, strategies as st

    failure = []

    @settings(max_examples=n, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(st.randoms(use_true_random=False))
    def one(r):
        fz.rng = r
        try:
            fz.script(r.randint(1, turns))
        except Failure as e:
            failure[:] = [e, list(fz.text)]
            raise

    try:
        one()
    except Failure:
        fz.text = failure[1]  # the last (shrunk) failing script
        raise failure[0]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", required=True, choices=sorted(REFS))
    ap.add_argument("--mode", default="standard")
    ap.add_argument("--seats", type=int, default=0)
    ap.add_argument("--scripts", type=int, default=20)
    ap.add_argument("--turns", type=int, default=4, help="turns per script at most")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--level", type=int, default=1, help="the board's level for its seats (1-5)")
    ap.add_argument("--out", default=None, help="where a failing script is written")
    ap.add_argument("--fast", action="store_true",
                    help="a person's ordinary speed at a capture: the piece taken 0-150 ms after the landing "
                         "(issue 36.4); refused turns counted with why, then played again")
    ap.add_argument("--hypothesis", action="store_true",
                    help="draw each script's choices through hypothesis (derandomized, "
                         "shrinking a failure to a shorter script)")
    ap.add_argument("--words", action="store_true",
                    help="check the board's words against its lights over the person's mistakes (issue 35)")
    args = ap.parse_args(argv)
    if args.out:
        args.out = os.path.abspath(args.out)  # (the simulator's flash folder is not ours)
    t0 = time.time()
    fz = Fuzzer(args.game, args.mode, args.seats, args.seed, level=args.level, fast=args.fast, words=args.words)
    rc = 0
    try:
        if args.hypothesis:
            runs = [lambda: _hypothesis_run(fz, args.scripts, args.turns)]
        else:
            runs = [lambda: fz.script(fz.rng.randint(1, args.turns))] * args.scripts
        for k, one in enumerate(runs):
            if k and k % 100 == 0:
                # (so far, for a long run stopped before its end)
                print("so far: " + summary(fz, args, t0), flush=True)
            try:
                one()
            except Failure as e:
                if str(e).startswith("hang"):
                    fz.stats["hangs"] += 1
                path = args.out or os.path.join(
                    "/tmp", "fuzz-%s-%s-%d-%d.txt" % (args.game, args.mode, args.seats, args.seed))
                os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
                with open(path, "w") as f:
                    f.write("# FAILED: %s\n" % e)
                    f.write("\n".join(fz.text) + "\n")
                print("FAIL %s (script written to %s)" % (e, path))
                rc = 1
                break
    finally:
        fz.close()
    if args.mode == "tourney":
        print("tourney games finished, by the rules of the game: " + ", ".join(
            "%s %d" % (k, fz.by_rules[k]) for k in sorted(fz.by_rules)))
    if args.fast:
        print("fast captures (ms after the landing: turns, not committed): " + ", ".join(
            "%d: %d, %d" % (d, fz.fast_turns[d], fz.fast_refused.get(d, 0)) for d in sorted(fz.fast_turns)))
        print("why not committed: " + (", ".join("%s: %d" % (k, v) for k, v in sorted(fz.fast_reasons.items()))
                                       or "-"))
    print(summary(fz, args, t0))
    return rc


def summary(fz, args, t0):
    s = fz.stats
    tourney = ""
    if args.mode == "tourney":
        tourney = " (tourney verdicts: %d tally, %d drawn, %d none, %d won; %d next games)" % (
            s["tourney_tally"], s["tourney_drawn"], s["tourney_none"], s["tourney_won"], s["new_games"])
    return ("fuzz %s mode=%s seats=%d seed=%d: %d scripts, %d turns (%d the board's), %d actions, "
            "%d noise, %d power cuts, %d flash faults, %d passes by the board, %d games over%s; crashes %d, illegal %d, wrong %d, "
            "lost %d, hangs %d; ambiguous waits %d, turns played again %d; refused lines %d, strays at power-up %d, "
            "settings damaged %d, snapshots deleted %d (rebuilt %d, not resumed %d); %.0f s" % (
                args.game, args.mode, args.seats, args.seed, s["scripts"], s["turns"], s["board_turns"],
                s["actions"], s["noise"], s["power_cuts"], s["flash_faults"], s["board_passes"],
                s["games_over"], tourney,
                s["crashes"], s["illegal"], s["wrong"], s["lost"], s["hangs"], s["ambiguous_waits"],
                s["played_again"], s["refused_lines"], s["strays_at_power_up"], s["settings_damaged"],
                s["snapshots_deleted"], s["snapshots_rebuilt"], s["snapshots_not_resumed"], time.time() - t0)) + (
        "; words: %d checks (%d with fault words, %d naming what the turn still needs), %d mistakes, %d bad, "
        "%d asks for a turn two turns fit" % (
            s["words_checks"], s["words_faults"], s["words_needs"], s["mistakes"], s["words_bad"], s["ambiguous_asks"])
        if fz.words else "")


if __name__ == "__main__":
    sys.exit(main())
