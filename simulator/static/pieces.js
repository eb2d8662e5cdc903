// A piece as the page draws it: the shared drawing's (board_draw.js) for
// this board's layout.
import { LAYOUT } from "./layout.js";
import { pieceEl, pieceKey } from "./board_draw.js";

export const dieEl = (d) => pieceEl(LAYOUT, d);
export const dieKey = pieceKey;
