// "Play someone not here" (issue 43): the board as a seat of a relay's
// room. Make a room on a relay (this board plays its first seat; the
// others' invitations are shown to pass on) or paste a seat's invitation;
// then the room, this board's seat and who is connected (simulator/relay_seat.py).
import { $, SIDE_NAME } from "./layout.js";
import { act } from "./net.js";

function linkRow(label, url) {
  const row = document.createElement("div");
  row.className = "row";
  const l = document.createElement("span"); l.className = "label"; l.textContent = label;
  const inp = document.createElement("input"); inp.readOnly = true; inp.value = url; inp.spellcheck = false;
  const b = document.createElement("button"); b.className = "small"; b.textContent = "copy";
  b.addEventListener("click", async () => {
    try { await navigator.clipboard.writeText(url); } catch (e) { inp.select(); document.execCommand("copy"); }
    b.textContent = "copied"; setTimeout(() => { b.textContent = "copy"; }, 1500);
  });
  row.append(l, inp, b);
  return row;
}

async function restarted(game) {
  // The room plays another game: the simulator restarts as its board (as
  // the game menu does); the page reloads once it serves that board.
  $("relay-now").textContent = "The room plays another game: the simulator restarts as its board…";
  for (let k = 0; k < 120; k++) {
    await new Promise((res) => setTimeout(res, 500));
    try { const l = await (await fetch("/api/layout")).json(); if (l.game === game) { location.reload(); return; } } catch (e) { /* not yet */ }
  }
}

function shown(r) {
  if (!r || !r.results) return;
  const made = r.results[0];
  if (made && made.restart) return restarted(made.restart);
  if (!made || !made.invite) return;
  const box = $("relay-links"); box.innerHTML = "";
  for (const [side, url] of Object.entries(made.invite)) {
    const row = linkRow((SIDE_NAME[side] || side) + "'s link", url);
    row.querySelector("input").dataset.side = side;
    row.querySelector("input").className = "relay-seat-link";
    box.appendChild(row);
  }
  box.appendChild(linkRow("watch link", made.watch));
}

export function initRelayPanel() {
  // (the header's button: the card is at the end of the side column)
  $("relay-open").addEventListener("click", () => { $("relay-card").open = true; $("relay-card").scrollIntoView({ block: "start" }); });
  $("relay-make").addEventListener("click", () => act({ op: "relay", make: $("relay-url").value.trim() }).then(shown));
  $("relay-join").addEventListener("click", () => act({ op: "relay", invitation: $("relay-invite").value.trim() }).then(shown));
}

export function renderRelay(f) {
  const r = f.relay;
  $("relay-forms").hidden = !!r;
  if (!r) { $("relay-now").textContent = ""; return; }
  if (!renderRelay.opened) { renderRelay.opened = true; $("relay-card").open = true; }
  const seat = r.seat ? SIDE_NAME[r.seat] || r.seat : "…";
  const last = (r.lines || []).slice(-1)[0] || "";
  const text = "Room " + r.room + " at " + r.server + ": this board plays " + seat + "." + (last ? " " + last : "");
  if ($("relay-now").textContent !== text) $("relay-now").textContent = text;
  const ul = $("relay-seats");
  const key = JSON.stringify([r.seats, r.watchers, r.seat]);
  if (ul.dataset.key !== key) {
    ul.dataset.key = key; ul.innerHTML = "";
    for (const s of r.seats || []) {
      const li = document.createElement("li");
      li.dataset.side = s.side; li.dataset.connected = String(s.connected);
      li.textContent = s.name + (s.side === r.seat ? " (this board)" : "") + ": " + (s.connected ? "connected" : "not connected");
      ul.appendChild(li);
    }
    if (r.seats) { const li = document.createElement("li"); li.textContent = (r.watchers || 0) + " watching"; ul.appendChild(li); }
  }
}
