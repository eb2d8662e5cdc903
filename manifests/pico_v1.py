# The UF2 for the pico_v1 board (`make uf2 BOARD=pico_v1`): the board's description and
# the games its GAMES names (GAMES = ("nehren",)), nothing of the other boards (base.py).
include("base.py", board="pico_v1")
