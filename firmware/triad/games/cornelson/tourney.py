# The TRIAD Tourney (rules 12.0-12.4): a series of games won by the first
# player to have won games by all three outcomes. The Game Tally is one
# small int (code()) so the board can keep it across power cuts.
#
# Readings (issue 14): 12.1 a game won by an outcome that exactly one player
# already has is a draw of the series; 12.2 an outcome both players have no
# longer ends a game; 12.3 once both have Trap, trapped jewels leave play
# (and a player who cannot step every jewel steps as many as possible);
# 12.4 once both have Breach and Trap, the game is gems only until a Capture.
# All of this is the rule bits of core.Position.mode, given by rules().
from triad.games.cornelson import core

# Outcome bits share the values of the rule bits that let them end a game.
OUT_BREACH = core.RULE_BREACH
OUT_TRAP = core.RULE_TRAP
OUT_CAPTURE = core.RULE_CAPTURE
ALL = OUT_BREACH | OUT_TRAP | OUT_CAPTURE

# What record() reports.
NOTHING = 0  # the game was not won (unfinished, or a drawn game)
GAME_WON = 1
GAME_DRAWN = 2  # 12.1
SERIES_WON = 3


def outcome_bit(reason):
    if reason == core.WHY_BREACH:
        return OUT_BREACH
    if reason == core.WHY_TRAP or reason == core.WHY_STUCK:
        return OUT_TRAP
    if reason == core.WHY_CAPTURE:
        return OUT_CAPTURE
    return 0


class Tourney:
    def __init__(self, code=0):
        self.won = bytearray((code & ALL, (code >> 3) & ALL))

    def code(self):
        return self.won[0] | (self.won[1] << 3)

    def rules(self):
        """Position.mode for the next game."""
        both = self.won[0] & self.won[1]
        if both & (OUT_BREACH | OUT_TRAP) == OUT_BREACH | OUT_TRAP:
            return core.MODE_CAPTURE
        return (ALL & ~both) | core.RULE_JEWELS

    def winner(self):
        """The side that has won the tourney, or -1."""
        for side in (0, 1):
            if self.won[side] == ALL:
                return side
        return -1

    def record(self, pos):
        """Enter a finished game (its final position) into the Game Tally."""
        w = pos.result
        if w < 0 or w > 1 or self.winner() >= 0:
            return NOTHING
        bit = outcome_bit(pos.reason)
        if (self.won[0] ^ self.won[1]) & bit:
            return GAME_DRAWN
        self.won[w] |= bit
        return SERIES_WON if self.won[w] == ALL else GAME_WON
