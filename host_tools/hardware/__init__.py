"""The board's hardware, generated from its description (issue 25).

`python -m host_tools.hardware` (run by `make hardware` under .venv-hw, the
venv made from Debian's /usr/bin/python3 so that KiCad 6's pcbnew imports)
writes, for each board in firmware/triad/boards/, into hardware/<board>/:
netlist.net, erc.txt, bom.csv, wiring.csv, placement.svg/.pdf; and one
sensor-module PCB for every spot into hardware/sensor_module/.

The sources are the board description (pins, matrix, LED chain, buttons,
buzzer, power) and its game's site_xy/SITE_NAMES through triad.games.load:
nothing here names a particular game or board layout.
"""
