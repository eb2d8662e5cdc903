// The cell size follows the window's width and height.
import { $, GRID, XS, YS, FREE_UNIT, minX, minY, maxX, maxY } from "./layout.js";

const UNITS_W = GRID ? XS.length : FREE_UNIT * (maxX - minX + 1.2);
const UNITS_H = GRID ? YS.length : FREE_UNIT * (maxY - minY + 1.3);
function fit() {
  const w = document.documentElement.clientWidth, h = window.innerHeight;
  const small = w < 700;
  document.body.classList.toggle("small", small);
  const gaps = GRID ? (XS.length - 1) * 6 : 0;
  const chrome = (small ? 16 : 40) + (small ? 20 : 36) + 54 + 16 + 4;  // page, device, status + ranks, board padding
  const byW = (w - chrome - gaps) / UNITS_W;
  const byH = small ? (h * 0.6) / (UNITS_H + 1) : Math.max(52, 0.105 * h);
  const cell = Math.floor(Math.max(24, Math.min(88, byW, byH)));
  document.documentElement.style.setProperty("--cell", cell + "px");
}
fit();

export function initFit() {
  fit();
  window.addEventListener("resize", fit);
  if (document.documentElement.clientWidth < 700) { $("dev").open = false; $("legend-box").open = false; }
}
