// El Peaje: one phone passed around the table. Big buttons; the server judges everything.
import { GameSocket } from "./net.js";
import { $, _, fmt, toast } from "./ui.js";

const SHORT = {
  mayor_menor: _("Mayor o menor"),
  redonda_picuda: _("Redonda o picuda"),
  roja_negra: _("Roja o negra"),
  palo: _("Palo"),
};
const REASONS = {
  route: _("Se acertó la última pregunta de la ruta."),
  deck: _("Se acabó el mazo antes de terminar la ruta."),
  misses: _("Seis fallos: el grupo pierde."),
  all_out: _("Todos se quedaron sin cartas: nadie gana."),
};
import { cardEl, backEl, cardName } from "./cards.js";

const root = $("peaje");

let view = null;
let shownFor = null;      // who the hand-over screen was last shown for
let lastReveal = null;    // to flip only a new card
let oddsOpen = localStorage.getItem(_("Probabilidades")) === "1";

const players = () => view.config.players;
function playerName(i) {
  const n = players()[i];
  if (view.config.variant === "patata") return _("Nº {n}", { n: i + 1 }) + (n ? ` (${n})` : "");
  return n || _("Jugador {n}", { n: i + 1 });
}
const rapid = () => view.config.variant === "rapidos";
const routeNow = () => view.routes[rapid() ? view.current : 0];

function answerLabel(a) {
  return { mayor: _("▲ Mayor"), menor: _("▼ Menor"), redonda: _("● Redonda ♥♣"), picuda: _("◆ Picuda ♦♠"),
    roja: _("Roja ♥♦"), negra: _("Negra ♣♠"), corazones: "♥ corazones", diamantes: "♦ diamantes", treboles: "♣ tréboles", picas: "♠ picas" }[a] || a;
}

function questionText(q, ref) {
  return {
    mayor_menor: _("¿La siguiente será mayor o menor que el {card}?", { card: cardName(ref) }),
    redonda_picuda: _("¿Redonda o picuda?"),
    roja_negra: _("¿Roja o negra?"),
    palo: _("¿De qué palo?"),
  }[q];
}

// --- rendering ---------------------------------------------------------------------

function render() {
  if (!view) return;
  const v = view.config.variant;
  const who = $("who");
  if (view.result) who.textContent = _("Fin de la partida");
  else if (v === "solitario") who.textContent = _("Solitario");
  else if (v === "dos") who.textContent = view.phase === "reveal" ? _("{name} responde en voz alta", { name: nameOr(0, _("Quien responde")) }) : _("{name} valida", { name: nameOr(1, _("Quien valida")) });
  else who.textContent = _("Turno de {name}", { name: playerName(view.current) });
  renderRoute();
  renderCards();
  renderAnswers();
  renderOdds();
  renderCounters();
  renderToll();
  maybeHandover();
  if (view.result) showEnd(); else $("end").hidden = true;
}

function nameOr(i, fallback) { return players()[i] || fallback; }

function renderRoute() {
  const r = routeNow();
  const items = [];
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
  items.push(stop(_("Salida"), r.cards[0], "done"));
  let pos = 0;
  for (const step of view.route) {
    if (step === "PEAJE") {
      const li = document.createElement("li");
      li.className = "stop toll-stop";
      li.innerHTML = `<div class="barrier small" aria-hidden="true"></div><span>${_("Peaje")}</span>`;
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
  $("reference").replaceChildren(cardEl(r.cards[r.cards.length - 1], "huge"));
  const box = $("revealed");
  const cap = $("revealed-cap");
  const last = rapid() ? routeNow().last : view.last;
  const showLast = last && (view.phase === "mark" || view.phase === "miss" || (last.player === view.current && !view.result) || view.result);
  if (showLast && (view.phase === "mark" || view.phase === "miss" || lastReveal !== revealKey(last))) {
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
  b.addEventListener("click", () => send(move));
  return b;
}

function renderAnswers() {
  const box = $("answers");
  const prompt = $("prompt");
  const legal = view.legal || [];
  const r = routeNow();
  box.className = "answers";
  if (view.result) { prompt.textContent = ""; box.replaceChildren(); return; }
  if (view.phase === "answer") {
    prompt.textContent = questionText(view.question, r.cards[r.cards.length - 1]);
    if (view.question === "palo") box.classList.add("four");
    box.replaceChildren(...legal.map((m) => button(answerLabel(m.choice), m, `a-${m.choice}`)));
  } else if (view.phase === "reveal") {
    prompt.textContent = `${questionText(view.question, r.cards[r.cards.length - 1])} ${_("Di tu respuesta en voz alta; luego quien valida pulsa «Revelar».")}`;
    box.replaceChildren(button(_("Revelar"), { type: "reveal" }, "wide"));
  } else if (view.phase === "mark") {
    const right = view.last.right.length ? view.last.right.map(answerLabel).join(", ") : _("nada: empate");
    prompt.textContent = _("¿Ha acertado? (Valía: {right})", { right });
    box.replaceChildren(button(_("Acierto"), { type: "mark", hit: true }, "ok"), button(_("Fallo"), { type: "mark", hit: false }, "bad"));
  } else if (view.phase === "miss") {
    const tie = view.last.question === "mayor_menor" && !view.last.right.length;
    prompt.textContent = tie ? _("Empate con el {card}: cuenta como fallo.", { card: cardName(view.last.card) }) : _("Fallo: ha salido el {card}. Se retira del mazo.", { card: cardName(view.last.card) });
    box.replaceChildren(button(_("Confirmar fallo"), { type: "confirm_miss" }, "wide bad"));
  } else box.replaceChildren();
}

function renderOdds() {
  const box = $("odds");
  $("odds-toggle").setAttribute("aria-expanded", String(oddsOpen));
  box.hidden = !oddsOpen || !view.odds || !!view.result;
  if (box.hidden) return;
  const rows = Object.entries(view.odds).map(([a, o]) =>
    `<tr><th scope="row">${a === "tie" ? _("Empate (fallo)") : answerLabel(a)}</th><td>${o.count} / ${o.total}</td><td>${o.percent.toLocaleString("es")} %</td></tr>`);
  box.innerHTML = `<p class="odds-title">${_("Con las cartas que aún no han salido:")}</p><table><tbody>${rows.join("")}</tbody></table><a href="/peaje/guia/calculos">${_("Cómo se calcula")}</a>`;
}

function renderCounters() {
  const rows = view.routes.map((r, i) => {
    const who = rapid() ? `<strong>${escapeHtml(playerName(i))}</strong>` : "";
    const out = r.out ? ` · ${_("sin cartas")}` : "";
    return `<li class="${rapid() && i === view.current ? "now" : ""}">${who} ${_("Fallos: {misses} · peajes: {tolls} · quedan {left} cartas", { misses: r.misses, tolls: r.tolls, left: r.left })}${out}</li>`;
  });
  const coop = view.config.variant === "cooperativo" ? `<li>${_("Fallos que os quedan: {n}", { n: Math.max(0, 6 - view.routes[0].misses) })}</li>` : "";
  $("counters").innerHTML = `<ul>${rows.join("")}${coop}</ul>`;
}

function escapeHtml(s) { return s.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]); }

function renderToll() {
  const box = $("toll");
  if (view.phase !== "toll" || !view.toll) { box.hidden = true; return; }
  $("toll-title").textContent = view.toll.direction === "back" ? _("¡Peaje! (de vuelta)") : _("¡Peaje!");
  $("toll-what").textContent = _("Toca pagar: {what}.", { what: view.config.toll });
  const payer = $("toll-payer");
  payer.hidden = !view.toll.payer;
  if (view.toll.payer) payer.innerHTML = `${_("Paga el número")} <b>${view.toll.payer}</b>`;
  const wasHidden = box.hidden;
  box.hidden = false;
  if (wasHidden) $("toll-ok").focus();
}

function maybeHandover() {
  const box = $("handover");
  const v = view.config.variant;
  if (view.result || view.phase === "toll" || v !== "rapidos") { box.hidden = true; return; }
  const key = `${view.current}:${view.routes.map((r) => r.used).join(",")}`;
  if (shownFor === null) { shownFor = `${view.current}`; return; }
  if (shownFor === `${view.current}`) return;
  shownFor = `${view.current}`;
  $("handover-title").textContent = _("Turno de {name}", { name: playerName(view.current) });
  const r = routeNow();
  $("handover-text").textContent = _("Pasa el móvil. Tu ruta sigue donde la dejaste: posición {pos}, fallos: {misses}.", { pos: r.pos, misses: r.misses });
  box.hidden = false;
  box.dataset.key = key;
  $("handover-ok").focus();
}
$("handover-ok").addEventListener("click", () => { $("handover").hidden = true; });
$("toll-ok").addEventListener("click", () => send({ type: "confirm_toll" }));
$("odds-toggle").addEventListener("click", () => { oddsOpen = !oddsOpen; localStorage.setItem(_("Probabilidades"), oddsOpen ? "1" : "0"); renderOdds(); });

function showEnd() {
  const r = view.result;
  let title;
  if (r.winner !== null) title = rapid() ? _("¡Gana {name}!", { name: playerName(r.winner) }) : _("¡Ruta completada!");
  else title = _("Fin del camino");
  $("end-title").textContent = title;
  $("end-reason").textContent = REASONS[r.reason] || "";
  const stats = view.routes.map((route, i) => {
    const li = document.createElement("li");
    const who = rapid() ? `${playerName(i)}: ` : "";
    li.textContent = who + _("Cartas usadas: {used} · fallos: {misses} · peajes: {tolls}", { used: route.used, misses: route.misses, tolls: route.tolls });
    return li;
  });
  $("end-stats").replaceChildren(...stats);
  const wasHidden = $("end").hidden;
  $("end").hidden = false;
  $("end").classList.toggle("won", r.winner !== null);
  if (wasHidden) $("again").focus();
}

// --- the socket --------------------------------------------------------------------

let waiting = false;
function send(move) {
  if (waiting) return;
  if (sock.move(move)) waiting = true;
}


const sock = new GameSocket(root.dataset.game, {
  message(msg) {
    $("conn").hidden = true;
    if (msg.type === "joined") {
      view = msg.view; waiting = false; shownFor = null;
      if (view.last) lastReveal = revealKey(view.last);
    } else if (msg.type === "update" || msg.type === "sync") { view = msg.view; waiting = false; }
    else if (msg.type === "error") {
      waiting = false;
      if (msg.sync) view = msg.sync.view;
      if (msg.code !== "stale_version") toast(msg.message);
    } else return;
    render();
  },
  offline() { $("conn").textContent = _("Sin conexión. Reconectando…"); $("conn").hidden = false; waiting = false; },
});
window.__tapete = { get view() { return view; } };
