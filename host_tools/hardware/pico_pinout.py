"""The Pico's header, typed a second time and another way (issue 37): as
the Raspberry Pi Pico datasheet's pinout figure reads, pin 1 to pin 40,
down the left row and up the right. describe.py's table (GPIO -> pin) is
checked against this one (checks.check_pico_pins), so a slip in either
shows instead of being built into the circuit and its checks alike."""
LEFT = ("GP0 GP1 GND GP2 GP3 GP4 GP5 GND GP6 GP7 "
        "GP8 GP9 GND GP10 GP11 GP12 GP13 GND GP14 GP15").split()  # pins 1..20
RIGHT = ("VBUS VSYS GND 3V3_EN 3V3(OUT) ADC_VREF GP28 AGND GP27 GP26 "
         "RUN GP22 GND GP21 GP20 GP19 GP18 GND GP17 GP16").split()  # pins 40..21
NAMES = dict(enumerate(LEFT, 1))
NAMES.update({40 - i: name for i, name in enumerate(RIGHT)})
assert sorted(NAMES) == list(range(1, 41))
