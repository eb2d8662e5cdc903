# Generic constants every game's face (docs/game-face.md) shares: site kinds,
# footprint actions, outcome codes and the generic light roles. Nothing here
# knows a particular game.

# Site kinds (SITE_KIND).
KIND_CELL = 0
KIND_POST = 1
KIND_TREY = 2
KIND_DOCK = 3
KIND_PORTAL = 4
KIND_SUPPLY = 5

# Footprint actions: site | act << 8 | role << 10.
LIFT = 0
PLACE = 1
TOUCH = 2

# outcome(pos) for a game that ended without a single winner.
DRAW = 255

# Generic light roles; a game's own roles start at ROLE_GAME and index its
# ROLE_RGB.
ROLE_NONE = 0
ROLE_SOURCE = 1
ROLE_REMOVE = 2
ROLE_TRIAD = 3
ROLE_GAME = 16
