// The simulator's page: draws the frames the server pushes (Server-Sent
// Events on /events) and turns mouse/touch into the physical actions a hand
// does on the real board (POST /api/act, in order).
//
// The page's modules (ES modules, each with one job): layout.js (the board
// the firmware runs, from /api/layout), ui.js (what they share that
// changes), words.js, pieces.js, build.js (the page built from the layout),
// net.js (actions, in order), render.js (a frame drawn), sound.js, log.js,
// hands.js (pointer), keys.js (keyboard), panel.js (developer panel),
// fit.js (the cell size), relay_panel.js (play someone not here).
import { $ } from "./layout.js";
import { ui } from "./ui.js";
import { applyWords } from "./words.js";
import { buildPage } from "./build.js";
import { act } from "./net.js";
import { render } from "./render.js";
import { cues, quietFor, initSound } from "./sound.js";
import { addLog } from "./log.js";
import { initHands } from "./hands.js";
import { initPanel } from "./panel.js";
import { initKeys } from "./keys.js";
import { initFit } from "./fit.js";
import { initRelayPanel, renderRelay } from "./relay_panel.js";
import { initReview } from "./review.js";

applyWords();
buildPage();
initSound();

// ---- live channel --------------------------------------------------------------
function connect() {
  const es = new EventSource("/events");
  es.addEventListener("open", () => { quietFor(800); $("conn").dataset.state = "live"; $("conn").textContent = "live"; });
  es.addEventListener("frame", (e) => { const f = JSON.parse(e.data); render(f); renderRelay(f); });
  es.addEventListener("log", (e) => addLog(JSON.parse(e.data)));
  es.addEventListener("error", () => { $("conn").dataset.state = "lost"; $("conn").textContent = "reconnecting…"; });
}
connect();
initHands();
initPanel();
initKeys();
initFit();
initRelayPanel();
initReview();

window.triadSim = { act, cues, get frame() { return ui.frame; } };
