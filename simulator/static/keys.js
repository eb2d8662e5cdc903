// Keyboard play: a cursor over the sites; space does what a click does;
// h, m, n, c press the buttons.
import { N, SITES, ORDER, YS, cellName } from "./layout.js";
import { ui, board, cellEls, btnEls } from "./ui.js";
import { act } from "./net.js";
import { occupied } from "./hands.js";

// A cursor over the sites in drawing order: left/right step through that
// order, up/down go to the nearest site of the row above/below; space
// does what a click does there; h, m, n, c press the buttons.
let cursor = -1;
function setCursor(i) {
  if (cursor >= 0) cellEls[cursor].classList.remove("cursor");
  cursor = i;
  cellEls[i].classList.add("cursor");
  board.setAttribute("aria-activedescendant", cellEls[i].id);
}
function rowStep(i, dir) {
  const y0 = SITES[i].y, x0 = SITES[i].x;
  const ys = YS.filter((y) => (dir < 0 ? y < y0 : y > y0));
  if (!ys.length) return i;
  const y = dir < 0 ? Math.max(...ys) : Math.min(...ys);
  let best = i, bd = Infinity;
  for (let k = 0; k < N; k++) if (SITES[k].y === y && Math.abs(SITES[k].x - x0) < bd) { bd = Math.abs(SITES[k].x - x0); best = k; }
  return best;
}
function handAt(c) {
  if (occupied(c)) return act({ op: "lift", cell: c });
  if (ui.frame && ui.frame.hand.length) return act({ op: "place", cell: c, hand: ui.selHand !== null ? ui.selHand : ui.frame.hand.length - 1 }).then(() => { ui.selHand = null; });
  return act({ op: "place", cell: c });
}
function press(name, ms) {
  btnEls[name].classList.add("down");
  act({ op: "button", name, down: true });
  setTimeout(() => { btnEls[name].classList.remove("down"); act({ op: "button", name, down: false }); }, ms);
}
export function initKeys() {
  SITES.forEach((s, i) => { cellEls[i].id = "site-" + s.name; });
  document.addEventListener("keydown", (e) => {
    const t = e.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT" || t.tagName === "SUMMARY" || t.isContentEditable)) return;
    if (e.ctrlKey || e.altKey || e.metaKey) return;
    const k = e.key;
    const at = cursor < 0 ? ORDER[0] : cursor;
    if (k === "ArrowLeft" || k === "ArrowRight") {
      const j = ORDER.indexOf(at) + (k === "ArrowLeft" ? -1 : 1);
      setCursor(cursor < 0 ? ORDER[0] : ORDER[Math.max(0, Math.min(N - 1, j))]);
    } else if (k === "ArrowUp" || k === "ArrowDown") setCursor(cursor < 0 ? ORDER[0] : rowStep(at, k === "ArrowUp" ? -1 : 1));
    else if (k === " " || k === "Enter") {
      if (t && t.tagName === "BUTTON" && t !== board) return;  // a focused button's own click
      if (cursor < 0) setCursor(ORDER[0]);
      else handAt(cellName(cursor));
    } else if ("hmnc".includes(k.toLowerCase()) && k.length === 1) {
      const name = { h: "hint", m: "menu", n: "new", c: "confirm" }[k.toLowerCase()];
      press(name, e.shiftKey || name === "new" ? 1100 : 150);
    } else return;
    e.preventDefault();
  });

}
