// The relay's page (issue 43): a seat's page plays the room's game on the
// board drawn by the simulator's own drawing (board_draw.js); the watch
// page draws the same board and cannot move; with no room, the page makes
// one and hands out its invitations.
//
// It speaks the relay's protocol at /play (docs/relay.md): join or watch,
// the "board" request (whose turn, and the legal moves for the seat to
// move, from the rules the relay judges with), move. What it draws of the
// room (the pieces on each spot, the last move's spots and words, the
// seats who are connected) comes from GET /api/room (host_tools/relay/view.py).
// No game is named here: a turn is the spots its notation names, in order,
// read from the legal moves' own text with the board's spot names.
import { drawBoard, geometry, setPiece, setLight } from "./board_draw.js";

const $ = (id) => document.getElementById(id);
const query = new URLSearchParams(location.search);
const ROOM = query.get("room");
// A seat's link is /?room=R#token=T: the token is read once and taken off
// the address bar (kept for this tab only, so a reload keeps the seat).
const fromHash = new URLSearchParams(location.hash.slice(1)).get("token");
const fromQuery = query.get("token");  // (older links)
const KEEP = "triad-relay-token-" + ROOM;
let TOKEN = fromHash || fromQuery || (ROOM && sessionStorage.getItem(KEEP)) || null;
if (fromHash || fromQuery) {
  query.delete("token");
  history.replaceState(null, "", location.pathname + "?" + query.toString());
}
if (ROOM && TOKEN) sessionStorage.setItem(KEEP, TOKEN);

const wsUrl = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/play";
let ws = null;
let state = null;      // the relay's "state" reply (seat, names, game, mode)
let layout = null, geo = null, els = [], index = {};
let view = null;       // GET /api/room
let told = null;       // the last "board" reply (to_move, ply, legal)
let turns = [];        // [move text, [spots in notation order]] of the legal moves
let clicked = [];      // the spots of the turn clicked so far
let sent = null;       // the move sent, until the room has it
let cursor = -1;
let games = {};
let viewSeq = 0, viewShown = 0;

const sideName = (s) => (state && state.names && state.names[s]) || s;
const mine = () => !!(state && state.seat && told && told.to_move === state.seat && told.legal && !sent);

function send(msg) { if (ws && ws.readyState === 1) ws.send(JSON.stringify(msg)); }

function setConn(s, text) { $("conn").dataset.state = s; $("conn").textContent = text; }

function connect(first) {
  ws = new WebSocket(wsUrl);
  ws.onopen = () => { setConn("live", "live"); send(first); };
  ws.onmessage = (e) => receive(JSON.parse(e.data));
  ws.onclose = () => {
    setConn("lost", "connection lost: joining again…");
    // The relay keeps the room: joining again gives its whole state.
    if (ROOM) setTimeout(() => connect(first), 1000);
  };
}

async function receive(msg) {
  if (msg.op === "error") {
    $("error").textContent = msg.reason;
    if (sent) { sent = null; clicked = []; refresh(); }
    return;
  }
  if (msg.op === "created") return invite(msg);
  if (msg.op === "rematch") return rematch(msg);
  if (msg.op === "review") {
    // The relay's review of the finished game: python -m host_tools review's lines.
    $("review").textContent = msg.lines.join("\n");
    $("review").hidden = false;
    return;
  }
  if (msg.op === "games") return offer(msg.games);
  // (a refusal stays said until the room moves on)
  if (msg.op !== "board") $("error").textContent = "";
  if (msg.op === "state") {
    state = msg;
    sent = null; clicked = [];  // (joined again: the room's state is the truth)
    if (!layout) await loadLayout(msg.game);
    $("make").hidden = true; $("room").hidden = false;
    $("title").textContent = msg.title + " · room " + msg.room + (msg.mode ? " · " + msg.mode : "") +
      (msg.seat ? " · you play " + sideName(msg.seat) : " · watching");
    links();
    refresh();
  } else if (msg.op === "move" || msg.op === "over") {
    if (msg.op === "move" && sent) { sent = null; clicked = []; }
    refresh();
  } else if (msg.op === "board") {
    told = msg;
    turns = layout ? (msg.legal || []).map((t) => [t, spotsOf(t)]) : [];
    draw();
  }
}

// What the page draws: the relay's answer for whose turn and the legal
// moves, then the room's pieces, last move and seats.
function refresh() {
  send({ op: "board" });
  fetchView();
}
async function fetchView() {
  const seq = ++viewSeq;
  try {
    const r = await fetch("/api/room?room=" + encodeURIComponent(ROOM));
    if (!r.ok) return;
    const v = await r.json();
    if (seq < viewShown) return;  // (an older answer arriving late)
    viewShown = seq; view = v;
    draw();
  } catch (e) { /* the relay is away: the socket's reconnect says so */ }
}

async function loadLayout(game) {
  layout = await (await fetch("/api/layout?game=" + encodeURIComponent(game))).json();
  geo = geometry(layout);
  els = drawBoard($("board"), layout);
  layout.sites.forEach((s, i) => { index[s.name] = i; els[i].id = "spot-" + i; els[i].setAttribute("role", "gridcell"); });
  fit();
  if (told) turns = (told.legal || []).map((t) => [t, spotsOf(t)]);
}

// A move's spots in the order its text names them: the longest spot name
// at each place (so "c10" is not "c1" and a "0").
function spotsOf(text) {
  const names = layout.sites.map((s) => s.name).sort((a, b) => b.length - a.length);
  const out = [];
  for (let k = 0; k < text.length;) {
    const hit = names.find((n) => text.startsWith(n, k));
    if (hit) { out.push(hit); k += hit.length; } else k += 1;
  }
  return out;
}

const candidates = () => turns.filter(([t, sp]) => clicked.every((c, k) => sp[k] === c));

// ---- clicks: a turn is its spots, clicked in notation order -----------------------

function onSpot(name) {
  if (!state || !view) return;
  if (view.result || (told && told.to_move === null)) return say("The game is over.");
  if (!state.seat) return say("You are watching: a watcher cannot move.");
  if (!mine()) return say(sent ? "Your move is on its way." : "Not your turn: " + sideName(told && told.to_move) + " to move.");
  const on = candidates().filter(([t, sp]) => sp[clicked.length] === name);
  if (on.length) clicked.push(name);
  else if (clicked.length && clicked[clicked.length - 1] === name) clicked.pop();  // the last click taken back
  else if (turns.some(([t, sp]) => sp[0] === name)) clicked = [name];  // another piece: a new start
  else { say(clicked.length ? "No move of yours goes there: click a lit spot, or cancel." : "No move of yours starts on " + name + "."); return; }
  afterClick();
}

function afterClick() {
  const c = candidates();
  const done = c.filter(([t, sp]) => sp.length === clicked.length);
  const longer = c.filter(([t, sp]) => sp.length > clicked.length);
  if (clicked.length && done.length === 1 && !longer.length) return play(done[0][0]);
  draw();
}

function play(text) {
  if (!ws || ws.readyState !== 1) { clicked = []; say("Not connected to the relay: your move was not sent. It joins again by itself; then make it again."); return; }
  sent = text; clicked = [];
  send({ op: "move", move: text, ply: told.ply + 1 });
  draw();
}

function cancel() { clicked = []; draw(); }

let sayTimer = null;
function say(text) {
  $("step").textContent = text;
  $("step").classList.add("said");
  clearTimeout(sayTimer);
  sayTimer = setTimeout(() => { $("step").classList.remove("said"); draw(); }, 4000);
}

// ---- drawing ----------------------------------------------------------------------

const LIGHT = { last: [255, 190, 60], sel: [255, 255, 255], dest: [60, 220, 120], start: [70, 140, 255] };

function draw() {
  if (!layout || !view) return;
  view.pieces.forEach((d, i) => setPiece(els[i], layout, d));
  const last = new Set(view.last ? view.last.spots : []);
  const c = mine() ? candidates() : [];
  const dest = new Set(clicked.length ? c.map(([t, sp]) => sp[clicked.length]).filter(Boolean) : []);
  const start = new Set(!clicked.length ? c.map(([t, sp]) => sp[0]) : []);
  const sel = new Set(clicked);
  layout.sites.forEach((s, i) => {
    const n = s.name;
    // (a spot both clicked and next, as a Triad's moved die to remove: next)
    const look = dest.has(n) ? "dest" : sel.has(n) ? "sel" : start.has(n) ? "start" : last.has(n) ? "last" : "off";
    const rgb = LIGHT[look] || [0, 0, 0];
    const glow = look === "start" ? rgb.map((v) => Math.round(v * 0.35)) : rgb;
    setLight(els[i].querySelector(".led"), rgb, glow, look);
    els[i].dataset.light = look;
  });
  texts(c);
}

function texts(c) {
  const over = view.result;
  const me = state.seat;
  let status;
  if (over) status = "Game over: " + view.result_words.head + (view.result_words.reason ? " (" + view.result_words.reason + ")" : "");
  else if (told && me && told.to_move === me) status = "Your move, " + sideName(me);
  else status = sideName(view.to_move) + " to move" + (me ? " (you play " + sideName(me) + ")" : "");
  if ($("status").textContent !== status) $("status").textContent = status;
  const lastText = view.last ? sideName(view.last.seat) + "'s move" + (me && view.last.seat !== me ? ", from afar" : "") + ": " + view.last.words : "No move yet.";
  if ($("last").textContent !== lastText) $("last").textContent = lastText;
  $("result").hidden = !over;
  if (over) $("result").textContent = view.result_words.head + (view.result_words.reason ? ": " + view.result_words.reason : "");
  // What to do now, while a turn is being clicked.
  if (!$("step").classList.contains("said")) {
    let step = "";
    if (sent) step = "Sent: " + sent + ". Waiting for the relay…";
    else if (mine() && !clicked.length) step = "Click the first spot of your move (lit blue); its next spots light up green.";
    else if (mine()) step = "So far: " + clicked.join(" ") + ". Click a lit spot" + (c.some(([t, sp]) => sp.length === clicked.length) ? ", or choose below" : "") + "; cancel to start again.";
    $("step").textContent = step;
  }
  const done = mine() && clicked.length ? c.filter(([t, sp]) => sp.length === clicked.length) : [];
  const ch = $("choice");
  const key = done.map(([t]) => t).join("|");
  if (ch.dataset.key !== key) {
    ch.dataset.key = key; ch.innerHTML = "";
    for (const [t] of done) {
      const b = document.createElement("button");
      b.textContent = t; b.dataset.move = t;
      b.addEventListener("click", () => play(t));
      ch.appendChild(b);
    }
  }
  ch.hidden = !done.length;
  $("cancel").hidden = !(mine() && clicked.length);
  $("rematch").hidden = !(over && me);
  $("review-game").hidden = !over;
  $("play").hidden = !mine();
  const list = $("legal");
  const lk = turns.map(([t]) => t).join("|");
  if (list.dataset.key !== lk) {
    list.dataset.key = lk; list.innerHTML = "";
    for (const [t] of turns) { const o = document.createElement("option"); o.value = t; list.appendChild(o); }
    $("count").textContent = turns.length ? turns.length + " legal moves" : "";
  }
  // The moves, the seats and who is connected, the watchers.
  const ol = $("moves");
  if (ol.dataset.key !== String(view.ply)) {
    ol.dataset.key = String(view.ply); ol.innerHTML = "";
    view.moves.forEach((m, k) => { const li = document.createElement("li"); li.textContent = m; li.dataset.side = view.movers[k]; li.title = sideName(view.movers[k]); ol.appendChild(li); });
  }
  const ul = $("seats");
  const sk = JSON.stringify(view.seats) + view.to_move;
  if (ul.dataset.key !== sk) {
    ul.dataset.key = sk; ul.innerHTML = "";
    for (const s of view.seats) {
      const li = document.createElement("li");
      li.dataset.side = s.side; li.dataset.connected = String(s.connected);
      li.textContent = s.name + (s.side === me ? " (you)" : "") + ": " + (s.connected ? "connected" : "not connected") + (s.side === view.to_move ? " · to move" : "");
      ul.appendChild(li);
    }
  }
  $("watchers").textContent = view.watchers === 1 ? "1 watching" : view.watchers + " watching";
}

// ---- rematch: a new room, the same people, the sides rotated ------------------------

function rematch(msg) {
  // The new room's seat is this person's (its token came to this
  // connection alone); the asker also holds the others' tokens, kept for
  // this tab to show as invitations there.
  if (msg.seats) sessionStorage.setItem("triad-relay-invite-" + msg.room, JSON.stringify(msg.seats));
  if (msg.token) {
    sessionStorage.setItem("triad-relay-token-" + msg.room, msg.token);
    location.href = base() + "?room=" + encodeURIComponent(msg.room);
  } else {
    location.href = watchUrl(msg.room);
  }
}

// ---- invitations: links with a copy button ----------------------------------------

function linkRow(label, url, cls) {
  const row = document.createElement("div");
  row.className = "linkrow";
  const l = document.createElement("span"); l.textContent = label;
  const inp = document.createElement("input"); inp.readOnly = true; inp.value = url; inp.className = cls || "";
  inp.setAttribute("aria-label", label);
  const b = document.createElement("button"); b.type = "button"; b.textContent = "copy";
  b.addEventListener("click", async () => {
    try { await navigator.clipboard.writeText(url); } catch (e) { inp.select(); document.execCommand("copy"); }
    b.textContent = "copied";
    setTimeout(() => { b.textContent = "copy"; }, 1500);
  });
  row.append(l, inp, b);
  return row;
}
const base = () => location.origin + location.pathname;
const seatUrl = (room, token) => base() + "?room=" + encodeURIComponent(room) + "#token=" + encodeURIComponent(token);
const watchUrl = (room) => base() + "?room=" + encodeURIComponent(room);

function links() {
  const box = $("links"); box.innerHTML = "";
  box.appendChild(linkRow("watch link", watchUrl(state.room), "watch-link"));
  if (state.seat && TOKEN) box.appendChild(linkRow("your seat's link (yours alone)", seatUrl(state.room, TOKEN), "own-link"));
  // A rematch asked from this tab: the other seats' links, to pass on.
  let others = null;
  try { others = JSON.parse(sessionStorage.getItem("triad-relay-invite-" + state.room) || "null"); } catch (e) { others = null; }
  for (const [side, token] of Object.entries(others || {})) {
    if (side === state.seat) continue;
    const row = linkRow(sideName(side) + "'s link", seatUrl(state.room, token), "seat-link");
    row.querySelector("input").dataset.side = side;
    box.appendChild(row);
  }
}

function invite(msg) {
  const box = $("invite"); box.innerHTML = "";
  const p = document.createElement("p");
  p.textContent = "Room " + msg.room + ": give each player their own seat's link (it holds that seat's secret token).";
  box.appendChild(p);
  const g = games[msg.game];
  for (const [side, token] of Object.entries(msg.seats)) {
    const name = g ? g.side_names[g.sides.indexOf(side)] || side : side;
    const row = linkRow(name + "'s link", seatUrl(msg.room, token), "seat-link");
    row.querySelector("input").dataset.side = side;
    const a = document.createElement("a");
    a.href = seatUrl(msg.room, token); a.textContent = "play " + name + " here"; a.className = "seat-open"; a.dataset.side = side;
    row.appendChild(a);
    box.appendChild(row);
  }
  const w = linkRow("watch link", watchUrl(msg.room), "watch-link");
  const a = document.createElement("a"); a.href = watchUrl(msg.room); a.textContent = "watch here"; w.appendChild(a);
  box.appendChild(w);
}

function offer(list) {
  const sel = $("game"); sel.innerHTML = "";
  for (const g of list) {
    games[g.name] = g;
    const o = document.createElement("option");
    o.value = g.name; o.textContent = g.title + " (" + g.sides.length + " players)";
    sel.appendChild(o);
  }
  pickGame();
}
function pickGame() {
  const g = games[$("game").value], modes = (g && g.modes) || [];
  const sel = $("mode"); sel.innerHTML = "";
  for (const m of modes) { const o = document.createElement("option"); o.textContent = m; sel.appendChild(o); }
  $("mode-label").hidden = modes.length === 0;
}

// ---- keyboard: a cursor over the spots ----------------------------------------------

function setCursor(i) {
  if (cursor >= 0) els[cursor].classList.remove("cursor");
  cursor = i;
  els[i].classList.add("cursor");
  $("board").setAttribute("aria-activedescendant", els[i].id);
}
function rowStep(i, dir) {
  const S = layout.sites, y0 = S[i].y, x0 = S[i].x;
  const ys = geo.YS.filter((y) => (dir < 0 ? y < y0 : y > y0));
  if (!ys.length) return i;
  const y = dir < 0 ? Math.max(...ys) : Math.min(...ys);
  let best = i, bd = Infinity;
  S.forEach((s, k) => { if (s.y === y && Math.abs(s.x - x0) < bd) { bd = Math.abs(s.x - x0); best = k; } });
  return best;
}
function onKey(e) {
  if (!layout) return;
  const order = geo.ORDER;
  const at = cursor < 0 ? order[0] : cursor;
  const k = order.indexOf(at);
  if (e.key === "ArrowRight") setCursor(order[Math.min(order.length - 1, cursor < 0 ? 0 : k + 1)]);
  else if (e.key === "ArrowLeft") setCursor(order[Math.max(0, cursor < 0 ? 0 : k - 1)]);
  else if (e.key === "ArrowUp") setCursor(cursor < 0 ? at : rowStep(at, -1));
  else if (e.key === "ArrowDown") setCursor(cursor < 0 ? at : rowStep(at, 1));
  else if (e.key === "Enter" || e.key === " ") { if (cursor >= 0) onSpot(layout.sites[cursor].name); }
  else if (e.key === "Escape") cancel();
  else return;
  e.preventDefault();
}

// ---- the board's size follows the window ------------------------------------------

function fit() {
  if (!geo) return;
  const w = document.documentElement.clientWidth, h = window.innerHeight;
  const small = w < 760;
  document.body.classList.toggle("small", small);
  const room = small ? w - 16 - 16 : Math.min(w * 0.58, 720) - 16;
  const gaps = geo.GRID ? (geo.XS.length - 1) * 6 : 0;
  const byW = (room - gaps) / geo.UNITS_W;
  const byH = small ? Infinity : (h - 120) / geo.UNITS_H;
  const cell = Math.floor(Math.max(20, Math.min(96, byW, byH)));
  document.documentElement.style.setProperty("--cell", cell + "px");
}

// ---- start ------------------------------------------------------------------------

$("board").addEventListener("click", (e) => {
  const c = e.target.closest && e.target.closest(".cell");
  if (c) onSpot(c.dataset.spot);
});
$("board").addEventListener("keydown", onKey);
$("cancel").addEventListener("click", cancel);
$("rematch").addEventListener("click", () => send({ op: "rematch" }));
$("review-game").addEventListener("click", () => {
  $("review").textContent = "looking back on the game…";
  $("review").hidden = false;
  send({ op: "review" });
});
$("game").addEventListener("change", pickGame);
$("create").addEventListener("click", () => {
  const msg = { op: "create", game: $("game").value };
  if ((games[msg.game] || {}).modes && games[msg.game].modes.length) msg.mode = $("mode").value;
  send(msg);
});
$("play").addEventListener("submit", (e) => {
  e.preventDefault();
  const text = $("move").value.trim();
  if (!text) return;
  if (!mine()) { say("Not your turn."); return; }
  $("move").value = "";
  play(text);
});
window.addEventListener("resize", fit);
setInterval(() => { if (state) fetchView(); }, 3000);  // who is connected now

if (ROOM) {
  $("make").hidden = true;
  connect(TOKEN ? { op: "join", room: ROOM, token: TOKEN } : { op: "watch", room: ROOM });
} else {
  connect({ op: "games" });
}
// (tests and the curious: the page's state)
window.triadRelay = { send, get view() { return view; }, get told() { return told; }, spotsOf: (t) => spotsOf(t) };
