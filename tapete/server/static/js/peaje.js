// El Peaje's table: one phone passed around, or among friends a phone each (view.seats says
// which phone acts for each player). Big buttons; the server judges everything and the view
// carries what the page shows (the route in play, the misses left, the odds, what this phone
// may do). The table controller (table.js) does the socket, the room bar and the end dialog.
import "./touch.js";
import { Table } from "./table.js";
import { $, _, closeDialog, ngettext, num, openDialog, toast } from "./ui.js";
import { cardEl, backEl, cardText, theCard } from "./cards.js";

const SHORT = {
  mayor_menor: _("Mayor o menor"),
  redonda_picuda: _("Redonda o picuda"),
  roja_negra: _("Roja o negra"),
  palo: _("Palo"),
};
const ANSWERS = {
  mayor: _("▲ Mayor"),
  menor: _("▼ Menor"),
  redonda: _("● Redonda ♥♣"),
  picuda: _("◆ Picuda ♦♠"),
  roja: _("Roja ♥♦"),
  negra: _("Negra ♣♠"),
  corazones: _("♥ corazones"),
  diamantes: _("♦ diamantes"),
  treboles: _("♣ tréboles"),
  picas: _("♠ picas"),
  tie: _("Empate (fallo)"),
};
const REASONS = {
  route: _("Se acertó la última pregunta de la ruta."),
  deck: _("Se acabó el mazo antes de terminar la ruta."),
  misses: _("Seis fallos: el grupo pierde."),
  all_out: _("Todos se quedaron sin cartas: nadie gana."),
};
const ODDS_KEY = "peaje.odds";
// The toll that is not paid, only counted (NO_TOLL in tapete/games/peaje/game.py): strangers
// playing «Jugar ahora» agree on none.
const NO_TOLL = "nada";
const TOLL_OK = document.getElementById("toll-ok").textContent;

let view = null;
let shownFor = null;   // the route the hand-over screen was last shown for
let lastReveal = null; // to flip only a new card
let oddsOpen = localStorage.getItem(ODDS_KEY) === "1";

const players = () => view.config.players;
const routeNow = () => view.routes[view.playing];
const answerLabel = (a) => ANSWERS[a] || a;
const phones = () => view.config.phones;
/** Whether this phone acts for player i (among friends: their own, or the host's for a
 * participant without one). */
const mine = (i) => phones() > 0 && view.seats[i] === table.mySeat;
const may = (type) => (view.legal || []).some((m) => m.type === type);

/** A player as the table calls them: their name, «Jugador 2», or in La patata «Nº 2 (Ana)».
 * Among friends a player with a phone is the name they sat down with. */
function playerName(i) {
  const name = phones() > i ? table.seats[i]?.name : players()[i];
  if (view.config.variant === "patata") return name ? _("Nº {n} ({name})", { n: i + 1, name }) : _("Nº {n}", { n: i + 1 });
  return name || _("Jugador {n}", { n: i + 1 });
}

function questionText(q, ref) {
  return {
    mayor_menor: _("¿La siguiente será mayor o menor que {card}?", { card: theCard(ref) }),
    redonda_picuda: _("¿Redonda o picuda?"),
    roja_negra: _("¿Roja o negra?"),
    palo: _("¿De qué palo?"),
  }[q];
}

/** Put `el` where `{key}` stands in a sentence already in the page's language. */
function sentenceWith(text, key, el) {
  const [before, after = ""] = text.split(`{${key}}`);
  return [document.createTextNode(before), el, document.createTextNode(after)];
}

// --- rendering ---------------------------------------------------------------------

function render(t, change) {
  view = t.view;
  for (const e of (change.msg && change.msg.events) || []) {
    if (e.t === "skipped") toast(_("Se pasa el turno de {name}.", { name: playerName(e.player) }));
    if (e.t === "retired") toast(_("{name} ha salido de la sala: su ruta termina.", { name: playerName(e.player) }));
  }
  if (change.type === "joined") {
    shownFor = null;
    const last = routeNow().last;
    if (last) lastReveal = revealKey(last);
  }
  renderWho();
  renderRoute();
  renderCards();
  renderAnswers();
  renderOdds();
  renderCounters();
  renderToll();
  maybeHandover();
  if (view.result) showEnd(); else table.hideEnd();
}

function renderWho() {
  const v = view.config.variant;
  let text;
  if (view.result) text = _("Fin de la partida");
  else if (v === "solitario") text = _("Solitario");
  else if (v === "dos") {
    // two roles: the first player answers aloud, the second reveals and marks
    const answering = view.phase === "reveal";
    const role = answering ? 0 : 1;
    const name = phones() ? table.seats[role]?.name : players()[role];
    if (phones() && table.mySeat === role) text = answering ? _("Te toca responder en voz alta") : _("Te toca validar");
    else if (answering) text = name ? _("{name} responde en voz alta", { name }) : _("Toca responder en voz alta");
    else text = name ? _("{name} valida", { name }) : _("Toca validar");
  } else if (mine(view.current) && view.current === table.mySeat) text = _("Te toca");
  else if (mine(view.current)) text = _("Turno de {name}: responde en voz alta y tu móvil lo anota", { name: playerName(view.current) });
  else text = _("Turno de {name}", { name: playerName(view.current) });
  const who = $("who");
  who.textContent = text;
  const seat = phones() > view.current && !view.result ? view.current : null; // (a friend's phone)
  if (seat !== null && table.seats[seat]?.worn) who.prepend(table.avatarOf(seat), " ");
}

function renderRoute() {
  const r = routeNow();
  const stop = (label, card, cls) => {
    const li = document.createElement("li");
    li.className = `stop ${cls}`;
    const c = card ? cardEl(card, "tiny") : document.createElement("div");
    if (!card) c.className = "slot-card";
    const cap = document.createElement("span");
    cap.textContent = label;
    li.append(c, cap);
    return li;
  };
  const items = [stop(_("Salida"), r.cards[0], "done")];
  let pos = 0;
  for (const step of view.route) {
    if (step === "PEAJE") {
      const li = document.createElement("li");
      li.className = "stop toll-stop";
      const bar = document.createElement("div");
      bar.className = "barrier small";
      bar.setAttribute("aria-hidden", "true");
      const cap = document.createElement("span");
      cap.textContent = _("Peaje");
      li.append(bar, cap);
      items.push(li);
      continue;
    }
    pos += 1;
    const card = r.cards[pos];
    const cls = card ? "done" : (pos === r.pos && !view.result ? "here" : "todo");
    const li = stop(`${pos}. ${SHORT[step] || step}`, card, cls);
    if (cls === "here") li.setAttribute("aria-current", "step");
    items.push(li);
  }
  $("route").replaceChildren(...items);
}

function renderCards() {
  const r = routeNow();
  $("reference").replaceChildren(cardEl(view.reference, "huge"));
  const box = $("revealed");
  const cap = $("revealed-cap");
  const last = r.last;
  const judging = view.phase === "mark" || view.phase === "miss";
  const showLast = last && (judging || (last.player === view.current && !view.result) || view.result);
  if (showLast && (judging || lastReveal !== revealKey(last))) {
    const isNew = lastReveal !== revealKey(last);
    box.replaceChildren(cardEl(last.card, `huge${isNew ? " flip" : ""}`));
    lastReveal = revealKey(last);
    cap.textContent = last.hit === null ? _("Revelada") : (last.hit ? _("¡Acierto!") : _("Fallo"));
    $("revealed-box").className = `rev ${last.hit === null ? "" : (last.hit ? "is-hit" : "is-miss")}`;
  } else if (!showLast) {
    box.replaceChildren(backEl("huge", _("la siguiente carta")));
    cap.textContent = _("Quedan {n}", { n: r.left });
    $("revealed-box").className = "rev";
  }
}

function revealKey(last) { return `${last.player}:${last.pos}:${last.card}`; }

function button(text, move, cls = "") {
  const b = document.createElement("button");
  b.type = "button";
  b.className = `btn answer ${cls}`.trim();
  b.textContent = text;
  b.addEventListener("click", () => table.move(move));
  return b;
}

function renderAnswers() {
  const box = $("answers");
  const prompt = $("prompt");
  const legal = view.legal || [];
  // the buttons are drawn anew: a keyboard that was on them lands on the new first one
  const active = document.activeElement;
  const keep = box.contains(active) || !active || active === document.body;
  box.className = "answers";
  if (view.result) { prompt.textContent = ""; box.replaceChildren(); return; }
  // among friends, another phone may be the one to act: say who, and offer nothing here
  const waitFor = (name) => (name ? " " + _("Le toca a {name}.", { name }) : "");
  const actorName = () => (view.config.variant === "dos" ? table.seats[1]?.name : playerName(view.current));
  const elsewhere = phones() > 0 && !legal.length ? actorName() : "";
  if (view.phase === "answer") {
    prompt.textContent = questionText(view.question, view.reference) + waitFor(elsewhere);
    if (legal.length === 4) box.classList.add("four");
    box.replaceChildren(...legal.map((m) => button(answerLabel(m.choice), m, `a-${m.choice}`)));
  } else if (view.phase === "reveal") {
    let aloud = _("Di tu respuesta en voz alta; luego quien valida pulsa «Revelar».");
    if (phones() && table.mySeat === 0) aloud = _("Di tu respuesta en voz alta: {name} revela la carta en su móvil.", { name: table.seats[1]?.name || "" });
    else if (phones() && may("reveal")) aloud = _("Escucha la respuesta de {name} y pulsa «Revelar».", { name: table.seats[0]?.name || "" });
    prompt.textContent = `${questionText(view.question, view.reference)} ${aloud}`;
    box.replaceChildren(...(may("reveal") ? [button(_("Revelar"), { type: "reveal" }, "wide")] : []));
  } else if (view.phase === "mark") {
    const right = view.last.right.length ? view.last.right.map(answerLabel).join(", ") : _("nada: empate");
    prompt.textContent = _("¿Ha acertado? (Valía: {right})", { right }) + waitFor(elsewhere);
    box.replaceChildren(...(may("mark") ? [button(_("Acierto"), { type: "mark", hit: true }, "ok"), button(_("Fallo"), { type: "mark", hit: false }, "bad")] : []));
  } else if (view.phase === "miss") {
    const card = theCard(view.last.card);
    // nothing was right: a tie in mayor o menor
    prompt.textContent = (view.last.right.length ? _("Fallo: ha salido {card}. Se retira del mazo.", { card }) : _("Empate con {card}: cuenta como fallo.", { card })) + waitFor(elsewhere);
    box.replaceChildren(...(may("confirm_miss") ? [button(_("Confirmar fallo"), { type: "confirm_miss" }, "wide bad")] : []));
  } else box.replaceChildren();
  if (keep && box.firstElementChild && !document.querySelector("dialog[open]")) box.firstElementChild.focus();
}

function renderOdds() {
  const box = $("odds");
  $("odds-toggle").setAttribute("aria-expanded", String(oddsOpen));
  box.hidden = !oddsOpen || !view.odds || !!view.result;
  if (box.hidden) return;
  const title = document.createElement("p");
  title.className = "odds-title";
  title.textContent = _("Con las cartas que aún no han salido:");
  const body = document.createElement("tbody");
  for (const [a, o] of Object.entries(view.odds)) {
    const tr = document.createElement("tr");
    const th = document.createElement("th");
    th.scope = "row";
    th.textContent = answerLabel(a);
    const count = document.createElement("td");
    count.textContent = `${num(o.count, 0)} / ${num(o.total, 0)}`;
    const pct = document.createElement("td");
    pct.textContent = _("{n} %", { n: num(o.percent, 1) });
    tr.append(th, count, pct);
    body.append(tr);
  }
  const tableEl = document.createElement("table");
  tableEl.append(body);
  const how = document.createElement("a");
  how.href = "/peaje/guia/calculos";
  how.textContent = _("Cómo se calcula");
  box.replaceChildren(title, tableEl, how);
}

function renderCounters() {
  const several = view.routes.length > 1;
  const out = _("sin cartas");
  const rows = view.routes.map((r, i) => {
    const li = document.createElement("li");
    if (several && i === view.playing) li.className = "now";
    const figures = ngettext(
      "Fallos: {misses} · peajes: {tolls} · queda {n} carta",
      "Fallos: {misses} · peajes: {tolls} · quedan {n} cartas",
      r.left, { misses: r.misses, tolls: r.tolls },
    ) + (r.out ? ` · ${out}` : "");
    if (several) {
      const who = document.createElement("strong");
      who.textContent = playerName(i);
      li.append(who, document.createTextNode(` · ${figures}`));
    } else li.textContent = figures;
    return li;
  });
  if (view.misses_left !== null) {
    const li = document.createElement("li");
    li.textContent = _("Fallos que os quedan: {n}", { n: view.misses_left });
    rows.push(li);
  }
  if (view.revealed?.next) { // (a replay: the card the deck gives next)
    const li = document.createElement("li");
    li.className = "seat-next";
    li.textContent = _("La siguiente carta del mazo: {card}", { card: cardText(view.revealed.next) });
    rows.push(li);
  }
  const ul = document.createElement("ul");
  ul.append(...rows);
  $("counters").replaceChildren(ul);
}

function renderToll() {
  const box = $("toll");
  if (view.phase !== "toll" || !view.toll) { closeDialog(box); return; }
  $("toll-title").textContent = view.toll.direction === "back" ? _("¡Peaje! (de vuelta)") : _("¡Peaje!");
  const free = view.config.toll === NO_TOLL;
  $("toll-what").textContent = free
    ? _("Este peaje no se paga: solo se cuenta.")
    : _("Toca pagar: {what}.", { what: view.config.toll });
  $("toll-ok").textContent = free ? _("Seguir") : TOLL_OK;
  const payer = $("toll-payer");
  const n = view.toll.payer; // La patata: the number drawn
  payer.hidden = !n;
  if (n) {
    const b = document.createElement("b");
    b.textContent = n;
    payer.replaceChildren(...sentenceWith(_("Paga el número {n}"), "n", b));
    const name = phones() >= n ? table.seats[n - 1]?.name : players()[n - 1];
    if (name) {
      const who = document.createElement("span");
      who.className = "toll-name";
      who.textContent = `(${name})`;
      payer.append(" ", who);
    }
  }
  $("toll-ok").hidden = !may("confirm_toll"); // a spectator watches it paid
  const wasHidden = !box.open;
  openDialog(box, { sticky: true, then: () => $("answers").firstElementChild });
  if (wasHidden && may("confirm_toll")) $("toll-ok").focus();
}

function maybeHandover() {
  // a route of its own for each player (turnos rápidos): the phone changes hands
  const box = $("handover");
  if (view.result || view.phase === "toll" || view.routes.length < 2 || phones()) { closeDialog(box); return; }
  if (shownFor === null) { shownFor = view.playing; return; }
  if (shownFor === view.playing) return;
  shownFor = view.playing;
  $("handover-title").textContent = _("Turno de {name}", { name: playerName(view.current) });
  const r = routeNow();
  $("handover-text").textContent = _("Pasa el móvil. Tu ruta sigue donde la dejaste: posición {pos}, fallos: {misses}.", { pos: r.pos, misses: r.misses });
  openDialog(box, { sticky: true, then: () => $("answers").firstElementChild });
  $("handover-ok").focus();
}

function showEnd() {
  const r = view.result;
  const several = view.routes.length > 1;
  let title = _("Fin del camino");
  if (r.winner !== null) title = several ? _("¡Gana {name}!", { name: playerName(r.winner) }) : _("¡Ruta completada!");
  const figures = (route) => _("Cartas usadas: {used} · fallos: {misses} · peajes: {tolls}", { used: route.used, misses: route.misses, tolls: route.tolls });
  table.showEnd({
    title,
    reason: REASONS[r.reason] || "",
    stats: several ? "" : figures(view.routes[0]),
    rows: several ? view.routes.map((route, i) => ({ text: `${playerName(i)}: ${figures(route)}`, winner: i === r.winner })) : [],
    won: r.winner !== null,
  });
}

$("handover-ok").addEventListener("click", () => closeDialog($("handover")));
$("toll-ok").addEventListener("click", () => table.move({ type: "confirm_toll" }));
$("odds-toggle").addEventListener("click", () => {
  oddsOpen = !oddsOpen;
  localStorage.setItem(ODDS_KEY, oddsOpen ? "1" : "0");
  if (view) renderOdds();
});

// --- words for the screen reader (table.js speaks them) ---------------------------------

function news(_t, before) {
  const said = [];
  const last = routeNow().last;
  const was = before.routes[before.playing]?.last;
  if (last && (!was || revealKey(was) !== revealKey(last) || was.hit !== last.hit)) {
    const card = theCard(last.card);
    if (last.hit === null) said.push(_("Sale {card}", { card }));
    else said.push(last.hit ? _("Sale {card}: ¡acierto!", { card }) : _("Sale {card}: fallo", { card }));
  }
  if (view.phase === "toll" && before.phase !== "toll") {
    said.push($("toll-title").textContent, $("toll-what").textContent, $("toll-payer").hidden ? "" : $("toll-payer").textContent);
  }
  if ($("handover").open && before.playing !== view.playing) said.push($("handover-title").textContent, $("handover-text").textContent);
  return said;
}

function turnWords() {
  if (view.result || view.phase === "toll") return ""; // (the toll says what to do)
  return [$("who").textContent, $("prompt").textContent].filter(Boolean).join(". ");
}

const table = new Table({ render, news, turnWords });
