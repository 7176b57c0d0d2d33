// The end of a table of strangers («Jugar ahora»): block or report each other player.
// A player is named to the server by this game and their seat, never by any id of theirs;
// the server checks who may, and says why not, in the player's language.

import { api } from "./api.js";

/**
 * Fill `box` (#end-strangers) with the other people at the table.
 * @param {HTMLElement} box
 * @param {{seat: number, name: string, kind: string, you: boolean}[]} seats
 */
export function showStrangers(box, seats) {
  if (box.dataset.shown) return;
  box.dataset.shown = "1";
  const words = JSON.parse(document.getElementById("strangers-words").textContent);
  const said = box.querySelector(".end-strangers-said");
  const others = seats.filter((s) => s.kind === "human" && !s.you);
  if (!others.length) return;

  async function post(url, body) {
    const { ok, data } = await api("POST", url, { game_id: box.dataset.game, ...body });
    return ok ? null : (data.message || words.network);
  }

  const items = others.map((s) => {
    const li = document.createElement("li");
    const name = document.createElement("span");
    name.className = "stranger-name";
    name.textContent = s.name;
    const block = button(words.block, `${words.block}: ${s.name}`);
    const report = button(words.report, `${words.report}: ${s.name}`);
    block.addEventListener("click", async () => {
      block.disabled = true;
      const error = await post("/api/jugadores/bloquear", { seat: s.seat });
      said.textContent = error || words.blocked;
      if (error) block.disabled = false;
    });
    report.addEventListener("click", () => {
      report.hidden = true;
      li.append(reasons(s, words, async (reason, form) => {
        const error = await post("/api/jugadores/denunciar", { seat: s.seat, reason });
        said.textContent = error || words.reported;
        if (!error) form.remove();
      }));
    });
    li.append(name, block, report);
    return li;
  });
  box.querySelector("ul").replaceChildren(...items);
  box.hidden = false;
}

function button(text, label) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = "btn ghost small";
  b.textContent = text;
  b.setAttribute("aria-label", label);
  return b;
}

/** The report's reasons (no free text), and «Enviar». */
function reasons(seat, words, send) {
  const form = document.createElement("form");
  form.className = "stranger-report";
  const label = document.createElement("label");
  const id = `reason-${seat.seat}`;
  label.htmlFor = id;
  label.textContent = words.why;
  const select = document.createElement("select");
  select.id = id;
  for (const [key, text] of words.reasons) {
    const option = document.createElement("option");
    option.value = key;
    option.textContent = text;
    select.append(option);
  }
  const go = button(words.send, `${words.send}: ${seat.name}`);
  go.type = "submit";
  form.append(label, select, go);
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    go.disabled = true;
    send(select.value, form).finally(() => { go.disabled = false; });
  });
  queueMicrotask(() => select.focus());
  return form;
}
