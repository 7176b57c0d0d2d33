// Rummy de fichas: the player builds a draft of the whole table (drag and drop, or pick and
// place with clicks or the keyboard); the server checks the draft and says what is wrong.
import { GameSocket } from "./net.js";
import { $, _, fmt, toast } from "./ui.js";


const COLOURS = { R: "rojo", A: "azul", N: "negro", O: "naranja" };
const MARKS = { R: "●", A: "■", N: "▲", O: "◆" };
const ORDER = "RANO";

const root = $("rummy");
const setsEl = $("sets");
const rackEl = $("rack");
const doneBtn = $("done");
const drawBtn = $("draw");
const undoBtn = $("undo");
const hintBtn = $("hint");

let seats = [];
let mySeat = null;
let view = null;
let draft = null;        // {sets: [[tile]], rack: [tile]}; a tile is {id, code, fromTable}
let baseKey = "";        // the table the draft started from
let report = null;       // the server's answer for the current draft
let draftNo = 0;         // bumps on every change; the check reply carries it back
let selected = null;     // id of the picked tile (pick and place)
let rackSort = localStorage.getItem("rummy.sort") || "colour";
let nextId = 0;
let waiting = false;
let shownHand = null;    // the last hand summary shown

const isJoker = (code) => code.startsWith("J");
const numOf = (code) => (isJoker(code) ? 0 : Number(code.slice(0, -1)));
const colOf = (code) => (isJoker(code) ? "" : code.slice(-1));
const tileName = (code) => (isJoker(code) ? _("comodín") : `${numOf(code)} ${COLOURS[colOf(code)]}`);
const nameOf = (seat) => (seats[seat] ? (seats[seat].you ? _("Tú") : seats[seat].name) : `#${seat + 1}`);
const myTurn = () => view && !view.result && view.turn === mySeat;
const tableKey = (sets) => JSON.stringify(sets.map((s) => s.map((t) => t.code)));

// --- the draft ---------------------------------------------------------------------

function resetDraft() {
  nextId = 0;
  draft = {
    sets: view.table.map((s) => s.map((code) => ({ id: nextId++, code, fromTable: true }))),
    rack: view.rack.map((code) => ({ id: nextId++, code, fromTable: false })),
  };
  baseKey = tableKey(draft.sets);
  report = null;
  selected = null;
  sortRack();
}

function changed() { return draft && tableKey(draft.sets) !== baseKey; }

function find(id) {
  for (const s of draft.sets) { const i = s.findIndex((t) => t.id === id); if (i >= 0) return [s, i]; }
  const i = draft.rack.findIndex((t) => t.id === id);
  return i >= 0 ? [draft.rack, i] : [null, -1];
}

function take(id) {
  const [list, i] = find(id);
  return list ? list.splice(i, 1)[0] : null;
}

// Put the numbered tiles of a run in order, leaving jokers where the player put them.
function arrange(set) {
  const nums = set.filter((t) => !isJoker(t.code));
  if (nums.length >= 2 && nums.every((t) => numOf(t.code) === numOf(nums[0].code))) return set;
  const sorted = [...nums].sort((a, b) => numOf(a.code) - numOf(b.code));
  let k = 0;
  return set.map((t) => (isJoker(t.code) ? t : sorted[k++]));
}

/** Move tile `id` to a target: {set, before} | {set, end} | {newSet} | {rack}. */
function moveTo(id, target) {
  const [, idx] = find(id);
  if (idx < 0 || !myTurn()) return false;
  const tile = find(id)[0][idx];
  if (target.rack && tile.fromTable) { toast(_("Esa ficha ya estaba en la mesa: no puede volver a tu atril.")); return false; }
  take(id);
  if (target.rack) draft.rack.push(tile);
  else if (target.newSet) draft.sets.push([tile]);
  else {
    const set = draft.sets[target.set];
    if (!set) { draft.rack.push(tile); return false; }
    let at = set.length;
    if (target.before !== undefined) {
      at = set.findIndex((t) => t.id === target.before);
      if (at < 0) at = set.length;
      if (target.after) at += 1;
    }
    set.splice(at, 0, tile);
  }
  draft.sets = draft.sets.filter((s) => s.length).map(arrange);
  selected = null;
  afterChange();
  return true;
}

function afterChange() {
  draftNo += 1;
  report = null;
  render();
  clearTimeout(afterChange.timer);
  if (changed()) afterChange.timer = setTimeout(sendCheck, 120);
}

function sendCheck() {
  sock.send({ type: "check", table: draft.sets.map((s) => s.map((t) => t.code)), ref: draftNo });
}

function sortRack() {
  const key = rackSort === "number"
    ? (t) => [isJoker(t.code) ? 99 : numOf(t.code), ORDER.indexOf(colOf(t.code))]
    : (t) => [isJoker(t.code) ? 9 : ORDER.indexOf(colOf(t.code)), numOf(t.code)];
  draft.rack.sort((a, b) => { const x = key(a), y = key(b); return x[0] - y[0] || x[1] - y[1]; });
}

// --- rendering ---------------------------------------------------------------------

function tileEl(t, where) {
  const el = document.createElement("button");
  el.type = "button";
  const j = isJoker(t.code);
  el.className = `tile ${j ? "joker" : `c-${colOf(t.code)}`}${t.id === selected ? " picked" : ""}${!t.fromTable && where === "set" ? " fresh" : ""}`;
  el.dataset.id = t.id;
  el.dataset.code = t.code;
  el.setAttribute("aria-label", tileName(t.code) + (t.id === selected ? `, ${_("elegida")}` : ""));
  el.setAttribute("aria-pressed", String(t.id === selected));
  el.innerHTML = j ? `<span class="n">★</span><span class="m">${_("COMODÍN")}</span>`
    : `<span class="n">${numOf(t.code)}</span><span class="m" aria-hidden="true">${MARKS[colOf(t.code)]}</span>`;
  el.disabled = !myTurn() && where !== "view";
  return el;
}

function render() {
  if (!view) return;
  $("turn-label").textContent = view.result ? _("Partida terminada")
    : (myTurn() ? _("Te toca") : _("Turno de {name}", { name: nameOf(view.turn) }));
  $("hand-label").textContent = `${_("Mano {n} de {of}", { n: view.hand, of: view.hands })} · ${_("Pozo: {n}", { n: view.pool })}`;
  root.classList.toggle("my-turn", myTurn());
  renderPlayers();
  renderSets();
  renderRack();
  renderActions();
  renderLog();
  maybeSummary();
}

function renderPlayers() {
  $("players").replaceChildren(...seats.map((s) => {
    const el = document.createElement("div");
    el.className = `rm-player${view.turn === s.seat && !view.result ? " active" : ""}${s.seat === mySeat ? " me" : ""}`;
    const melded = view.melded[s.seat] ? `<span class="badge-ok">${_("ha bajado")}</span>` : "";
    el.innerHTML = `<strong></strong><span class="count"></span><span class="score"></span>${melded}`;
    el.querySelector("strong").textContent = nameOf(s.seat);
    el.querySelector(".count").textContent = _("{n} fichas", { n: view.counts[s.seat] });
    el.querySelector(".score").textContent = _("{n} ptos.", { n: view.scores[s.seat] });
    return el;
  }));
}

function renderSets() {
  const sets = draft.sets.map((set, i) => {
    const box = document.createElement("div");
    const info = report && report.sets[i];
    box.className = `set${info ? (info.valid ? " valid" : " invalid") : ""}`;
    box.dataset.set = i;
    box.setAttribute("role", "group");
    const label = set.map((t) => t.code).join(" ");
    box.setAttribute("aria-label", `${_("Combinación {n}", { n: i + 1 })}: ${label}${info && !info.valid ? `. ${info.reason}` : ""}`);
    set.forEach((t) => box.appendChild(tileEl(t, "set")));
    if (myTurn()) {
      const slot = document.createElement("button");
      slot.type = "button";
      slot.className = "slot";
      slot.dataset.set = i;
      slot.textContent = "+";
      slot.setAttribute("aria-label", _("Poner la ficha elegida al final de la combinación {n}", { n: i + 1 }));
      slot.disabled = selected === null;
      box.appendChild(slot);
    }
    if (info && !info.valid) {
      const why = document.createElement("p");
      why.className = "set-why";
      why.textContent = info.reason;
      box.appendChild(why);
    } else if (info && info.valid) {
      box.title = _("Vale {n} puntos", { n: info.value });
    }
    return box;
  });
  if (myTurn()) {
    const zone = document.createElement("button");
    zone.type = "button";
    zone.className = "set new-set";
    zone.dataset.newset = "1";
    zone.textContent = _("+ Nueva combinación");
    zone.disabled = selected === null && !dragging;
    sets.push(zone);
  }
  if (!draft.sets.length) {
    const empty = document.createElement("p");
    empty.className = "empty-table";
    empty.textContent = _("La mesa está vacía: la primera bajada necesita 30 puntos.");
    sets.push(empty);
  }
  setsEl.replaceChildren(...sets);
  const problems = $("problems");
  const errs = report ? report.errors.filter((e) => e.code !== "invalid_set") : [];
  problems.textContent = errs.map((e) => e.message).join(" ");
}

function renderRack() {
  rackEl.replaceChildren(...draft.rack.map((t) => tileEl(t, "rack")));
  rackEl.classList.toggle("drop-ok", selected !== null);
  const meld = $("meld");
  if (!view.melded[mySeat] && myTurn()) {
    const pts = report ? report.meld_points : 0;
    meld.textContent = _("Bajada: {n} / 30", { n: pts });
    meld.className = `meld${pts >= 30 ? " ok" : ""}`;
  } else meld.textContent = "";
}

function renderActions() {
  const mine = myTurn();
  const dirty = changed();
  const ok = dirty && report && report.ok && report.ref === draftNo;
  doneBtn.disabled = !ok || waiting;
  undoBtn.disabled = !dirty || waiting;
  const legal = view.legal || [];
  const canPass = legal.some((m) => m.type === "pass");
  drawBtn.textContent = canPass ? _("Pasar") : _("Robar");
  drawBtn.disabled = !mine || waiting || !legal.length;
  hintBtn.hidden = !mine;
  let help = "";
  if (view.result) help = "";
  else if (!mine) help = _("Espera tu turno.");
  else if (dirty && report && !report.ok) help = report.errors[0].message;
  else if (dirty && ok) help = _("Todo correcto: pulsa «Terminar turno».");
  else if (selected !== null) help = _("¿Dónde la pones? Toca una combinación, «Nueva combinación» o tu atril.");
  else help = view.melded[mySeat] ? _("Coloca fichas en la mesa (puedes reorganizarla) o roba.") : _("Tu bajada inicial: combinaciones nuevas de tu atril que sumen 30 o más. O roba.");
  $("help").textContent = help;
}

function describe(e) {
  if (e.t === "play") {
    const tiles = e.tiles.length === 1 ? _("1 ficha") : _("{n} fichas", { n: e.tiles.length });
    const who = e.seat === mySeat ? _("Pones {tiles}", { tiles }) : _("{name} pone {tiles}", { name: nameOf(e.seat), tiles });
    return e.meld ? `${who} ${_("(bajada de {n})", { n: e.meld })}` : who;
  }
  if (e.t === "draw") return e.seat === mySeat ? _("Robas") : _("{name} roba", { name: nameOf(e.seat) });
  if (e.t === "pass") return _("{name} pasa", { name: nameOf(e.seat) });
  return "";
}

function renderLog() {
  $("log").replaceChildren(...view.log.slice(-4).reverse().map((e) => {
    const li = document.createElement("li");
    li.textContent = describe(e);
    if (e.seat === mySeat) li.className = "mine";
    return li;
  }));
}

function maybeSummary() {
  const box = $("summary");
  const last = view.last_hand;
  const key = last ? `${last.hand}:${view.result ? "end" : ""}` : null;
  if (!last || key === shownHand) return;
  shownHand = key;
  const won = last.winners.map(nameOf).join(", ");
  $("summary-title").textContent = view.result
    ? (view.result.winners.includes(mySeat) ? _("¡Has ganado la partida!") : _("Gana {name}", { name: view.result.winners.map(nameOf).join(", ") }))
    : _("Fin de la mano {n}", { n: last.hand });
  const mine = last.winners.length === 1 && last.winners[0] === mySeat;
  $("summary-text").textContent = last.blocked
    ? (mine ? _("El pozo se agotó y todos pasaron: ganas con menos puntos.") : _("El pozo se agotó y todos pasaron: gana quien tiene menos puntos ({name}).", { name: won }))
    : (mine ? _("Te quedaste sin fichas.") : _("{name} se quedó sin fichas.", { name: won }));
  $("summary-list").replaceChildren(...last.delta.map((d, seat) => {
    const li = document.createElement("li");
    const signed = d > 0 ? `+${d}` : String(d);
    li.textContent = _("{name}: {d} (total {total})", { name: nameOf(seat), d: signed, total: last.scores[seat] });
    if (last.winners.includes(seat)) li.className = "winner";
    return li;
  }));
  $("summary-next").hidden = !!view.result;
  $("summary-end").hidden = !view.result;
  box.hidden = false;
  (view.result ? $("again") : $("summary-ok")).focus();
}
$("summary-ok").addEventListener("click", () => { $("summary").hidden = true; });

// --- input: pick and place ---------------------------------------------------------

function targetOf(el, x) {
  if (!el) return null;
  const tile = el.closest(".tile");
  const set = el.closest(".set");
  if (el.closest(".new-set")) return { newSet: true };
  if (set && set.dataset.set !== undefined) {
    const i = Number(set.dataset.set);
    if (tile && set.contains(tile)) {
      const r = tile.getBoundingClientRect();
      return { set: i, before: Number(tile.dataset.id), after: x !== undefined && x > r.left + r.width / 2 };
    }
    return { set: i, end: true };
  }
  if (el.closest("#rack") || el.closest(".rm-me")) return { rack: true };
  return null;
}

function clickTile(id, el) {
  if (!myTurn()) return;
  if (selected === null || selected === id) {
    selected = selected === id ? null : id;
    render();
    focusTile(id);
    return;
  }
  const target = targetOf(el);
  if (target && target.set !== undefined) moveTo(selected, { set: target.set, before: id });
  else { selected = id; render(); focusTile(id); }
}

function focusTile(id) {
  const el = root.querySelector(`.tile[data-id="${id}"]`);
  if (el) el.focus();
}

root.addEventListener("click", (ev) => {
  if (suppressClick) { suppressClick = false; return; }
  const el = ev.target;
  const tile = el.closest(".tile");
  if (tile) { clickTile(Number(tile.dataset.id), tile); return; }
  if (selected === null) return;
  if (el.closest(".slot")) moveTo(selected, { set: Number(el.closest(".slot").dataset.set) });
  else if (el.closest(".new-set")) moveTo(selected, { newSet: true });
  else if (el.closest("#rack")) moveTo(selected, { rack: true });
});

document.addEventListener("keydown", (ev) => {
  if (ev.key === "Escape" && selected !== null) { selected = null; render(); }
  else if (ev.key.toLowerCase() === "r" && !ev.ctrlKey && selected !== null && ev.target.tagName !== "INPUT") {
    moveTo(selected, { rack: true });
  }
});

// --- input: drag and drop (mouse and touch, through pointer events) -----------------

let dragging = null;     // {id, ghost, startX, startY, moved}
let suppressClick = false;

root.addEventListener("pointerdown", (ev) => {
  const tile = ev.target.closest(".tile");
  if (!tile || !myTurn() || ev.button > 0) return;
  dragging = { id: Number(tile.dataset.id), el: tile, startX: ev.clientX, startY: ev.clientY, moved: false, ghost: null };
});

window.addEventListener("pointermove", (ev) => {
  if (!dragging) return;
  const dx = ev.clientX - dragging.startX, dy = ev.clientY - dragging.startY;
  if (!dragging.moved && Math.hypot(dx, dy) < 8) return;
  if (!dragging.moved) {
    dragging.moved = true;
    const g = dragging.el.cloneNode(true);
    g.classList.add("ghost");
    document.body.appendChild(g);
    dragging.ghost = g;
    dragging.el.classList.add("lifted");
    setsEl.classList.add("dragging");
  }
  ev.preventDefault();
  dragging.ghost.style.left = `${ev.clientX - 22}px`;
  dragging.ghost.style.top = `${ev.clientY - 30}px`;
  root.querySelectorAll(".drop-target").forEach((x) => x.classList.remove("drop-target"));
  const under = document.elementFromPoint(ev.clientX, ev.clientY);
  const hit = under && (under.closest(".set") || under.closest("#rack"));
  if (hit) hit.classList.add("drop-target");
}, { passive: false });

window.addEventListener("pointerup", (ev) => {
  if (!dragging) return;
  const d = dragging;
  dragging = null;
  setsEl.classList.remove("dragging");
  if (!d.moved) return;
  suppressClick = true;
  setTimeout(() => { suppressClick = false; }, 0);
  d.ghost.remove();
  const under = document.elementFromPoint(ev.clientX, ev.clientY);
  const target = targetOf(under, ev.clientX);
  if (!target || (target.before === d.id)) { render(); return; }
  if (!moveTo(d.id, target)) render();
});

// --- buttons -----------------------------------------------------------------------

$("sort-number").addEventListener("click", () => { rackSort = "number"; localStorage.setItem("rummy.sort", rackSort); sortRack(); render(); });
$("sort-colour").addEventListener("click", () => { rackSort = "colour"; localStorage.setItem("rummy.sort", rackSort); sortRack(); render(); });
undoBtn.addEventListener("click", () => { resetDraft(); afterChange(); });
doneBtn.addEventListener("click", () => {
  if (doneBtn.disabled) return;
  if (sock.move({ type: "play", table: draft.sets.map((s) => s.map((t) => t.code)) })) { waiting = true; render(); }
});
drawBtn.addEventListener("click", () => {
  const m = (view.legal || [])[0];
  if (m && sock.move(m)) { waiting = true; render(); }
});
hintBtn.addEventListener("click", () => sock.send({ type: "hint" }));

function applyHint(table) {
  resetDraft();
  const pool = [...draft.sets.flat(), ...draft.rack];
  const used = new Set();
  const pick = (code) => {
    const t = pool.find((x) => x.code === code && !used.has(x.id) && x.fromTable) || pool.find((x) => x.code === code && !used.has(x.id));
    used.add(t.id);
    return t;
  };
  draft.sets = table.map((s) => s.map(pick));
  draft.rack = draft.rack.filter((t) => !used.has(t.id));
  afterChange();
}


// --- the socket --------------------------------------------------------------------

let turnKey = null;
function adopt(v) {
  view = v;
  const key = `${v.hand}:${v.turns}:${v.turn}`;
  if (key !== turnKey || !draft || !myTurn()) { turnKey = key; resetDraft(); }
}

const sock = new GameSocket(root.dataset.game, {
  message(msg) {
    $("conn").hidden = true;
    if (msg.type === "joined") {
      seats = msg.seats; mySeat = msg.seat; waiting = false;
      if (msg.view.last_hand) shownHand = `${msg.view.last_hand.hand}:${msg.view.result ? "end" : ""}`;
      adopt(msg.view);
    } else if (msg.type === "update" || msg.type === "sync") {
      if (msg.seat === mySeat || msg.type === "sync") waiting = false;
      adopt(msg.view);
    } else if (msg.type === "checked") {
      if (msg.ref !== draftNo) return;
      report = { ...msg.report, ref: msg.ref };
    } else if (msg.type === "hint") {
      if (msg.move && msg.move.type === "play") applyHint(msg.move.table); else toast(_("No hay jugada: roba (o pasa)."));
      return;
    } else if (msg.type === "error") {
      waiting = false;
      if (msg.sync) adopt(msg.sync.view);
      if (msg.code !== "stale_version") toast(msg.message);
    } else return;
    render();
  },
  offline() { $("conn").textContent = _("Sin conexión. Reconectando…"); $("conn").hidden = false; waiting = false; },
});
window.__tapete = {
  get view() { return view; },
  get draft() { return draft; },
  get report() { return report; },
  moveTo, pick(id) { selected = id; render(); },
};
