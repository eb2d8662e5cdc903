// The page's words: the legend of every light, the board's seats and a lesson
// in words, and the game's own words put into the page's texts ({piece}, ...).
import { LAYOUT, $, PIECE, PIECES, SITE, SIDE_NAME, LESSONS, fillWords } from "./layout.js";

/** The game's words into the page's texts and controls. */
export function applyWords() {
  for (const el of document.querySelectorAll("[data-words]")) {
    for (const a of ["title", "placeholder", "aria-label"]) if (el.hasAttribute(a)) el.setAttribute(a, fillWords(el.getAttribute(a)));
    if (el.dataset.words === "text") el.innerHTML = fillWords(el.innerHTML);
  }
  if (LAYOUT.start) $("load").placeholder = LAYOUT.start;
  $("hand-turn").hidden = !LAYOUT.labels.length;  // only pieces with a label turn
}

const ROLE_LEGEND = (LAYOUT.roles || []).map((rgb, k) => ["rgb(" + rgb.join(",") + ")", "",
  LAYOUT.labels.length ? "value " + LAYOUT.labels[k] + " (a lifted " + PIECE + "'s destination, shown in the value it will show)" : "a piece's own light"]);
const SIDES_CSS = LAYOUT.sides.map((s) => "rgb(" + s.rgb.join(",") + ")");
// Every light the board shows, with its look (steady, blinking, pulsing,
// breathing, circling, sweeping): [css colour, animation, words].
export const LEGEND = ROLE_LEGEND.concat([
  ["#a0a0a0", "", "lifted from: the site the " + PIECE + " came from (grey)"],
  ["#ff0000", "blink-fast", "wrong: a " + PIECE + " where it may not stand (fast red blink)"],
  ["#ffffff", "blink-slow", "missing: a " + PIECE + " belongs here (slow white blink)"],
]).concat(LAYOUT.marks_text ? [["#00ff28", "pulse", LAYOUT.marks_text]] : []).concat([
  ["#3a3a3a", "", "last move: faint white where it was lifted and put down"],
  // The board's own displays differ in motion as well as colour (steady,
  // breathing, circling, a gauge), for players who cannot tell hues apart.
  ["#00c8c8", "", "hint: the " + PIECE + " to move is steady cyan, its destination steady in its light (4 s; the words say the hint too)"],
  [SIDES_CSS[0], "breathe", "the board's move: its " + PIECE + " breathes in the board's side colour, the destination breathes in its light in turn; carry it out for the board"],
  ["rgb(80,100,255)", "spin", "thinking: a blue light circles the centre while the board chooses"],
  ["rgb(255,220,120)", "gauge", "level: a warm white gauge along the level row, as many sites bright as the level (2 s)"],
  [SIDES_CSS[0], "", "opponent set (hold hint; while it shows, a short press of hint steps on): the home row of the side the board plays, in its colour, for 2 s"],
  [SIDES_CSS[0], "sweep", "win: the winner's colour sweeps across the board"],
  [SIDES_CSS.join(","), "sweep-all", "draw: every side's colour sweeps in turn"],
  ["#c8c8c8", "", "status: whose turn (the side's turn LED)"],
  ["#00b428", "", "status: one green LED per point scored"],
  ["#ff0000", "blink-slow", "status: the turn LEDs blink red while a move is not saved"],
]).concat((LAYOUT.lessons || []).length ? [
  ["rgb(150,110,255)", "pulse", "lesson: the lesson's " + PIECES + " breathe lavender; a green sweep: the lesson is solved"],
] : []);
export function lessonText(l) {
  if (!l) return "";
  if (l.status === "done") return "All lessons solved. Well played! Pick one again, or leave the lessons to go back to your game.";
  const head = "Lesson " + l.n + " of " + LESSONS.length + ": " + l.goal;
  if (l.status === "solved") return head + " — Solved (" + l.move + ")! The next lesson follows in a moment.";
  if (l.status === "wrong") return head + " — Not this one (" + l.move + "). Put the " + PIECE + " back where the board shows it (blinking in its light), then try again.";
  if (l.status === "hint") return head + " — The right move is lit: lift the cyan " + PIECE + " and put it on the " + SITE + " lit in its light (" + l.move + ").";
  return head;
}

// (The line in words, a fault's included, is the server's: simulator/say.py.)
export function oppText(f) {
  if (f.power && f.remote_seats && !f.opponent) {
    // Seats played from afar (a relay's room): who, not "nobody".
    const far = f.remote_seats.split("").map((l) => SIDE_NAME[l] || l).join(" and ");
    return far + " " + (f.remote_seats.length > 1 ? "play" : "plays") + " from afar: their moves light up here to carry out.";
  }
  if (!f.power || !f.opponent) return f.power && f.level ? "The board plays nobody (hold hint to let it play a seat)." : "";
  // The seats the board plays: "w", or two of three ("gb").
  const seats = f.opponent.split("").map((l) => SIDE_NAME[l]).join(" and ");
  let t = "The board plays " + seats + " at level " + (f.level || "?") + ".";
  if (f.state === "play" && f.opponent.includes(f.side)) {
    t += f.engine_move ? " Its move: " + f.engine_move + " (" + f.engine_words + "). Carry it out for the board." : " It is thinking (a blue light circles the centre)…";
  }
  return t;
}

// ---- sound cues (off by default) -------------------------------------------------
// The board's own patterns (firmware board/sound.py, through /api/layout):
