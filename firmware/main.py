# Boot entry of the Triad smart board (MicroPython runs main.py after boot).
from triad.app import main

main()
