# Helpers for the dual-runtime tests in tests/fw/ (MicroPython + CPython).
# Must not import pytest or anything MicroPython lacks.


def raises(exc_type, fn, *args, **kwargs):
    """Call fn(*args, **kwargs); return the exception if it is an exc_type.

    Raises AssertionError if fn returns normally. Exceptions of other types
    propagate unchanged so the failure shows the real error.
    """
    try:
        fn(*args, **kwargs)
    except exc_type as e:
        return e
    name = getattr(exc_type, "__name__", None) or repr(exc_type)
    raise AssertionError("expected %s to be raised" % name)
