// One Card's table: draws the views the server sends, highlights the legal moves they list
// and sends the player's choices. The table controller (table.js) does the socket, names,
// clocks, the offline banner and the end dialog; the view says everything the page shows
// (what fits, what a card did), so no rule of the game is here. A spectator (no seat: the
// view has no hand) sees seat 0 where a player's own hand would be, its cards face down.
import "./touch.js";
import { Table, newEntries } from "./table.js";
import { $, _, closeDialog, ngettext, openDialog } from "./ui.js";
import { cardEl, backEl, cardName, cardText, isJoker, suitName, theCard } from "./cards.js";

const handEl = $("hand");
const drawBtn = $("draw");
const callBtn = $("call");
const whyEl = $("why");
const suitsEl = $("suits");

let view = null;
let mySeat = null;
let focusIndex = 0;
let pendingSeven = null; // the card waiting for its suit
let lastTop = null;
let drawn = new Set(); // cards just drawn, to show them arriving
let justDrawn = []; // the cards this message brought to our hand (to say them)

const nameOf = (seat) => table.nameOf(seat);
const cardsLabel = (n) => ngettext("{n} carta", "{n} cartas", n);
const legal = () => (view && view.legal) || [];
const plays = () => legal().filter((m) => m.type === "play");
const canDraw = () => legal().some((m) => m.type === "draw");
const canCall = () => legal().some((m) => m.type === "call");
const catchable = (seat) => legal().some((m) => m.type === "catch" && m.target === seat);
const myTurn = () => view.turn === mySeat && !view.result;
/** The seat drawn at the bottom: ours, or seat 0 for a spectator. */
const bottom = () => (mySeat === null ? 0 : mySeat);

// --- rendering ---------------------------------------------------------------------

function render(t, change) {
  view = t.view;
  mySeat = t.mySeat;
  const msg = change.msg;
  justDrawn = [];
  if (change.type === "update" || change.type === "sync") {
    const mine = (msg.events || []).filter((e) => e.secret && e.seat === mySeat);
    justDrawn = mine.flatMap((e) => e.secret);
    if (mine.length) drawn = new Set(justDrawn);
    else if (msg.seat === mySeat) drawn = new Set();
  }
  focusIndex = Math.min(focusIndex, Math.max(0, (view.hand || []).length - 1));
  const hadFocus = handEl.contains(document.activeElement);
  renderStatus();
  renderOpponents();
  renderCenter();
  renderLog();
  renderHand();
  renderActions();
  if (view.result) showEnd();
  else table.hideEnd();
  if (hadFocus && handEl.children[focusIndex]) handEl.children[focusIndex].focus();
}

function renderStatus() {
  const label = $("turn-label");
  if (view.result) label.textContent = "";
  else label.textContent = view.turn === mySeat ? _("Te toca") : _("Turno de {name}", { name: nameOf(view.turn) });
  table.root.classList.toggle("my-turn", myTurn());
  const dir = $("direction");
  const cw = view.direction === 1;
  dir.textContent = cw ? "⟳" : "⟲";
  dir.setAttribute("aria-label", cw ? _("Sentido: ⟳ horario") : _("Sentido: ⟲ antihorario"));
  dir.title = dir.getAttribute("aria-label");
}

function renderOpponents() {
  const box = $("opponents");
  const n = view.counts.length;
  const order = [];
  for (let i = 1; i < n; i++) order.push((bottom() + i) % n);
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
    const shown = view.revealed?.hands?.[seat]; // (a replay: the hand the table hid)
    if (shown) {
      fan.classList.add("open");
      fan.removeAttribute("aria-hidden");
      fan.setAttribute("aria-label", shown.map(cardName).join(", "));
      for (const c of shown) fan.appendChild(cardEl(c, "mini"));
    } else {
      for (let i = 0; i < Math.min(count, 8); i++) fan.appendChild(backEl(`mini ${table.backOf(seat)}`, ""));
    }
    const who = document.createElement("div");
    who.className = "opp-who";
    const strong = document.createElement("strong");
    strong.textContent = nameOf(seat);
    const countEl = document.createElement("span");
    countEl.className = "opp-count";
    countEl.textContent = cardsLabel(count);
    who.append(table.avatarOf(seat), strong, countEl);
    el.append(who, fan);
    const badges = document.createElement("div");
    badges.className = "opp-badges";
    if (view.called[seat]) {
      const b = document.createElement("span");
      b.className = "called-badge";
      b.textContent = _("¡One Card!");
      badges.appendChild(b);
    }
    const clock = document.createElement("span");
    clock.className = "clock";
    clock.dataset.clock = `turn:${seat}`;
    badges.appendChild(clock);
    el.appendChild(badges);
    if (catchable(seat)) {
      const btn = document.createElement("button");
      btn.type = "button";
      btn.className = "btn catch";
      btn.dataset.target = seat;
      btn.textContent = _("¡Pillado!") + " ";
      const left = document.createElement("span");
      left.className = "countdown";
      left.dataset.clock = `window:${seat}`;
      btn.appendChild(left);
      btn.setAttribute("aria-label", _("¡Pillado! {name}", { name: nameOf(seat) }));
      btn.addEventListener("click", () => send({ type: "catch", target: seat }));
      el.appendChild(btn);
    }
    return el;
  }));
}

function renderCenter() {
  const stock = $("stock");
  stock.replaceChildren(view.stock ? backEl("", "") : document.createElement("span"));
  const stockText = ngettext("Mazo: {n} carta", "Mazo: {n} cartas", view.stock);
  stock.setAttribute("role", "img");
  stock.setAttribute("aria-label", stockText);
  const next = view.revealed?.next; // (a replay: the card the stock gave next)
  const nextText = next ? _("la siguiente: {card}", { card: cardText(next) }) : "";
  $("stock-count").textContent = next ? `${stockText} · ${nextText}` : stockText;
  const discard = $("discard");
  const fresh = lastTop !== null && lastTop !== `${view.top}:${view.discard}`;
  discard.replaceChildren(cardEl(view.top, `big${fresh ? " land" : ""}`));
  lastTop = `${view.top}:${view.discard}`;
  const badge = $("suit-badge");
  if (view.suit === null) {
    badge.hidden = false;
    badge.textContent = _("Cualquier carta");
    badge.className = "suit-badge";
  } else if (view.named) {
    badge.hidden = false;
    badge.textContent = _("Pide {suit}", { suit: suitName(view.named) });
    badge.className = `suit-badge${view.named === "H" || view.named === "D" ? " red" : ""}`;
  } else badge.hidden = true;
  const attack = $("attack");
  if (view.attack && !view.result) {
    attack.hidden = false;
    attack.textContent = view.target === mySeat
      ? _("¡+{n} para ti!", { n: view.attack })
      : _("+{n} para {name}", { n: view.attack, name: nameOf(view.target) });
  } else attack.hidden = true;
}

/** A log entry in words: what the entry says happened (the view marks what a card did). */
function describe(e) {
  const you = e.seat === mySeat;
  const name = nameOf(e.seat);
  const timeout = e.timeout ? _(" (se acabó el tiempo)") : "";
  if (e.t === "play") {
    const card = theCard(e.card);
    let text = you ? _("Echas {card}", { card }) : _("{name} echa {card}", { name, card });
    if (e.suit) text += you ? _(" y pides {suit}", { suit: suitName(e.suit) }) : _(" y pide {suit}", { suit: suitName(e.suit) });
    if (e.target !== undefined) {
      text += e.target === mySeat
        ? _(": +{n} para ti", { n: e.attack })
        : _(": +{n} para {name}", { n: e.attack, name: nameOf(e.target) });
    }
    if (e.skips !== undefined) {
      text += e.skips === mySeat ? _(": pierdes el turno") : _(": {name} pierde el turno", { name: nameOf(e.skips) });
    }
    if (e.reverse) text += _(": cambia el sentido");
    if (e.blocked) text += _(": ¡ataque parado!");
    return text + timeout;
  }
  if (e.t === "draw") {
    if (e.attack) {
      return (you ? _("Te comes el ataque: robas {n}", { n: e.n }) : _("{name} se come el ataque: roba {n}", { name, n: e.n })) + timeout;
    }
    const cards = cardsLabel(e.n);
    return (you ? _("Robas {cards}", { cards }) : _("{name} roba {cards}", { name, cards })) + timeout;
  }
  if (e.t === "call") return _("{name}: «¡One Card!»", { name });
  if (e.t === "turn_limit") return _("Mil turnos: la mano termina y gana quien tiene menos cartas");
  if (e.t === "caught") {
    if (e.by === mySeat) return _("Pillas a {name}: roba {n}", { name, n: e.n });
    if (you) return _("{by} te pilla: robas {n}", { by: nameOf(e.by), n: e.n });
    return _("{by} pilla a {name}: roba {n}", { by: nameOf(e.by), name, n: e.n });
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
  if (mySeat === null) { renderBottomSeat(); return; }
  const playable = new Set(plays().map((m) => m.card));
  const mine = myTurn();
  handEl.replaceChildren(...view.hand.map((code, i) => {
    const ok = mine && playable.has(code);
    const el = cardEl(code, `${ok ? "playable" : (mine ? "dim" : "")}${drawn.has(code) ? " drawn" : ""}`);
    el.setAttribute("role", "option");
    el.setAttribute("aria-disabled", ok ? "false" : "true");
    el.tabIndex = i === focusIndex ? 0 : -1;
    el.addEventListener("click", () => { focusIndex = i; playCard(code); });
    return el;
  }));
  $("me-count").textContent = cardsLabel(view.hand.length);
  $("me-name").textContent = nameOf(mySeat); // («Tú»; on a device passed round, their name)
  $("me").querySelector(".seat-avatar")?.remove(); // (drawn while it showed nobody's hand)
  $("me-fan")?.replaceChildren();
  $("me-called").hidden = !view.called[mySeat];
  $("me-clock").dataset.clock = `turn:${mySeat}`;
}

/** A spectator's bottom seat: seat 0's name, its count and its cards face down. */
function renderBottomSeat() {
  const seat = bottom();
  const count = view.counts[seat];
  const name = $("me-name");
  name.textContent = nameOf(seat);
  name.parentElement.querySelector(".seat-avatar")?.remove();
  name.before(table.avatarOf(seat)); // (as the others are drawn)
  $("me-count").textContent = cardsLabel(count);
  $("me-called").hidden = !view.called[seat];
  $("me-clock").dataset.clock = `turn:${seat}`;
  const fan = $("me-fan");
  fan.replaceChildren(...Array.from({ length: Math.min(count, 8) }, () => backEl(`mini ${table.backOf(seat)}`, "")));
  const box = $("me");
  box.setAttribute("aria-label", `${nameOf(seat)}: ${cardsLabel(count)}`);
  box.classList.toggle("active", view.turn === seat && !view.result);
  box.classList.toggle("targeted", view.target === seat);
  handEl.replaceChildren();
}

function renderActions() {
  if (mySeat === null) return; // (a spectator: no actions, the page hides them)
  const mine = myTurn();
  drawBtn.disabled = !canDraw() || table.waiting;
  drawBtn.textContent = view.attack && mine ? _("Robar {n}", { n: view.attack }) : _("Robar");
  callBtn.disabled = !canCall() || table.waiting;
  const exposedMe = view.exposed.includes(mySeat);
  callBtn.classList.toggle("urgent", exposedMe);
  let why = "";
  if (exposedMe) why = _("¡Te queda una carta! Pulsa «One Card» antes de que te pillen.");
  else if (!mine) why = view.result ? "" : _("Espera tu turno.");
  else if (canDraw()) why = view.attack ? _("No puedes pasar el ataque: roba {n}.", { n: view.attack }) : _("No te sirve ninguna carta: roba.");
  else why = view.attack ? _("No puedes robar: tienes una carta para pasar el ataque.") : _("No puedes robar: tienes una carta que sirve (resaltada).");
  whyEl.textContent = why;
  drawBtn.title = canDraw() ? "" : why;
}

function showEnd() {
  const r = view.result;
  const won = r.winner === mySeat;
  const order = r.ranks.map((rank, seat) => ({ rank, seat })).sort((a, b) => a.rank - b.rank || a.seat - b.seat);
  table.showEnd({
    title: won ? _("¡Has ganado!") : _("Gana {name}", { name: nameOf(r.winner) }),
    reason: r.limit ? _("La mano llegó a los mil turnos: gana quien tiene menos cartas.") : "",
    rows: order.map(({ rank, seat }) => ({
      text: _("{rank}.º {name}: {left}", { rank, name: nameOf(seat), left: cardsLabel(r.left[seat]) }),
      winner: seat === r.winner,
    })),
    won,
  });
}

// --- acting ------------------------------------------------------------------------

function send(move) {
  if (table.move(move)) renderActions();
}

function playCard(code) {
  const options = plays().filter((m) => m.card === code);
  if (!options.length || table.waiting) return;
  if (options.some((m) => m.suit)) { pendingSeven = code; openSuits(); return; }
  send(options[0]);
}

function openSuits() {
  openDialog(suitsEl);
  const counts = { H: 0, D: 0, C: 0, S: 0 };
  view.hand.forEach((c) => { if (c !== pendingSeven && !isJoker(c)) counts[c.slice(-1)] += 1; });
  const buttons = [...suitsEl.querySelectorAll("[data-suit]")];
  buttons.forEach((b) => {
    b.querySelector("small").textContent = `${suitName(b.dataset.suit)} (${counts[b.dataset.suit]})`;
  });
  // the focus on the first suit the player holds (one they can follow), else the first
  (buttons.find((b) => counts[b.dataset.suit] > 0) || buttons[0]).focus();
}

function closeSuits() {
  closeDialog(suitsEl);
  pendingSeven = null;
}
suitsEl.addEventListener("close", () => { pendingSeven = null; }); // (Esc)

suitsEl.querySelectorAll("[data-suit]").forEach((b) => b.addEventListener("click", () => {
  const code = pendingSeven;
  closeSuits();
  const move = plays().find((m) => m.card === code && m.suit === b.dataset.suit);
  if (move) send(move);
}));
$("suits-cancel").addEventListener("click", closeSuits);
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
  if (suitsEl.open) return; // (Esc closes it by itself)
  const k = ev.key.toLowerCase();
  if (k === "d" && canDraw()) send({ type: "draw" });
  else if (k === "u" && canCall()) send({ type: "call" });
  else if (k === "p") {
    const m = legal().find((x) => x.type === "catch");
    if (m) send(m);
  }
});

// --- words for the screen reader (table.js speaks them) ---------------------------------

function news(_t, before) {
  const said = newEntries(before.log, view.log).map(describe);
  if (justDrawn.length) said.push(_("Te llegan: {cards}", { cards: justDrawn.map(cardName).join(", ") }));
  return said;
}

function turnWords() {
  if (view.result) return "";
  if (!myTurn()) return _("Turno de {name}", { name: nameOf(view.turn) });
  let text = _("Te toca: arriba, {card}", { card: cardName(view.top) });
  if (view.suit === null) text += _(" (vale cualquier carta)");
  else if (view.named) text += _(" (pide {suit})", { suit: suitName(view.named) });
  if (view.attack && view.target === mySeat) text += _(": +{n} para ti", { n: view.attack });
  const n = new Set(plays().map((m) => m.card)).size;
  const fits = n ? ngettext("Te sirve {n} carta.", "Te sirven {n} cartas.", n) : _("No te sirve ninguna: roba con D.");
  return `${text}. ${fits}`;
}

const table = new Table({ render, offline: closeSuits, news, turnWords });
