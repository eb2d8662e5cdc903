// The review card (issue 46): the game the board holds looked back on. The
// analysis is the board's own (GET /api/review: its moves, marks and their
// words, one evaluation a turn); the board's review mode (`review on`,
// `review <ply>`, `review try`) shows each turn in light on the board, and
// the frame's `review` (the board's `evt review` lines) says where it is.
import { $, SIDE_NAME, LAYOUT } from "./layout.js";
import { act } from "./net.js";
import { ui } from "./ui.js";

const SVG = "http://www.w3.org/2000/svg";
let data = null;  // the analysis (GET /api/review) of the game under review
let loading = false;
let fromRecord = false;  // data is a record opened on the page, not the board's game
let recordPly = 0;  // the turn shown of an opened record

export function initReview() {
  $("review-on").addEventListener("click", () => act({ op: "serial", line: "review on" }));
  $("review-off").addEventListener("click", () => act({ op: "serial", line: "review off" }));
  $("review-try").addEventListener("click", () => act({ op: "serial", line: "review try" }, { op: "setup" }));
  $("review-dice").addEventListener("click", () => act({ op: "setup" }));
  $("review-open").addEventListener("change", async (e) => {
    const file = e.target.files[0];
    if (!file) return;
    const text = await file.text();
    e.target.value = "";
    const r = await (await fetch("/api/review", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ record: text }) })).json();
    if (!r.ok) { $("review-now").textContent = "Not opened: " + r.error; return; }
    data = r; fromRecord = true; $("review").open = true;
    draw();
    showRecordTurn(r.moves.length);
  });
}

function goTo(ply) {
  if (fromRecord) showRecordTurn(ply);
  else act({ op: "serial", line: "review " + ply });
}

// A turn of an opened record: its move, the position before it, its mark.
function showRecordTurn(ply) {
  recordPly = ply;
  const mv = data.moves[ply - 1];
  let text = "Record, turn " + ply + " of " + data.moves.length + ": " + mv.text + " (before it: " + mv.before + ").";
  if (mv.mark) text += " " + mv.mark.kind[0].toUpperCase() + mv.mark.kind.slice(1) + ": " + mv.mark.words + ".";
  $("review-now").textContent = text;
  $("review-now").dataset.last = "";
  markNow(ply);
}

function markNow(ply) {
  for (const el of document.querySelectorAll("#review-list li, #review-graph circle")) el.classList.toggle("now", el.dataset.ply === String(ply));
}

async function load() {
  loading = true;
  try {
    const r = await (await fetch("/api/review")).json();
    data = r.ok ? r : null;
    if (!r.ok) $("review-now").textContent = "No review: " + r.error;
  } finally {
    loading = false;
  }
  draw();
  if (ui.frame) renderReview(ui.frame);  // (the words of the turn shown, now that they are known)
}

// The graph: one point a turn (the evaluation after it, from the first
// side's view in a game of two; simulator/review.py's evals), marked turns
// red; a click goes to that turn.
function draw() {
  const g = $("review-graph"), list = $("review-list");
  g.replaceChildren(); list.replaceChildren();
  g.toggleAttribute("hidden", !data);  // (an SVG element has no hidden property)
  if (!data) return;
  const n = data.evals.length, W = 300, H = 80, cap = 2000;
  const x = (k) => n > 1 ? 6 + (W - 12) * k / (n - 1) : W / 2;
  const y = (v) => H / 2 - (H / 2 - 6) * v / cap;
  const axis = document.createElementNS(SVG, "line");
  axis.setAttribute("x1", 0); axis.setAttribute("x2", W); axis.setAttribute("y1", H / 2); axis.setAttribute("y2", H / 2);
  axis.setAttribute("stroke", "rgba(255,255,255,0.25)");
  g.appendChild(axis);
  const line = document.createElementNS(SVG, "polyline");
  line.setAttribute("points", data.evals.map((v, k) => x(k) + "," + y(v)).join(" "));
  line.setAttribute("fill", "none"); line.setAttribute("stroke", "#7aa7ff"); line.setAttribute("stroke-width", "1.5");
  g.appendChild(line);
  data.moves.forEach((mv, k) => {
    const c = document.createElementNS(SVG, "circle");
    c.setAttribute("cx", x(k)); c.setAttribute("cy", y(data.evals[k])); c.setAttribute("r", mv.mark ? 5 : 3.5);
    c.setAttribute("fill", "#7aa7ff");
    c.dataset.ply = String(mv.ply);
    if (mv.mark) c.classList.add("marked");
    const t = document.createElementNS(SVG, "title");
    t.textContent = mv.ply + ". " + mv.text + (mv.mark ? " — " + mv.mark.kind : "");
    c.appendChild(t);
    c.addEventListener("click", () => goTo(mv.ply));
    g.appendChild(c);
    const li = document.createElement("li");
    li.dataset.ply = String(mv.ply);
    li.textContent = (SIDE_NAME[LAYOUT.sides[mv.side].letter] || "") + " " + mv.text;
    if (mv.mark) {
      const s = document.createElement("span");
      s.className = "mark";
      s.textContent = " — " + mv.mark.kind + ": " + mv.mark.words;
      li.appendChild(s);
    }
    li.addEventListener("click", () => goTo(mv.ply));
    list.appendChild(li);
  });
}

// What the card says and shows for the board's review state (frame.review).
export function renderReview(f) {
  const r = f.review;
  $("review-on").hidden = !!r || !(f.moves && f.moves.length);
  $("review-off").hidden = !r;
  $("review-save").hidden = !(f.moves && f.moves.length);
  if (r && fromRecord) { fromRecord = false; data = null; }  // the board's review replaces an opened record
  if (!r) {
    if (fromRecord) { $("review-try").hidden = true; $("review-dice").hidden = true; return; }
    if (data) { data = null; draw(); }
    $("review-try").hidden = true; $("review-dice").hidden = true;
    return;
  }
  if (!data && !loading) { load(); $("review").open = true; }
  const mv = data && data.moves[r.ply - 1];
  let text = "Turn " + r.ply + " of " + r.n + (r.move ? ": " + r.move : "") + (mv ? " (before it: " + mv.before + ")" : "") + ".";
  if (mv && mv.mark) text += " " + mv.mark.kind[0].toUpperCase() + mv.mark.kind.slice(1) + ": " + mv.mark.words + ". The better move " + mv.mark.best + " is lit (cyan).";
  else if (r.mark) text += " " + r.mark.kind + ": better " + r.mark.best + ".";
  else if (r.done === null) text += " The board is still looking at the game…";
  if (r.trying) text += " Try again: set the " + (LAYOUT.piece ? LAYOUT.piece[1] : "pieces") + " as the board shows and find a better move.";
  const last = r.last;
  if (last && last.word === "good") text += " " + last.move + " is as good as the better move. Well played!";
  else if (last && last.word === "wrong") text += " " + last.move + " is not better: put it back and try again.";
  else if (last && last.word === "better") text += " The better move is " + last.move + ": it is lit.";
  const now = $("review-now");
  if (now.textContent !== text) now.textContent = text;
  now.dataset.last = last ? last.word : "";
  $("review-try").hidden = !(r.mark || (mv && mv.mark)) || r.trying;
  $("review-dice").hidden = !(r.trying && f.state === "setup");
  markNow(r.ply);
}
