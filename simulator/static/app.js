// The simulator's page: draws the frames the server pushes (Server-Sent
// Events on /events) and turns mouse/touch into the physical actions a hand
// does on the real board (POST /api/act, in order).
"use strict";
(async function () {
  // The board the firmware runs: sites, sides and status LEDs (GET /api/layout).
  let LAYOUT = null;
  for (;;) {
    try { LAYOUT = await (await fetch("/api/layout")).json(); break; } catch (e) { await new Promise((r) => setTimeout(r, 1000)); }
  }
  const SITES = LAYOUT.sites, N = SITES.length;
  const SIDE_NAME = {};
  for (const s of LAYOUT.sides) SIDE_NAME[s.letter] = s.name;
  const INDEX = {};
  SITES.forEach((s, i) => { INDEX[s.name] = i; });
  const BUTTONS = ["confirm", "new", "hint", "menu"];
  const PIPS = { 1: [5], 2: [3, 7], 3: [3, 5, 7] };
  const SPEEDS = [0.25, 0.5, 1, 2, 4, 8, 16];
  // What this game calls a piece (Nehren: a die), a scoring move, a site:
  // the page's words come from the game, never a die where there are none.
  const [PIECE, PIECES] = LAYOUT.piece || ["piece", "pieces"];
  const SITE = LAYOUT.sites.every((s) => s.kind === "cell") ? "cell" : "spot";
  const fillWords = (t) => t.replace(/\{pieces\}/g, PIECES).replace(/\{piece\}/g, PIECE)
    .replace(/\{site\}/g, SITE).replace(/\{score\}/g, LAYOUT.score_word || "capture");
  for (const el of document.querySelectorAll("[data-words]")) {
    for (const a of ["title", "placeholder", "aria-label"]) if (el.hasAttribute(a)) el.setAttribute(a, fillWords(el.getAttribute(a)));
    if (el.dataset.words === "text") el.innerHTML = fillWords(el.innerHTML);
  }
  if (LAYOUT.start) document.getElementById("load").placeholder = LAYOUT.start;
  document.getElementById("hand-turn").hidden = !LAYOUT.labels.length;  // only pieces with a label turn
  const ROLE_LEGEND = (LAYOUT.roles || []).map((rgb, k) => ["rgb(" + rgb.join(",") + ")", "",
    LAYOUT.labels.length ? "value " + LAYOUT.labels[k] + " (a lifted " + PIECE + "'s destination, shown in the value it will show)" : "a piece's own light"]);
  const SIDES_CSS = LAYOUT.sides.map((s) => "rgb(" + s.rgb.join(",") + ")");
  // Every light the board shows, with its look (steady, blinking, pulsing,
  // breathing, circling, sweeping): [css colour, animation, words].
  const LEGEND = ROLE_LEGEND.concat([
    ["#a0a0a0", "", "lifted from: the site the " + PIECE + " came from (grey)"],
    ["#ff0000", "blink-fast", "wrong: a " + PIECE + " where it may not stand (fast red blink)"],
    ["#ffffff", "blink-slow", "missing: a " + PIECE + " belongs here (slow white blink)"],
  ]).concat(LAYOUT.marks_text ? [["#00ff28", "pulse", LAYOUT.marks_text]] : []).concat([
    ["#3a3a3a", "", "last move: faint white where it was lifted and put down"],
    // The board's own displays differ in motion as well as colour (steady,
    // breathing, circling, a gauge), for players who cannot tell hues apart.
    ["#00c8c8", "", "hint: the " + PIECE + " to move is steady cyan, its destination steady in its light (4 s)"],
    [SIDES_CSS[0], "breathe", "the board's move: its " + PIECE + " breathes in the board's side colour, the destination breathes in its light in turn; carry it out for the board"],
    ["rgb(80,100,255)", "spin", "thinking: a blue light circles the centre while the board chooses"],
    ["rgb(255,220,120)", "gauge", "level: a warm white gauge along the level row, as many sites bright as the level (2 s)"],
    [SIDES_CSS[0], "", "opponent set: the home row of the side the board plays, in its colour, for 2 s"],
    [SIDES_CSS[0], "sweep", "win: the winner's colour sweeps across the board"],
    [SIDES_CSS.join(","), "sweep-all", "draw: every side's colour sweeps in turn"],
    ["#c8c8c8", "", "status: whose turn (the side's turn LED)"],
    ["#00b428", "", "status: one green LED per point scored"],
    ["#ff0000", "blink-slow", "status: the turn LEDs blink red while a move is not saved"],
  ]).concat((LAYOUT.lessons || []).length ? [
    ["rgb(150,110,255)", "pulse", "lesson: the lesson's " + PIECES + " breathe lavender; a green sweep: the lesson is solved"],
  ] : []);
  const STATE_TEXT_BOARD = {
    off: "The board is switched off. Power it on in the developer panel.",
    setup: "Set-up: put the pieces on their lit sites.",
    sync: "Put the pieces where the board shows (white blinks: a piece is missing; red: one too many) and the game resumes.",
    play: "Lift one of your pieces: the lit sites show where it can go.",
    selftest: "Self-test: walk a piece over every site, press each button; hold menu to end it.",
    over: "Game over. Press new for the next game.",
  };

  const $ = (id) => document.getElementById(id);
  // The sides: their seats (the first nearest the player) and score cards.
  $("seat-bottom").textContent = LAYOUT.sides[0].name;
  $("seat-top").textContent = LAYOUT.sides.slice(1).map((s) => s.name).join(" · ");
  $("scores").style.gridTemplateColumns = "repeat(" + LAYOUT.sides.length + ", minmax(0, 1fr))";
  for (const s of LAYOUT.sides) {
    const d = document.createElement("div");
    d.className = "score " + s.letter;
    d.innerHTML = '<span class="label"></span><span class="triads" id="triads-' + s.letter + '"></span><span class="num" id="score-' + s.letter + '">0</span>';
    d.firstChild.textContent = s.name;
    $("scores").appendChild(d);
  }
  const board = $("board"), device = $("device"), ghost = $("ghost");
  const cellEls = [], ledEls = [], statusEls = {}, btnEls = {}, matrixEls = [];
  let frame = null, tool = "hand", selHand = null, drag = null;

  const STATE_TEXT = Object.assign({}, STATE_TEXT_BOARD, LAYOUT.state_text);
  // The game chooser: another game is another board; the simulator restarts
  // as that board and the page reloads once it serves the new layout.
  const pick = document.getElementById("game-pick");
  if (pick) {
    for (const g of LAYOUT.games || [LAYOUT.game]) {
      const o = document.createElement("option");
      o.value = g; o.textContent = g; o.selected = g === LAYOUT.game;
      pick.appendChild(o);
    }
    pick.addEventListener("change", async () => {
      const want = pick.value;
      try {
        await fetch("/api/act", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ actions: [{ op: "game", name: want }] }) });
      } catch (e) { /* the server is restarting */ }
      for (let k = 0; k < 120; k++) {
        await new Promise((r) => setTimeout(r, 500));
        try { const l = await (await fetch("/api/layout")).json(); if (l.game === want) { location.reload(); return; } } catch (e) { /* not yet */ }
      }
    });
  }
  // The game's help for the controller's phases goes by the names the
  // board reports them under (Nehren: finish -> remove, choose -> note2).
  (LAYOUT.phases || []).forEach((name, k) => { const t = LAYOUT.state_text[["finish", "choose"][k]]; if (t) STATE_TEXT[name] = t; });
  const cellName = (i) => SITES[i].name;
  const cellIndex = (n) => INDEX[n];
  // Drawing order: top row first, left to right (the page's reading order).
  const ORDER = SITES.map((s, i) => i).sort((a, b) => SITES[a].y - SITES[b].y || SITES[a].x - SITES[b].x);
  const XS = [...new Set(SITES.map((s) => s.x))].sort((a, b) => a - b);
  const YS = [...new Set(SITES.map((s) => s.y))].sort((a, b) => a - b);

  const SIDE_RGB = {};
  for (const s of LAYOUT.sides) SIDE_RGB[s.letter] = s.rgb;
  const DICE = LAYOUT.labels.length > 0;  // pieces that carry a value (Nehren's dice)
  function dieEl(d) {
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
  const dieKey = (d) => (d ? (d.colour || "x") + (d.colour ? d.value : "") : "");

  // ---- build the board ---------------------------------------------------------
  // Square cells on a grid (Nehren's 6x6) go into a CSS grid; any other
  // shape (hexagons, posts, treys, docks, portals) is placed at its drawing
  // position, in cell units.
  const GRID = SITES.every((s) => s.shape === "square" && Number.isInteger(s.x) && Number.isInteger(s.y));
  const SIZE = { hex: [0.96, 1.1], circle: [0.42, 0.42], "tri-up": [0.86, 0.75], "tri-down": [0.86, 0.75], square: [0.62, 0.62] };
  const minX = Math.min(...SITES.map((s) => s.x)), minY = Math.min(...SITES.map((s) => s.y));
  const maxX = Math.max(...SITES.map((s) => s.x)), maxY = Math.max(...SITES.map((s) => s.y));
  const FREE_UNIT = GRID ? 1 : Math.min(1, 6.5 / Math.max(maxX - minX + 1.2, maxY - minY + 1.2));
  const u = (v) => "calc(var(--cell) * " + (v * FREE_UNIT).toFixed(4) + ")";
  if (GRID) {
    board.style.gridTemplateColumns = "repeat(" + XS.length + ", var(--cell))";
    board.style.gridTemplateRows = "repeat(" + YS.length + ", var(--cell))";
  } else {
    board.classList.add("free");
    device.classList.add("free");
    board.style.width = u(maxX - minX + 1.2);
    board.style.height = u(maxY - minY + 1.3);
  }
  // Drawn under the smaller spots: treys and hexagons first, posts last.
  const LAYER = { "tri-up": 0, "tri-down": 0, hex: 0, square: 1, circle: 2 };
  const DRAW = GRID ? ORDER : ORDER.slice().sort((a, b) => LAYER[SITES[a].shape] - LAYER[SITES[b].shape]);
  for (const i of DRAW) {
    const c = document.createElement("div");
    c.className = "cell " + SITES[i].shape;
    c.dataset.cell = cellName(i);
    c.dataset.kind = SITES[i].kind;
    c.dataset.die = "";
    c.setAttribute("role", "gridcell");
    if (GRID) {
      c.style.gridColumn = String(XS.indexOf(SITES[i].x) + 1);
      c.style.gridRow = String(YS.indexOf(SITES[i].y) + 1);
    } else {
      const [w, h] = SIZE[SITES[i].shape] || SIZE.square;
      // A triangle's centre (its centroid) sits a third of its height from its base.
      const cy = SITES[i].shape === "tri-up" ? (2 * h) / 3 : SITES[i].shape === "tri-down" ? h / 3 : h / 2;
      c.style.left = u(SITES[i].x - minX + 0.6 - w / 2);
      c.style.top = u(SITES[i].y - minY + 0.65 - cy);
      c.style.width = u(w);
      c.style.height = u(h);
    }
    const led = document.createElement("div");
    led.className = "led";
    led.dataset.rgb = "0,0,0";
    led.dataset.led = "off";
    const nm = document.createElement("span");
    nm.className = "name";
    nm.textContent = cellName(i);
    c.append(led, nm);
    board.appendChild(c);
    cellEls[i] = c; ledEls[i] = led;
  }
  // Row and column labels: the names' shared parts along each edge (a grid
  // board's; the others carry their names on every spot).
  const ranks = document.querySelector(".ranks"), files = document.querySelector(".files");
  if (!GRID) { ranks.hidden = true; files.hidden = true; }
  else ranks.style.gridTemplateRows = "repeat(" + YS.length + ", var(--cell))";
  files.style.gridTemplateColumns = "repeat(" + XS.length + ", var(--cell))";
  if (GRID) for (const y of YS) {
    const first = ORDER.find((i) => SITES[i].y === y);
    const s = document.createElement("span"); s.textContent = SITES[first].name.slice(1); ranks.appendChild(s);
  }
  if (GRID) for (const x of XS) {
    const last = ORDER.slice().reverse().find((i) => SITES[i].x === x);
    const s = document.createElement("span"); s.textContent = SITES[last].name[0]; files.appendChild(s);
  }
  // Status LEDs: each side's group, the first side nearest the player (bottom).
  const status = $("status");
  const groups = LAYOUT.status.map((st) => {
    const slots = [[st.turn, st.name + "'s turn", true]].concat(st.score.map((slot, k) => [slot, st.name + "'s score " + (k + 1), false]));
    return st === LAYOUT.status[0] ? slots.slice(1).reverse().concat([slots[0]]) : slots;
  }).reverse();
  if ((LAYOUT.status_game || []).length) {
    // The game's own status LEDs (Cornelson: mode, Game Tally), between the sides.
    groups.splice(Math.floor(groups.length / 2), 0, LAYOUT.status_game.map((slot, k) => [slot, "game status " + (k + 1), false]));
  }
  for (const grp of groups) {
    const g = document.createElement("div");
    g.className = "grp";
    for (const [slot, title, turn] of grp) {
      const s = document.createElement("div");
      s.className = "sled" + (turn ? " turn" : "");
      s.id = "status-" + slot;
      s.title = title;
      s.dataset.rgb = "0,0,0";
      s.dataset.led = "off";
      g.appendChild(s);
      statusEls[slot] = s;
    }
    status.appendChild(g);
  }
  for (const name of BUTTONS) {
    const b = document.createElement("button");
    b.className = "hwbtn";
    b.id = "btn-" + name;
    b.dataset.button = name;
    b.innerHTML = '<span class="cap"></span><span class="lbl">' + name + "</span>";
    $("btnrow").appendChild(b);
    btnEls[name] = b;
    let held = false;
    const down = (e) => { e.preventDefault(); if (held) return; held = true; b.classList.add("down"); try { b.setPointerCapture(e.pointerId); } catch (_) {} act({ op: "button", name, down: true }); };
    const up = () => { if (!held) return; held = false; b.classList.remove("down"); act({ op: "button", name, down: false }); };
    b.addEventListener("pointerdown", down);
    b.addEventListener("pointerup", up);
    b.addEventListener("pointercancel", up);
    b.addEventListener("lostpointercapture", up);
    b.addEventListener("contextmenu", (e) => e.preventDefault());
  }
  $("matrix").style.gridTemplateColumns = "repeat(" + XS.length + ", minmax(0, 18px))";
  for (const i of ORDER) {
    const s = document.createElement("span");
    s.title = cellName(i);
    s.textContent = "0";
    $("matrix").appendChild(s);
    matrixEls[i] = s;
  }
  for (const [c, anim, t] of LEGEND) {
    const s = document.createElement("span");
    const i = document.createElement("i");
    if (anim === "sweep-all") i.style.background = "linear-gradient(90deg," + c + ")";
    else if (anim === "spin") i.style.background = "conic-gradient(" + c + " 0 25%, transparent 25% 100%)";
    else if (anim === "gauge") i.style.background = "linear-gradient(90deg," + c + " 0 60%, rgba(255,220,120,.15) 60% 100%)";
    else { i.style.background = c; i.style.color = c; }
    if (anim) i.className = anim;
    s.append(i, document.createTextNode(t));
    $("legend").appendChild(s);
  }
  if (LAYOUT.rules) {
    $("rules").hidden = false;
    $("rules-title").textContent = "Rules of " + LAYOUT.title;
    $("rules-text").textContent = LAYOUT.rules;
  }
  // The teaching mode: the game's lessons, each started over the serial line
  // (`lesson <n>`) with its dice placed as the board shows them.
  const LESSONS = LAYOUT.lessons || [];
  if (LESSONS.length) {
    $("lessons").hidden = false;
    LESSONS.forEach((goal, k) => {
      const li = document.createElement("li");
      const b = document.createElement("button");
      b.className = "small";
      b.dataset.lesson = String(k + 1);
      b.textContent = "start";
      b.title = "Start lesson " + (k + 1);
      b.addEventListener("click", () => act({ op: "serial", line: "lesson " + (k + 1) }, { op: "setup" }));
      li.append(b, document.createTextNode(" " + goal));
      $("lesson-list").appendChild(li);
    });
    $("lesson-dice").addEventListener("click", () => act({ op: "setup" }));
    $("lesson-off").addEventListener("click", () => act({ op: "serial", line: "lesson off" }));
  }
  function lessonText(l) {
    if (!l) return "";
    if (l.status === "done") return "All lessons solved. Well played! Pick one again, or leave the lessons to go back to your game.";
    const head = "Lesson " + l.n + " of " + LESSONS.length + ": " + l.goal;
    if (l.status === "solved") return head + " — Solved (" + l.move + ")! The next lesson follows in a moment.";
    if (l.status === "wrong") return head + " — Not this one (" + l.move + "). Put the " + PIECE + " back where the board shows it (blinking in its light), then try again.";
    if (l.status === "hint") return head + " — The right move is lit: lift the cyan " + PIECE + " and put it on the " + SITE + " lit in its light (" + l.move + ").";
    return head;
  }
  const LABELS = LAYOUT.labels.length ? LAYOUT.labels : [null];
  for (const side of LAYOUT.sides) for (const v of LABELS) {
    const colour = side.letter;
    const m = document.createElement("div");
    m.className = "mini";
    m.title = "take a " + side.name.toLowerCase() + (v === null ? " piece" : " " + v) + " from the box";
    m.dataset.take = colour + (v === null ? "" : v);
    m.appendChild(dieEl({ colour, value: v }));
    m.addEventListener("click", () => act({ op: "take", colour, value: v }).then(() => { selHand = null; }));
    $("box").appendChild(m);
  }

  // ---- actions, in order --------------------------------------------------------
  let queue = [], inflight = false;
  function act(...actions) {
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
  function toast(text) {
    const t = $("toast");
    t.textContent = text; t.hidden = false;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => { t.hidden = true; }, 2600);
  }

  // ---- drawing -------------------------------------------------------------------
  function setLed(el, raw, glow, name) {
    el.dataset.rgb = raw.join(",");
    el.dataset.led = name;
    const lit = raw[0] + raw[1] + raw[2] > 0;
    // Shown as the colour the firmware asked for (raw / brightness), with
    // its intensity as opacity: dim colours stay dim, ratios are kept.
    const mx = Math.max(glow[0], glow[1], glow[2], 1);
    const c = "rgb(" + glow.map((v) => Math.round((v * 255) / mx)).join(",") + ")";
    const o = lit ? Math.max(0.14, Math.min(1, mx / 255)) : 0;
    el.style.setProperty("--c", c);
    el.style.setProperty("--o", o.toFixed(3));
    el.classList.toggle("lit", lit);
  }

  function render(f) {
    frame = f;
    device.dataset.power = f.power ? "on" : "off";
    const hidden = drag && drag.moved ? new Set([drag.start, drag.on].filter(Boolean)) : null;
    for (let i = 0; i < N; i++) {
      const c = cellEls[i], d = f.cells[i], key = dieKey(d);
      if (c.dataset.die !== key) {
        const old = c.querySelector(".die");
        if (old) old.remove();
        if (d) c.appendChild(dieEl(d));
        c.dataset.die = key;
      }
      c.classList.toggle("hide-die", !!(hidden && hidden.has(cellName(i))));
      setLed(ledEls[i], f.leds[i], f.glow[i], f.names[i]);
      matrixEls[i].textContent = f.matrix[i];
      matrixEls[i].classList.toggle("on", !!f.matrix[i]);
    }
    for (const slot in statusEls) setLed(statusEls[slot], f.leds[slot], f.glow[slot], f.names[slot]);
    BUTTONS.forEach((n, i) => btnEls[n].classList.toggle("down", !!f.buttons[i]));
    // hand
    const hand = $("hand");
    const hk = f.hand.map(dieKey).join(" ") + "|" + selHand;
    if (hand.dataset.key !== hk) {
      hand.dataset.key = hk;
      hand.innerHTML = "";
      if (selHand !== null && selHand >= f.hand.length) selHand = null;
      f.hand.forEach((d, i) => {
        const m = document.createElement("div");
        m.className = "mini" + (i === selHand ? " sel" : "");
        m.dataset.hand = i;
        m.title = "click to choose which " + PIECE + " to put down next";
        m.appendChild(dieEl(d));
        m.addEventListener("click", () => { selHand = selHand === i ? null : i; hand.dataset.key = ""; render(frame); });
        hand.appendChild(m);
      });
    }
    // game
    const side = f.side, names = SIDE_NAME;
    let turn = "—", msg = f.finish_text || STATE_TEXT[f.state] || "";
    if (!f.power) turn = "Power off";
    else if (f.state === "over") {
      const r = f.result || { head: f.winner ? names[f.winner] + " wins" : "Game over", reason: "" };
      turn = r.head;
      msg = (r.reason ? r.head + ": " + r.reason + ". " : "") + "Press new for the next game.";
    } else if (f.state === "setup") turn = "Set-up";
    else if (f.state === "selftest") turn = "Self-test";
    else if (side) turn = names[side] + " to move";
    // The board's seat to move: the headline speaks to the person who
    // carries out the board's move, never as if it were their own turn.
    if (f.power && f.opponent && side && f.opponent.includes(side) && (f.state === "play" || (LAYOUT.phases || []).includes(f.state))) {
      turn = "The board's move (" + names[side] + ")";
      msg = f.engine_move
        ? "The board plays " + names[side] + ": carry out its move for it: " + f.engine_words + " (" + f.engine_move + ")."
        : "The board is choosing " + names[side] + "'s move (a blue light circles the centre)…";
    }
    const fault = f.power ? faultText(f) : "";
    if (fault) msg = fault;
    $("turn").textContent = turn;
    $("turn-dot").className = "turn-dot " + (f.state === "over" ? (f.winner || "draw") : side || "");
    if ($("msg").textContent !== msg) $("msg").textContent = msg;
    $("msg").classList.toggle("fault", !!fault);
    // Issue 17: the player is told while moves are not safely on flash.
    const us = f.unsaved ? "Not saved: " + f.unsaved + ". The game goes on; the board writes it again every 2 s (the turn LEDs blink red until then)." : "";
    $("unsaved").hidden = !us;
    if ($("unsaved").textContent !== us) $("unsaved").textContent = us;
    const nt = f.notice ? (LAYOUT.notice_text[f.notice] || f.notice) : "";
    $("notice").hidden = !nt || f.state === "over";
    if ($("notice").textContent !== nt) $("notice").textContent = nt;
    if (LESSONS.length) {
      const lt = f.lesson ? lessonText(f.lesson) : "";
      const now = $("lesson-now");
      if (lt && now.textContent !== lt) now.textContent = lt;
      now.dataset.status = f.lesson ? f.lesson.status : "";
      now.classList.toggle("active", !!f.lesson);
      $("lesson-off").hidden = !f.lesson;
      $("lesson-dice").hidden = !(f.lesson && f.state === "setup");
      if (f.lesson && f.lesson.status !== "done" && f.state !== "over" && !fault && $("msg").textContent !== lt) $("msg").textContent = lt;
    }
    const opp = oppText(f);
    if ($("opponent").textContent !== opp) $("opponent").textContent = opp;
    $("fw-state").textContent = f.state;
    LAYOUT.status.forEach((st, p) => {
      const n = f.score[p];
      const sc = $("score-" + st.side), el = $("triads-" + st.side);
      if (sc) sc.textContent = n;
      if (el && el.dataset.n !== String(n)) { el.dataset.n = n; el.innerHTML = st.score.map((_, k) => '<i class="' + (k < n ? "on" : "") + '"></i>').join(""); }
    });
    const mk = f.start + "|" + f.moves.join(" ");
    const tb = $("moves");
    if (tb.dataset.key !== mk) {
      tb.dataset.key = mk;
      tb.innerHTML = "";
      const plies = f.moves.slice();
      if (f.start_side === "w" && plies.length) plies.unshift("…");
      if (!f.moves.length) tb.innerHTML = '<tr class="empty"><td>no moves yet</td></tr>';
      for (let k = 0; k < plies.length; k += 2) {
        const tr = document.createElement("tr");
        tr.innerHTML = '<td class="n">' + (k / 2 + 1) + ".</td><td></td><td></td>";
        tr.children[1].textContent = plies[k];
        tr.children[2].textContent = plies[k + 1] || "";
        tb.appendChild(tr);
      }
      const cells = tb.querySelectorAll("td:not(.n)");
      for (let k = cells.length - 1; k >= 0; k--) if (cells[k].textContent && cells[k].textContent !== "…") { cells[k].classList.add("last"); break; }
      const box = $("moves-box"); box.scrollTop = box.scrollHeight;
    }
    const pos = $("pos");
    if (pos.value !== f.position && document.activeElement !== pos) pos.value = f.position;
    $("power-state").textContent = f.power ? "on" : "off";
    $("power-state").className = "pill" + (f.power ? "" : " off");
    const si = SPEEDS.indexOf(f.speed);
    if (si >= 0 && document.activeElement !== $("speed")) $("speed").value = si;
    $("speed-val").textContent = "×" + f.speed;
    if (document.activeElement !== $("noise")) $("noise").value = Math.round(f.noise * 1000);
    $("noise-val").textContent = (f.noise * 100).toFixed(1) + "%";
    const cr = $("crash");
    cr.hidden = !f.crash;
    if (f.crash) cr.textContent = "Firmware crashed:\n" + f.crash;
  }

  function list(a) { return a.length <= 1 ? a.join("") : a.slice(0, -1).join(", ") + " and " + a[a.length - 1]; }
  // A fault in words: what is wrong and what to do (the board blinks it).
  function faultText(f) {
    const miss = f.missing || [], extra = f.extra || [];
    const where = () => [miss.length ? "put the missing piece" + (miss.length > 1 ? "s" : "") + " back on " + list(miss) + " (blinking white)" : "",
      extra.length ? "take what stands on " + list(extra) + " off (blinking red)" : ""].filter(Boolean).join(" and ");
    if (f.state === "sync" && (miss.length || extra.length)) return "The board does not match the game yet: " + where() + ".";
    if (!f.fault || f.state === "over" || f.state === "setup" || f.state === "selftest") return "";
    const w = f.fault.split(" ");
    if (w[0] === "illegal" && extra.includes(w[1])) {
      const kind = (SITES[INDEX[w[1]]] || {}).kind || SITE;
      return "Wrong " + kind + ": the " + PIECE + " from " + w[3] + " may not stand on " + w[1] + ". Put it back on " + w[3] + " or on a lit " + kind + ".";
    }
    if (w[0] === "removal" && miss.includes(w[1])) return "Not that one: " + w[1] + " is not a piece you may take off. Put it back, then take off one whose cell blinks.";
    if (w[0] === "mismatch" && f.fix) return "Not a legal turn: " + f.fix + " Nothing counts until then.";
    if (w[0] === "mismatch" && (miss.length || extra.length)) return "The board does not match the game (a piece knocked off or a stray object?): " + where() + ". Nothing counts until it matches.";
    return "";
  }
  function oppText(f) {
    if (!f.power || !f.opponent) return f.power && f.level ? "The board plays nobody (hold hint to let it play a seat)." : "";
    // The seats the board plays: "w", or two of three ("gb").
    const seats = f.opponent.split("").map((l) => SIDE_NAME[l]).join(" and ");
    let t = "The board plays " + seats + " at level " + (f.level || "?") + ".";
    if (f.state === "play" && f.opponent.includes(f.side)) {
      t += f.engine_move ? " Its move: " + f.engine_move + " (" + f.engine_words + "). Carry it out for the board." : " It is thinking (a blue light circles the centre)…";
    }
    return t;
  }

  // ---- sound cues (off by default) -------------------------------------------------
  // The board's own patterns (firmware board/sound.py, through /api/layout):
  // the page sounds what the board's piezo sounds, [hz, seconds] a note, hz 0 a rest.
  let sound = false, audio = null, quietUntil = 0;
  const CUES = {};
  for (const [name, flat] of Object.entries(LAYOUT.cues || {})) {
    CUES[name] = [];
    for (let k = 0; k + 1 < flat.length; k += 2) CUES[name].push([flat[k], flat[k + 1] / 1000]);
  }
  const cues = [];
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
  $("sound").addEventListener("click", () => {
    sound = !sound;
    $("sound").setAttribute("aria-pressed", String(sound));
    $("sound").textContent = "sound: " + (sound ? "on" : "off");
    if (sound && audio && audio.state === "suspended") audio.resume();
    // The board's own setting follows: its piezo (where it has one) sounds
    // the same cues, and the setting is saved as on the real board.
    act({ op: "serial", line: "set sound " + (sound ? "on" : "off") });
  });
  function cueFor(t) {
    const k = t.split(" ")[1];
    if (k === "move") cue("move");
    else if (k === "fault") cue("error");
    else if (k === LAYOUT.finish_event) cue("triad");
    else if (k === "over") cue("end");
  }

  const logEl = $("log");
  function addLog(lines) {
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

  // ---- live channel --------------------------------------------------------------
  function connect() {
    const es = new EventSource("/events");
    es.addEventListener("open", () => { quietUntil = performance.now() + 800; $("conn").dataset.state = "live"; $("conn").textContent = "live"; });
    es.addEventListener("frame", (e) => render(JSON.parse(e.data)));
    es.addEventListener("log", (e) => addLog(JSON.parse(e.data)));
    es.addEventListener("error", () => { $("conn").dataset.state = "lost"; $("conn").textContent = "reconnecting…"; });
  }
  connect();

  // ---- hands on the board --------------------------------------------------------------
  function cellAt(x, y) {
    const el = document.elementFromPoint(x, y);
    const c = el && el.closest && el.closest(".cell");
    return c && board.contains(c) ? c.dataset.cell : null;
  }
  const occupied = (n) => !!(frame && frame.cells[cellIndex(n)]);

  function setTool(t) {
    tool = t;
    device.dataset.tool = t;
    for (const b of document.querySelectorAll("#tools button")) b.classList.toggle("on", b.dataset.tool === t);
  }
  for (const b of document.querySelectorAll("#tools button")) b.addEventListener("click", () => setTool(b.dataset.tool));
  setTool("hand");

  function showGhost(d, x, y) {
    ghost.innerHTML = "";
    ghost.appendChild(dieEl(d));
    ghost.hidden = false;
    moveGhost(x, y);
  }
  function moveGhost(x, y) { ghost.style.left = x + "px"; ghost.style.top = y + "px"; }

  board.addEventListener("contextmenu", (e) => {
    e.preventDefault();
    const c = cellAt(e.clientX, e.clientY);
    if (c && occupied(c)) act({ op: "knock", cell: c });
  });

  board.addEventListener("pointerdown", (e) => {
    if (e.button !== 0 || drag) return;
    const c = cellAt(e.clientX, e.clientY);
    if (!c) return;
    e.preventDefault();
    if (tool === "knock") { if (occupied(c)) act({ op: "knock", cell: c }); return; }
    if (tool === "bounce") {
      const el = cellEls[cellIndex(c)];
      el.classList.add("bouncing");
      setTimeout(() => el.classList.remove("bouncing"), 300);
      act({ op: "bounce", cell: c });
      return;
    }
    drag = { id: e.pointerId, start: c, cur: c, on: null, x0: e.clientX, y0: e.clientY, moved: false,
      carry: e.shiftKey || tool === "carry", die: frame ? frame.cells[cellIndex(c)] : null };
    try { board.setPointerCapture(e.pointerId); } catch (_) {}
  });

  board.addEventListener("pointermove", (e) => {
    if (!drag || e.pointerId !== drag.id) return;
    if (!drag.moved) {
      if (!drag.die || Math.hypot(e.clientX - drag.x0, e.clientY - drag.y0) < 6) return;
      drag.moved = true;
      act({ op: "lift", cell: drag.start });
      showGhost(drag.die, e.clientX, e.clientY);
      cellEls[cellIndex(drag.start)].classList.add("hide-die");
    }
    moveGhost(e.clientX, e.clientY);
    const c = cellAt(e.clientX, e.clientY);
    if (c === drag.cur) return;
    drag.cur = c;
    if (drag.carry) return;
    // Sliding: the die rests on every cell it passes and leaves it again.
    if (drag.on) { act({ op: "lift", cell: drag.on }); cellEls[cellIndex(drag.on)].classList.remove("hide-die"); drag.on = null; }
    if (c && (c === drag.start || !occupied(c))) {
      act({ op: "place", cell: c });
      drag.on = c;
      cellEls[cellIndex(c)].classList.add("hide-die");
    }
  });

  function endDrag(e, cancelled) {
    if (!drag || e.pointerId !== drag.id) return;
    const d = drag;
    drag = null;
    ghost.hidden = true;
    for (const el of cellEls) el.classList.remove("hide-die");
    const c = cancelled ? null : cellAt(e.clientX, e.clientY);
    if (!d.moved) {
      if (cancelled || !c) return;
      if (d.die) act({ op: "lift", cell: c });  // click on a die: into the hand
      else if (frame && frame.hand.length) act({ op: "place", cell: c, hand: selHand !== null ? selHand : frame.hand.length - 1 }).then(() => { selHand = null; });
      else act({ op: "place", cell: c });  // a die from the box (the one the game expects there)
      return;
    }
    if (d.carry) {
      if (c && (c === d.start || !occupied(c))) act({ op: "place", cell: c });
      return;  // let go off the board: the die stays in the hand
    }
    if (d.on && d.on !== c) act({ op: "lift", cell: d.on });  // lifted clear of the board
  }
  board.addEventListener("pointerup", (e) => endDrag(e, false));
  board.addEventListener("pointercancel", (e) => endDrag(e, true));

  // ---- developer panel ---------------------------------------------------------------
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
  const sendSerial = () => { const t = $("serial").value.trim(); if (t) act({ op: "serial", line: t }).then(() => { $("serial").value = ""; }); };
  $("serial-btn").addEventListener("click", sendSerial);
  $("serial").addEventListener("keydown", (e) => { if (e.key === "Enter") sendSerial(); });
  $("hand-turn").addEventListener("click", () => { if (frame && frame.hand.length) act({ op: "turn", hand: selHand !== null ? selHand : frame.hand.length - 1 }); });
  $("hand-drop").addEventListener("click", () => { if (frame && frame.hand.length) act({ op: "drop", hand: selHand !== null ? selHand : frame.hand.length - 1 }).then(() => { selHand = null; }); });

  // ---- keyboard play -----------------------------------------------------------------
  // A cursor over the sites in drawing order: left/right step through that
  // order, up/down go to the nearest site of the row above/below; space
  // does what a click does there; h, m, n, c press the buttons.
  let cursor = -1;
  function setCursor(i) {
    if (cursor >= 0) cellEls[cursor].classList.remove("cursor");
    cursor = i;
    cellEls[i].classList.add("cursor");
    board.setAttribute("aria-activedescendant", cellEls[i].id);
  }
  function rowStep(i, dir) {
    const y0 = SITES[i].y, x0 = SITES[i].x;
    const ys = YS.filter((y) => (dir < 0 ? y < y0 : y > y0));
    if (!ys.length) return i;
    const y = dir < 0 ? Math.max(...ys) : Math.min(...ys);
    let best = i, bd = Infinity;
    for (let k = 0; k < N; k++) if (SITES[k].y === y && Math.abs(SITES[k].x - x0) < bd) { bd = Math.abs(SITES[k].x - x0); best = k; }
    return best;
  }
  function handAt(c) {
    if (occupied(c)) return act({ op: "lift", cell: c });
    if (frame && frame.hand.length) return act({ op: "place", cell: c, hand: selHand !== null ? selHand : frame.hand.length - 1 }).then(() => { selHand = null; });
    return act({ op: "place", cell: c });
  }
  function press(name, ms) {
    btnEls[name].classList.add("down");
    act({ op: "button", name, down: true });
    setTimeout(() => { btnEls[name].classList.remove("down"); act({ op: "button", name, down: false }); }, ms);
  }
  SITES.forEach((s, i) => { cellEls[i].id = "site-" + s.name; });
  document.addEventListener("keydown", (e) => {
    const t = e.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT" || t.tagName === "SUMMARY" || t.isContentEditable)) return;
    if (e.ctrlKey || e.altKey || e.metaKey) return;
    const k = e.key;
    const at = cursor < 0 ? ORDER[0] : cursor;
    if (k === "ArrowLeft" || k === "ArrowRight") {
      const j = ORDER.indexOf(at) + (k === "ArrowLeft" ? -1 : 1);
      setCursor(cursor < 0 ? ORDER[0] : ORDER[Math.max(0, Math.min(N - 1, j))]);
    } else if (k === "ArrowUp" || k === "ArrowDown") setCursor(cursor < 0 ? ORDER[0] : rowStep(at, k === "ArrowUp" ? -1 : 1));
    else if (k === " " || k === "Enter") {
      if (t && t.tagName === "BUTTON" && t !== board) return;  // a focused button's own click
      if (cursor < 0) setCursor(ORDER[0]);
      else handAt(cellName(cursor));
    } else if ("hmnc".includes(k.toLowerCase()) && k.length === 1) {
      const name = { h: "hint", m: "menu", n: "new", c: "confirm" }[k.toLowerCase()];
      press(name, e.shiftKey || name === "new" ? 1100 : 150);
    } else return;
    e.preventDefault();
  });

  // ---- fit the window: the cell size follows its width and height -------------------------
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
  window.addEventListener("resize", fit);
  if (document.documentElement.clientWidth < 700) { $("dev").open = false; $("legend-box").open = false; }

  window.triadSim = { act, cues, get frame() { return frame; } };
})();
