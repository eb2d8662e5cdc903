// Hands on the board: lift, slide, carry, place, knock, bounce with the
// mouse or a finger (the tools), a die's ghost under the pointer.
import { cellIndex, fillWords } from "./layout.js";
import { ui, board, device, ghost, cellEls } from "./ui.js";
import { dieEl } from "./pieces.js";
import { act } from "./net.js";
import { render } from "./render.js";

export function cellAt(x, y) {
  const el = document.elementFromPoint(x, y);
  const c = el && el.closest && el.closest(".cell");
  return c && board.contains(c) ? c.dataset.cell : null;
}
export const occupied = (n) => !!(ui.frame && ui.frame.cells[cellIndex(n)]);

// A hand over a site (a click, or space on the cursor): a piece there is
// lifted; the piece in hand is put down; with nothing in hand, a piece
// the game is missing there comes from the box (set-up, a knocked piece);
// anywhere else nothing happens and the page says why (a stray object is
// the Stray tool's, never a click's by accident).
export function handOn(c) {
  // The server decides on the board as it stands (actions.py, "hand"): the
  // page's frame may not yet show a piece just taken from the box.
  const sel = ui.selHand;
  return act({ op: "hand", cell: c, hand: sel }).then((r) => {
    ui.selHand = null;
    if (r && r.ok && r.results[0] === "empty")
      say(fillWords("Nothing in your hand, so nothing was put on " + c + ": take a {piece} from the box (below the board) or lift one first. A stray object: the Stray tool."));
    return r;
  });
}

// A line the page says for a few seconds in the status text (render.js).
export function say(text) {
  ui.say = text;
  ui.sayUntil = Date.now() + 5000;
  if (ui.frame) render(ui.frame);
  setTimeout(() => { if (Date.now() >= ui.sayUntil && ui.frame) render(ui.frame); }, 5100);
}

function setTool(t) {
  ui.tool = t;
  device.dataset.tool = t;
  for (const b of document.querySelectorAll("#tools button")) b.classList.toggle("on", b.dataset.tool === t);
}

function showGhost(d, x, y) {
  ghost.innerHTML = "";
  ghost.appendChild(dieEl(d));
  ghost.hidden = false;
  moveGhost(x, y);
}
function moveGhost(x, y) { ghost.style.left = x + "px"; ghost.style.top = y + "px"; }

function endDrag(e, cancelled) {
  if (!ui.drag || e.pointerId !== ui.drag.id) return;
  const d = ui.drag;
  ui.drag = null;
  ghost.hidden = true;
  for (const el of cellEls) el.classList.remove("hide-die");
  const c = cancelled ? null : cellAt(e.clientX, e.clientY);
  if (!d.moved) {
    if (cancelled || !c) return;
    handOn(c);
    return;
  }
  if (d.carry) {
    if (c && (c === d.start || !occupied(c))) act({ op: "place", cell: c });
    return;  // let go off the board: the die stays in the hand
  }
  if (d.on && d.on !== c) act({ op: "lift", cell: d.on });  // lifted clear of the board
}
export function initHands() {
  for (const b of document.querySelectorAll("#tools button")) b.addEventListener("click", () => setTool(b.dataset.tool));
  setTool("hand");

  board.addEventListener("contextmenu", (e) => {
    e.preventDefault();
    const c = cellAt(e.clientX, e.clientY);
    if (c && occupied(c)) act({ op: "knock", cell: c });
  });

  board.addEventListener("pointerdown", (e) => {
    if (e.button !== 0 || ui.drag) return;
    const c = cellAt(e.clientX, e.clientY);
    if (!c) return;
    e.preventDefault();
    if (ui.tool === "knock") { if (occupied(c)) act({ op: "knock", cell: c }); return; }
    if (ui.tool === "stray") { if (!occupied(c)) act({ op: "stray", cell: c }); return; }
    if (ui.tool === "bounce") {
      const el = cellEls[cellIndex(c)];
      el.classList.add("bouncing");
      setTimeout(() => el.classList.remove("bouncing"), 300);
      act({ op: "bounce", cell: c });
      return;
    }
    ui.drag = { id: e.pointerId, start: c, cur: c, on: null, x0: e.clientX, y0: e.clientY, moved: false,
      carry: e.shiftKey || ui.tool === "carry", die: ui.frame ? ui.frame.cells[cellIndex(c)] : null };
    try { board.setPointerCapture(e.pointerId); } catch (_) {}
  });

  board.addEventListener("pointermove", (e) => {
    if (!ui.drag || e.pointerId !== ui.drag.id) return;
    if (!ui.drag.moved) {
      if (!ui.drag.die || Math.hypot(e.clientX - ui.drag.x0, e.clientY - ui.drag.y0) < 6) return;
      ui.drag.moved = true;
      act({ op: "lift", cell: ui.drag.start });
      showGhost(ui.drag.die, e.clientX, e.clientY);
      cellEls[cellIndex(ui.drag.start)].classList.add("hide-die");
    }
    moveGhost(e.clientX, e.clientY);
    const c = cellAt(e.clientX, e.clientY);
    if (c === ui.drag.cur) return;
    ui.drag.cur = c;
    if (ui.drag.carry) return;
    // Sliding: the die rests on every cell it passes and leaves it again.
    if (ui.drag.on) { act({ op: "lift", cell: ui.drag.on }); cellEls[cellIndex(ui.drag.on)].classList.remove("hide-die"); ui.drag.on = null; }
    if (c && (c === ui.drag.start || !occupied(c))) {
      act({ op: "place", cell: c });
      ui.drag.on = c;
      cellEls[cellIndex(c)].classList.add("hide-die");
    }
  });

  board.addEventListener("pointerup", (e) => endDrag(e, false));
  board.addEventListener("pointercancel", (e) => endDrag(e, true));
}
