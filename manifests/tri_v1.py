# The UF2 for the tri_v1 board (`make uf2 BOARD=tri_v1`): the board's description and
# the games its GAMES names (GAMES = ("cornelson",)), nothing of the other boards (base.py).
include("base.py", board="tri_v1")
