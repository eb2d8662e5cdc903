# A quick hint for the side to move: take a Triad when one is there, and
# otherwise prefer a move after which the opponent cannot take one at once.
# (The searching engine replaces this when it is loaded.)
from triad.games.nehren import core


def best_move(pos, buf):
    """A good legal move of pos, or 0 when there is none. Uses buf (an
    int array of at least 2 * core.MAX_MOVES) as scratch; pos is unchanged."""
    n = pos.gen(buf, 0)
    best = 0
    best_score = -1000
    for i in range(n):
        m = buf[i]
        score = 0
        if (m >> 18) & 127:
            score += 100
        pos.make(m)
        if pos.game_over():
            pos.unmake(m)
            return m
        end = pos.gen(buf, n)
        for j in range(n, end):
            if (buf[j] >> 18) & 127:
                score -= 50
                break
        score -= (end - n) >> 4  # fewer replies for the opponent is better
        pos.unmake(m)
        if score > best_score:
            best_score = score
            best = m
    return best
