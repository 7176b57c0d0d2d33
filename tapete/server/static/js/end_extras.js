// The end dialog's extras (templates/_end.html), loaded by table.js when a game ends: a
// rated game's rating change, the logros the game earned, the strangers of a quick table
// (to block or report), and the coach's analysis asked for ahead. Nothing here is needed
// before the end: a table's first load stays light (bench/page_weight.py).
import { showStrangers } from "./strangers.js";
import { $, _, ngettext } from "./ui.js";

/** Everything the end dialog adds for the player of ``table`` (table.js's Table). */
export function extras(table) {
  showRating();
  showLogros(table);
  prepareAnalysis(table);
  const strangers = $("end-strangers");
  if (strangers) showStrangers(strangers, table.seats);
}

/** A game with a coach: ask for its analysis once at the end, so that the coach's
 * processes make it while the player reads the result (the link opens it ready). */
function prepareAnalysis(table) {
  const link = $("end-analysis");
  if (!link || link.dataset.asked || table.mySeat === null) return;
  link.dataset.asked = "1";
  const api = link.pathname.replace(/^\/partida\//, "/api/partidas/"); // (the game it links)
  fetch(api, { headers: { accept: "application/json" }, credentials: "same-origin" }).catch(() => {});
}

/** A rated game's end: the reader's rating change, once (the server wrote it with the
 * game's last move, so it is there when the end is). */
async function showRating() {
  const el = $("end-rating");
  if (!el || el.dataset.shown) return;
  el.dataset.shown = "1";
  try {
    const response = await fetch(`/api/partidas/${el.dataset.game}/puntuacion`,
      { credentials: "same-origin" });
    if (!response.ok) return;
    const r = await response.json();
    const sign = r.change > 0 ? "+" : r.change < 0 ? "−" : "±";
    el.textContent = _("Tu puntuación: {rating} ({change})", {
      rating: `${r.after}${r.provisional ? "?" : ""}`,
      change: `${sign}${Math.abs(r.change)}`,
    });
    el.classList.toggle("up", r.change > 0);
    el.classList.toggle("down", r.change < 0);
    el.hidden = false;
  } catch { /* offline: the end says the rest */ }
}

/** The logros this game earned the reader, once: in the end dialog, and said aloud. */
async function showLogros(table) {
  const el = $("end-logros");
  if (!el || el.dataset.shown || table.mySeat === null) return;
  el.dataset.shown = "1";
  try {
    const response = await fetch(`/api/logros?partida=${encodeURIComponent(el.dataset.game)}`,
      { credentials: "same-origin" });
    if (!response.ok) return;
    const earned = await response.json();
    if (!earned.length) return;
    el.querySelector("ul").replaceChildren(...earned.map((l) => {
      const li = document.createElement("li");
      const icon = document.createElement("span");
      icon.className = "logro-icon";
      icon.setAttribute("aria-hidden", "true");
      icon.textContent = l.icon;
      const title = document.createElement("strong");
      title.textContent = l.title;
      li.append(icon, " ", title, ` · ${l.rule}`);
      return li;
    }));
    el.hidden = false;
    table.announce(ngettext("¡Logro conseguido: {titles}!", "¡Logros conseguidos: {titles}!",
      earned.length, { titles: earned.map((l) => l.title).join(", ") }));
  } catch { /* offline: the logros page has them */ }
}
