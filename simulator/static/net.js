// The player's actions, to the server in order (POST /api/act): those asked
// for while one is under way go together in the next request.
import { $ } from "./layout.js";

let queue = [], inflight = false;
export function act(...actions) {
  return new Promise((resolve) => { queue.push({ actions, resolve }); pump(); });
}
async function pump() {
  if (inflight || !queue.length) return;
  inflight = true;
  const batch = queue; queue = [];
  const actions = [].concat(...batch.map((b) => b.actions));
  let res;
  try {
    const r = await fetch("/api/act", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ actions }) });
    res = await r.json();
  } catch (e) {
    // No answer at all: the simulator's server is gone (the live channel
    // says "reconnecting…" and the page picks up again once it is back).
    res = { ok: false, error: "The simulator is not running: start it again (make sim); this page reconnects by itself.", results: [] };
    $("conn").dataset.state = "lost"; $("conn").textContent = "reconnecting…";
  }
  if (!res.ok) toast(res.error);
  let k = 0;
  for (const b of batch) { b.resolve({ ok: res.ok, results: res.results.slice(k, k + b.actions.length), error: res.error }); k += b.actions.length; }
  inflight = false;
  pump();
}
let toastTimer = null;
export function toast(text) {
  const t = $("toast");
  t.textContent = text; t.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { t.hidden = true; }, 2600);
}

