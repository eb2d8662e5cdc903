"""The desktop simulator: the unchanged board firmware (firmware/main.py) on
CPython over simulated switches, LEDs, buttons, clock, serial line and flash."""
