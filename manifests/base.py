# What every board's UF2 freezes (`make uf2 BOARD=<board>`, host_tools/pico_build.py),
# included by manifests/<board>.py with its board's name: include("base.py", board="hex_v1").
# Everything frozen here runs from flash (bytecode is not copied to RAM).
#
# - The port's own modules: _boot.py (mounts the LittleFS filesystem at /) and rp2.
# - asyncio, as in MicroPython's stock RP2040 firmware.
# - `neopixel`: our stand-in for micropython-lib's (Debian's source lacks it);
#   it lives outside firmware/ because only the UF2 needs it (a stock
#   MicroPython flashed with `make flash` brings its own).
# - The `triad` package with exactly ONE board description and the games that
#   board names in its GAMES (data in the description, the single source): an
#   image holds nothing another board needs, and triad/boards/__init__.py drives
#   the one description the image holds, so the UF2 itself says which board it
#   is for (no source edited, no file on flash to get wrong).
# - main.py frozen as `main`: MicroPython runs a frozen main.py at boot in
#   preference to one on the filesystem, so the UF2 alone boots into the game.
#   Ctrl-C at the USB console stops the scan loop and gives the REPL (mpremote
#   and the emulator rely on that); a soft reset from the raw REPL does not
#   restart it.
# perft.py is not frozen: it is a script run over the REPL
# (`mpremote run firmware/perft.py`, `python -m host_tools.emulator firmware/perft.py ...`).
import os

options.defaults(board="pico_v1")

_TRIAD = os.path.join("..", "firmware", "triad")


def _games_of(board):
    """GAMES of a board description, read as data (the manifest runs on the
    build machine's Python, which has no `triad` on its path)."""
    scope = {}
    with open(os.path.join(_TRIAD, "boards", board + ".py")) as f:
        exec(f.read(), scope)
    return scope["GAMES"]


def _triad_files(board, games):
    """The triad package's .py files, less the other boards and games."""
    keep = []
    for dirpath, dirnames, filenames in os.walk(_TRIAD):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
        rel = os.path.relpath(dirpath, _TRIAD).replace(os.sep, "/")
        parts = rel.split("/")
        if parts[0] == "games" and len(parts) > 1 and parts[1] not in games:
            continue
        for fn in sorted(filenames):
            if not fn.endswith(".py"):
                continue
            if rel == "boards" and fn != "__init__.py" and fn != board + ".py":
                continue
            keep.append(fn if rel == "." else rel + "/" + fn)
    return keep


if not os.path.exists(os.path.join(_TRIAD, "boards", options.board + ".py")):
    raise ValueError("no board description firmware/triad/boards/%s.py" % options.board)

freeze("$(PORT_DIR)/modules")
include("$(MPY_DIR)/extmod/asyncio")
module("neopixel.py", base_path="../host_tools/uf2_modules")
package("triad", base_path="../firmware", files=_triad_files(options.board, _games_of(options.board)))
module("main.py", base_path="../firmware")
