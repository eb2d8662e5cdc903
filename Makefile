# Triad smart board: developer and CI entry points (GNU make).
#
#   make test              run every test suite (all run; fails if any fails)
#   make test-cpython      pytest under CPython (tests/)
#   make test-micropython  tests/fw/ under the real MicroPython unix port
#   make sim               run the CPython simulator
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

# Suites run by `make test`. Add new suites here (each is a target below).
TEST_SUITES  := test-cpython test-micropython

.PHONY: all venv test $(TEST_SUITES) sim clean distclean

all: test

venv: $(STAMP)

$(STAMP): requirements-dev.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --disable-pip-version-check -q -r requirements-dev.txt
	touch $@

# Run every suite even if an earlier one fails; fail if any failed.
test: $(STAMP)
	@rc=0; failed=""; \
	for t in $(TEST_SUITES); do \
	  $(MAKE) --no-print-directory $$t || { rc=1; failed="$$failed $$t"; }; \
	done; \
	if [ $$rc -ne 0 ]; then echo "FAILED suites:$$failed"; fi; \
	exit $$rc

test-cpython: $(STAMP)
	$(PY) -m pytest -q tests $(PYTEST_ARGS)

test-micropython: $(STAMP)
	MICROPYPATH=$(MICROPYPATH_TEST) $(MPY) tests/mp_run.py $(MP_RUN_ARGS)

sim: $(STAMP)
	PYTHONPATH=$(FIRMWARE_DIR)$${PYTHONPATH:+:$$PYTHONPATH} $(PY) -m simulator $(SIM_ARGS)

clean:
	rm -rf build .pytest_cache .hypothesis
	find . -path ./$(VENV) -prune -o -name __pycache__ -type d -prune -exec rm -rf {} +

distclean: clean
	rm -rf $(VENV)
