// The board the firmware runs (GET /api/layout: its sites, sides, status
// LEDs and the game's words) and what the page derives from it once: site
// names and order, the drawing geometry, what a piece and a site are called.
// Every other module reads these; nothing here touches the page.

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
export const PIPS = { 1: [5], 2: [3, 7], 3: [3, 5, 7] };
export const SPEEDS = [0.25, 0.5, 1, 2, 4, 8, 16];
// What this game calls a piece (Nehren: a die), a scoring move, a site:
// the page's words come from the game, never a die where there are none.
export const [PIECE, PIECES] = LAYOUT.piece || ["piece", "pieces"];
export const SITE = LAYOUT.sites.every((s) => s.kind === "cell") ? "cell" : "spot";
export const fillWords = (t) => t.replace(/\{pieces\}/g, PIECES).replace(/\{piece\}/g, PIECE)
  .replace(/\{site\}/g, SITE).replace(/\{score\}/g, LAYOUT.score_word || "capture");
export const cellName = (i) => SITES[i].name;
export const cellIndex = (n) => INDEX[n];
// Drawing order: top row first, left to right (the page's reading order).
export const ORDER = SITES.map((s, i) => i).sort((a, b) => SITES[a].y - SITES[b].y || SITES[a].x - SITES[b].x);
export const XS = [...new Set(SITES.map((s) => s.x))].sort((a, b) => a - b);
export const YS = [...new Set(SITES.map((s) => s.y))].sort((a, b) => a - b);

export const SIDE_RGB = {};
for (const s of LAYOUT.sides) SIDE_RGB[s.letter] = s.rgb;
export const DICE = LAYOUT.labels.length > 0;  // pieces that carry a value (Nehren's dice)
// Square cells on a grid (Nehren's 6x6) go into a CSS grid; any other
// shape (hexagons, posts, treys, docks, portals) is placed at its drawing
// position, in cell units.
export const GRID = SITES.every((s) => s.shape === "square" && Number.isInteger(s.x) && Number.isInteger(s.y));
export const SIZE = { hex: [0.96, 1.1], circle: [0.42, 0.42], "tri-up": [0.86, 0.75], "tri-down": [0.86, 0.75], square: [0.62, 0.62] };
export const minX = Math.min(...SITES.map((s) => s.x)), minY = Math.min(...SITES.map((s) => s.y));
export const maxX = Math.max(...SITES.map((s) => s.x)), maxY = Math.max(...SITES.map((s) => s.y));
export const FREE_UNIT = GRID ? 1 : Math.min(1, 6.5 / Math.max(maxX - minX + 1.2, maxY - minY + 1.2));
export const u = (v) => "calc(var(--cell) * " + (v * FREE_UNIT).toFixed(4) + ")";
export const LESSONS = LAYOUT.lessons || [];
export const LABELS = LAYOUT.labels.length ? LAYOUT.labels : [null];
