# Minimal test runner for the dual-runtime tests in tests/fw/.
#
# Runs under the MicroPython unix port (the point of it) and under CPython.
#
#   micropython tests/mp_run.py [--dir PATH] [FILTER]
#
# Discovers files named test_*.py in the test directory (default: tests/fw/
# next to this file), imports each as a top-level module, and calls every
# module-level callable whose name starts with "test_" with no arguments.
# FILTER, if given, is a substring that module names must contain; with a
# leading "=" it is one module's exact name.
#
# The last line printed is always exactly "N passed, M failed".
# Exit status is 1 if anything failed (import errors count as failures) or if
# no test ran at all; 0 otherwise.
#
# Keep this file free of anything MicroPython lacks (os.path, traceback,
# argparse, f-string-only features are fine but avoided for old ports).
import sys
import os

try:
    import gc
except ImportError:  # pragma: no cover - CPython always has gc
    gc = None


def _dirname(path):
    i = path.rfind("/")
    if i < 0:
        return "."
    if i == 0:
        return "/"
    return path[:i]


def _join(a, b):
    if not a or a == ".":
        return b
    if a.endswith("/"):
        return a + b
    return a + "/" + b


def _isdir(path):
    try:
        return (os.stat(path)[0] & 0o170000) == 0o040000
    except OSError:
        return False


def _print_tb(exc):
    pe = getattr(sys, "print_exception", None)
    if pe is not None:
        pe(exc)
        return
    try:
        import traceback
    except ImportError:
        return
    traceback.print_exception(type(exc), exc, exc.__traceback__, file=sys.stdout)


def _report(label, exc):
    print("FAIL %s: %s: %s" % (label, type(exc).__name__, exc))
    _print_tb(exc)


def _usage():
    print("usage: mp_run.py [--dir PATH] [FILTER]")


def _parse_args(argv):
    test_dir = None
    filt = None
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--dir":
            if i + 1 >= len(argv):
                _usage()
                sys.exit(2)
            test_dir = argv[i + 1]
            i += 2
            continue
        if a.startswith("--dir="):
            test_dir = a[6:]
        elif a in ("-h", "--help"):
            _usage()
            sys.exit(0)
        elif a.startswith("-"):
            print("mp_run.py: unknown option " + a)
            _usage()
            sys.exit(2)
        elif filt is None:
            filt = a
        else:
            print("mp_run.py: only one FILTER allowed")
            _usage()
            sys.exit(2)
        i += 1
    return test_dir, filt


def main(argv):
    test_dir, filt = _parse_args(argv)
    here = _dirname(__file__) if "__file__" in globals() else "tests"
    if test_dir is None:
        test_dir = _join(here, "fw")
    if test_dir.endswith("/") and len(test_dir) > 1:
        test_dir = test_dir[:-1]
    if not _isdir(test_dir):
        print("mp_run.py: not a directory: " + test_dir)
        print("0 passed, 0 failed")
        return 1

    # Make firmware/, tests/fw (fwtest) and the test dir importable even without
    # MICROPYPATH/PYTHONPATH (the Makefile sets MICROPYPATH as well).
    root = ".." if here == "." else _dirname(here)
    for p in (_join(root, "firmware"), _join(here, "fw"), test_dir):
        if p not in sys.path:
            sys.path.insert(0, p)

    names = []
    for fn in os.listdir(test_dir):
        if fn.startswith("test_") and fn.endswith(".py"):
            mod = fn[:-3]
            if filt is None or (mod == filt[1:] if filt[:1] == "=" else filt in mod):
                names.append(mod)
    names.sort()

    passed = 0
    failed = 0
    for mod_name in names:
        try:
            mod = __import__(mod_name)
        except Exception as e:
            failed += 1
            _report(mod_name + " (import)", e)
            continue
        tests = []
        for attr in dir(mod):
            if not attr.startswith("test_"):
                continue
            obj = getattr(mod, attr)
            if callable(obj) and not isinstance(obj, type):
                tests.append(attr)
        tests.sort()
        for t in tests:
            label = mod_name + "." + t
            try:
                getattr(mod, t)()
            except Exception as e:
                failed += 1
                _report(label, e)
            else:
                passed += 1
            if gc is not None:
                gc.collect()
        # A module's own tables and buffers go once its tests have run: the
        # port's heap holds one game's worth at a time, as the board does.
        mod = None
        if mod_name in sys.modules:
            del sys.modules[mod_name]
        if gc is not None:
            gc.collect()

    print("%d passed, %d failed" % (passed, failed))
    if failed or passed == 0:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
