# `python -m simulator script FILE`: a text file of physical actions run
# against the unchanged firmware on simulated time (a contract for tools).
#
#   position <position>   the game and the physical board both start there
#   lift <cell>           a die leaves the cell (into the hand)
#   place <cell>          the die lifted last is put down there
#   slide <from> <cell> ... <to>   a die slides across cells to <to>
#   wait <ms>             simulated time passes
#   press <button> [long] confirm, new, hint or menu
#   bounce <cell>         the cell's switch chatters for a moment
#   knock <cell>          a die is knocked off the board
#   powercut [<ms>]       power is lost (for <ms>, default 1000) and returns
#   serial <command>      a line on the serial line (docs/protocol.md): the
#                         board's reply must begin "ok" ("serial set mode trap")
#   reply <text>          the last serial reply must begin with <text>
#   flashfail <n>         the next n flash write calls (write, append, rename,
#                         remove, mkdir: whatever the store does next) fail
#                         with OSError(5); a power cut ends what is left
#   lesson <n> | off      the board's teaching mode: lesson n starts (sent as
#                         the serial command `lesson <n>`) and the dice are
#                         set as its set-up light shows; off leaves it
#   lights                prints one line "lights: " and every LED that is
#                         not dark as <slot>=<rrggbb> (lowercase hex, slots
#                         ascending as the board description numbers its
#                         frame: sites first, then status LEDs; the colour as
#                         it goes on the wire, after the brightness and the
#                         power limiter, in RGB order), or "lights: dark"
#   say                   prints one line "say: <text>": the words the page
#                         shows at that moment about what to do now, its
#                         instruction and any fault joined in one line (the
#                         fault first, then "Then: " and the instruction).
#                         The board is asked what the page asks it over the
#                         serial line (state, moves, start, get), so about
#                         40 ms of simulated time pass; the fault's words are
#                         the board's own diagnosis (`evt fix`)
#   blank lines and # comments are ignored
# Numbers (ms, n) are ASCII digits. Two press lines in a row are two presses:
# the button is let go for PRESS_GAP_MS between them, as a finger would.
# At the end: "position: <position>" and "moves: <move> ...".
#
# Targets (--target): cpython (the default) runs firmware/ in this process on
# simulated time; pico runs the board's UF2 (host_tools.pico_build builds it
# or takes it from the cache: build/triad-board-<board>.uf2) on an emulated
# RP2040 with the board modelled at its pins (simulator/pico.py), and prints
# the same lines. On pico, `powercut` restarts the emulated chip with its
# flash (LittleFS) kept, and `flashfail` is refused before anything runs
# ("flashfail is not available on the pico target"): the emulated flash has
# no fault injection; run such scripts on the cpython target.
from simulator.game import N_SITES
from simulator.hardware import BUTTONS, FlashFaults, SimError, cell_index

PRESS_GAP_MS = 100


def _number(args):
    """A whole number in ASCII digits only ("٣" is a digit to str.isdigit)."""
    if len(args) != 1 or not args[0] or len(args[0]) > 9:
        return None
    for ch in args[0]:
        if ch not in "0123456789":
            return None
    return int(args[0])


class ScriptError(ValueError):
    pass


def _cells(args, n_min, n_max, lineno, cmd):
    if not (n_min <= len(args) <= n_max):
        raise ScriptError("line %d: %s takes %s" % (lineno, cmd, "one cell" if n_max == 1 else "cells"))
    for a in args:
        try:
            cell_index(a)
        except SimError as e:
            raise ScriptError("line %d: %s" % (lineno, e))
    return args


def parse(text):
    """Check the whole script first, so a bad line changes nothing."""
    steps = []
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        cmd, _, rest = line.partition(" ")
        args = rest.split()
        if cmd == "position":
            from simulator.game import GAME

            try:
                GAME.parse_position(rest)
            except GAME.NotationError as e:
                raise ScriptError("line %d: bad position: %s" % (lineno, e))
            steps.append((lineno, cmd, rest.strip()))
        elif cmd in ("lift", "place", "bounce", "knock"):
            steps.append((lineno, cmd, _cells(args, 1, 1, lineno, cmd)[0]))
        elif cmd == "slide":
            steps.append((lineno, cmd, _cells(args, 2, N_SITES, lineno, cmd)))
        elif cmd in ("wait", "powercut"):
            if cmd == "powercut" and not args:
                args = ["1000"]
            n = _number(args)
            if n is None:
                raise ScriptError("line %d: %s takes a whole number of ms in ASCII digits 0-9, not %r"
                                  % (lineno, cmd, rest.strip()))
            steps.append((lineno, cmd, n))
        elif cmd == "flashfail":
            n = _number(args)
            if n is None:
                raise ScriptError("line %d: flashfail takes a number of write calls in ASCII digits 0-9, not %r"
                                  % (lineno, rest.strip()))
            steps.append((lineno, cmd, n))
        elif cmd == "lesson":
            if len(args) != 1 or (args[0] != "off" and _number(args) is None):
                raise ScriptError("line %d: lesson takes a lesson number in ASCII digits 0-9 or off, not %r"
                                  % (lineno, rest.strip()))
            steps.append((lineno, cmd, args[0]))
        elif cmd in ("serial", "reply"):
            if not rest.strip():
                raise ScriptError("line %d: %s takes a line of text" % (lineno, cmd))
            steps.append((lineno, cmd, rest.strip()))
        elif cmd in ("lights", "say"):
            if args:
                raise ScriptError("line %d: %s takes nothing, not %r" % (lineno, cmd, rest.strip()))
            steps.append((lineno, cmd, None))
        elif cmd == "press":
            if not args or len(args) > 2 or args[0] not in BUTTONS or (len(args) == 2 and args[1] != "long"):
                raise ScriptError(
                    "line %d: press takes a button (%s) and optionally 'long'" % (lineno, ", ".join(BUTTONS))
                )
            steps.append((lineno, cmd, (args[0], len(args) == 2)))
        else:
            raise ScriptError("line %d: unknown command %r" % (lineno, cmd))
    return steps


def lights_line(leds):
    """The `lights` line of a frame: (r, g, b) per slot."""
    lit = ["%d=%02x%02x%02x" % (i, c[0], c[1], c[2]) for i, c in enumerate(leds) if c[0] or c[1] or c[2]]
    return "lights: " + (" ".join(lit) if lit else "dark")


TARGETS = ("cpython", "pico")


def check_target(steps, target):
    """A script the target cannot carry out is refused before it runs."""
    if target not in TARGETS:
        raise ScriptError("unknown target %r: one of %s" % (target, ", ".join(TARGETS)))
    if target == "pico":
        for lineno, cmd, _ in steps:
            if cmd == "flashfail":
                raise ScriptError("line %d: flashfail is not available on the pico target "
                                  "(the emulated flash has no fault injection); run it on the cpython target"
                                  % lineno)


class PageView:
    """What the page knows of a Simulation (simulator/websim.py's WebSim, less
    its threads): the board's events as they came, and its state asked over
    the serial line when the words are wanted."""

    def __init__(self, sim):
        from simulator.frame import palette
        from simulator.tracking import Tracker

        self.sim = sim
        self.track = Tracker()
        self.names = palette()
        self.seed = getattr(sim, "seed", 0)
        self.state_dir = None
        self.seen = 0  # sim.events told to the tracker so far
        self.boots = -1

    @property
    def brightness(self):
        b = (self.track.fw.get("settings") or {}).get("brightness", "")
        return int(b) if b.isdigit() and int(b) > 0 else (getattr(self.sim.desc, "BRIGHTNESS_DEFAULT", 64) or 64)

    def say(self):
        sim = self.sim
        if sim.boots != self.boots:  # a power cut: the page forgets what the board said
            self.boots = sim.boots
            self.track.power_cut()
        # (events by the sim's own list: the page hears every one)
        events = sim.events
        if self.seen > len(events):
            self.seen = 0
        for _, line in events[self.seen:]:
            self.track.on_event(line[4:], sim.shadow)
        self.seen = len(events)
        if sim.running:
            self.track.poll(lambda line, quiet=False: sim.send(line))
            for _, line in sim.events[self.seen:]:  # (told while it answered)
                self.track.on_event(line[4:], sim.shadow)
            self.seen = len(sim.events)
        from simulator.frame import frame
        from simulator.say import say_text

        return "say: " + say_text(frame(self)).replace("\n", " ")


def run(sim, steps, out=print):
    """Carry out parsed steps on a booted Simulation."""
    prev = None
    last_reply = None
    page = PageView(sim)
    for lineno, cmd, arg in steps:
        try:
            if cmd == "press" and prev is not None and prev[1] == "press" and prev[2][0] == arg[0]:
                sim.run(PRESS_GAP_MS)  # let go between two presses of one button
            if cmd == "position":
                sim.set_position(arg)
            elif cmd == "lift":
                sim.lift(arg)
            elif cmd == "place":
                sim.place(arg)
            elif cmd == "slide":
                sim.slide(arg)
            elif cmd == "wait":
                sim.run(arg)
            elif cmd == "press":
                sim.press(arg[0], arg[1])
            elif cmd == "bounce":
                sim.bounce(arg)
            elif cmd == "knock":
                sim.knock(arg)
            elif cmd == "powercut":
                sim.power_cut()
                FlashFaults.of(sim).pending = 0
                sim.run(arg)
                sim.boot()
            elif cmd == "flashfail":
                FlashFaults.of(sim).arm(arg)
            elif cmd == "lesson":
                sim.lesson(arg)
            elif cmd == "lights":
                out(lights_line(sim.leds()))
            elif cmd == "say":
                out(page.say())
            elif cmd == "serial":
                last_reply = sim.send(arg)
                if not last_reply.startswith("ok"):
                    raise SimError("%r answered %r" % (arg, last_reply))
            elif cmd == "reply" and not (last_reply or "").startswith(arg):
                raise SimError("the last reply was %r, not %r..." % (last_reply, arg))
        except SimError as e:
            raise ScriptError("line %d: %s" % (lineno, e))
        if sim.crash:
            raise ScriptError("line %d: the firmware crashed:\n%s" % (lineno, sim.crash))
        prev = (lineno, cmd, arg)


def run_file(path, seed=1, verbose=False, out=print, target="cpython", uf2=None):
    with open(path) as f:
        steps = parse(f.read())
    check_target(steps, target)
    echo = (lambda line: out("# " + line)) if verbose else None
    if target == "pico":
        from simulator.game import DESC
        from simulator.pico import PicoSimulation, uf2_for_board

        sim = PicoSimulation(uf2 or uf2_for_board(DESC.NAME), seed=seed, echo=echo)
    else:
        from simulator.sim import Simulation

        sim = Simulation(seed=seed, echo=echo)
    try:
        sim.boot()
        run(sim, steps, out)
        state, position = sim.state()
        moves = sim.moves()
    finally:
        sim.shutdown()
    out("position: " + position)
    out("moves: " + moves)
    return position, moves
