# Klaus Nehren's Triad: 6x6 board, dice showing 1..3, three Triads win.
