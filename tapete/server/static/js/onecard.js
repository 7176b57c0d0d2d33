// One Card's table: renders the server's views, highlights the legal moves it sends,
// and sends the player's choices. No rules here.
import { GameSocket } from "./net.js";
import { $, _, fmt, toast } from "./ui.js";
import { cardEl, backEl, cardName, suitName } from "./cards.js";


const root = $("onecard");
const handEl = $("hand");
const drawBtn = $("draw");
const callBtn = $("call");
const whyEl = $("why");
const suitsEl = $("suits");
const endEl = $("end");
const connEl = $("conn");

let seats = [];
let mySeat = null;
let view = null;
let clocks = [];          // [{kind, seat, deadline}]
let waiting = false;
let focusIndex = 0;
let pendingSeven = null;  // the 7 waiting for its suit
let lastTop = null;
let drawn = new Set();    // cards just drawn, to show them arriving

const nameOf = (seat) => (seats[seat] ? (seats[seat].you ? _("Tú") : seats[seat].name) : `#${seat + 1}`);
const cardsLabel = (n) => (n === 1 ? _("1 carta") : _("{n} cartas", { n }));
const legal = () => (view && view.legal) || [];
const plays = () => legal().filter((m) => m.type === "play");
const canDraw = () => legal().some((m) => m.type === "draw");
const canCall = () => legal().some((m) => m.type === "call");
const catchable = (seat) => legal().some((m) => m.type === "catch" && m.target === seat);
const theCard = (code) => `${/^[QJ][HDCS]$/.test(code) ? "la" : "el"} ${cardName(code)}`;

// --- rendering ---------------------------------------------------------------------

function render() {
  if (!view) return;
  renderStatus();
  renderOpponents();
  renderCenter();
  renderLog();
  renderHand();
  renderActions();
  if (view.result) showEnd(); else endEl.hidden = true;
}

function renderStatus() {
  const label = $("turn-label");
  if (view.result) label.textContent = "";
  else label.textContent = view.turn === mySeat ? _("Te toca") : _("Turno de {name}", { name: nameOf(view.turn) });
  root.classList.toggle("my-turn", view.turn === mySeat && !view.result);
  const dir = $("direction");
  const cw = view.direction === 1;
  dir.textContent = cw ? "⟳" : "⟲";
  dir.setAttribute("aria-label", fmt(cw ? _("Sentido: ⟳ horario") : _("Sentido: ⟲ antihorario")));
  dir.title = dir.getAttribute("aria-label");
}

function renderOpponents() {
  const box = $("opponents");
  const n = view.counts.length;
  const order = [];
  for (let i = 1; i < n; i++) order.push((mySeat + i) % n);
  box.className = `opponents n${n}`;
  box.replaceChildren(...order.map((seat) => {
    const el = document.createElement("div");
    const count = view.counts[seat];
    el.className = `opp${view.turn === seat && !view.result ? " active" : ""}${view.target === seat ? " targeted" : ""}`;
    el.dataset.seat = seat;
    el.setAttribute("role", "group");
    el.setAttribute("aria-label", `${nameOf(seat)}: ${cardsLabel(count)}`);
    const fan = document.createElement("div");
    fan.className = "fan";
    fan.setAttribute("aria-hidden", "true");
    for (let i = 0; i < Math.min(count, 8); i++) fan.appendChild(backEl("mini", ""));
    const who = document.createElement("div");
    who.className = "opp-who";
    who.innerHTML = `<strong></strong> <span class="opp-count"></span>`;
    who.querySelector("strong").textContent = nameOf(seat);
    who.querySelector(".opp-count").textContent = cardsLabel(count);
    el.append(who, fan);
    if (view.called[seat] && count <= 2) {
      const b = document.createElement("span");
      b.className = "called-badge";
      b.textContent = _("¡One Card!");
      el.appendChild(b);
    }
    const clock = clockFor("turn", seat);
    if (clock) el.appendChild(clockEl(clock));
    if (catchable(seat)) {
      const btn = document.createElement("button");
      btn.type = "button";
      btn.className = "btn catch";
      btn.dataset.target = seat;
      const w = clockFor("window", seat);
      btn.innerHTML = `${_("¡Pillado!")} <span class="countdown" data-clock="window:${seat}"></span>`;
      btn.setAttribute("aria-label", `${_("¡Pillado!")} ${nameOf(seat)}`);
      btn.addEventListener("click", () => send({ type: "catch", target: seat }));
      el.appendChild(btn);
      if (w) updateCountdowns();
    }
    return el;
  }));
}

function clockFor(kind, seat) { return clocks.find((c) => c.kind === kind && c.seat === seat); }

function clockEl(clock) {
  const span = document.createElement("span");
  span.className = "clock";
  span.dataset.clock = `${clock.kind}:${clock.seat}`;
  return span;
}

function renderCenter() {
  const stock = $("stock");
  stock.replaceChildren(view.stock ? backEl("", "") : document.createElement("span"));
  stock.setAttribute("aria-label", _("Mazo: {n} cartas", { n: view.stock }));
  $("stock-count").textContent = _("Mazo: {n} cartas", { n: view.stock });
  const discard = $("discard");
  const fresh = lastTop !== null && lastTop !== `${view.top}:${view.discard}`;
  discard.replaceChildren(cardEl(view.top, `big${fresh ? " land" : ""}`));
  lastTop = `${view.top}:${view.discard}`;
  const badge = $("suit-badge");
  const topSuit = view.top.slice(-1);
  if (view.suit === null) {
    badge.hidden = false; badge.textContent = _("Cualquier carta"); badge.className = "suit-badge";
  } else if (view.top.startsWith("7") || view.suit !== topSuit) {
    badge.hidden = false;
    badge.textContent = _("Pide {suit}", { suit: suitName(view.suit) });
    badge.className = `suit-badge ${view.suit === "H" || view.suit === "D" ? "red" : ""}`;
  } else badge.hidden = true;
  const attack = $("attack");
  if (view.attack && !view.result) {
    attack.hidden = false;
    attack.textContent = view.target === mySeat ? _("¡+{n} para ti!", { n: view.attack }) : _("+{n} para {name}", { n: view.attack, name: nameOf(view.target) });
  } else attack.hidden = true;
}

function describe(e) {
  const you = e.seat === mySeat;
  if (e.t === "play") {
    let text = you ? _("Echas {card}", { card: theCard(e.card) }) : _("{name} echa {card}", { name: nameOf(e.seat), card: theCard(e.card) });
    if (e.suit) text += _(" y pide {suit}", { suit: suitName(e.suit) });
    if (e.attack) text += _(": +{n} para {name}", { n: e.attack, name: e.target === mySeat ? _("tú") : nameOf(e.target) });
    if (e.skips !== undefined && e.skips !== e.seat) text += _(": {name} pierde el turno", { name: nameOf(e.skips) });
    if (e.card.startsWith("Q") && view.counts.length > 2) text += _(": cambia el sentido");
    if (e.blocked) text += _(": ¡ataque parado!");
    if (e.timeout) text += _(" (se acabó el tiempo)");
    return text;
  }
  if (e.t === "draw") {
    const key = e.attack ? (you ? _("Te comes el ataque: robas {n}") : _("{name} se come el ataque: roba {n}")) : (you ? _("Robas {cards}") : _("{name} roba {cards}"));
    return fmt(key, { name: nameOf(e.seat), n: e.n, cards: cardsLabel(e.n) }) + (e.timeout ? _(" (se acabó el tiempo)") : "");
  }
  if (e.t === "call") return _("{name}: «¡One Card!»", { name: nameOf(e.seat) });
  if (e.t === "turn_limit") return _("Mil turnos: la mano termina y gana quien tiene menos cartas");
  if (e.t === "caught") {
    if (e.by === mySeat) return _("Pillas a {name}: roba {n}", { name: nameOf(e.seat), n: e.n });
    return _("{by} pilla a {name}: roba {n}", { by: nameOf(e.by), name: e.seat === mySeat ? _("tú") : nameOf(e.seat), n: e.n });
  }
  return "";
}

function renderLog() {
  const items = view.log.slice(-4).reverse().map((e) => {
    const li = document.createElement("li");
    li.textContent = describe(e);
    if (e.seat === mySeat) li.className = "mine";
    return li;
  });
  $("log").replaceChildren(...items);
}

function renderHand() {
  const playable = new Set(plays().map((m) => m.card));
  const myTurn = view.turn === mySeat && !view.result;
  handEl.replaceChildren(...view.hand.map((code, i) => {
    const ok = myTurn && playable.has(code);
    const el = cardEl(code, `${ok ? "playable" : (myTurn ? "dim" : "")}${drawn.has(code) ? " drawn" : ""}`);
    el.setAttribute("role", "option");
    el.setAttribute("aria-disabled", ok ? "false" : "true");
    el.tabIndex = i === focusIndex ? 0 : -1;
    el.addEventListener("click", () => { focusIndex = i; playCard(code); });
    return el;
  }));
  $("me-count").textContent = cardsLabel(view.hand.length);
  $("me-called").hidden = !(view.called[mySeat] && view.hand.length <= 2);
  const clock = clockFor("turn", mySeat);
  $("me-clock").hidden = !clock;
  if (clock) $("me-clock").dataset.clock = `turn:${mySeat}`;
}

function renderActions() {
  const myTurn = view.turn === mySeat && !view.result;
  drawBtn.disabled = !canDraw() || waiting;
  drawBtn.textContent = view.attack && myTurn ? _("Robar {n}", { n: view.attack }) : _("Robar");
  callBtn.disabled = !canCall() || waiting;
  const exposedMe = view.exposed.includes(mySeat);
  callBtn.classList.toggle("urgent", exposedMe);
  let why = "";
  if (exposedMe) why = _("¡Te queda una carta! Pulsa «One Card» antes de que te pillen.");
  else if (!myTurn) why = view.result ? "" : _("Espera tu turno.");
  else if (canDraw()) why = view.attack ? _("No puedes pasar el ataque: roba {n}.", { n: view.attack }) : _("No te sirve ninguna carta: roba.");
  else why = view.attack ? _("No puedes robar: tienes una carta para pasar el ataque.") : _("No puedes robar: tienes una carta que sirve (resaltada).");
  whyEl.textContent = why;
  drawBtn.title = canDraw() ? "" : why;
}

function updateCountdowns() {
  const now = performance.now();
  document.querySelectorAll("[data-clock]").forEach((el) => {
    const [kind, seat] = el.dataset.clock.split(":");
    const c = clockFor(kind, Number(seat));
    el.textContent = c ? `${Math.max(0, Math.ceil((c.deadline - now) / 1000))} s` : "";
  });
}
setInterval(updateCountdowns, 250);

function showEnd() {
  const r = view.result;
  $("end-title").textContent = r.winner === mySeat ? _("¡Has ganado!") : _("Gana {name}", { name: nameOf(r.winner) });
  $("end-reason").textContent = r.limit ? _("La mano llegó a los mil turnos: gana quien tiene menos cartas.") : "";
  $("end-reason").hidden = !r.limit;
  const order = r.ranks.map((rank, seat) => ({ rank, seat })).sort((a, b) => a.rank - b.rank || a.seat - b.seat);
  $("end-ranks").replaceChildren(...order.map(({ rank, seat }) => {
    const li = document.createElement("li");
    li.textContent = _("{rank}.º {name}: {left}", { rank, name: nameOf(seat), left: cardsLabel(r.left[seat]) });
    if (seat === r.winner) li.className = "winner";
    return li;
  }));
  const wasHidden = endEl.hidden;
  endEl.hidden = false;
  endEl.classList.toggle("won", r.winner === mySeat);
  if (wasHidden) $("again").focus();
}

// --- acting ------------------------------------------------------------------------

function send(move) {
  if (waiting) return;
  if (sock.move(move)) { waiting = true; render(); }
}

function playCard(code) {
  const options = plays().filter((m) => m.card === code);
  if (!options.length || waiting) return;
  if (code.startsWith("7")) { pendingSeven = code; openSuits(); return; }
  send(options[0]);
}

function openSuits() {
  suitsEl.hidden = false;
  const counts = { H: 0, D: 0, C: 0, S: 0 };
  view.hand.forEach((c) => { if (c !== pendingSeven && !c.startsWith("JK")) counts[c.slice(-1)] += 1; });
  suitsEl.querySelectorAll("[data-suit]").forEach((b) => {
    b.querySelector("small").textContent = `${suitName(b.dataset.suit)} (${counts[b.dataset.suit]})`;
  });
  suitsEl.querySelector("[data-suit]").focus();
}

suitsEl.querySelectorAll("[data-suit]").forEach((b) => b.addEventListener("click", () => {
  suitsEl.hidden = true;
  if (pendingSeven) send({ type: "play", card: pendingSeven, suit: b.dataset.suit });
  pendingSeven = null;
}));
$("suits-cancel").addEventListener("click", () => { suitsEl.hidden = true; pendingSeven = null; });
drawBtn.addEventListener("click", () => canDraw() && send({ type: "draw" }));
callBtn.addEventListener("click", () => canCall() && send({ type: "call" }));

handEl.addEventListener("keydown", (ev) => {
  const cards = [...handEl.children];
  if (!cards.length) return;
  if (ev.key === "ArrowRight" || ev.key === "ArrowLeft") {
    ev.preventDefault();
    focusIndex = (focusIndex + (ev.key === "ArrowRight" ? 1 : -1) + cards.length) % cards.length;
    cards.forEach((c, i) => { c.tabIndex = i === focusIndex ? 0 : -1; });
    cards[focusIndex].focus();
  } else if (ev.key === "Enter" || ev.key === " ") {
    ev.preventDefault();
    playCard(cards[focusIndex].dataset.code);
  }
});
document.addEventListener("keydown", (ev) => {
  if (ev.target.tagName === "INPUT" || ev.target.tagName === "SELECT" || ev.ctrlKey || ev.metaKey || ev.altKey) return;
  if (!suitsEl.hidden) {
    if (ev.key === "Escape") { suitsEl.hidden = true; pendingSeven = null; }
    return;
  }
  const k = ev.key.toLowerCase();
  if (k === "d" && canDraw()) send({ type: "draw" });
  else if (k === "u" && canCall()) send({ type: "call" });
});


function setClocks(list) {
  const now = performance.now();
  clocks = (list || []).map((c) => ({ kind: c.kind, seat: c.seat, deadline: now + c.ms }));
}

const sock = new GameSocket(root.dataset.game, {
  message(msg) {
    connEl.hidden = true;
    if (msg.type === "joined") {
      seats = msg.seats; mySeat = msg.seat; view = msg.view; waiting = false;
      $("me-name").textContent = _("Tú");
    } else if (msg.type === "update" || msg.type === "sync") {
      view = msg.view;
      if (msg.type === "sync" || msg.seat === mySeat) waiting = false;
      const mine = (msg.events || []).filter((e) => e.secret && e.seat === mySeat);
      if (mine.length) drawn = new Set(mine.flatMap((e) => e.secret));
      else if (msg.seat === mySeat) drawn = new Set();
    } else if (msg.type === "error") {
      waiting = false;
      if (msg.sync) view = msg.sync.view;
      if (msg.code !== "stale_version") toast(msg.message);
    } else return;
    if (msg.clocks || (msg.sync && msg.sync.clocks)) setClocks(msg.clocks || msg.sync.clocks);
    focusIndex = Math.min(focusIndex, Math.max(0, view.hand.length - 1));
    const hadFocus = handEl.contains(document.activeElement);
    render();
    updateCountdowns();
    if (hadFocus && handEl.children[focusIndex]) handEl.children[focusIndex].focus();
  },
  offline() {
    connEl.textContent = _("Sin conexión. Reconectando…");
    connEl.hidden = false;
    waiting = false;
  },
});
window.__tapete = { get view() { return view; }, get version() { return sock.version; } };
