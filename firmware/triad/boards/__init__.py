# Which board this firmware drives: the first description in KNOWN that the
# image holds. A board's UF2 (`make uf2 BOARD=<name>`, manifests/<name>.py)
# freezes exactly one description, so the image itself says which board it is
# for; a copy of the whole tree (the simulator, `make flash`, the tests) holds
# them all and drives the first. Everything else asks for `ACTIVE` (a module of
# plain data); the simulator picks another board with --board / --game.
KNOWN = ("pico_v1", "hex_v1", "tri_v1")


def _held():
    for name in KNOWN:
        try:
            return __import__("triad.boards." + name, None, None, ("NAME",))
        except ImportError as e:
            # Only "this image has no such description" moves on: an import
            # failing inside a description that is there is a fault to see.
            if name not in str(e):
                raise
    raise ImportError("no board description in this image (one of %s)" % ", ".join(KNOWN))


ACTIVE = _held()
