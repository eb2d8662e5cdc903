"""The sensor module's geometry, shared by the PCB, the placement template
and the sensing model (mm, y down as in KiCad). Positions are in the
module's own frame, its reed glass centred at x = 0; the spot's centre lies
REED_DX to the left of that (over the glass's left end), so on the plate
every module position is the spot's centre + (REED_DX + x, y)."""
MODULE_W = 26.0
MODULE_H = 20.0
MODULE_GAP = 2.0  # between two modules on the plate
# The reed switch (Littelfuse MDSR-7: 12.7 x 1.8 mm glass) lies flat along
# x with its glass centred REED_DX right of the spot: the piece's magnet
# stands over the glass's left end. Centred under the magnet it would sit
# in its null (sensing.py; hardware/<board>/sensing.svg).
REED_GLASS = 12.7
REED_DIA = 1.8
REED_DX = 6.35
LED_DY = -6.0  # the WS2812B's centre, above the reed
LED_DRILL = 6.0  # plate window for the 5 x 5 mm LED
FIX_DX, FIX_DY = -9.5, -7.5  # the module's M2 fixing hole
FIX_DRILL = 2.2
