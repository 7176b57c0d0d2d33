// A private room before its game (or between two): who sits where, the code to share, the
// host's options, and between games the rematch. The server decides everything; this page
// shows the room's state (`lobby` messages) and sends the actions. When a game starts the
// page goes to the table.
import { mayStartNow, rematchLines, showLines } from "./rematch.js";
import { $, _, avatarEl, ngettext, pageData, toast } from "./ui.js";

const data = pageData("tapete-room");
const code = document.getElementById("room").dataset.room;
let room = data.room;
let ws = null;
let delay = 250;

function connect() {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  ws = new WebSocket(`${proto}://${location.host}/ws`);
  ws.onopen = () => { delay = 250; ws.send(JSON.stringify({ type: "enter", room: code })); };
  ws.onmessage = (ev) => {
    let msg;
    try { msg = JSON.parse(ev.data); } catch { return; }
    $("conn").hidden = true;
    if (msg.type === "lobby") {
      const started = msg.game_id && msg.game_id !== room.game_id;
      const changed = JSON.stringify(msg.options) !== JSON.stringify(room.options);
      room = msg;
      if (changed) refreshSummary();
      if (started || (msg.status === "playing" && msg.game_id && !msg.over)) {
        history.scrollRestoration = "manual"; // (the table is another page: from its top)
        location.href = `/sala/${code}`; // (a game is on: the room's link is its table)
        return;
      }
      render();
      if (pending) { // (chosen before the socket was open: sent on the room as it is now)
        const [action, fields] = pending;
        pending = null;
        act(action, fields);
      }
    } else if (msg.type === "error") {
      if (msg.lobby) { room = msg.lobby; render(); }
      if (msg.code === "stale_version" && retry) {
        // the room changed under the host's hand (someone sat down): the same choice again,
        // once, on the room as it is now
        const [action, fields] = retry;
        retry = null;
        act(action, fields, false);
      } else if (msg.code !== "stale_version") toast(msg.message);
    }
  };
  ws.onclose = () => {
    $("conn").textContent = _("Sin conexión. Reconectando…");
    $("conn").hidden = false;
    setTimeout(connect, delay);
    delay = Math.min(delay * 2, 5000);
  };
}

/** The options in words, as the server writes them (they changed: the host chose others). */
async function refreshSummary() {
  try {
    const r = await fetch(`/sala/${code}/resumen`);
    if (r.ok) $("summary").innerHTML = await r.text();
  } catch { /* the next change tries again */ }
}

let retry = null; // the host's last choice, sent again once if the room had moved on
let pending = null; // a choice made while the socket was not open yet (or again)

function act(action, fields = {}, again = true) {
  if (!ws || ws.readyState !== WebSocket.OPEN) {
    pending = [action, fields];
    return;
  }
  retry = again && HOST_CHOICES.has(action) ? [action, fields] : null;
  ws.send(JSON.stringify({ type: "lobby", action, version: room.version, ...fields }));
}
const HOST_CHOICES = new Set(["options", "bot"]); // (never «remove»: a seat may hold someone else now)

function seatItem(s) {
  const li = document.createElement("li");
  li.className = `${s.kind}${s.you ? " you" : ""}`;
  const who = document.createElement("span");
  who.className = "who";
  if (s.kind === "empty") who.textContent = _("Asiento libre");
  else who.textContent = s.you ? _("{name} (tú)", { name: s.name }) : s.name;
  if (s.kind === "human") li.append(avatarEl(s.worn)); // (their avatar in their frame)
  li.append(who);
  const tags = [];
  if (s.host) tags.push(["host", _("anfitrión")]);
  if (s.kind === "bot") tags.push(["", _("bot")]);
  else if (s.kind === "human" && s.away) tags.push(["gone", _("se fue")]);
  else if (s.kind === "human" && !s.connected) tags.push(["off", _("desconectado")]);
  else if (room.over && room.rematch.includes(s.seat)) tags.push(["yes", _("quiere la revancha")]);
  for (const [cls, label] of tags) {
    const t = document.createElement("span");
    t.className = `tag ${cls}`;
    t.textContent = label;
    li.append(t);
  }
  if (room.host && (room.status !== "playing" || room.over)) {
    if (s.kind === "empty" && room.bots) {
      li.append(button(_("Poner un bot"), () => act("bot", { seat: s.seat, level: $("bot-level").value })));
    } else if (!s.you) {
      li.append(button(_("Quitar"), () => act("remove", { seat: s.seat })));
    }
  }
  return li;
}

function button(label, onclick) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = "btn secondary";
  b.textContent = label;
  b.addEventListener("click", onclick);
  return b;
}

function render() {
  $("seats").replaceChildren(...room.seats.map(seatItem));
  const watchers = $("watchers");
  watchers.hidden = !room.watchers;
  watchers.textContent = ngettext("{n} persona mirando", "{n} personas mirando", room.watchers);
  const seated = room.you !== null;
  const free = room.seats.some((s) => s.kind === "empty");
  placeSeatForm(seated);
  $("sit").hidden = (!seated && !free) || room.you_removed;
  $("sit-button").textContent = seated ? _("Cambiar mi nombre") : _("Sentarme");
  $("host").hidden = !room.host;
  $("start").hidden = !room.host;
  $("start").disabled = !room.can_start;
  $("leave").hidden = !seated;
  const waiting = $("waiting");
  $("you-removed").hidden = !room.you_removed; // (they may watch; not sit)
  if (room.you_removed) waiting.textContent = "";
  else if (!seated && !free) waiting.textContent = _("La sala está completa.");
  else if (seated && !room.host && !room.over) waiting.textContent = _("Esperando a que empiece la partida…");
  else if (room.host && !room.can_start) waiting.textContent = _("Hacen falta al menos dos jugadores para empezar.");
  else waiting.textContent = "";
  $("bot-row").hidden = !room.bots;
  renderBetween();
  renderHost();
}

/** Someone not seated is asked for a name first (the top of the page: a friend who opened
 * the link on a phone sits without scrolling); someone seated finds it below the seats. */
function placeSeatForm(seated) {
  const form = $("sit");
  const anchor = seated ? $("seats-section") : document.querySelector("#room h1");
  // moved only when it must: a node moved loses the focus (someone typing their name while
  // another enters the room would find their letters gone nowhere)
  if (anchor.nextElementSibling !== form) anchor.after(form);
}

/** Between games: the rematch, as in the end dialog of the table. */
function renderBetween() {
  const box = $("between");
  box.hidden = !room.over;
  if (!room.over) return;
  showLines($("between-status"), rematchLines(room));
  const again = $("between-rematch");
  again.hidden = room.you === null || room.rematch.includes(room.you);
  $("start").textContent = mayStartNow(room) ? _("Empezar ya") : _("Empezar la partida");
}

function renderHost() {
  if (!room.host) return;
  $("removed-box").hidden = !room.removed.length;
  $("removed").replaceChildren(...room.removed.map((name, index) => {
    const li = document.createElement("li");
    const who = document.createElement("span");
    who.className = "who";
    who.textContent = name;
    li.append(who, button(_("Dejar volver"), () => act("readmit", { index })));
    return li;
  }));
  const players = $("players");
  const [low, high] = room.seat_range;
  const now = room.seats.length;
  players.replaceChildren(...Array.from({ length: high - low + 1 }, (_x, i) => {
    const o = document.createElement("option");
    o.value = String(low + i);
    o.textContent = String(low + i);
    o.selected = low + i === now;
    return o;
  }));
  const clocks = data.clocks;
  $("clock-row").hidden = !clocks.length;
  $("clock").replaceChildren(...clocks.map((c) => {
    const o = document.createElement("option");
    o.value = c === null ? "" : String(c);
    o.textContent = c === null ? _("Sin reloj") : _("{n} s", { n: c });
    o.selected = c === room.options.clock;
    return o;
  }));
}

function options(change) {
  const clock = "clock" in change ? change.clock : room.options.clock;
  // the number of seats: the server knows what it means for the game's options
  act("options", { options: { config: room.options.config, clock, seats: change.seats } });
}

$("players").addEventListener("change", (e) => options({ seats: Number(e.target.value) }));
$("clock").addEventListener("change", (e) => options({ clock: e.target.value === "" ? null : Number(e.target.value) }));
$("start").addEventListener("click", () => act("start"));
$("between-rematch").addEventListener("click", () => act("rematch"));
$("leave").addEventListener("click", () => { act("leave"); location.href = "/"; });
$("sit").addEventListener("submit", (e) => {
  e.preventDefault();
  act("take", { name: $("name").value });
});
$("copy").addEventListener("click", async () => {
  try {
    await navigator.clipboard.writeText($("link").href);
    $("copied").textContent = _("Enlace copiado.");
  } catch {
    $("copied").textContent = _("Copia el enlace de arriba.");
  }
});
if (navigator.share) {
  $("share").hidden = false;
  $("share").addEventListener("click", () => {
    navigator.share({ title: document.title, text: _("Juega conmigo: código {code}", { code }), url: $("link").href }).catch(() => {});
  });
}
render();
connect();
window.__tapete_room = { get room() { return room; } };
