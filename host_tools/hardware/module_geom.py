"""The sensor module's geometry, shared by the PCB, the placement template
and the sensing model (mm, y down as in KiCad). Positions are in the
module's own frame, its reed glass centred at x = 0; the spot's centre lies
REED_DX to the left of that (over the glass's left end). On the plate every
module is turned by the board's TURN (sensing.reed_turn: degrees,
clockwise as the template is drawn, y down) about its spot's centre, so a
module point (x, y) lies at to_plate(spot, x, y, turn)."""
import math

MODULE_W = 26.0
MODULE_H = 20.0
MODULE_GAP = 2.0  # between two modules on the plate
# The module's outline in its own frame (the PCB's edge cuts).
MODULE_TOP, MODULE_BOTTOM = -11.5, 8.5
# The reed switch (Littelfuse MDSR-7: 12.7 x 1.8 mm glass) lies flat along
# x with its glass centred REED_DX right of the spot: the piece's magnet
# stands over the glass's left end. Centred under the magnet it would sit
# in its null (sensing.py; hardware/<board>/sensing.svg).
REED_GLASS = 12.7
REED_DIA = 1.8  # the datasheet's maximum
REED_DIA_MIN = 1.7  # not on the datasheet (it gives 1.80 max): our assumption, stated in README
REED_DX = 6.35
# The reed's Ni-Fe leads run straight out of the glass to the footprint's
# holes, 20.32 mm apart, where they bend down into the board: the
# ferromagnetic length a field along the reed magnetises.
REED_LEAD_HALF = 20.32 / 2
# The WS2812B's centre: in the module's top right corner, 16.2 mm from
# the spot's centre, beyond the reach of the largest piece standing there
# (an 18 mm die turned any way and 3 mm off the spot reaches 15.7 mm), so
# its light shows beside the piece (checks.covered_window).
LED_DX, LED_DY = 8.7, -6.0
LED_DRILL = 6.0  # plate window for the 5 x 5 mm LED
FIX_DX, FIX_DY = -9.5, -7.5  # the module's first M2 fixing hole
FIX2_DX, FIX2_DY = 11.4, 7.0  # the second, diagonally opposite: two screws hold it flat on its spacers
FIX_DRILL = 2.2


def to_plate(spot, x, y, turn):
    """The plate position (mm) of the module point (x, y) (the module's
    frame: the reed glass's centre at the origin) under the spot at
    `spot`, the module turned `turn` degrees."""
    a = math.radians(turn)
    c, s = math.cos(a), math.sin(a)
    u, v = x + REED_DX, y
    return (spot[0] + c * u - s * v, spot[1] + s * u + c * v)


def outline(spot, turn):
    """The module's four corners on the plate."""
    hw = MODULE_W / 2
    return [to_plate(spot, x, y, turn) for x, y in ((-hw, MODULE_TOP), (hw, MODULE_TOP), (hw, MODULE_BOTTOM), (-hw, MODULE_BOTTOM))]
