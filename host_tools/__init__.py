"""Host-side tools for the Triad smart board (python -m host_tools ...)."""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")
if FIRMWARE not in sys.path:
    # The host tools use the very rules core that runs on the board.
    sys.path.append(FIRMWARE)
