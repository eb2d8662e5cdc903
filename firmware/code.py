# Entry of the Triad smart board on CircuitPython, which runs code.py (it
# would also run main.py, but code.py comes first). MicroPython runs main.py.
# Both start the same firmware; triad.drivers.open_board() picks the drivers
# for the runtime it finds at start-up.
from triad.app import main

main()
