// «Análisis»: the coach's words on each move of the seat the replay is seen from. The server
// judges (/api/partidas/{id}/analisis: 202 with its progress while its processes make it,
// then every move with its words, in the reader's language); this draws the list, marks the
// costliest and steps the replay to the table as it was just before the move chosen.
import { api } from "./api.js";

const box = document.getElementById("analysis");
const words = JSON.parse(document.getElementById("analysis-words").textContent);
const stateEl = document.getElementById("analysis-state");
const bar = document.getElementById("analysis-bar");
const POLL_MS = 700;

const fill = (text, params) => String(text).replace(/\{(\w+)\}/g, (_m, k) => params[k] ?? "");

/** The seat the replay is seen from (its «Ver desde»). */
const seat = () => document.getElementById("replay-seat")?.value ?? box.dataset.seat;

function item(move, costly) {
  const li = document.createElement("li");
  li.className = costly ? "analysis-move costly" : "analysis-move";
  li.dataset.n = String(move.n);
  const label = document.createElement("strong");
  label.textContent = fill(words.move, { n: move.n });
  const said = document.createElement("span");
  said.textContent = move.words;
  const see = document.createElement("button");
  see.type = "button";
  see.className = "btn small secondary";
  see.textContent = words.see_short;
  see.setAttribute("aria-label", fill(words.see, { n: move.n }));
  // the table just before the move: the choice as the player had it
  see.addEventListener("click", () => {
    document.dispatchEvent(new CustomEvent("tapete:replay-go", { detail: move.n - 1 }));
    stateEl.textContent = `${label.textContent}: ${move.words}`;
    document.getElementById("main").scrollIntoView({ behavior: "smooth", block: "start" });
  });
  li.append(label, " ", said, " ", see);
  return li;
}

function draw(body) {
  bar.hidden = true;
  const costly = new Set(body.costliest);
  const byN = new Map(body.moves.map((m) => [m.n, m]));
  const top = body.costliest.map((n) => byN.get(n)).filter(Boolean);
  document.getElementById("analysis-costly-list").replaceChildren(...top.map((m) => item(m, true)));
  document.getElementById("analysis-costly").hidden = !top.length;
  document.getElementById("analysis-all-list").replaceChildren(
    ...body.moves.map((m) => item(m, costly.has(m.n))));
  document.getElementById("analysis-all").hidden = !body.moves.length;
  stateEl.textContent = !body.moves.length ? words.none : (top.length ? "" : words.clean);
  box.dataset.ready = "1";
}

async function ask() {
  const { ok, status, data } = await api("GET", `/api/partidas/${encodeURIComponent(box.dataset.game)}/analisis?asiento=${seat()}`);
  if (status === 202) {
    stateEl.textContent = fill(words.computing, { done: data.done, of: data.of });
    bar.hidden = false;
    bar.max = Math.max(1, data.of);
    bar.value = data.done;
    setTimeout(ask, POLL_MS);
    return;
  }
  if (!ok) {
    stateEl.textContent = data.message || words.failed;
    return;
  }
  draw(data);
}

// the replay seen from another seat: that seat's analysis
document.getElementById("replay-seat")?.addEventListener("change", ask);
ask();
