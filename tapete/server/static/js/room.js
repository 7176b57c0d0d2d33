// A private room before its game: who sits where, the code to share, the host's options.
// The server decides everything; this page shows the room's state (`lobby` messages) and
// sends the actions. When a game starts the page reloads into the table.
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
      if (started || (msg.status === "playing" && msg.game_id)) {
        history.scrollRestoration = "manual"; // (the table is another page: from its top)
        location.reload();
        return;
      }
      render();
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

function act(action, fields = {}, again = true) {
  if (!ws || ws.readyState !== WebSocket.OPEN) return;
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
  else if (s.kind === "human" && !s.connected) tags.push(["off", _("desconectado")]);
  for (const [cls, label] of tags) {
    const t = document.createElement("span");
    t.className = `tag ${cls}`;
    t.textContent = label;
    li.append(t);
  }
  if (room.host && room.status !== "playing") {
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
  $("sit").hidden = !seated && !free;
  $("sit-button").textContent = seated ? _("Cambiar mi nombre") : _("Sentarme");
  $("host").hidden = !room.host;
  $("start").hidden = !room.host;
  $("start").disabled = !room.can_start;
  $("leave").hidden = !seated;
  const waiting = $("waiting");
  if (!seated && !free) waiting.textContent = _("La sala está completa.");
  else if (seated && !room.host) waiting.textContent = _("Esperando a que empiece la partida…");
  else if (room.host && !room.can_start) waiting.textContent = _("Hacen falta al menos dos jugadores para empezar.");
  else waiting.textContent = "";
  $("bot-row").hidden = !room.bots;
  renderHost();
}

function renderHost() {
  if (!room.host) return;
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
