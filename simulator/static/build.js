// The page built from the layout: the seats and score cards, the game
// chooser, the board's sites with their LEDs, the row and column labels,
// the status LEDs, the buttons, the switch matrix, the legend, the rules,
// the lessons and the box of pieces.
import { LAYOUT, $, SITES, BUTTONS, cellName, ORDER, XS, YS, GRID, LESSONS, LABELS } from "./layout.js";
import { drawBoard } from "./board_draw.js";
import { ui, board, device, cellEls, ledEls, statusEls, btnEls, matrixEls } from "./ui.js";
import { dieEl } from "./pieces.js";
import { LEGEND } from "./words.js";
import { act } from "./net.js";

// The shortest press the page sends the board: what keys.js presses for a
// short press (the firmware debounces its buttons over a few scans).
const MIN_PRESS_MS = 150;

export function buildPage() {
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

  // The game chooser: another game is another board; the simulator restarts
  // as that board and the page reloads once it serves the new layout.
  const pick = document.getElementById("game-pick");
  if (pick) {
    for (const g of LAYOUT.games || [LAYOUT.game]) {
      const o = document.createElement("option");
      o.value = g; o.textContent = (LAYOUT.game_titles || {})[g] || g; o.selected = g === LAYOUT.game;
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

  // The seats the board plays, in one control: nobody, each side, each
  // set of sides short of all (`set opponent` over the serial line).
  const seats = $("seats");
  const n = LAYOUT.sides.length;
  for (let m = 0; m < (1 << n) - 1; m++) {
    const who = LAYOUT.sides.filter((s, k) => (m >> k) & 1);
    const o = document.createElement("option");
    o.value = m ? who.map((s) => s.letter).join("") : "off";
    o.textContent = m ? who.map((s) => s.name).join(" and ") : "nobody (people play every side)";
    seats.appendChild(o);
  }
  // Fewer sides first: nobody, one side, then pairs.
  [...seats.options].sort((a, b) => (a.value === "off" ? 0 : a.value.length) - (b.value === "off" ? 0 : b.value.length)).forEach((o) => seats.appendChild(o));
  seats.addEventListener("change", () => act({ op: "serial", line: "set opponent " + seats.value }));

  // The move list's head: one named column per side.
  const head = $("moves-head-row");
  head.innerHTML = '<th class="n"></th>';
  for (const s of LAYOUT.sides) {
    const th = document.createElement("th");
    th.className = "side-" + s.letter;
    th.textContent = s.name;
    head.appendChild(th);
  }

  // ---- build the board: the shared drawing (board_draw.js) ----------------------
  if (!GRID) device.classList.add("free");
  const els = drawBoard(board, LAYOUT);
  els.forEach((c, i) => {
    c.setAttribute("role", "gridcell");
    cellEls[i] = c; ledEls[i] = c.querySelector(".led");
  });
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
    // A press lasts at least MIN_PRESS_MS: a click with no time between
    // down and up (a quick tap, a test's click) reached the board in one
    // request, both edges within one scan, and the debounced button never
    // saw it (issue 35, defect 12). So a short click is a short press.
    let held = false;
    let downAt = 0;
    let upTimer = null;
    const release = () => { upTimer = null; b.classList.remove("down"); act({ op: "button", name, down: false }); };
    const down = (e) => {
      e.preventDefault();
      if (held || upTimer) return;  // (a press still being held out counts once)
      held = true; downAt = performance.now(); b.classList.add("down");
      try { b.setPointerCapture(e.pointerId); } catch (_) {}
      act({ op: "button", name, down: true });
    };
    const up = () => {
      if (!held) return;
      held = false;
      const left = MIN_PRESS_MS - (performance.now() - downAt);
      if (left > 0) upTimer = setTimeout(release, left);
      else release();
    };
    b.addEventListener("pointerdown", down);
    b.addEventListener("pointerup", up);
    b.addEventListener("pointercancel", up);
    b.addEventListener("lostpointercapture", up);
    // A click with no pointer at all (Enter or space on the focused button,
    // a screen reader's activation): a short press too.
    b.addEventListener("click", (e) => {
      if (e.detail !== 0 || held || upTimer) return;
      held = true; downAt = performance.now(); b.classList.add("down");
      act({ op: "button", name, down: true });
      up();
    });
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
  // The game's own legend (its package's data) where it has one.
  const css = (rgbs) => rgbs.map((c) => "rgb(" + c.join(",") + ")");
  const legend = LAYOUT.legend ? LAYOUT.legend.map(([cs, look, t]) => {
    const c = css(cs);
    // Several colours: a band of them (one per side), steady or swept.
    if (c.length > 1 && (look === "" || look === "sweep" || look === "sweep-all" || look === "blink-slow" || look === "breathe"))
      return [c.join(","), look === "sweep" ? "sweep-all" : look ? look + " band" : "band", t];
    return [c[0], look, t];
  }) : LEGEND;
  for (const [c, anim, t] of legend) {
    const s = document.createElement("span");
    const i = document.createElement("i");
    if (anim === "sweep-all" || (anim || "").includes("band")) i.style.background = "linear-gradient(90deg," + c + ")";
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
  for (const side of LAYOUT.sides) for (const v of LABELS) {
    const colour = side.letter;
    const m = document.createElement("div");
    m.className = "mini";
    m.title = "take a " + side.name.toLowerCase() + (v === null ? " piece" : " " + v) + " from the box";
    m.dataset.take = colour + (v === null ? "" : v);
    m.appendChild(dieEl({ colour, value: v }));
    m.addEventListener("click", () => act({ op: "take", colour, value: v }).then(() => { ui.selHand = null; }));
    $("box").appendChild(m);
  }
}
