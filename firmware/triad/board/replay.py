# A game in progress replayed from its start: the one way the board (a
# saved game resumed, a position loaded) and the simulator's page (a game
# the board resumed) make a list of move texts and see a draw by the game's
# history rule.


def replay(g, pos, moves):
    """Make the moves (texts) on pos, a game's start position. Returns
    (history, watch, draw): the move ints, the game's draw watch (None
    without one) and its last verdict (0: no draw). Raises the game's
    NotationError at the first move that does not read (pos then stands
    after the moves before it)."""
    watch = g.draw_watch(pos.copy()) if g.draw_watch else None
    hist = []
    draw = 0
    for text in moves or ():
        m = g.parse_move(pos, text)
        pos.make(m)
        hist.append(m)
        if watch is not None:
            draw = watch.push(pos, m)
    return hist, watch, draw
