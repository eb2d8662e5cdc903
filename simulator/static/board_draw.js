// The one drawing of a board (issue 43): the simulator's page and the
// relay's page both draw with this module, from the same layout (the
// game's sites with their kind, shape, drawing position and owner, its
// sides and labels: simulator/drawing.py). No game is named here.
//
// Every spot is an element `.cell` with `data-spot` (its name in the game's
// notation; `data-cell` too, the simulator's older name) holding its light
// (`.led`) and name (`.name`); a spot with a piece carries a non-empty
// `data-piece` (its key: side letter and label) and the piece's element.

// The spots' sizes in cell units, by shape.
export const SIZE = { hex: [0.96, 1.1], circle: [0.42, 0.42], "tri-up": [0.86, 0.75], "tri-down": [0.86, 0.75], square: [0.62, 0.62] };
// A die's pips by its value (a game whose pieces carry a value).
export const PIPS = { 1: [5], 2: [3, 7], 3: [3, 5, 7] };

// What the drawing derives from a layout once: the drawing order, the
// rows and columns, whether the spots form a grid, the extent and unit.
export function geometry(layout) {
  const SITES = layout.sites;
  const ORDER = SITES.map((s, i) => i).sort((a, b) => SITES[a].y - SITES[b].y || SITES[a].x - SITES[b].x);
  const XS = [...new Set(SITES.map((s) => s.x))].sort((a, b) => a - b);
  const YS = [...new Set(SITES.map((s) => s.y))].sort((a, b) => a - b);
  // Square cells on a grid (a 6x6 board) go into a CSS grid; any other
  // shape (hexagons, posts, treys, docks, portals) is placed at its drawing
  // position, in cell units.
  const GRID = SITES.every((s) => s.shape === "square" && Number.isInteger(s.x) && Number.isInteger(s.y));
  const minX = Math.min(...SITES.map((s) => s.x)), minY = Math.min(...SITES.map((s) => s.y));
  const maxX = Math.max(...SITES.map((s) => s.x)), maxY = Math.max(...SITES.map((s) => s.y));
  const FREE_UNIT = GRID ? 1 : Math.min(1, 6.5 / Math.max(maxX - minX + 1.2, maxY - minY + 1.2));
  const u = (v) => "calc(var(--cell) * " + (v * FREE_UNIT).toFixed(4) + ")";
  // The board's extent in cells (its width and height at --cell = 1 cell),
  // and its smallest spot's size (for a fingertip's reach).
  const UNITS_W = GRID ? XS.length : FREE_UNIT * (maxX - minX + 1.2);
  const UNITS_H = GRID ? YS.length : FREE_UNIT * (maxY - minY + 1.3);
  const SMALLEST = Math.min(...SITES.map((s) => Math.min(...(SIZE[s.shape] || SIZE.square)))) * (GRID ? 1 : FREE_UNIT);
  return { SITES, ORDER, XS, YS, GRID, minX, minY, maxX, maxY, FREE_UNIT, u, UNITS_W, UNITS_H, SMALLEST };
}

// The board's spots drawn into boardEl (an element of class "board"):
// returns the spots' elements by site index (each with .led and .name).
export function drawBoard(boardEl, layout) {
  const G = geometry(layout);
  const { SITES, ORDER, XS, YS, GRID, minX, minY, maxX, maxY, u } = G;
  boardEl.classList.add("board");
  if (GRID) {
    boardEl.style.gridTemplateColumns = "repeat(" + XS.length + ", var(--cell))";
    boardEl.style.gridTemplateRows = "repeat(" + YS.length + ", var(--cell))";
  } else {
    boardEl.classList.add("free");
    boardEl.style.width = u(maxX - minX + 1.2);
    boardEl.style.height = u(maxY - minY + 1.3);
  }
  // Drawn under the smaller spots: treys and hexagons first, posts last.
  const LAYER = { "tri-up": 0, "tri-down": 0, hex: 0, square: 1, circle: 2 };
  const DRAW = GRID ? ORDER : ORDER.slice().sort((a, b) => LAYER[SITES[a].shape] - LAYER[SITES[b].shape]);
  const els = [];
  for (const i of DRAW) {
    const s = SITES[i];
    const c = document.createElement("div");
    c.className = "cell " + s.shape;
    c.dataset.spot = s.name;
    c.dataset.cell = s.name;
    c.dataset.kind = s.kind;
    c.dataset.die = "";
    c.dataset.piece = "";
    // A site that belongs to a side (tricoloured cells) in its colour,
    // darkened so the lights and pieces stay readable over it.
    const own = layout.sides[s.owner];
    if (own) {
      c.classList.add("owned");
      c.dataset.owner = own.letter;
      c.style.setProperty("--own", "rgb(" + own.rgb.join(",") + ")");
    }
    if (GRID) {
      c.style.gridColumn = String(XS.indexOf(s.x) + 1);
      c.style.gridRow = String(YS.indexOf(s.y) + 1);
    } else {
      const [w, h] = SIZE[s.shape] || SIZE.square;
      // A triangle's centre (its centroid) sits a third of its height from its base.
      const cy = s.shape === "tri-up" ? (2 * h) / 3 : s.shape === "tri-down" ? h / 3 : h / 2;
      c.style.left = u(s.x - minX + 0.6 - w / 2);
      c.style.top = u(s.y - minY + 0.65 - cy);
      c.style.width = u(w);
      c.style.height = u(h);
    }
    const led = document.createElement("div");
    led.className = "led";
    led.dataset.rgb = "0,0,0";
    led.dataset.led = "off";
    const nm = document.createElement("span");
    nm.className = "name";
    nm.textContent = s.name;
    c.append(led, nm);
    boardEl.appendChild(c);
    els[i] = c;
  }
  return els;
}

// A piece as drawn: a die with its pips (a game whose pieces carry a
// value) or a plain piece in its side's colour. d: {colour, value} or null.
export function pieceEl(layout, d) {
  const el = document.createElement("div");
  if (!d) return el;
  if (!layout.labels.length && d.colour) {
    const side = layout.sides.find((s) => s.letter === d.colour);
    el.className = "die piece side-" + d.colour;
    if (side) el.style.setProperty("--pc", "rgb(" + side.rgb.join(",") + ")");
    return el;
  }
  el.className = "die " + (d.colour || "x");
  if (d.colour) (PIPS[d.value] || []).forEach((p) => { const s = document.createElement("span"); s.className = "pip p" + p; el.appendChild(s); });
  return el;
}
export const pieceKey = (d) => (d ? (d.colour || "x") + (d.colour && d.value !== null && d.value !== undefined ? d.value : "") : "");

// The piece on a spot's element, redrawn only when it changed; true if it did.
export function setPiece(cellEl, layout, d) {
  const key = pieceKey(d);
  if (cellEl.dataset.piece === key) return false;
  const old = cellEl.querySelector(".die");
  if (old) old.remove();
  if (d) cellEl.appendChild(pieceEl(layout, d));
  cellEl.dataset.piece = key;
  cellEl.dataset.die = key;
  return true;
}

// A spot's light: raw, the colour on the wire (for tests and names); glow,
// the colour to show (its intensity as opacity: dim colours stay dim).
export function setLight(ledEl, raw, glow, name) {
  ledEl.dataset.rgb = raw.join(",");
  ledEl.dataset.led = name;
  const lit = raw[0] + raw[1] + raw[2] > 0;
  const mx = Math.max(glow[0], glow[1], glow[2], 1);
  const c = "rgb(" + glow.map((v) => Math.round((v * 255) / mx)).join(",") + ")";
  const o = lit ? Math.max(0.14, Math.min(1, mx / 255)) : 0;
  ledEl.style.setProperty("--c", c);
  ledEl.style.setProperty("--o", o.toFixed(3));
  ledEl.classList.toggle("lit", lit);
}
