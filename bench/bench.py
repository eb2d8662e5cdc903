# `make bench`: the benchmark suite (bench/suite.py) under the MicroPython
# unix port with a Pico-sized heap and under CPython, plus the start-up heap
# (bench/boot_heap.py). Prints one line per figure, "name: value unit",
# names prefixed by where they were measured:
#   mp.    MicroPython unix port (-X heapsize=192K), the figures targets use
#   cpy.   CPython (the simulator's and the host tools' runtime)
# and finally the targets of issue 7 with whether they hold.
#
#   python3 bench/bench.py [--micropython PATH] [--heap 192K] [--quick]
#
# Figure sets are independent runners below (RUNNERS); the emulated-Pico
# figures (prefix "pico.", issue 7) are to be added as one more runner that
# yields (name, value, unit) and a target or two in TARGETS. Nothing else
# needs to change.
import os
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


def run(cmd, env=None):
    p = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True)
    if p.returncode != 0:
        sys.stderr.write(p.stdout + p.stderr)
        raise SystemExit("bench: %s failed (exit %d)" % (" ".join(cmd), p.returncode))
    return p.stdout


def mp_block_bytes(mp):
    # A GC block is four machine words: 32 bytes on 64-bit, 16 on 32-bit.
    big = run([mp, "-c", "import sys; print(sys.maxsize > 2**32)"]).strip() == "True"
    return 32 if big else 16


def runner_micropython(args):
    mp = args["micropython"]
    heap = "heapsize=" + args["heap"]
    bb = mp_block_bytes(mp)
    yield ("mp.word_bits", "64" if bb == 32 else "32", "bits (unix port)")
    with tempfile.TemporaryDirectory() as tmp:
        for fig in parse(run([mp, "-X", heap, "bench/boot_heap.py", tmp]), "mp.", bb):
            yield (fig[0].replace("mp.largest_alloc", "mp.largest_alloc_startup"),) + fig[1:]
    extra = ["quick"] if args["quick"] else []
    for fig in parse(run([mp, "-X", heap, "bench/suite.py"] + extra), "mp.", bb):
        yield fig


def runner_cpython(args):
    extra = ["quick"] if args["quick"] else []
    for fig in parse(run([sys.executable, "bench/suite.py"] + extra), "cpy."):
        yield fig


# To come (issue 7): runner_pico, the emulated RP2040 with the firmware
# frozen, yielding pico.perft_start_rate, pico.lifted_dests_worst, pico.scan_us,
# pico.ctl_update_us, pico.heap_free_after_startup in emulated time.
RUNNERS = [runner_micropython, runner_cpython]

# (description, check(figures dict) -> (value text, holds))
TARGETS = [
    (
        "rules core >= 30x the plain perft from the start position (mp, same run)",
        lambda f: (f["mp.perft_start_speedup"] + " x", float(f["mp.perft_start_speedup"]) >= 30),
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
        "free heap after start-up >= 96 KB of 192 KB (mp unix; issue: 32-bit build, .mpy)",
        lambda f: (
            "%d KB on a %s-bit build from .py" % (int(f["mp.heap_free_after_startup"]) // 1024, f["mp.word_bits"]),
            int(f["mp.heap_free_after_startup"]) >= 96 * 1024,
        ),
    ),
]


def main(argv):
    args = {"micropython": os.path.join(ROOT, ".venv/bin/micropython"), "heap": "192K", "quick": False}
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("--micropython", "--heap") and i + 1 < len(argv):
            args[a[2:]] = argv[i + 1]
            i += 2
            continue
        if a == "--quick":
            args["quick"] = True
        else:
            raise SystemExit("usage: bench.py [--micropython PATH] [--heap 192K] [--quick]")
        i += 1
    figures = {}
    for runner in RUNNERS:
        for name, value, unit in runner(args):
            figures[name] = value
            print("%s: %s %s" % (name, value, unit), flush=True)
    failed = 0
    for desc, check in TARGETS:
        try:
            value, ok = check(figures)
        except KeyError as e:
            value, ok = "missing figure %s" % e, False
        failed += not ok
        print("target: %s %s -- %s" % ("holds" if ok else "MISSED", value, desc))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
