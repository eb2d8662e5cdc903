// A piece as the page draws it: a die with its pips (a game whose pieces
// carry a value) or a plain piece in its side's colour.
import { DICE, PIPS, SIDE_RGB } from "./layout.js";

export function dieEl(d) {
  const el = document.createElement("div");
  if (!d) return el;
  if (!DICE && d.colour) {
    // A plain piece in its side's colour.
    el.className = "die piece side-" + d.colour;
    el.style.setProperty("--pc", "rgb(" + SIDE_RGB[d.colour].join(",") + ")");
    return el;
  }
  el.className = "die " + (d.colour || "x");
  if (d.colour) (PIPS[d.value] || []).forEach((p) => { const s = document.createElement("span"); s.className = "pip p" + p; el.appendChild(s); });
  return el;
}
export const dieKey = (d) => (d ? (d.colour || "x") + (d.colour ? d.value : "") : "");
