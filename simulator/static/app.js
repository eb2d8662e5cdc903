// The simulator's page: draws the frames the server pushes (Server-Sent
// Events on /events) and turns mouse/touch into the physical actions a hand
// does on the real board (POST /api/act, in order).
"use strict";
(function () {
  const FILES = "abcdef";
  const BUTTONS = ["confirm", "new", "hint", "menu"];
  // Status column, top (White's end) to bottom (Black's end): frame slots.
  const STATUS_TOP = [37, 41, 42, 43];
  const STATUS_BOTTOM = [40, 39, 38, 36];
  const STATUS_TITLE = { 36: "Black's turn", 37: "White's turn", 38: "Black's Triad 1", 39: "Black's Triad 2",
    40: "Black's Triad 3", 41: "White's Triad 1", 42: "White's Triad 2", 43: "White's Triad 3" };
  const PIPS = { 1: [5], 2: [3, 7], 3: [3, 5, 7] };
  const SPEEDS = [0.25, 0.5, 1, 2, 4, 8, 16];
  const LEGEND = [["#0046ff", "value 1"], ["#ff7800", "value 2"], ["#d20096", "value 3"], ["#a0a0a0", "lifted from"],
    ["#ff0000", "wrong (blinks)"], ["#ffffff", "missing (blinks)"], ["#00ff28", "Triad"], ["#00c8c8", "hint"]];
  const STATE_TEXT = {
    off: "The board is switched off. Power it on in the developer panel.",
    setup: "Set-up: put the rolled dice on their lit cells (each cell blinks in its die's value colour).",
    sync: "Put the dice where the board shows (white blinks: a die is missing; red: one too many) and the game resumes.",
    play: "Lift one of your dice: the lit cells show where it can go and in its colour the value to turn it to.",
    remove: "Triad! Take one of your own dice of the Triad off the board (its cell blinks green).",
    note2: "Note 2: menu turns the die to the next value, confirm commits it.",
    selftest: "Self-test: walk a die over every cell, press each button; hold menu to end it.",
    over: "Game over. Press new for the next game.",
  };

  const $ = (id) => document.getElementById(id);
  const board = $("board"), device = $("device"), ghost = $("ghost");
  const cellEls = [], ledEls = [], statusEls = {}, btnEls = {}, matrixEls = [];
  let frame = null, tool = "hand", selHand = null, drag = null;

  const cellName = (i) => FILES[i % 6] + (Math.floor(i / 6) + 1);
  const cellIndex = (n) => (Number(n[1]) - 1) * 6 + FILES.indexOf(n[0]);

  function dieEl(d) {
    const el = document.createElement("div");
    if (!d) return el;
    el.className = "die " + (d.colour || "x");
    if (d.colour) (PIPS[d.value] || []).forEach((p) => { const s = document.createElement("span"); s.className = "pip p" + p; el.appendChild(s); });
    return el;
  }
  const dieKey = (d) => (d ? (d.colour || "x") + (d.colour ? d.value : "") : "");

  // ---- build the board ---------------------------------------------------------
  for (let r = 5; r >= 0; r--) for (let f = 0; f < 6; f++) {
    const i = r * 6 + f;
    const c = document.createElement("div");
    c.className = "cell";
    c.dataset.cell = cellName(i);
    c.dataset.die = "";
    c.setAttribute("role", "gridcell");
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
  const ranks = document.querySelector(".ranks"), files = document.querySelector(".files");
  for (let r = 6; r >= 1; r--) { const s = document.createElement("span"); s.textContent = r; ranks.appendChild(s); }
  for (const f of FILES) { const s = document.createElement("span"); s.textContent = f; files.appendChild(s); }
  const status = $("status");
  for (const grp of [STATUS_TOP, STATUS_BOTTOM]) {
    const g = document.createElement("div");
    g.className = "grp";
    for (const slot of grp) {
      const s = document.createElement("div");
      s.className = "sled" + (slot <= 37 ? " turn" : "");
      s.id = "status-" + slot;
      s.title = STATUS_TITLE[slot];
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
  for (let r = 5; r >= 0; r--) for (let f = 0; f < 6; f++) {
    const s = document.createElement("span");
    s.title = cellName(r * 6 + f);
    s.textContent = "0";
    $("matrix").appendChild(s);
    matrixEls[r * 6 + f] = s;
  }
  for (const [c, t] of LEGEND) { const s = document.createElement("span"); s.innerHTML = '<i style="background:' + c + ";color:" + c + '"></i>' + t; $("legend").appendChild(s); }
  for (const colour of ["b", "w"]) for (const v of [1, 2, 3]) {
    const m = document.createElement("div");
    m.className = "mini";
    m.title = "take a " + (colour === "b" ? "black" : "white") + " " + v + " from the box";
    m.dataset.take = colour + v;
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
    } catch (e) { res = { ok: false, error: String(e), results: [] }; }
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
    for (let i = 0; i < 36; i++) {
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
        m.title = "click to choose which die to put down next";
        m.appendChild(dieEl(d));
        m.addEventListener("click", () => { selHand = selHand === i ? null : i; hand.dataset.key = ""; render(frame); });
        hand.appendChild(m);
      });
    }
    // game
    const side = f.side, names = { b: "Black", w: "White" };
    let turn = "—", msg = STATE_TEXT[f.state] || "";
    if (!f.power) turn = "Power off";
    else if (f.state === "over") {
      const w = f.score[0] >= 3 ? "b" : f.score[1] >= 3 ? "w" : null;
      turn = w ? names[w] + " wins" : "Game over";
    } else if (f.state === "setup") turn = "Set-up";
    else if (f.state === "selftest") turn = "Self-test";
    else if (side) turn = names[side] + " to move";
    $("turn").textContent = turn;
    $("turn-dot").className = "turn-dot " + (f.state === "over" ? (f.score[0] >= 3 ? "b" : "w") : side || "");
    $("msg").textContent = msg;
    $("fw-state").textContent = f.state;
    $("score-b").textContent = f.score[0];
    $("score-w").textContent = f.score[1];
    for (const [id, n] of [["triads-b", f.score[0]], ["triads-w", f.score[1]]]) {
      const el = $(id);
      if (el.dataset.n !== String(n)) { el.dataset.n = n; el.innerHTML = [0, 1, 2].map((k) => '<i class="' + (k < n ? "on" : "") + '"></i>').join(""); }
    }
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

  const logEl = $("log");
  function addLog(lines) {
    const atEnd = logEl.scrollTop + logEl.clientHeight >= logEl.scrollHeight - 4;
    for (const t of lines) {
      const s = document.createElement("div");
      s.textContent = t;
      s.className = t.startsWith("evt") ? "evt" : t.startsWith(">") ? "cmd" : t.startsWith("·") ? "act" : t.startsWith("err") || t.startsWith("evt error") ? "err" : t.startsWith("#") ? "sys" : "";
      logEl.appendChild(s);
    }
    while (logEl.childNodes.length > 600) logEl.removeChild(logEl.firstChild);
    if (atEnd) logEl.scrollTop = logEl.scrollHeight;
  }

  // ---- live channel --------------------------------------------------------------
  function connect() {
    const es = new EventSource("/events");
    es.addEventListener("open", () => { $("conn").dataset.state = "live"; $("conn").textContent = "live"; });
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

  window.triadSim = { act, get frame() { return frame; } };
})();
