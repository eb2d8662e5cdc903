// The board the firmware runs (GET /api/layout: its sites, sides, status
// LEDs and the game's words) and what the page derives from it once: site
// names and order, the drawing geometry, what a piece and a site are called.
// Every other module reads these; nothing here touches the page.
import { geometry } from "./board_draw.js";

// The board the firmware runs: sites, sides and status LEDs (GET /api/layout).
let layout = null;
for (;;) {
  try { layout = await (await fetch("/api/layout")).json(); break; } catch (e) { await new Promise((r) => setTimeout(r, 1000)); }
}
export const LAYOUT = layout;
export const $ = (id) => document.getElementById(id);
export const SITES = LAYOUT.sites, N = SITES.length;
export const SIDE_NAME = {};
for (const s of LAYOUT.sides) SIDE_NAME[s.letter] = s.name;
export const INDEX = {};
SITES.forEach((s, i) => { INDEX[s.name] = i; });
export const BUTTONS = ["confirm", "new", "hint", "menu"];
export const SPEEDS = [0.25, 0.5, 1, 2, 4, 8, 16];
// What this game calls a piece (Nehren: a die), a scoring move, a site:
// the page's words come from the game, never a die where there are none.
export const [PIECE, PIECES] = LAYOUT.piece || ["piece", "pieces"];
export const SITE = LAYOUT.sites.every((s) => s.kind === "cell") ? "cell" : "spot";
export const fillWords = (t) => t.replace(/\{pieces\}/g, PIECES).replace(/\{piece\}/g, PIECE)
  .replace(/\{site\}/g, SITE).replace(/\{score\}/g, LAYOUT.score_word || "capture");
export const cellName = (i) => SITES[i].name;
export const cellIndex = (n) => INDEX[n];
// The drawing's geometry (board_draw.js, shared with the relay's page):
// drawing order (top row first, left to right: the page's reading order),
// rows and columns, grid or free, extent.
export const { ORDER, XS, YS, GRID, minX, minY, maxX, maxY, FREE_UNIT, u, UNITS_W, UNITS_H, SMALLEST } = geometry(LAYOUT);

export const SIDE_RGB = {};
for (const s of LAYOUT.sides) SIDE_RGB[s.letter] = s.rgb;
export const DICE = LAYOUT.labels.length > 0;  // pieces that carry a value (Nehren's dice)
export const LESSONS = LAYOUT.lessons || [];
export const LABELS = LAYOUT.labels.length ? LAYOUT.labels : [null];
