// The cell size follows the window's width and height.
import { $, GRID, XS, UNITS_W, UNITS_H, SMALLEST } from "./layout.js";

// The smallest site's size in cells (Cornelson's posts: 0.42 of a unit,
// a unit a half cell): a site a finger cannot hit at a phone's width gets a
// zoom (the board twice or more as large, panned in its frame).
const TAP_PX = 30;  // a fingertip's target (WCAG's 24 px and some)
let zoomed = false;

function fit() {
  const w = document.documentElement.clientWidth, h = window.innerHeight;
  const small = w < 700;
  document.body.classList.toggle("small", small);
  const gaps = GRID ? (XS.length - 1) * 6 : 0;
  const chrome = (small ? 16 : 40) + (small ? 20 : 36) + 54 + 16 + 4;  // page, device, status + ranks, board padding
  const byW = (w - chrome - gaps) / UNITS_W;
  const byH = small ? (h * 0.6) / (UNITS_H + 1) : Math.max(52, 0.105 * h);
  const fitted = Math.floor(Math.max(24, Math.min(88, byW, byH)));
  const tiny = !GRID && fitted * SMALLEST < TAP_PX;
  $("zoom").hidden = !tiny && !zoomed;
  const cell = zoomed ? Math.max(fitted, Math.ceil(TAP_PX / SMALLEST)) : fitted;
  document.body.classList.toggle("zoomed", zoomed);
  // Zoomed, the board pans inside its frame (the page keeps the window's width).
  document.documentElement.style.setProperty("--frame-w", Math.max(200, w - chrome + 40) + "px");
  document.documentElement.style.setProperty("--cell", cell + "px");
  fitStatus();
}
fit();

// The status lights' column no taller than the board beside it: a game
// with many (Cornelson's mode and Game Tally lights) made the column, and
// so the device, taller than the board, and at 1280 x 800 its buttons fell
// below the window's edge (issue 35, defect 10). The lights shrink (to 6 px
// at least) until the column fits.
function fitStatus() {
  const st = $("status"), bd = $("board");
  if (!st || !bd) return;
  st.style.removeProperty("--sled");
  st.style.removeProperty("--sled-gap");
  const groups = [...st.querySelectorAll(".grp")];
  const n = st.querySelectorAll(".sled").length;
  if (!n) return;
  const room = bd.getBoundingClientRect().height - 16 - 8 * (groups.length - 1);  // (padding, space between groups)
  const need = groups.reduce((a, g) => a + g.getBoundingClientRect().height, 0);
  if (need <= room) return;
  const pitch = Math.max(8, Math.floor(room / n));  // a light and its gap
  st.style.setProperty("--sled", Math.max(6, Math.round(pitch * 2 / 3)) + "px");
  st.style.setProperty("--sled-gap", Math.max(2, pitch - Math.max(6, Math.round(pitch * 2 / 3))) + "px");
}

export function initFit() {
  fit();
  window.addEventListener("resize", fit);
  $("zoom").addEventListener("click", () => {
    zoomed = !zoomed;
    $("zoom").setAttribute("aria-pressed", String(zoomed));
    $("zoom").textContent = zoomed ? "zoom: fit" : "zoom in";
    fit();
  });
  if (document.documentElement.clientWidth < 700) {
    $("dev").open = false;
    $("legend-box").open = false;
    // A phone: the legend goes below the game's card, so that the turn's
    // words are in the first screen under the board (issue 47).
    const side = document.querySelector(".sidecol");
    side.insertBefore($("legend-box"), side.children[1] || null);
  }
}
