"""Draw a position in the terminal."""
from triad.games.nehren import core, notation

FILES = "abcdef"
_ANSI = {"b": "\x1b[1;37;40m", "w": "\x1b[1;30;47m", "reset": "\x1b[0m"}


def render(pos, colour=False, marks=()):
    """The board as text, Black's home row at the bottom as Black sees it.
    marks: cells (names) to bracket, e.g. the last move."""
    lines = []
    for rank in range(5, -1, -1):
        row = ["%d " % (rank + 1)]
        for f in range(6):
            name = FILES[f] + str(rank + 1)
            p = pos.board[core.sq_of(f, rank)]
            if p:
                c = "bw"[p >> 2]
                token = c.upper() + str(p & 3) if c == "w" else c + str(p & 3)
                if colour:
                    token = _ANSI[c] + token + _ANSI["reset"]
            else:
                token = " ."
            row.append(("[%s]" if name in marks else " %s ") % token)
        lines.append("".join(row))
    lines.append("   " + "".join(" %s  " % f for f in FILES))
    side = "Black" if pos.side == core.BLACK else "White"
    w = pos.winner()
    status = "%s wins" % ("Black", "White")[w] if w >= 0 else "%s to move" % side
    if w < 0 and pos.is_note2():
        status += " (Note 2: no regular move)"
    lines.append("Triads  Black %d  White %d   %s" % (pos.score[0], pos.score[1], status))
    return "\n".join(lines)
