// The board's sound cues on the page (off by default).
import { LAYOUT, $ } from "./layout.js";
import { act } from "./net.js";

let sound = false, audio = null, quietUntil = 0;
/** No cue for ms (a reconnect replays the log). */
export function quietFor(ms) { quietUntil = performance.now() + ms; }
const CUES = {};
for (const [name, flat] of Object.entries(LAYOUT.cues || {})) {
  CUES[name] = [];
  for (let k = 0; k + 1 < flat.length; k += 2) CUES[name].push([flat[k], flat[k + 1] / 1000]);
}
export const cues = [];  // the cues sounded (tests read them)
function cue(name) {
  if (!sound || performance.now() < quietUntil) return;
  cues.push(name);
  try {
    audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    let t = audio.currentTime;
    for (const [hz, len] of CUES[name] || []) {
      if (!hz) { t += len; continue; }  // a rest
      const o = audio.createOscillator(), g = audio.createGain();
      o.type = name === "error" ? "square" : "sine";
      o.frequency.value = hz;
      g.gain.setValueAtTime(0.0001, t);
      g.gain.exponentialRampToValueAtTime(0.15, t + 0.01);
      g.gain.exponentialRampToValueAtTime(0.0001, t + len);
      o.connect(g).connect(audio.destination);
      o.start(t); o.stop(t + len + 0.02);
      t += len;
    }
  } catch (_) { /* no audio device: the cue is still counted */ }
}
export function initSound() {
  $("sound").addEventListener("click", () => {
    sound = !sound;
    $("sound").setAttribute("aria-pressed", String(sound));
    $("sound").textContent = "sound: " + (sound ? "on" : "off");
    if (sound && audio && audio.state === "suspended") audio.resume();
    // The board's own setting follows: its piezo (where it has one) sounds
    // the same cues, and the setting is saved as on the real board.
    act({ op: "serial", line: "set sound " + (sound ? "on" : "off") });
  });
}
export function cueFor(t) {
  const k = t.split(" ")[1];
  if (k === "move") cue("move");
  else if (k === "fault") cue("error");
  else if (k === LAYOUT.finish_event) cue("triad");
  else if (k === "over") cue("end");
}
