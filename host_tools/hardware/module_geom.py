"""The sensor module's geometry, shared by the PCB and the placement
template (mm, origin = the spot's centre, y down as in KiCad)."""
MODULE_W = 26.0  # the reed switch's 20.32 mm lead pitch sets the width
MODULE_H = 20.0
MODULE_GAP = 2.0  # between two modules on the plate
REED_GLASS = 14.0  # glass body, centred under the spot (the die's magnet)
LED_DY = -6.0  # the WS2812B's centre, above the reed
LED_DRILL = 6.0  # plate window for the 5 x 5 mm LED
FIX_DX, FIX_DY = -9.5, -7.5  # the module's M2 fixing hole
FIX_DRILL = 2.2
