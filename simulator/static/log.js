// The event log: the serial lines and the player's actions, as they come.
import { $ } from "./layout.js";
import { cueFor } from "./sound.js";

const logEl = $("log");
export function addLog(lines) {
  const atEnd = logEl.scrollTop + logEl.clientHeight >= logEl.scrollHeight - 4;
  for (const t of lines) {
    const s = document.createElement("div");
    s.textContent = t;
    if (t.startsWith("evt ")) cueFor(t);
    s.className = t.startsWith("evt") ? "evt" : t.startsWith(">") ? "cmd" : t.startsWith("·") ? "act" : t.startsWith("err") || t.startsWith("evt error") ? "err" : t.startsWith("#") ? "sys" : "";
    logEl.appendChild(s);
  }
  while (logEl.childNodes.length > 600) logEl.removeChild(logEl.firstChild);
  if (atEnd) logEl.scrollTop = logEl.scrollHeight;
}

