// "Play someone not here" (issue 43): the board as a seat of a relay's
// room. Make a room on a relay (this board plays its first seat; the
// others' invitations are shown to pass on) or paste a seat's invitation;
// then the room, this board's seat and who is connected. The seat is played
// by a host tool (host_tools/relay/sim_seat.py): the simulator restarts as
// that seat's, on the same address, and the page reloads into it.
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

async function restarted() {
  // The simulator restarts as the seat's (on the room's game's board); the
  // page reloads once the new process answers with its room (the old one,
  // which plays none, may answer until it stops, 0.3 s or more after the reply).
  restarted.busy = true;
  $("relay-now").textContent = "Joining the room: the simulator restarts as that seat's board…";
  for (let k = 0; k < 120; k++) {
    await new Promise((res) => setTimeout(res, 500));
    try { const f = await (await fetch("/api/state")).json(); if (f.relay) { location.reload(); return; } } catch (e) { /* not yet */ }
  }
}

function shown(r) {
  if (!r || !r.results) return;
  const made = r.results[0];
  if (made && made.restart) restarted();
}

function invitations(inv) {
  // A room made here: the other seats' links and the watch link, to pass on.
  const box = $("relay-links");
  const key = JSON.stringify(inv || null);
  if (box.dataset.key === key) return;
  box.dataset.key = key; box.innerHTML = "";
  if (!inv) return;
  for (const [side, url] of Object.entries(inv.seats)) {
    const row = linkRow((SIDE_NAME[side] || side) + "'s link", url);
    row.querySelector("input").dataset.side = side;
    row.querySelector("input").className = "relay-seat-link";
    box.appendChild(row);
  }
  box.appendChild(linkRow("watch link", inv.watch));
}

export function initRelayPanel() {
  // (the header's button: the card is at the end of the side column)
  $("relay-open").addEventListener("click", () => { $("relay-card").open = true; $("relay-card").scrollIntoView({ block: "start" }); });
  $("relay-make").addEventListener("click", () => act({ op: "relay", make: $("relay-url").value.trim() }).then(shown));
  $("relay-join").addEventListener("click", () => act({ op: "relay", invitation: $("relay-invite").value.trim() }).then(shown));
  $("relay-rematch").addEventListener("click", () => act({ op: "relay", rematch: true }));
}

export function renderRelay(f) {
  const r = f.relay;
  $("relay-forms").hidden = !!(r && r.room);
  invitations(r && r.invite);
  if (!r) { if (!restarted.busy) $("relay-now").textContent = ""; return; }
  if (!renderRelay.opened) { renderRelay.opened = true; $("relay-card").open = true; }
  if (r.error) { $("relay-now").textContent = r.error; return; }
  $("relay-rematch").hidden = !r.over;
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
