// Rummy de fichas: the player builds a draft of the whole table (drag and drop, pick and
// place with clicks, or the keyboard); the server checks every draft and says, as codes,
// what is wrong (each problem already in the player's words), what the meld is worth and
// how each set reads. This page draws the views and the reports and names tiles in the
// page's language; it knows no rule. The table
// controller (table.js) does the socket, names, the offline banner and the end dialog. A
// spectator (no seat: the view has no rack) sees the players and the table, no rack.
import "./touch.js";
import { Table, newEntries } from "./table.js";
import { $, _, fmt, ngettext, pageData, toast } from "./ui.js";

// --- names: the page's words, from the server (tapete/games/rummy/names.py, page_words) --

const WORDS = pageData("tapete-words");
const MARKS = WORDS.marks; // each colour's shape, so a colour is never told by colour alone
const ORDER = WORDS.colours; // the order the rack is sorted in
const JOKER_WORD = _("COMODÍN");
const JOKER_FACE = `<span class="n">★</span><span class="m">${JOKER_WORD}</span>`;

const isJoker = (code) => code.startsWith("J");
const numOf = (code) => (isJoker(code) ? 0 : Number(code.slice(0, -1)));
const colOf = (code) => (isJoker(code) ? "" : code.slice(-1));
const tileName = (code) => (isJoker(code) ? WORDS.joker : fmt(WORDS.tile[colOf(code)], { n: numOf(code) }));
const theTile = (code) => (isJoker(code) ? WORDS.the_joker : fmt(WORDS.the_tile[colOf(code)], { n: numOf(code) }));

// --- the page ------------------------------------------------------------------------

const root = $("rummy");
const setsEl = $("sets");
const rackEl = $("rack");
const doneBtn = $("done");
const drawBtn = $("draw");
const undoBtn = $("undo");
const hintBtn = $("hint");

let view = null;
let mySeat = null;
let draft = null;        // {sets: [[tile]], rack: [tile]}; a tile is {id, code, fromTable}
let baseKey = "";        // the table the draft started from
let report = null;       // the server's answer for the current draft
let draftNo = 0;         // bumps on every change; the check reply carries it back
let selected = null;     // id of the picked tile (pick and place)
let lastSet = null;      // the set a tile was last put in (the keyboard's «A» adds there)
let rackSort = localStorage.getItem("rummy.sort") || "colour";
let nextId = 0;
let turnKey = null;
let wantFocus = null;    // a tile or slot (data-key) to focus after the next render

const nameOf = (seat) => table.nameOf(seat);
const myTurn = () => !!view && !view.result && !view.waiting.length && view.turn === mySeat;
const codesOf = (sets) => sets.map((s) => s.map((t) => t.code));
const tableKey = (sets) => JSON.stringify(codesOf(sets));

// --- the draft -----------------------------------------------------------------------

function resetDraft(saved = null) {
  nextId = 0;
  const onTable = view.table.map((s) => s.map((code) => ({ id: nextId++, code, fromTable: true })));
  const rack = (view.rack || []).map((code) => ({ id: nextId++, code, fromTable: false }));
  draft = { sets: onTable, rack };
  baseKey = tableKey(onTable);
  if (saved) { // a draft the server kept for this turn (a reload): rebuild it from our tiles
    const pool = [...onTable.flat(), ...rack];
    const used = new Set();
    const pick = (code) => {
      const t = pool.find((x) => x.code === code && !used.has(x.id) && x.fromTable)
        || pool.find((x) => x.code === code && !used.has(x.id));
      if (t) used.add(t.id);
      return t;
    };
    const sets = saved.map((s) => s.map(pick));
    if (sets.every((s) => s.every(Boolean))) {
      draft.sets = sets;
      draft.rack = pool.filter((t) => !used.has(t.id));
    }
  }
  report = null;
  selected = null;
  lastSet = null;
  sortRack();
}

function changed() { return !!draft && tableKey(draft.sets) !== baseKey; }

function find(id) {
  for (const s of draft.sets) { const i = s.findIndex((t) => t.id === id); if (i >= 0) return [s, i]; }
  const i = draft.rack.findIndex((t) => t.id === id);
  return i >= 0 ? [draft.rack, i] : [null, -1];
}

/** Move tile `id` to a target: {set, before, after} | {set} (the end) | {newSet} | {rack}. */
function moveTo(id, target) {
  const [list, idx] = find(id);
  if (!list || !myTurn()) return false;
  const [tile] = list.splice(idx, 1);
  let into = null;
  if (target.rack) draft.rack.push(tile);
  else if (target.newSet) { draft.sets.push([tile]); into = draft.sets[draft.sets.length - 1]; }
  else {
    into = draft.sets[target.set];
    if (!into) { list.splice(idx, 0, tile); return false; }
    let at = into.length;
    if (target.before !== undefined) {
      at = into.findIndex((t) => t.id === target.before);
      if (at < 0) at = into.length;
      if (target.after) at += 1;
    }
    into.splice(at, 0, tile);
  }
  draft.sets = draft.sets.filter((s) => s.length);
  lastSet = into ? draft.sets.indexOf(into) : lastSet;
  if (lastSet !== null && lastSet >= draft.sets.length) lastSet = null;
  selected = null;
  afterChange();
  return true;
}

function afterChange() {
  draftNo += 1;
  report = null;
  render();
  clearTimeout(afterChange.timer);
  afterChange.timer = setTimeout(sendCheck, 120); // the room keeps it: a reload gives it back
}

function sendCheck() {
  if (myTurn()) table.send({ type: "check", table: codesOf(draft.sets), ref: draftNo });
}

/** The server's report on the draft: keep it, and show each set in the order it reads. */
function checked(msg) {
  if (msg.ref !== draftNo || !draft) return;
  let tidied = false;
  msg.report.sets.forEach((info, i) => {
    const set = draft.sets[i];
    if (!info.tidy || !set) return;
    const left = [...set];
    draft.sets[i] = info.tidy.map((code) => left.splice(left.findIndex((t) => t.code === code), 1)[0]);
    tidied = true;
  });
  if (tidied) { afterChange(); return; }
  report = { ...msg.report, ref: msg.ref };
  render();
}

function sortRack() {
  const key = rackSort === "number"
    ? (t) => [isJoker(t.code) ? 99 : numOf(t.code), ORDER.indexOf(colOf(t.code))]
    : (t) => [isJoker(t.code) ? 9 : ORDER.indexOf(colOf(t.code)), numOf(t.code)];
  draft.rack.sort((a, b) => { const x = key(a), y = key(b); return x[0] - y[0] || x[1] - y[1]; });
}

// --- rendering -----------------------------------------------------------------------

function tileEl(t, where) {
  const el = document.createElement("button");
  el.type = "button";
  const j = isJoker(t.code);
  el.className = `tile ${j ? "joker" : `c-${colOf(t.code)}`}${t.id === selected ? " picked" : ""}${!t.fromTable && where === "set" ? " fresh" : ""}`;
  el.dataset.id = t.id;
  el.dataset.code = t.code;
  el.dataset.key = `t${t.id}`;
  el.tabIndex = -1;
  const picked = _("elegida");
  el.setAttribute("aria-label", t.id === selected ? `${tileName(t.code)}, ${picked}` : tileName(t.code));
  el.setAttribute("aria-pressed", String(t.id === selected));
  const face = j ? JOKER_FACE : `<span class="n">${numOf(t.code)}</span><span class="m" aria-hidden="true">${MARKS[colOf(t.code)]}</span>`;
  el.innerHTML = face;
  el.disabled = !myTurn() || table.replaying;
  return el;
}

function render() {
  if (!view || !draft) return;
  // the felt is drawn anew: the tile (or slot) that had the focus gets it back
  const active = document.activeElement;
  const focusKey = wantFocus || (active && root.contains(active) ? active.dataset.key : null);
  wantFocus = null;
  $("turn-label").textContent = view.result ? _("Partida terminada")
    : view.waiting.length ? _("Fin de la mano {n}", { n: view.last_hand.hand })
      : (myTurn() ? _("Te toca") : _("Turno de {name}", { name: nameOf(view.turn) }));
  const hand = _("Mano {n} de {of}", { n: view.hand, of: view.hands });
  const pool = _("Pozo: {n}", { n: view.pool });
  $("hand-label").textContent = `${hand} · ${pool}`;
  root.classList.toggle("my-turn", myTurn());
  renderPlayers();
  renderSets();
  renderRack();
  renderActions();
  renderLog();
  roving();
  if (focusKey) {
    const el = root.querySelector(`[data-key="${focusKey}"]`);
    if (el && !el.disabled) el.focus();
  }
  renderHandEnd();
  if (view.result) showEnd(); else table.hideEnd();
}

function renderPlayers() {
  $("players").replaceChildren(...table.seats.map((s) => {
    const el = document.createElement("div");
    el.className = `rm-player${view.turn === s.seat && myTurnOf(s.seat) ? " active" : ""}${s.seat === mySeat ? " me" : ""}`;
    el.innerHTML = `<strong></strong><span class="count"></span><span class="score"></span>`;
    if (view.melded[s.seat]) {
      const badge = document.createElement("span");
      badge.className = "badge-ok";
      badge.textContent = _("ha bajado");
      el.appendChild(badge);
    }
    el.querySelector("strong").textContent = nameOf(s.seat);
    if (s.worn) el.prepend(table.avatarOf(s.seat)); // (among friends: their avatar, their frame)
    el.querySelector(".count").textContent = ngettext("{n} ficha", "{n} fichas", view.counts[s.seat]);
    el.querySelector(".score").textContent = _("{n} ptos.", { n: view.scores[s.seat] });
    const open = s.seat !== mySeat && view.revealed?.racks?.[s.seat]; // (a replay: the rack the table hid)
    if (open) {
      const rack = document.createElement("span");
      rack.className = "rm-open";
      rack.setAttribute("role", "img");
      rack.setAttribute("aria-label", open.map(tileName).join(", "));
      rack.append(...open.map((code) => {
        const t = document.createElement("span");
        t.className = `tile mini ${isJoker(code) ? "joker" : `c-${colOf(code)}`}`;
        t.textContent = isJoker(code) ? "★" : String(numOf(code));
        if (!isJoker(code)) { // (its colour's mark, as on every tile: never the colour alone)
          const m = document.createElement("span");
          m.className = "m";
          m.textContent = MARKS[colOf(code)];
          t.append(m);
        }
        t.setAttribute("aria-hidden", "true");
        return t;
      }));
      el.appendChild(rack);
    }
    return el;
  }));
}
const myTurnOf = (seat) => !view.result && !view.waiting.length && view.turn === seat;

function renderSets() {
  const mine = myTurn();
  const sets = draft.sets.map((set, i) => {
    const box = document.createElement("div");
    const info = report && report.sets[i];
    box.className = `set${info ? (info.valid ? " valid" : " invalid") : ""}${mine && i === lastSet ? " last" : ""}`;
    box.dataset.set = i;
    box.setAttribute("role", "group");
    const why = info && !info.valid ? info.why : "";
    const label = set.map((t) => tileName(t.code)).join(", ");
    const title = _("Combinación {n}", { n: i + 1 });
    box.setAttribute("aria-label", why ? `${title}: ${label}. ${why}` : `${title}: ${label}`);
    set.forEach((t) => box.appendChild(tileEl(t, "set")));
    if (mine) {
      const slot = document.createElement("button");
      slot.type = "button";
      slot.className = "slot";
      slot.dataset.set = i;
      slot.dataset.key = `s${i}`;
      slot.tabIndex = -1;
      slot.textContent = "+";
      slot.setAttribute("aria-label", _("Poner la ficha elegida al final de la combinación {n}", { n: i + 1 }));
      slot.disabled = selected === null;
      box.appendChild(slot);
    }
    if (why) {
      const p = document.createElement("p");
      p.className = "set-why";
      p.textContent = why;
      box.appendChild(p);
    } else if (info && info.valid) {
      box.title = _("Vale {n} puntos", { n: info.value });
    }
    return box;
  });
  if (mine) {
    const zone = document.createElement("button");
    zone.type = "button";
    zone.className = "set new-set";
    zone.dataset.newset = "1";
    zone.dataset.key = "new";
    zone.tabIndex = -1;
    zone.textContent = _("+ Nueva combinación");
    zone.disabled = selected === null && !dragging;
    sets.push(zone);
  }
  if (!draft.sets.length) {
    const empty = document.createElement("p");
    empty.className = "empty-table";
    empty.textContent = _("La mesa está vacía: la primera bajada necesita {n} puntos.", { n: view.meld_needed });
    sets.push(empty);
  }
  setsEl.replaceChildren(...sets);
  const errs = report && mine ? report.errors.filter((e) => e.code !== "invalid_set") : [];
  $("problems").textContent = errs.map((e) => e.message).join(" ");
}

function renderRack() {
  rackEl.replaceChildren(...draft.rack.map((t) => tileEl(t, "rack")));
  rackEl.classList.toggle("drop-ok", selected !== null);
  const meld = $("meld");
  if (!view.melded[mySeat] && myTurn()) {
    meld.textContent = _("Bajada: {n} / {needed}", { n: report ? report.meld_points : 0, needed: view.meld_needed });
    meld.className = `meld${report && report.meld_enough ? " ok" : ""}`;
  } else meld.textContent = "";
}

function renderActions() {
  const mine = myTurn();
  const dirty = changed();
  const ok = dirty && report && report.ok && report.ref === draftNo;
  off(doneBtn, !ok || table.waiting);
  off(undoBtn, !dirty || table.waiting);
  const legal = view.legal || [];
  const canPass = legal.some((m) => m.type === "pass");
  drawBtn.textContent = canPass ? _("Pasar") : _("Robar");
  off(drawBtn, !mine || table.waiting || !legal.some((m) => m.type === "draw" || m.type === "pass"));
  hintBtn.hidden = !mine || !!table.room; // no hints among friends
  let help = "";
  if (view.result || view.waiting.length) help = "";
  else if (!mine) help = _("Espera tu turno.");
  else if (dirty && report && !report.ok) help = report.errors[0].message;
  else if (dirty && ok) help = _("Todo correcto: pulsa «Terminar turno».");
  else if (selected !== null) help = _("¿Dónde la pones? Toca una combinación, «Nueva combinación» o tu atril.");
  else help = view.melded[mySeat] ? _("Coloca fichas en la mesa (puedes reorganizarla) o roba.")
    : _("Tu bajada inicial: combinaciones nuevas de tu atril que sumen {n} o más. O roba.", { n: view.meld_needed });
  $("help").textContent = help;
}

/** A button that cannot act now: marked, not `disabled`, so the keyboard focus stays on it. */
function off(btn, yes) {
  btn.disabled = false;
  btn.setAttribute("aria-disabled", String(yes));
}
const isOff = (btn) => btn.getAttribute("aria-disabled") === "true";

function describe(e) {
  if (e.t === "play") {
    const tiles = ngettext("{n} ficha", "{n} fichas", e.tiles.length);
    const who = e.seat === mySeat ? _("Pones {tiles}", { tiles }) : _("{name} pone {tiles}", { name: nameOf(e.seat), tiles });
    const meld = e.meld ? _("(bajada de {n})", { n: e.meld }) : "";
    return meld ? `${who} ${meld}` : who;
  }
  if (e.t === "draw") return e.seat === mySeat ? _("Robas") : _("{name} roba", { name: nameOf(e.seat) });
  if (e.t === "pass") return e.seat === mySeat ? _("Pasas") : _("{name} pasa", { name: nameOf(e.seat) });
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

// the end of a hand and of the match

function handText(last) {
  const won = last.winners.map(nameOf).join(", ");
  const mine = last.winners.length === 1 && last.winners[0] === mySeat;
  if (last.blocked) {
    return mine ? _("El pozo se agotó y todos pasaron: ganas con menos puntos.")
      : _("El pozo se agotó y todos pasaron: gana quien tiene menos puntos ({name}).", { name: won });
  }
  return mine ? _("Te quedaste sin fichas.") : _("{name} se quedó sin fichas.", { name: won });
}

const signed = (d) => (d > 0 ? `+${d}` : String(d));

function handRows(last, totals) {
  return last.delta.map((d, seat) => ({
    text: _("{name}: {d} (total {total})", { name: nameOf(seat), d: signed(d), total: totals[seat] }),
    winner: last.winners.includes(seat),
  }));
}

let shownWait = null; // the hand whose summary got the focus
function renderHandEnd() {
  const box = $("summary");
  const last = view.last_hand;
  if (!view.waiting.length || !last || view.result) { box.hidden = true; shownWait = null; return; }
  $("summary-title").textContent = _("Fin de la mano {n}", { n: last.hand });
  $("summary-text").textContent = handText(last);
  $("summary-list").replaceChildren(...handRows(last, last.scores).map((row) => {
    const li = document.createElement("li");
    li.textContent = row.text;
    if (row.winner) li.className = "winner";
    return li;
  }));
  const left = $("summary-racks");
  left.replaceChildren(...last.racks.map((rack, seat) => {
    const li = document.createElement("li");
    li.textContent = rack
      ? _("{name} se queda con {tiles}", { name: nameOf(seat), tiles: rack.split(" ").map(tileName).join(", ") })
      : _("{name}: ninguna ficha", { name: nameOf(seat) });
    return li;
  }));
  const ready = !(view.legal || []).some((m) => m.type === "next"); // (a device passed round: for everyone)
  const ok = $("summary-ok");
  ok.hidden = ready;
  $("summary-wait").hidden = !ready;
  box.hidden = false;
  if (shownWait !== last.hand && !ready) { shownWait = last.hand; ok.focus(); }
}

function showEnd() {
  const r = view.result;
  const last = view.last_hand;
  const you = r.winners.includes(mySeat);
  table.showEnd({
    title: you ? _("¡Has ganado la partida!") : _("Gana {name}", { name: r.winners.map(nameOf).join(", ") }),
    reason: last ? handText(last) : "",
    stats: r.hands > 1 ? ngettext("{n} mano", "{n} manos", r.hands) : "",
    rows: last ? handRows(last, r.scores) : [],
    won: you,
  });
}

// --- input: pick and place -----------------------------------------------------------

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
    return { set: i };
  }
  if (el.closest("#rack") || el.closest(".rm-me")) return { rack: true };
  return null;
}

function clickTile(id, el) {
  if (!myTurn()) return;
  if (selected === null || selected === id) {
    selected = selected === id ? null : id;
    wantFocus = `t${id}`;
    render();
    return;
  }
  const target = targetOf(el);
  if (target && target.set !== undefined) moveTo(selected, { set: target.set, before: id });
  else if (target && target.rack) moveTo(selected, { rack: true });
  else { selected = id; render(); }
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

// --- input: the keyboard -------------------------------------------------------------
// The rack and the table are one Tab stop each (a roving tabindex); the arrows move inside
// them: ←/→ along the rack or a set, ↑/↓ from set to set (and between the table and the
// rack). Enter or Space picks a tile and places the picked one; N puts the picked (or
// focused) rack tile in a new set, A adds it to the end of the set last placed in, R sends
// it back to the rack, Esc drops it.

let rackCursor = 0;
let tableCursor = null; // data-key of the table's Tab stop

function tableItems() {
  return [...setsEl.querySelectorAll(".set[data-set]")].map((box) => [...box.querySelectorAll(".tile, .slot")]);
}

function roving() {
  const rack = [...rackEl.querySelectorAll(".tile")];
  rackCursor = Math.max(0, Math.min(rackCursor, rack.length - 1));
  rack.forEach((el, i) => { el.tabIndex = i === rackCursor ? 0 : -1; });
  const all = [...setsEl.querySelectorAll(".tile, .slot, .new-set")].filter((el) => !el.disabled);
  const stop = all.find((el) => el.dataset.key === tableCursor) || all[0];
  all.forEach((el) => { el.tabIndex = el === stop ? 0 : -1; });
}

function focusEl(el) {
  if (!el) return;
  if (rackEl.contains(el)) rackCursor = [...rackEl.querySelectorAll(".tile")].indexOf(el);
  else tableCursor = el.dataset.key;
  roving();
  el.focus();
}

/** The tile the keyboard's N, A and R act on: the picked one, or the focused one. */
function keyTile(el) {
  if (selected !== null) return selected;
  const tile = el && el.closest && el.closest(".tile");
  return tile ? Number(tile.dataset.id) : null;
}

/** After placing from the rack, the focus stays where it was, on the next tile. */
function keepRackFocus(at) {
  const rack = [...rackEl.querySelectorAll(".tile")];
  const el = rack[Math.min(at, rack.length - 1)];
  if (el) focusEl(el); else focusEl(setsEl.querySelector(".tile"));
}

root.addEventListener("keydown", (ev) => {
  const el = ev.target;
  if (ev.ctrlKey || ev.metaKey || ev.altKey || ["INPUT", "SELECT", "TEXTAREA"].includes(el.tagName)) return;
  const inRack = rackEl.contains(el);
  const inTable = setsEl.contains(el);
  const key = ev.key.length === 1 ? ev.key.toLowerCase() : ev.key;
  if (key === "Escape" && selected !== null) { selected = null; render(); ev.preventDefault(); return; }
  if ((inRack || inTable) && ["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"].includes(key)) {
    ev.preventDefault();
    arrow(el, key, inRack);
    return;
  }
  if (!myTurn() || !["n", "a", "r", "+"].includes(key)) return;
  const id = keyTile(el);
  if (id === null) return;
  ev.preventDefault();
  const at = inRack ? [...rackEl.querySelectorAll(".tile")].indexOf(el) : rackCursor;
  const fromRack = draft.rack.some((t) => t.id === id);
  let moved = false;
  if (key === "n") moved = moveTo(id, { newSet: true });
  else if (key === "r") moved = moveTo(id, { rack: true });
  else if (lastSet !== null) moved = moveTo(id, { set: lastSet });
  else { toast(_("Primero empieza una combinación con N.")); return; }
  if (moved && (inRack || fromRack)) keepRackFocus(at);
});

function arrow(el, key, inRack) {
  const rack = [...rackEl.querySelectorAll(".tile")];
  const rows = tableItems();
  const newSet = setsEl.querySelector(".new-set:not(:disabled)");
  if (inRack) {
    const i = rack.indexOf(el);
    if (key === "ArrowLeft") focusEl(rack[Math.max(0, i - 1)]);
    else if (key === "ArrowRight") focusEl(rack[Math.min(rack.length - 1, i + 1)]);
    else if (key === "ArrowUp") focusEl(newSet || (rows.length ? rows[rows.length - 1][0] : null));
    return;
  }
  if (el === newSet) {
    if (key === "ArrowDown") focusEl(rack[rackCursor]);
    else if (key === "ArrowUp" && rows.length) focusEl(rows[rows.length - 1][0]);
    return;
  }
  const r = rows.findIndex((row) => row.includes(el));
  if (r < 0) return;
  const c = rows[r].indexOf(el);
  if (key === "ArrowLeft") focusEl(rows[r][Math.max(0, c - 1)]);
  else if (key === "ArrowRight") focusEl(rows[r][Math.min(rows[r].length - 1, c + 1)]);
  else if (key === "ArrowUp" && r > 0) focusEl(rows[r - 1][Math.min(c, rows[r - 1].length - 1)]);
  else if (key === "ArrowDown") {
    if (r + 1 < rows.length) focusEl(rows[r + 1][Math.min(c, rows[r + 1].length - 1)]);
    else focusEl(newSet || rack[rackCursor]);
  }
}

// --- input: drag and drop (mouse and touch, through pointer events) -------------------

let dragging = null;     // {id, el, ghost, startX, startY, moved}
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

// --- buttons -------------------------------------------------------------------------

const sortBy = (how) => { rackSort = how; localStorage.setItem("rummy.sort", how); sortRack(); render(); };
$("sort-number").addEventListener("click", () => sortBy("number"));
$("sort-colour").addEventListener("click", () => sortBy("colour"));
undoBtn.addEventListener("click", () => { if (!isOff(undoBtn)) { resetDraft(); afterChange(); } });
doneBtn.addEventListener("click", () => {
  if (!isOff(doneBtn) && table.move({ type: "play", table: codesOf(draft.sets) })) render();
});
drawBtn.addEventListener("click", () => {
  const m = (view.legal || []).find((x) => x.type === "draw" || x.type === "pass");
  if (!isOff(drawBtn) && m && table.move(m)) render();
});
hintBtn.addEventListener("click", () => table.send({ type: "hint" }));
$("summary-ok").addEventListener("click", () => {
  if (view && view.legal.some((m) => m.type === "next") && table.move({ type: "next" })) render();
});

function applyHint(move) {
  if (!move || move.type !== "play") { toast(_("No hay jugada: roba (o pasa).")); return; }
  resetDraft(move.table);
  afterChange();
}

// --- the controller ------------------------------------------------------------------

function adopt(t, change) {
  view = t.view;
  mySeat = t.mySeat;
  const key = `${mySeat}:${view.hand}:${view.turns}:${view.turn}:${view.waiting.length}`; // (a device passed round: another seat)
  if (key !== turnKey || !draft || !myTurn()) {
    turnKey = key;
    resetDraft(change.type === "joined" && myTurn() ? change.msg.draft : null);
    if (change.type === "joined" && change.msg.draft) afterChange();
  }
  render();
}

// --- words for the screen reader (table.js speaks them) ---------------------------------

/** The tiles in `now` that `before` did not have (both lists of codes). */
function added(before, now) {
  const left = [...(before || [])];
  return (now || []).filter((c) => {
    const i = left.indexOf(c);
    if (i < 0) return true;
    left.splice(i, 1);
    return false;
  });
}

function news(_t, before) {
  return newEntries(before.log, view.log).map((e) => {
    let text = describe(e);
    if (e.t === "play" && e.seat !== mySeat) text += `: ${e.tiles.map(tileName).join(", ")}`;
    if (e.t === "draw" && e.seat === mySeat && before.hand === view.hand) {
      const got = added(before.rack, view.rack);
      if (got.length) text += `: ${got.map(theTile).join(", ")}`;
    }
    return text;
  }).concat(view.waiting.length && !before.waiting.length && view.last_hand ? [handText(view.last_hand)] : []);
}

function turnWords() {
  if (view.result) return "";
  if (view.waiting.length) return _("Fin de la mano {n}", { n: view.last_hand.hand });
  if (!myTurn()) return _("Turno de {name}", { name: nameOf(view.turn) });
  const tiles = ngettext("{n} ficha", "{n} fichas", view.rack.length);
  return view.melded[mySeat] ? _("Te toca: tienes {tiles}", { tiles }) : _("Te toca: tienes {tiles} y te falta la bajada", { tiles });
}

const table = new Table({
  render: adopt,
  news,
  turnWords,
  timbre: "tile",
  message(msg) {
    if (msg.type === "checked") { checked(msg); return true; }
    if (msg.type === "hint") { applyHint(msg.move); return true; }
    return false;
  },
});
window.__rummy = {
  get draft() { return draft; },
  get report() { return report; },
  moveTo, pick(id) { selected = id; render(); },
};
