# `make bench`: the benchmark suite (bench/suite.py) under the MicroPython
# unix port with a Pico-sized heap and under CPython, plus the start-up heap
# (bench/boot_heap.py). Prints one line per figure, "name: value unit",
# names prefixed by where they were measured:
#   mp.    MicroPython unix port (-X heapsize=192K; 64-bit here), firmware as .py
#   mp32.  the 32-bit unix port of the board's MicroPython 1.25
#          (build/micropython32), firmware as .mpy (-march=x86), same heap
#   pico.  the board's UF2 (firmware frozen) on an emulated RP2040
#          (host_tools.emulator, rp2040py): EMULATED time, real drivers;
#          pico.heap_*_flashed: the same chip set up by `make flash`, the
#          firmware as .mpy on its LittleFS (bench/pico_flashed_heap.py)
#   cpy.   CPython (the simulator's and the host tools' runtime)
#   online. issue 38: a move committed on one simulated board to its light
#          on the other, through a relay on loopback (bench/online_latency.py)
#   relay_page. issue 43: a move's last click on one seat's relay page to
#          the other seat's page drawing it (bench/page_latency.py; skipped
#          without Playwright or Chromium)
#   ladder. the engine's level ladder at the chip's node budget (issue 15:
#          bench/ladder.py on the unix port, 4 x 200 games, about a minute;
#          skipped with --quick); ladder.browne_* / ladder.cornelson_*:
#          Browne's and Cornelson's (issue 26: bench/ladder_faces.py at
#          their chip node budgets, random openings; figures only, a few
#          minutes; skipped with --quick)
#   uct.   each game's level 5 against UCT players on its plain rules
#          reference (issue 26: bench/uct.py, CPython, equal and 10x
#          compute; figures only): two to three hours on two cores, so
#          `make bench` leaves them to `make bench-uct` (bench.py --only
#          uct), which keeps every finished game in build/bench-uct/ and
#          goes on from there when run again
# and finally the targets of issues 7 and 15 with whether they hold.
#
#   python3 bench/bench.py [--micropython PATH] [--heap 192K] [--quick]
#                          [--no-pico] [--pico-engine] [--only RUNNER]
#
# --only RUNNER runs that runner alone (its figures, no targets): uct,
# pico_board, ladder, relay, review, ... (the RUNNERS below, less "runner_").
#
# The mp32 and pico runners build what they need through host_tools.pico_build
# (cached; the first build of the UF2 takes minutes) and skip, saying so, when
# Debian's packages cannot be reached (or .venv-pico is missing: `make bench`
# creates it). The emulator runs the RP2040 one instruction at a time in
# Python (about 1-4 emulated ms per wall-clock second on a loaded machine),
# so the pico figures take a couple of minutes and use few repetitions.
# --pico-engine: the engine figures of issue 8 (three positions at 3 s of
# emulated time each; several more minutes) instead of one position at 1 s,
# and the issue-15 figures of the board thinking while its loop goes on
# (tests/pico/device_thinking.py for Nehren, Browne and Cornelson: scan
# gaps, budget and cancel latency, nodes/s, free heap; about 4 minutes a
# game), and how many of Browne's level-5 rankings are cut at the budget
# (bench/pico_browne_hope.py; about 40 minutes).
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def parse(text, prefix, block_bytes=None):
    """Figure lines of a suite's output as (name, value, unit); the mem_info
    blocks become the largest live allocation seen."""
    out = []
    where = None
    largest = (0, "")
    for line in text.splitlines():
        if line.startswith("@meminfo "):
            where = line[9:]
            continue
        if "max blk sz:" in line and block_bytes:
            blocks = int(line.split("max blk sz:")[1].split(",")[0])
            if blocks * block_bytes > largest[0]:
                largest = (blocks * block_bytes, where)
            continue
        if ": " not in line or line.startswith((" ", "mem:", "stack:", "GC:")):
            continue
        name, rest = line.split(": ", 1)
        parts = rest.split(" ", 1)
        out.append((prefix + name, parts[0], parts[1] if len(parts) > 1 else ""))
    if largest[0]:
        out.append((prefix + "largest_alloc", str(largest[0]), "B (live, at %s)" % largest[1]))
    return out


def run(cmd, env=None, timeout=None):
    p = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout)
    if p.returncode != 0:
        sys.stderr.write(p.stdout + p.stderr)
        raise SystemExit("bench: %s failed (exit %d)" % (" ".join(cmd), p.returncode))
    return p.stdout


def mp_block_bytes(mp):
    # A GC block is four machine words: 32 bytes on 64-bit, 16 on 32-bit.
    big = run([mp, "-c", "import sys; print(sys.maxsize > 2**32)"]).strip() == "True"
    return 32 if big else 16


MP64_HEAP = "384K"  # the 64-bit unix port's heap for the firmware from .py (speed figures)


def runner_micropython(args):
    mp = args["micropython"]
    heap = "heapsize=" + args["heap"]
    bb = mp_block_bytes(mp)
    yield ("mp.word_bits", "64" if bb == 32 else "32", "bits (unix port)")
    # Start-up from .py sources on the 64-bit port: the firmware compiled at
    # import at about twice the chip's bytes (the board runs frozen
    # bytecode; its memory figures and targets are mp32's and the emulated
    # Pico's), and its qstr pools growing in one piece each (see the suite
    # below): it gets the suite's heap. (At 256K a few more names in this
    # script alone moved the 1,280-entry pool's growth to the App's start
    # and it died there.)
    with tempfile.TemporaryDirectory() as tmp:
        for fig in parse(run([mp, "-X", "heapsize=" + MP64_HEAP, "bench/boot_heap.py", tmp]), "mp.", bb):
            yield (fig[0].replace("mp.largest_alloc", "mp.largest_alloc_startup"),) + fig[1:]
    extra = ["quick"] if args["quick"] else []
    # The suite from .py sources: speed figures only (the memory targets are
    # mp32's and the emulated Pico's). On this 64-bit port the firmware
    # costs about twice the chip's bytes and is compiled from source at
    # import: mp.heap_firmware_import above (124 KB in December 2026, 83 KB
    # before the controller's split in November; mp32's .mpy 90 KB; frozen
    # on the chip pico.heap_firmware_import). Its ~1,200 names become qstrs,
    # kept in pools that double, each in one piece: after the perft benches
    # had cut a 256K heap into pieces, the next pool (1,280 entries, about
    # 14 KB here; qstr.c reports the entries as "allocating 1280 bytes")
    # found no such piece and the suite died (issue 48). 352K still fails at
    # a later piece; 384K runs with 178 KB free at its lowest.
    for fig in parse(run([mp, "-X", "heapsize=" + MP64_HEAP, "bench/suite.py"] + extra), "mp.", bb):
        yield fig
    # Cornelson's plain perft keeps whole states per turn above its last ply:
    # a bigger heap, as this is a speed figure, not a memory one.
    for fig in parse(run([mp, "-X", "heapsize=1M", "bench/cornelson_bench.py"] + extra), "mp."):
        yield fig
    # Browne's plain perft builds a board per turn: the same room.
    for fig in parse(run([mp, "-X", "heapsize=1M", "bench/browne_bench.py"] + extra), "mp."):
        yield fig
    # Browne's engine: nodes/s at fixed node budgets, main's 8cc0ee7 against
    # this tree in one run (issue 26: a node eight times cheaper).
    for fig in parse(run([sys.executable, "bench/browne_engine_speed.py", "--micropython", mp,
                          "--reps", "1" if args["quick"] else "3"]), "mp."):
        yield fig
    # Cornelson's engine at fixed node budgets (issue 26: a node's cost;
    # bench/cornelson_engine_speed_run.py compares it with an older commit's).
    for fig in parse(run([mp, "-X", "heapsize=256K", "bench/cornelson_engine_speed.py"] + extra), "mp."):
        yield fig


def runner_cpython(args):
    extra = ["quick"] if args["quick"] else []
    for fig in parse(run([sys.executable, "bench/suite.py"] + extra), "cpy."):
        yield fig


PICO_PY = os.path.join(ROOT, ".venv-pico", "bin", "python")
UF2 = os.path.join(ROOT, "build", "triad-board.uf2")
MP32 = os.path.join(ROOT, "build", "micropython32")
EXIT_UNREACHABLE = 3  # host_tools.pico_build: Debian's packages unreachable


def pico_build(what, *more):
    """Build (or take from the cache) the UF2 / the 32-bit unix port; None
    when built, else why it could not be."""
    p = subprocess.run([sys.executable, "-m", "host_tools.pico_build", what] + list(more), cwd=ROOT,
                       capture_output=True, text=True)
    if p.returncode == 0:
        return None
    if p.returncode == EXIT_UNREACHABLE:
        return "Debian's packages cannot be reached, so %s cannot be built" % what
    sys.stderr.write(p.stdout + p.stderr)
    raise SystemExit("bench: host_tools.pico_build %s failed (exit %d)" % (what, p.returncode))


def pico_skip(args, gate, gate_why):
    """Why an emulated-Pico runner is skipped: --no-pico or its own gate
    (gate_why), no .venv-pico, or the UF2s cannot be built; None when it
    may run (every board's UF2 built or taken from the cache)."""
    if args["no_pico"] or gate:
        return gate_why
    if not os.path.exists(PICO_PY):
        return "no .venv-pico with rp2040py"
    return pico_build("uf2", "--board", "all")


def skipped(prefix, why):
    print("%sSKIPPED: %s" % (prefix, why), flush=True)
    return (prefix + "skipped", "1", "(%s)" % why)


def runner_mp32(args):
    """Heap (and allocation) figures of the 32-bit unix build with the
    firmware as .mpy, compiled by the pinned mpy-cross for x86."""
    if args["no_pico"]:
        yield skipped("mp32.", "--no-pico")
        return
    why = pico_build("unix32")
    if why:
        yield skipped("mp32.", why)
        return
    heap = "heapsize=" + args["heap"]
    with tempfile.TemporaryDirectory() as tmp:
        fw = os.path.join(tmp, "fw")
        run([sys.executable, "-m", "host_tools", "firmware", "--out", fw, "--march", "x86"])
        root = os.path.join(tmp, "root")
        os.mkdir(root)
        yield ("mp32.word_bits", "32" if mp_block_bytes(MP32) == 16 else "64", "bits (unix port, firmware .mpy)")
        for fig in parse(run([MP32, "-X", heap, "bench/boot_heap.py", root, fw]), "mp32.", 16):
            yield (fig[0].replace("mp32.largest_alloc", "mp32.largest_alloc_startup"),) + fig[1:]
        extra = ["quick"] if args["quick"] else []
        for fig in parse(run([MP32, "-X", heap, "bench/suite.py", "fw=" + fw] + extra), "mp32.", 16):
            yield fig


_FIGURE = re.compile(r"^[a-z0-9_]+: -?[0-9][0-9.]* ")


def chip_figures(out, prefix):
    """The figure lines of an emulated run's output, parsed: the board's own
    console lines ("evt ...") are not figures."""
    return parse("\n".join(ln for ln in out.splitlines() if _FIGURE.match(ln + " ")), prefix)


def runner_pico(args):
    """The UF2 on the emulated Pico: bench/pico_suite.py in emulated time."""
    if args["no_pico"]:
        yield skipped("pico.", "--no-pico")
        return
    if not os.path.exists(PICO_PY):
        yield skipped("pico.", "no .venv-pico with rp2040py (make bench / make test-pico create it)")
        return
    why = pico_build("uf2")
    if why:
        yield skipped("pico.", why)
        return
    extra = (["quick"] if args["quick"] else []) + (["engine"] if args["pico_engine"] else [])
    out = run([PICO_PY, "-m", "host_tools.emulator", "--timeout", "3600", "bench/pico_suite.py"] + extra,
              timeout=4000)
    for fig in chip_figures(out, "pico."):
        yield fig


def runner_pico_flashed(args):
    """A board set up by `make flash` on the emulated Pico: the firmware as
    .mpy for armv6m on its LittleFS, loaded into the heap as a stock
    MicroPython loads it (bench/pico_flashed_heap.py). Figures
    pico.heap_*_flashed."""
    why = pico_skip(args, False, "--no-pico")
    if why:
        yield skipped("pico_flashed.", why)
        return
    with tempfile.TemporaryDirectory() as tmp:
        fs = os.path.join(tmp, "fs")
        run([sys.executable, "-m", "host_tools", "firmware", "--out", fs])  # what `make flash` copies
        out = run([PICO_PY, "-m", "host_tools.emulator", "--littlefs", fs, "--timeout", "1800",
                   "bench/pico_flashed_heap.py"], timeout=2000)
    for fig in chip_figures(out, "pico."):
        yield fig


THINK_GAMES = ("nehren", "browne", "cornelson")


def board_uf2(game):
    """The UF2 of the board that plays `game` (its description's GAMES)."""
    import importlib

    sys.path.insert(0, os.path.join(ROOT, "firmware"))
    try:
        for name in importlib.import_module("triad.boards").KNOWN:
            if game in importlib.import_module("triad.boards." + name).GAMES:
                return os.path.join(ROOT, "build", "triad-board-%s.uf2" % name)
    finally:
        sys.path.pop(0)
    raise SystemExit("bench: no board plays %s" % game)
THINK_SCRIPT = "tests/pico/device_thinking.py"


def runner_pico_thinking(args):
    """Issue 15 on the emulated Pico (with --pico-engine): the board's own
    move (level 5, the board's 2 500 ms budget, the game's start position)
    while a piece is knocked over, then hints cancelled by lifting an own
    piece, for each game with an engine (tests/pico/device_thinking.py, the
    same script as tests/pico/test_emulated_thinking.py; about 4 minutes of
    wall time a game). Figures pico.think_<game>_*."""
    why = pico_skip(args, not args["pico_engine"], "the thinking figures need --pico-engine")
    if why:
        yield ("pico.think_skipped", "1", "(%s)" % why)
        return
    for game in THINK_GAMES:
        # Each game on its own board's image (one board and its games a UF2).
        out = run([PICO_PY, "-m", "host_tools.emulator", "--timeout", "3600",
                   "--uf2", board_uf2(game), THINK_SCRIPT, game], timeout=4000)
        for fig in chip_figures(out, "pico."):
            yield fig


def runner_ladder(args):
    """The level ladder at the chip's node budget (issue 15): each level
    against the one below, 200 games a pairing, on the unix port
    (bench/ladder.py; about a minute with two processes)."""
    if args["quick"]:
        yield skipped("ladder.", "--quick")
        return
    import ladder

    yield ("ladder.nodes", str(ladder.CHIP_NODES), "nodes a search (the chip's budget)")
    for a, b in ladder.PAIRS:
        r = ladder.run_pair(a, b, ladder.GAMES, ladder.CHIP_NODES, ladder.TT, 1, 2, args["micropython"])
        yield ("ladder.L%d_L%d_wins" % (a, b), "%.1f" % (100.0 * r["w"] / r["games"]),
               "%% of %d games (%d lost, %d drawn)" % (r["games"], r["l"], r["d"]))


# Browne's and Cornelson's ladders (issue 26): each level against the one
# below at the chip's node budget (the nodes their engines searched in the
# board's 2 500 ms on the emulated Pico, docs/performance.md), from random
# two-turn openings, on the unix port (bench/ladder_faces.py). Figures only
# (docs/performance.md, "Issue 26": the chip budgets after the node work).
FACE_LADDERS = (("cornelson", 1500, 200), ("browne", 820, 150))


def runner_ladder_faces(args):
    if args["quick"]:
        yield skipped("ladder_faces.", "--quick")
        return
    for game, nodes, n in FACE_LADDERS:
        for a, b in ((2, 1), (3, 2), (4, 3), (5, 4)):
            out = run(["nice", "-n", "10", args["micropython"], "bench/ladder_faces.py", game, str(a), str(b), str(n),
                       str(nodes), "1"])
            m = re.search(r"(\d+) wins, (\d+) losses, (\d+) draws of (\d+)", out)
            if not m:
                raise SystemExit("bench: ladder_faces.py %s %d %d gave no result:\n%s" % (game, a, b, out))
            w, l, d, g = (int(x) for x in m.groups())
            yield ("ladder.%s_L%d_L%d_wins" % (game, a, b), "%.1f" % (100.0 * w / g),
                   "%% of %d games (%d lost, %d drawn; %d nodes a search%s)"
                   % (g, l, d, nodes, ", alone against two" if game == "browne" else ""))


# Level 5 against an independent player (issue 26, item 4): UCT on each
# game's plain rules reference, at equal compute (playouts = the engine's
# chip budget in nodes) and at 10x (bench/uct.py, CPython, two processes;
# skipped with --quick). Figures only (docs/performance.md, "Against an
# independent player"). A row with lone playouts puts UCT of that many
# playouts in level 5's seat instead, the same games: what UCT itself
# scores alone against two, the scale Browne's figure is read against.
UCT_RUNS = (  # (game, nodes, playouts, games, seed, lone): the chip's node budgets (docs/performance.md)
    ("browne", 820, 820, 40, 1, 0),
    ("browne", 820, 820, 40, 1, 820),
    ("browne", 820, 820, 40, 1, 8200),
    ("browne", 820, 8200, 10, 2, 0),
    ("nehren", 2000, 2000, 40, 1, 0),
    ("nehren", 2000, 20000, 4, 2, 0),
    ("cornelson", 1500, 1500, 20, 1, 0),
    ("cornelson", 1500, 15000, 4, 1, 0),
)

UCT_RESULTS = os.path.join(ROOT, "build", "bench-uct")


def runner_uct(args):
    if args["only"] != "uct":
        yield skipped("uct.", "make bench-uct: the UCT matches, two to three hours on two cores, resumable")
        return
    for game, nodes, playouts, n, seed, lone in UCT_RUNS:
        kept = os.path.join(UCT_RESULTS, "%s-n%d-p%d-s%d-l%d.txt" % (game, nodes, playouts, seed, lone))
        out = run(["nice", "-n", "10", sys.executable, "bench/uct.py", game, "--games", str(n), "--nodes", str(nodes),
                   "--playouts", str(playouts), "--seed", str(seed), "--jobs", "2", "--lone-uct", str(lone),
                   "--results", kept], timeout=4 * 3600)
        m = re.search(r"(\d+) wins, (\d+) ties, (\d+) losses of (\d+) \(([\d.]+)% wins, 95% interval ([\d.]+)-([\d.]+)%",
                      out)
        if not m:
            raise SystemExit("bench: uct.py %s gave no result:\n%s" % (game, out))
        w, t, l, g = (int(x) for x in m.groups()[:4])
        seat = ("uct%d" % lone) if lone else "L5"
        yield ("uct.%s_%s_vs_uct%d_wins" % (game, seat, playouts), "%.1f" % (100.0 * w / g),
               "%% of %d games%s (%d ties, %d lost; 95%% interval %s-%s%%; %s)"
               % (g, " alone against two" if game == "browne" else "", t, l, m.group(6), m.group(7),
                  ("UCT in level 5's seat" if lone else "%d nodes a search" % nodes)))


def runner_pico_board(args):
    """The real image on the modelled board (issues 22, 48): for each game,
    with its pieces on their switches, the lifted-piece latency (worst
    piece), the longest scan gap while the board searches its move and a
    hint, a knocked piece's latency and the C stack left
    (bench/pico_board.py, a few minutes of wall time a game, one at a
    time, niced). Figures pico.board_<game>_*."""
    why = pico_skip(args, args["quick"], "--no-pico or --quick")
    if why:
        yield ("pico.board_skipped", "1", "(%s)" % why)
        return
    for game in THINK_GAMES:
        out = run(["nice", "-n", "10", PICO_PY, "bench/pico_board.py", game], timeout=4000)
        for fig in chip_figures(out, "pico.board_%s_" % game):
            yield fig


def runner_pico_browne_hope(args):
    """Browne's level 5 on the emulated Pico with the board's budget (with
    --pico-engine): how many of its rankings of the safe turns were cut at
    the budget (bench/pico_browne_hope.py, two games; about 40 minutes of
    wall time). bench/uct.py runs the ranking to its end."""
    why = pico_skip(args, not args["pico_engine"], "the ranking figures need --pico-engine")
    if why:
        yield ("pico.browne_hope_skipped", "1", "(%s)" % why)
        return
    out = run([PICO_PY, "-m", "host_tools.emulator", "--uf2", board_uf2("browne"), "--timeout", "7200",
               "bench/pico_browne_hope.py", "2"], timeout=7500)
    m = re.search(r"hope: (\d+) turns, (\d+) ranked, (\d+) of them cut", out)
    if not m:
        raise SystemExit("bench: pico_browne_hope.py gave no result:\n%s" % out)
    turns, ranked, cut = (int(x) for x in m.groups())
    yield ("pico.browne_hope_cut", str(cut), "of %d rankings cut at the budget (%d turns of level 5)" % (ranked, turns))


def runner_online(args):
    # Issue 38: a move committed on one simulated board to its light on
    # the other, through a relay on loopback (bench/online_latency.py: four
    # games, under a minute; one relay, and two sharing Redis).
    for fig in parse(run([sys.executable, "bench/online_latency.py"], timeout=1800), ""):
        yield fig


def runner_relay(args):
    """The relay (issues 38, 45; bench/relay_bench.py): live rooms one relay
    holds and memory a room, moves a second and a move's hop from seat to
    seat (p50, p99) at 1, 10, 100 and 1,000 rooms playing, and a watch's CPU
    over a state's, for one relay and for two sharing Redis; loopback only,
    bounded (--quick: smaller).
    Figures only (docs/performance.md, "The relay")."""
    out = run([sys.executable, "bench/relay_bench.py"] + (["--quick"] if args["quick"] else []), timeout=900)
    for fig in parse(out, ""):
        yield fig


def runner_relay_page(args):
    """Issue 43: a move's last click on one seat's relay page to the other
    seat's page drawing it, two pages of Chromium through a relay on
    loopback (bench/page_latency.py: three games, under a minute; skipped
    without Playwright or Chromium). Figures only."""
    for fig in parse(run([sys.executable, "bench/page_latency.py"], timeout=900), ""):
        yield fig


def runner_review(args):
    """The review (issue 46, bench/review_bench.py): `host_tools review` of
    a 60-move game of each game at its default effort, wall and CPU time
    (--quick: Nehren's only). Figures cpy.review_*."""
    out = run([sys.executable, "bench/review_bench.py"] + (["--quick"] if args["quick"] else []), timeout=1800)
    for fig in parse(out, "cpy."):
        yield fig


RUNNERS = [runner_micropython, runner_mp32, runner_pico, runner_pico_flashed, runner_pico_thinking, runner_pico_board, runner_cpython,
           runner_online, runner_ladder, runner_ladder_faces, runner_uct, runner_pico_browne_hope, runner_relay,
           runner_relay_page, runner_review]


def ladder_target(figs):
    if "ladder.skipped" in figs:
        return "ladder skipped", None
    wins = [(k, float(v)) for k, v in sorted(figs.items()) if k.startswith("ladder.L")]
    worst = min(wins, key=lambda kv: kv[1])
    return ("worst %s %.1f%%" % (worst[0][7:].replace("_wins", "").replace("_", " vs "), worst[1]),
            worst[1] >= 60.0)


def _think_each(figs, names, limit):
    vals = ["%s %s" % (g, "/".join(figs["pico.think_%s_%s" % (g, n)] for n in names)) for g in THINK_GAMES]
    # (an overrun below 0: the search ended before its budget, e.g. at its depth limit)
    ok = all(float(figs["pico.think_%s_%s" % (g, n)]) < limit for g in THINK_GAMES for n in names)
    return "; ".join(vals) + " ms", ok


REVIEW_S = 60  # issue 46: "the default effort reviews a 60-move game within a minute on a 2-core machine"


def review_target(figs):
    names = [k[len("cpy.review_"):-len("_wall_s")] for k in sorted(figs) if k.startswith("cpy.review_")
             and k.endswith("_wall_s")]
    vals = ["%s %s s (%s moves)" % (n, figs["cpy.review_%s_wall_s" % n], figs["cpy.review_%s_plies" % n])
            for n in names]
    return "; ".join(vals), bool(names) and all(float(figs["cpy.review_%s_wall_s" % n]) <= REVIEW_S for n in names)


def _board_each(figs, names, ok):
    """Each game's figures `names` ("a/b" per game) and whether ok(value)
    holds for every one ("nan": not seen, never holds)."""
    vals = ["%s %s" % (g, "/".join(figs["pico.board_%s_%s" % (g, n)] for n in names)) for g in THINK_GAMES]
    return "; ".join(vals), all(ok(float(figs["pico.board_%s_%s" % (g, n)])) for g in THINK_GAMES for n in names)


# Issue 48: what a hand feels on the real image (emulated time).
SCAN_GAP_MS = 10  # the scan never pauses longer than its own period (SCAN_HZ 100)
# The loop keeps its period on its ms clock; in emulated ns a scan's first
# row drive moves by up to about 0.4 ms with the work of the tick before it
# (an idle board's scans 9.6-10.1 ms apart): the gap is checked to that.
SCAN_GAP_SLACK_MS = 0.5
LIGHT_MS = 25  # a lift's or a knock's light within 25 ms (KMK scans a matrix every 20 ms or less)
STACK_LEFT_B = 1936  # C stack left at the deepest tick (Nehren's margin before it fell to 1 816 B)


def _unless_skipped(keys, words):
    """A target whose figures come from a runner that may be skipped: SKIPPED
    (not missed) when any of `keys` is among the figures."""
    def wrap(check):
        def f(figs):
            if any(k in figs for k in keys):
                return words, None
            return check(figs)
        return f
    return wrap


# The emulated Pico could not run (or --no-pico).
pico_target = _unless_skipped(("pico.skipped",), "pico figures skipped")
# The issue-15 figures: without --pico-engine.
think_target = _unless_skipped(("pico.think_skipped", "pico.skipped"), "thinking figures skipped")
# The modelled board's figures (bench/pico_board.py, issue 48): --quick / --no-pico, or no emulated Pico.
board_target = _unless_skipped(("pico.board_skipped",), "board figures skipped")
mp32_target = _unless_skipped(("mp32.skipped",), "32-bit figures skipped")
flashed_target = _unless_skipped(("pico_flashed.skipped",), "make flash figures skipped")


# (description, check(figures dict) -> (value text, holds))
TARGETS = [
    (
        "rules core >= 30x the plain perft from the start position (mp, same run)",
        lambda f: (f["mp.perft_start_speedup"] + " x", float(f["mp.perft_start_speedup"]) >= 30),
    ),
    (
        "Cornelson rules core >= 100x a plain perft that computes the jewel phase once per set of captured posts (mp, geometric mean of three positions, same trees: issue 26)",
        lambda f: (f["mp.cornelson_perft_ratio"] + " x", float(f["mp.cornelson_perft_ratio"]) >= 100),
    ),
    (
        "Browne rules core >= 30x the plain perft (mp, geometric mean of its positions)",
        lambda f: (f["mp.browne_perft_ratio"] + " x", float(f["mp.browne_perft_ratio"]) >= 30),
    ),
    (
        "lifted die: destinations + LED frame < 1 ms (mp, worst die)",
        lambda f: (f["mp.lifted_tick_worst"] + " us", float(f["mp.lifted_tick_worst"]) < 1000),
    ),
    (
        "zero heap allocations per steady tick and per scan (mp, heap_lock)",
        lambda f: (
            "%s ticks, %s scans, %s lifted ticks of 100 allocate"
            % (f["mp.alloc_ticks_steady"], f["mp.alloc_scans"], f["mp.alloc_ticks_lifted"]),
            f["mp.alloc_ticks_steady"] == "0" and f["mp.alloc_scans"] == "0" and f["mp.alloc_ticks_lifted"] == "0",
        ),
    ),
    (
        "zero heap allocations per steady tick and per scan (mp32: 32-bit, .mpy, heap_lock)",
        mp32_target(lambda f: (
            "%s ticks, %s scans, %s lifted ticks of 100 allocate"
            % (f["mp32.alloc_ticks_steady"], f["mp32.alloc_scans"], f["mp32.alloc_ticks_lifted"]),
            f["mp32.alloc_ticks_steady"] == "0" and f["mp32.alloc_scans"] == "0"
            and f["mp32.alloc_ticks_lifted"] == "0",
        )),
    ),
    # The board that `make flash` sets up loads the firmware's .mpy into its
    # heap. This was guarded on mp32 (96 KB of a 192K heap) before that board
    # could be measured where it runs; the chip's heap is 246 144 B, and its
    # Thumb native code smaller than x86's. mp32.heap_free_after_startup is
    # still printed: the same firmware's objects at 32 bits on a 192K heap.
    (
        "free heap after start-up >= 96 KB, make flash: firmware .mpy on the chip's LittleFS (pico, issue 48)",
        flashed_target(lambda f: (
            "%.1f KB of %.1f KB" % (int(f["pico.heap_free_after_startup_flashed"]) / 1024.0,
                                    int(f["pico.heap_total_flashed"]) / 1024.0),
            int(f["pico.heap_free_after_startup_flashed"]) >= 96 * 1024,
        )),
    ),
    (
        "lifted die: destinations + LED frame < 20 ms emulated RP2040 time (pico, worst die)",
        pico_target(lambda f: (f["pico.lifted_tick_worst"] + " us",
                               float(f["pico.lifted_tick_worst"]) < 20000)),
    ),
    (
        "one scan with debounce + one controller tick < 2 ms emulated (pico, worst of each)",
        pico_target(lambda f: (f["pico.scan_plus_ctl_worst"] + " us",
                               float(f["pico.scan_plus_ctl_worst"]) < 2000)),
    ),
    (
        "App.tick within the 10 ms scan period emulated (pico, worst: steady play / empty board)",
        pico_target(lambda f: (
            "%s / %s us" % (f["pico.app_tick_worst"], f["pico.app_tick_empty_board_worst"]),
            max(float(f["pico.app_tick_worst"]), float(f["pico.app_tick_empty_board_worst"])) < 10000,
        )),
    ),
    (
        "zero heap allocations per steady App.tick (pico, heap_lock)",
        pico_target(lambda f: ("%s of 50 ticks allocate" % f["pico.alloc_ticks_steady"],
                               f["pico.alloc_ticks_steady"] == "0")),
    ),
    (
        "free heap after start-up >= 150 KB, firmware frozen (pico)",
        pico_target(lambda f: ("%.1f KB" % (int(f["pico.heap_free_after_startup"]) / 1024.0),
                               int(f["pico.heap_free_after_startup"]) >= 150 * 1024)),
    ),
    (
        "longest gap between two scans while the engine searches <= %d ms emulated "
        "(pico, device_thinking, each game: the board's move / a hint; issues 15, 48)" % SCAN_GAP_MS,
        think_target(lambda f: _think_each(f, ("move_gap_ms", "hint_gap_ms"), SCAN_GAP_MS + SCAN_GAP_SLACK_MS + 0.001)),
    ),
    (
        "longest gap between two scans while the engine searches <= %d ms emulated "
        "(pico board, each game: the board's move / a hint; issue 48)" % SCAN_GAP_MS,
        board_target(lambda f: _board_each(f, ("think_scan_gap_ms", "hint_scan_gap_ms"),
                                           lambda v: v <= SCAN_GAP_MS + SCAN_GAP_SLACK_MS)),
    ),
    (
        "a lift's switch edge to the LED frame of its destinations <= %d ms emulated "
        "(pico board, each game, worst piece; issue 48)" % LIGHT_MS,
        board_target(lambda f: _board_each(f, ("lift_latency_ms",), lambda v: v <= LIGHT_MS)),
    ),
    (
        "a piece knocked over during the board's search shown <= %d ms emulated (pico board, each game; issue 48)"
        % LIGHT_MS,
        board_target(lambda f: _board_each(f, ("knock_latency_ms",), lambda v: v <= LIGHT_MS)),
    ),
    (
        "C stack left at the deepest tick >= %d B (pico board, each game: the board's move with a knock, "
        "a hint; issue 48)" % STACK_LEFT_B,
        board_target(lambda f: _board_each(f, ("stack_left",), lambda v: v >= STACK_LEFT_B)),
    ),
    (
        "the board announces its own move within 4 s of the setting, its budget 2.5 s (pico board, each game)",
        board_target(lambda f: _board_each(f, ("move_came",), lambda v: v == 1)),
    ),
    (
        "no evt error on the modelled board (pico board, each game)",
        board_target(lambda f: _board_each(f, ("errors",), lambda v: v == 0)),
    ),
    (
        "the search stops within 20 ms of its budget / of a cancel (pico, each game; issue 15)",
        think_target(lambda f: _think_each(f, ("move_overrun_ms", "hint_cancel_latency_ms"), 20.001)),
    ),
    (
        "Browne's engine answers its move in the start position within 3 s (pico, level 5; issue 13)",
        think_target(lambda f: (f["pico.think_browne_move_think_ms"] + " ms",
                                float(f["pico.think_browne_move_think_ms"]) <= 3000)),
    ),
    ("each level wins >= 60% of its games against the one below at the chip's node budget (host, issue 15)",
     ladder_target),
    ("host_tools review of a 60-move game (Browne: its longest seeded game) within %d s of wall time at the "
     "default effort (cpy, each game; issue 46)" % REVIEW_S, review_target),
]


def main(argv):
    args = {"micropython": os.path.join(ROOT, ".venv/bin/micropython"), "heap": "192K", "quick": False,
            "no_pico": False, "pico_engine": False, "only": None}
    names = [r.__name__[len("runner_"):] for r in RUNNERS]
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--only" and i + 1 < len(argv):
            if argv[i + 1] not in names:
                raise SystemExit("bench.py: --only takes one of %s, not %r" % (", ".join(names), argv[i + 1]))
            args["only"] = argv[i + 1]
            i += 2
            continue
        if a in ("--micropython", "--heap") and i + 1 < len(argv):
            args[a[2:]] = argv[i + 1]
            i += 2
            continue
        if a in ("--quick", "--no-pico", "--pico-engine"):
            args[a[2:].replace("-", "_")] = True
        else:
            raise SystemExit("usage: bench.py [--micropython PATH] [--heap 192K] [--quick] [--no-pico] [--pico-engine]"
                             " [--only RUNNER]")
        i += 1
    figures = {}
    for runner in RUNNERS:
        if args["only"] and runner.__name__ != "runner_" + args["only"]:
            continue
        for name, value, unit in runner(args):
            figures[name] = value
            print("%s: %s %s" % (name, value, unit), flush=True)
    if args["only"]:
        return 0  # (the targets need every runner's figures)
    failed = 0
    for desc, check in TARGETS:
        try:
            value, ok = check(figures)
        except KeyError as e:
            value, ok = "missing figure %s" % e, False
        if ok is None:
            print("target: SKIPPED %s -- %s" % (value, desc))
            continue
        failed += not ok
        print("target: %s %s -- %s" % ("holds" if ok else "MISSED", value, desc))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
