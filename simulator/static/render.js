// A frame from the server drawn: LEDs, pieces, the hand, buttons, the
// matrix, whose turn and what to do, the moves, the developer panel.
import { LAYOUT, $, N, BUTTONS, SPEEDS, PIECE, cellName, LESSONS } from "./layout.js";
import { ui, device, cellEls, ledEls, statusEls, btnEls, matrixEls } from "./ui.js";
import { dieEl, dieKey } from "./pieces.js";
import { setPiece, setLight } from "./board_draw.js";
import { lessonText, oppText } from "./words.js";
import { renderReview } from "./review.js";

const setLed = setLight;

export function render(f) {
  ui.frame = f;
  device.dataset.power = f.power ? "on" : "off";
  const hidden = ui.drag && ui.drag.moved ? new Set([ui.drag.start, ui.drag.on].filter(Boolean)) : null;
  for (let i = 0; i < N; i++) {
    const c = cellEls[i];
    setPiece(c, LAYOUT, f.cells[i]);
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
  const side = f.side;
  // The headline and the line in words are made by the server from the
  // board's own diagnosis (simulator/say.py): the page shows them as they
  // are, and a script's `say` line prints the same line.
  const turn = f.headline || "—";
  let msg = f.say || "";
  const fault = f.say_fault || "";
  if (!fault && ui.say && Date.now() < ui.sayUntil) msg = ui.say;  // what a click just did not do
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
    if (f.lesson && !ui.lessonOpened) { ui.lessonOpened = true; $("lessons").open = true; }
    if (!f.lesson) ui.lessonOpened = false;
  }
  renderReview(f);
  const seats = $("seats");
  const want = f.opponent || "off";
  if (document.activeElement !== seats && seats.value !== want && [...seats.options].some((o) => o.value === want)) seats.value = want;
  seats.disabled = !f.power;
  const opp = oppText(f);
  if ($("opponent").textContent !== opp) $("opponent").textContent = opp;
  $("fw-state").textContent = f.state_label || f.state;
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
      const note = (f.move_notes || [])[k];
      if (note) {
        // A turn that needs a word (a forfeit: its rule), said under its row.
        tr.children[c + 1].title = note;
        const nt = document.createElement("tr");
        nt.className = "note";
        nt.innerHTML = '<td></td><td colspan="' + letters.length + '"></td>';
        nt.children[1].textContent = note;
        tb.appendChild(nt);
        tr = null;  // (the next move begins a row of its own: nothing after this reads tr)
      }
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
