// The developer panel: set-up, power, speed, noise, the position, the
// serial line, the hand's buttons.
import { $, SPEEDS } from "./layout.js";
import { ui } from "./ui.js";
import { act, toast } from "./net.js";

export function initPanel() {
  $("setup-dice").addEventListener("click", () => act({ op: "setup" }));
  $("power-cut").addEventListener("click", () => act({ op: "powercut" }));
  $("power-on").addEventListener("click", () => act({ op: "poweron" }));
  $("speed").addEventListener("input", (e) => act({ op: "speed", x: SPEEDS[Number(e.target.value)] }));
  $("noise").addEventListener("input", (e) => act({ op: "noise", p: Number(e.target.value) / 1000 }));
  $("pos-copy").addEventListener("click", () => {
    const p = $("pos");
    p.select();
    if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(p.value);
    else document.execCommand("copy");
    toast("position copied");
    setTimeout(() => { $("toast").hidden = true; }, 900);
  });
  const loadPos = () => { const t = $("load").value.trim(); if (t) act({ op: "position", text: t }); };
  $("load-btn").addEventListener("click", loadPos);
  $("load").addEventListener("keydown", (e) => { if (e.key === "Enter") loadPos(); });
  // The box empties as its line goes, as a terminal's does: emptied only once
  // the answer came, it wiped the next line typed meanwhile, and that line
  // was never sent. A line the board never got comes back to the box.
  const sendSerial = () => {
    const t = $("serial").value.trim();
    if (!t) return;
    $("serial").value = "";
    act({ op: "serial", line: t }).then((res) => { if (!res.ok && !$("serial").value) $("serial").value = t; });
  };
  $("serial-btn").addEventListener("click", sendSerial);
  $("serial").addEventListener("keydown", (e) => { if (e.key === "Enter") sendSerial(); });
  $("hand-turn").addEventListener("click", () => { if (ui.frame && ui.frame.hand.length) act({ op: "turn", hand: ui.selHand !== null ? ui.selHand : ui.frame.hand.length - 1 }); });
  $("hand-drop").addEventListener("click", () => { if (ui.frame && ui.frame.hand.length) act({ op: "drop", hand: ui.selHand !== null ? ui.selHand : ui.frame.hand.length - 1 }).then(() => { ui.selHand = null; }); });
}
