# MicroPython frozen manifest of the board's UF2 (`make uf2`, host_tools/pico_build.py).
# Everything frozen here runs from flash (bytecode is not copied to RAM).
#
# - The port's own modules: _boot.py (mounts the LittleFS filesystem at /) and rp2.
# - asyncio, as in MicroPython's stock RP2040 firmware.
# - `neopixel`: our stand-in for micropython-lib's (Debian's source lacks it);
#   it lives outside firmware/ because only the UF2 needs it (a stock
#   MicroPython flashed with `make flash` brings its own).
# - The `triad` package and main.py frozen as `main`: MicroPython runs a frozen
#   main.py at boot in preference to one on the filesystem, so the UF2 alone
#   boots into the game. Ctrl-C at the USB console stops the scan loop and gives
#   the REPL (mpremote and the emulator rely on that); a soft reset from the
#   raw REPL does not restart it.
# perft.py is not frozen: it is a script run over the REPL
# (`mpremote run firmware/perft.py`, `python -m host_tools.emulator firmware/perft.py ...`).
freeze("$(PORT_DIR)/modules")
include("$(MPY_DIR)/extmod/asyncio")
module("neopixel.py", base_path="host_tools/uf2_modules")
package("triad", base_path="firmware")
module("main.py", base_path="firmware")
