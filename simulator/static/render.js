// A frame from the server drawn: LEDs, pieces, the hand, buttons, the
// matrix, whose turn and what to do, the moves, the developer panel.
import { LAYOUT, $, N, BUTTONS, SPEEDS, SIDE_NAME, PIECE, cellName, LESSONS, fillWords } from "./layout.js";
import { ui, device, cellEls, ledEls, statusEls, btnEls, matrixEls } from "./ui.js";
import { dieEl, dieKey } from "./pieces.js";
import { STATE_TEXT, lessonText, faultText, oppText } from "./words.js";

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

export function render(f) {
  ui.frame = f;
  device.dataset.power = f.power ? "on" : "off";
  const hidden = ui.drag && ui.drag.moved ? new Set([ui.drag.start, ui.drag.on].filter(Boolean)) : null;
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
  const hk = f.hand.map(dieKey).join(" ") + "|" + ui.selHand;
  if (hand.dataset.key !== hk) {
    hand.dataset.key = hk;
    hand.innerHTML = "";
    if (ui.selHand !== null && ui.selHand >= f.hand.length) ui.selHand = null;
    f.hand.forEach((d, i) => {
      const m = document.createElement("div");
      m.className = "mini" + (i === ui.selHand ? " sel" : "");
      m.dataset.hand = i;
      m.title = "click to choose which " + PIECE + " to put down next";
      m.appendChild(dieEl(d));
      m.addEventListener("click", () => { ui.selHand = ui.selHand === i ? null : i; hand.dataset.key = ""; render(ui.frame); });
      hand.appendChild(m);
    });
  }
  // game
  const side = f.side, names = SIDE_NAME;
  let turn = "—", msg = f.finish_text || STATE_TEXT[f.state] || "";
  if (!f.power) turn = "Power off";
  else if (f.state === "over") {
    const r = f.result || { head: f.winner ? names[f.winner] + " wins" : "Game over", reason: "" };
    // The result with its reason, in the headline ("Black wins: three Triads made").
    turn = r.reason ? r.head + ": " + r.reason : r.head;
    msg = (r.reason ? r.head + ": " + r.reason + ". " : "") + "Press new for the next game.";
  } else if (f.state === "setup") turn = "Set-up";
  else if (f.state === "selftest") turn = "Self-test";
  else if (side) turn = names[side] + " to move";
  // A piece lifted (the board lights where it came from in grey): what to
  // do now, not the line that asks to lift one.
  if (f.power && f.state === "play" && (f.names || []).includes("source") && STATE_TEXT.lifted) msg = STATE_TEXT.lifted;
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
  else if (ui.say && Date.now() < ui.sayUntil) msg = ui.say;  // what a click just did not do
  $("turn").textContent = turn;
  $("turn-dot").className = "turn-dot " + (f.state === "over" ? (f.winner || "draw") : side || "");
  if ($("msg").textContent !== msg) $("msg").textContent = msg;
  $("msg").classList.toggle("fault", !!fault);
  // Issue 17: the player is told while moves are not safely on flash.
  const us = f.unsaved ? "Not saved: " + f.unsaved + ". The game goes on; the board writes it again every 2 s (the turn LEDs blink red until then)." : "";
  $("unsaved").hidden = !us;
  if ($("unsaved").textContent !== us) $("unsaved").textContent = us;
  // Issue 36: what the board could not read back from flash (the turn LEDs blink red fast).
  const lost = f.lost ? "Not read back from flash: " + f.lost : "";
  $("lost").hidden = !lost;
  if ($("lost").textContent !== lost) $("lost").textContent = lost;
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
    // The lesson's set-up said where the person looks (not only in the
    // lessons card): its pieces blink where they go.
    const lmsg = f.lesson && f.lesson.status !== "done" && f.state === "setup"
      ? lt + " " + fillWords("Set it up: put the {pieces} on the {site}s that blink in their light (or press \u201cplace the lesson's {pieces}\u201d in the lessons card).") : lt;
    if (f.lesson && f.lesson.status !== "done" && f.state !== "over" && !fault && $("msg").textContent !== lmsg) $("msg").textContent = lmsg;
    if (f.lesson && !ui.lessonOpened) { ui.lessonOpened = true; $("lessons").open = true; }
    if (!f.lesson) ui.lessonOpened = false;
  }
  const seats = $("seats");
  const want = f.opponent || "off";
  if (document.activeElement !== seats && seats.value !== want && [...seats.options].some((o) => o.value === want)) seats.value = want;
  seats.disabled = !f.power;
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
    // Each move in its side's column; a row ends where the order starts
    // again (Browne's next player is the landing cell's owner, so a row
    // may skip a side). Without the sides, the seats in turn.
    const letters = LAYOUT.sides.map((s) => s.letter);
    const first = Math.max(0, letters.indexOf(f.start_side));
    const sides = f.move_sides || f.moves.map((_, k) => letters[(first + k) % letters.length]);
    if (!f.moves.length) tb.innerHTML = '<tr class="empty"><td colspan="' + (letters.length + 1) + '">no moves yet</td></tr>';
    let tr = null, col = letters.length, row = 0;
    f.moves.forEach((mv, k) => {
      const c = Math.max(0, letters.indexOf(sides[k]));
      if (!tr || c <= col) {
        row += 1;
        tr = document.createElement("tr");
        tr.innerHTML = '<td class="n">' + row + ".</td>" + letters.map(() => "<td></td>").join("");
        tb.appendChild(tr);
      }
      tr.children[c + 1].textContent = mv;
      tr.children[c + 1].dataset.side = letters[c];
      col = c;
    });
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
