# The UF2 for the hex_v1 board (`make uf2 BOARD=hex_v1`): the board's description and
# the games its GAMES names (GAMES = ("browne",)), nothing of the other boards (base.py).
include("base.py", board="hex_v1")
