// What the page's modules share that changes: the last frame the server
// pushed, the tool in use, the piece chosen in the hand, a drag under way;
// and the page's elements the board is drawn into.
import { $ } from "./layout.js";

export const ui = { frame: null, tool: "hand", selHand: null, drag: null };
export const board = $("board"), device = $("device"), ghost = $("ghost");
export const cellEls = [], ledEls = [], statusEls = {}, btnEls = {}, matrixEls = [];
