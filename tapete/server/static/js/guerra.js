// La guerra's table: draws the views the server sends; sends "turn". The table controller
// (table.js) does the socket, names, the offline banner and the end dialog.
import "./touch.js";
import { Table } from "./table.js";
import { _, fmt, ngettext } from "./ui.js";
import { cardEl, backEl, cardName, cardText, theCard } from "./cards.js";

const seatsEl = document.getElementById("seats");
const messageEl = document.getElementById("message");
const turnBtn = document.getElementById("turn");
const duelLabel = document.getElementById("duel-label");
const warsLabel = document.getElementById("wars-label");
const autoEl = document.getElementById("autoplay");
const speedEl = document.getElementById("speed");
const logEl = document.getElementById("log");

const REASONS = {
  all_cards: _("Se ha quedado con todas las cartas."),
  limit: _("Más cartas al llegar al límite de {limit} duelos."),
  draw_limit: _("Mismo número de cartas al llegar al límite de {limit} duelos."),
  draw_war: _("Todos se quedaron sin cartas en la misma guerra, empatados."),
  loop: _("La partida se repite sin fin (orden fijo de las cartas ganadas)."),
};
const REASONS_YOU = {
  all_cards: _("Te has quedado con todas las cartas."),
  limit: _("Tienes más cartas al llegar al límite de {limit} duelos."),
};

let view = null;
let mySeat = null;
let autoTimer = null;
const AUTO_MIN_MS = 45; // ms between two automatic turns, at most ~22 a second
let shown = new Set();   // cards already drawn on the table (to animate only new ones)
let lastCounts = null;
let logged = 0;          // the last duel number written to the log

const saved = JSON.parse(localStorage.getItem("guerra.auto") || "{}");
if (saved.speed) speedEl.value = saved.speed;

const warCry = _("¡Guerra!");
const nameOf = (seat) => table.nameOf(seat);
const cardsLabel = (n) => ngettext("{n} carta", "{n} cartas", n);

// --- rendering -------------------------------------------------------------------

function render(t, change) {
  view = t.view;
  mySeat = t.mySeat;
  const animate = change.animate && !(Number(speedEl.value) === 0 && autoEl.checked);
  const limit = view.limit;
  const n = Math.max(view.duel, 1);
  duelLabel.textContent = limit ? _("Duelo {n} de {limit}", { n: Math.min(n, limit), limit }) : _("Duelo {n}", { n });
  warsLabel.textContent = _("Guerras: {n}", { n: view.wars });

  // which duel to show: the one in progress if anybody has placed, else the last one finished
  const inProgress = view.table.length && view.table.some((st) => Object.keys(st.placed).length);
  const steps = inProgress ? view.table : (view.last ? view.last.steps : []);
  const values = inProgress ? view.values : (view.last ? view.last.values : []);
  const duelKey = inProgress ? `d${view.duel}` : (view.last ? `d${view.last.n}` : "none");
  const winner = !inProgress && view.last ? view.last.winner : null;

  // seats: the others on top, you at the bottom (a spectator: seat 0 at the bottom)
  const last = mySeat === null ? 0 : mySeat;
  const order = t.seats.map((s) => s.seat).filter((s) => s !== last);
  order.push(last);
  seatsEl.className = `seats n${t.seats.length}`;
  seatsEl.replaceChildren(...order.map((seat) => seatRow(seat, steps, values, duelKey, winner, animate, seat === last)));

  // the message
  messageEl.textContent = describe(inProgress);

  // the button
  const mine = view.legal && view.legal.some((m) => m.type === "turn");
  const atWar = view.table.length > 1;
  turnBtn.textContent = atWar && mine ? _("¡A la guerra!") : _("Dar la vuelta");
  // never `disabled` while it is ours, so keyboard focus stays on the button between turns
  turnBtn.disabled = !!view.result || !view.legal;
  turnBtn.setAttribute("aria-disabled", String(!mine || t.waiting || !!view.result));
  t.root.classList.toggle("my-turn", !!mine && !view.result);
  lastCounts = view.counts.slice();

  if (t.replaying && change.type === "joined") { logged = 0; logEl.replaceChildren(); } // (a replay's jump)
  if (view.last && view.last.n > logged) addLog(view.last);
  if (view.result) showEnd(); else table.hideEnd();
  scheduleAuto();
}

function seatRow(seat, steps, values, duelKey, winner, animate, atBottom) {
  const row = document.createElement("div");
  const count = view.counts[seat];
  const out = view.out[seat];
  const turning = mySeat === null && toTurn().includes(seat); // (a spectator: whose turn)
  row.className = `seat${atBottom ? " bottom" : ""}${seat === mySeat ? " me" : ""}${out ? " out" : ""}${winner === seat ? " winner" : ""}${turning ? " turning" : ""}`;
  row.dataset.seat = seat;

  const info = document.createElement("div");
  info.className = "info";
  const pile = document.createElement("div");
  pile.className = `pile${count === 0 ? " empty" : ""}`;
  const depth = Math.min(4, Math.ceil(count / 8));
  for (let i = 0; i < depth; i++) pile.appendChild(backEl(`stack ${table.backOf(seat)}`, ""));
  pile.setAttribute("aria-hidden", "true");
  const countEl = document.createElement("span");
  countEl.className = "count";
  if (lastCounts && lastCounts[seat] !== count) countEl.classList.add(lastCounts[seat] < count ? "up" : "down");
  countEl.textContent = count;
  const label = document.createElement("div");
  label.className = "who";
  label.innerHTML = `<strong></strong><span class="sub"></span>`;
  label.querySelector("strong").textContent = nameOf(seat);
  if (table.seats[seat]?.worn?.avatar) label.prepend(table.avatarOf(seat));  // (a friend's, as they chose)
  label.querySelector(".sub").textContent = out ? _("Eliminado") : cardsLabel(count);
  const next = view.revealed?.next?.[seat]; // (a replay: the card the pile turns next)
  if (next) {
    const el = document.createElement("span");
    el.className = "seat-next";
    el.textContent = _("la siguiente: {card}", { card: cardText(next) });
    label.appendChild(el);
  }
  info.setAttribute("aria-label", `${nameOf(seat)}: ${label.querySelector(".sub").textContent}`);
  info.setAttribute("role", "group");
  pile.appendChild(countEl);
  info.append(pile, label);

  const played = document.createElement("div");
  played.className = "played";
  steps.forEach((step, i) => {
    const p = step.placed[String(seat)];
    if (!p) return;
    const group = document.createElement("div");
    group.className = `step${step.war ? " war" : ""}`;
    for (let d = 0; d < p.down; d++) {
      const k = `${duelKey}:${i}:${seat}:down${d}`;
      group.appendChild(backEl(`down ${table.backOf(seat)}${fresh(k, animate) ? " deal" : ""}`));
    }
    p.up.forEach((code) => {
      const k = `${duelKey}:${i}:${seat}:${code}`;
      const isWin = winner === seat && i === steps.length - 1;
      group.appendChild(cardEl(code, `${fresh(k, animate) ? "flip" : ""}${isWin ? " win" : ""}`));
    });
    if (step.war && p.down) {
      const tag = document.createElement("span");
      tag.className = "tag";
      tag.textContent = _("{n} boca abajo", { n: p.down });
      group.appendChild(tag);
    }
    if (view.config.sums && p.up.length) {
      const sum = document.createElement("span");
      sum.className = "tag sum";
      sum.textContent = _("suma {n}", { n: values[i][String(seat)] });
      group.appendChild(sum);
    }
    played.appendChild(group);
  });
  row.append(info, played);
  return row;
}

function addLog(last) {
  logged = last.n;
  const first = last.steps[0];
  const who = first.contenders
    .map((s) => `${nameOf(s)} ${(first.placed[String(s)]?.up || []).map(cardText).join("+")}`)
    .join(" · ");
  const li = document.createElement("li");
  li.value = last.n;
  const winner = last.winner === null ? _("nadie") : nameOf(last.winner);
  const line = _("{who} → {winner} (+{cards})", { who, winner, cards: last.cards });
  li.textContent = last.steps.length > 1 ? `${warCry} ${line}` : line;
  if (last.winner === mySeat) li.className = "mine";
  logEl.prepend(li);
  while (logEl.children.length > 6) logEl.lastElementChild.remove();
}

function fresh(key, animate) {
  if (shown.has(key)) return false;
  shown.add(key);
  if (shown.size > 400) shown = new Set([...shown].slice(-200));
  return animate;
}

/** What the felt says now. */
function describe(inProgress) {
  if (view.result) return "";
  const table = view.table;
  if (inProgress && table.length > 1) {
    const names = table[table.length - 1].contenders
      .map((s) => (s === mySeat ? _("tú") : nameOf(s))).join(_(" y "));
    return _("¡Guerra entre {names}!", { names });
  }
  const last = view.last;
  if (!inProgress && last) return outcome(last, cardText);
  if (view.carry) return ngettext("{n} carta en juego del duelo anterior", "{n} cartas en juego del duelo anterior", view.carry);
  if (mySeat === null && toTurn().length) return _("Turno de {names}", { names: toTurn().map(nameOf).join(_(" y ")) });
  return view.legal && view.legal.length ? _("Te toca: da la vuelta a tu carta.") : _("Esperando…");
}

/** The people who must turn a card now (the computer's seats follow them at once). */
const toTurn = () => (view.result ? [] : (view.actors || []).filter((s) => table.seats[s]?.kind !== "bot"));

/** How the last duel ended (and what is carried to the next one); ``name`` writes a card
 * ("7♠" on the felt, «el siete de picas» for the screen reader). */
function outcome(last, name) {
  let text;
  if (last.winner === null) text = _("Nadie gana: las cartas se quedan en la mesa para el siguiente duelo.");
  else {
    const lastStep = last.steps[last.steps.length - 1];
    const up = lastStep.placed[String(last.winner)].up.map(name).join(" + ");
    const key = last.why === "no_cards" ? _("{name} se lleva {cards} cartas: el resto se quedó sin cartas.") : (last.winner === mySeat ? _("Te llevas {cards} cartas con {card}.") : _("{name} se lleva {cards} cartas con {card}."));
    text = fmt(key, { name: nameOf(last.winner), cards: last.cards, card: up });
    if (last.steps.length > 1) text = `${warCry} ${text}`;
  }
  if (view.carry) text += " " + ngettext("{n} carta en juego del duelo anterior", "{n} cartas en juego del duelo anterior", view.carry);
  return text;
}

function showEnd() {
  const r = view.result;
  const you = r.winner !== null && r.winner === mySeat;
  const title = r.winner === null ? _("Empate") : (you ? _("¡Has ganado!") : _("Gana {name}", { name: nameOf(r.winner) }));
  const reason = (you && REASONS_YOU[r.reason]) || REASONS[r.reason] || "";
  const duels = ngettext("{n} duelo", "{n} duelos", r.duels);
  const wars = ngettext("{n} guerra", "{n} guerras", r.wars);
  table.showEnd({
    title,
    reason: fmt(reason, { limit: view.limit }),
    stats: `${duels} · ${wars}`,
    rows: r.counts.map((c, seat) => ({ text: `${nameOf(seat)}: ${cardsLabel(c)}`, winner: seat === r.winner })),
    won: you,
  });
  stopAuto();
}

// --- acting ----------------------------------------------------------------------

function turn() {
  if (!view || view.result || !(view.legal && view.legal.length)) return;
  if (table.move({ type: "turn" })) turnBtn.setAttribute("aria-disabled", "true");
}

function stopAuto() {
  if (autoTimer) clearTimeout(autoTimer);
  autoTimer = null;
}

function scheduleAuto() {
  stopAuto();
  if (!autoEl.checked || !view || view.result || table.waiting) return;
  if (!(view.legal && view.legal.length)) return;
  // «Al instante» is still no faster than the socket's rate (Limits.socket_rate: 30 a second)
  autoTimer = setTimeout(turn, Math.max(AUTO_MIN_MS, Number(speedEl.value)));
}

turnBtn.addEventListener("click", turn);
document.addEventListener("keydown", (ev) => {
  if (ev.code === "Space" && !ev.repeat && !["INPUT", "SELECT", "BUTTON", "A", "TEXTAREA"].includes(document.activeElement?.tagName)) {
    ev.preventDefault();
    turn();
  }
});
autoEl.addEventListener("change", () => { localStorage.setItem("guerra.auto", JSON.stringify({ speed: speedEl.value })); scheduleAuto(); });
speedEl.addEventListener("change", () => { localStorage.setItem("guerra.auto", JSON.stringify({ speed: speedEl.value })); scheduleAuto(); });


// --- words for the screen reader (table.js speaks them) ---------------------------------

const placing = (v) => v.table.length && v.table.some((st) => Object.keys(st.placed).length);

/** What each contender turned up in a step, card by card in words. */
const shownIn = (step) => step.contenders
  .map((s) => `${nameOf(s)}: ${(step.placed[String(s)]?.up || []).map(cardName).join(" + ")}`).join("; ");

function news(_t, before) {
  if (autoEl.checked) return []; // (autoplay: the end says it all)
  if (view.last && view.last.n !== before.last?.n) {
    return [shownIn(view.last.steps[view.last.steps.length - 1]), outcome(view.last, theCard)];
  }
  if (placing(view) && view.table.length > before.table.length) {
    return [shownIn(view.table[view.table.length - 2]), describe(true)];
  }
  return [];
}

function turnWords() {
  const mine = view.legal && view.legal.some((m) => m.type === "turn");
  if (!mine || view.result || autoEl.checked) return "";
  return view.table.length > 1 ? _("Te toca: ¡a la guerra! Da la vuelta con Espacio.") : _("Te toca: da la vuelta con Espacio.");
}

/** Both players may turn at once: a «turn» the server found stale is still the same turn. */
const again = (move, v) => move.type === "turn" && !v.result && !!v.legal && v.legal.some((m) => m.type === "turn");

const table = new Table({ render, offline: stopAuto, news, turnWords, again, alerts: () => !autoEl.checked });
