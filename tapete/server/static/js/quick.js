// «Jugar ahora»: ask the server for a seat with people (POST /api/jugar), show the wait it
// reports — the seconds left, how many wait — and go to the table once seated. No rule here:
// the server matches, times the wait and says why it refuses, in the player's language.

import { api } from "./api.js";

const section = document.getElementById("quick");
const form = document.getElementById("quick-form");
const wait = document.getElementById("quick-wait");
const left = document.getElementById("quick-left");
const count = document.getElementById("quick-count");
const bar = document.getElementById("quick-bar");
const error = document.getElementById("quick-error");
const cancel = document.getElementById("quick-cancel");
const strings = JSON.parse(document.getElementById("quick-strings").textContent);

const POLL_MS = 700;
const MARK = "tapete-quick";  // (this tab is waiting: a reload or a return asks the server)
let timer = null;

/** Whether bots fill a game's empty seats (El Peaje has none: one alone plays alone); the
 * game waited for, else the one chosen. */
const withBots = (game) => {
  const field = game
    ? [...form.querySelectorAll('[name="quick_game"]')].find((e) => e.value === game)
    : form.querySelector('[name="quick_game"]:checked, input[type="hidden"][name="quick_game"]');
  return field?.dataset.bots !== "0";
};

function hints() {
  document.getElementById("quick-hint-bots").hidden = !withBots();
  document.getElementById("quick-hint-alone").hidden = withBots();
}

const fill = (text, params) => String(text).replace(/\{(\w+)\}/g, (_m, k) => params[k] ?? "");

function say(text) {
  error.textContent = text || "";
  error.hidden = !text;
}

async function call(method, body) {
  const { ok, status, data } = await api(method, "/api/jugar", body);
  return { ok, data: status ? data : { message: strings.network } };
}

function waiting(yes) {
  if (yes) sessionStorage.setItem(MARK, "1");
  else sessionStorage.removeItem(MARK);
  form.hidden = yes;
  wait.hidden = !yes;
  section.classList.toggle("is-waiting", yes);
  if (!yes) clearTimeout(timer);
}

function show(status) {
  if (status.state === "seated") {
    sessionStorage.removeItem(MARK);
    count.textContent = "";
    if (status.alone) {  // (nobody else came: a moment to read why it is a game alone)
      left.textContent = strings.alone;
      form.hidden = true;
      wait.hidden = false;
      setTimeout(() => location.assign(status.url), 1500);
    } else {
      left.textContent = strings.seated;
      location.assign(status.url);
    }
    return false;
  }
  if (status.state !== "waiting") {
    if (!wait.hidden) say(strings.lost);  // (the wait ended without a table)
    waiting(false);
    return false;
  }
  const seconds = Math.ceil(status.seconds_left);
  bar.value = Math.max(0, status.seconds_left);
  const now = withBots(status.game) ? strings.bots_now : strings.table_now;
  left.textContent = seconds > 0 ? fill(strings.searching, { seconds }) : now;
  count.textContent = status.waiting > 1
    ? fill(strings.waiting_many, { n: status.waiting })
    : strings.waiting_one;
  waiting(true);
  return true;
}

async function poll() {
  const { ok, data } = await call("GET");
  if (!ok) {
    say(data.message || strings.network);
    waiting(false);
    return;
  }
  if (show(data)) timer = setTimeout(poll, POLL_MS);
}

/** Queue for `game` at a table of `players` (null: any), and show the wait. */
async function start(game, players, button) {
  say("");
  button.disabled = true;
  const { ok, data } = await call("POST", { game, players });
  button.disabled = false;
  if (!ok) {
    say(data.message || strings.network);
    return;
  }
  if (show(data)) timer = setTimeout(poll, POLL_MS);
  cancel.focus();
}

form.addEventListener("submit", (ev) => {
  ev.preventDefault();
  const fields = new FormData(form);
  const players = fields.get("quick_players");
  start(fields.get("quick_game"), players ? Number(players) : null, document.getElementById("quick-go"));
});

// «Mesas abiertas»: one click sits down at the table people wait for (or any, if none).
for (const button of section.querySelectorAll("[data-quick-game]")) {
  button.addEventListener("click", () => {
    const players = button.dataset.quickPlayers;
    start(button.dataset.quickGame, players ? Number(players) : null, button);
  });
}

form.addEventListener("change", hints);
hints();

cancel.addEventListener("click", async () => {
  clearTimeout(timer);
  await call("DELETE");
  waiting(false);
  document.getElementById("quick-go").focus();
});

// Back on the page while this tab was waiting (a reload, the back button): the wait goes on.
if (sessionStorage.getItem(MARK)) {
  call("GET").then(({ ok, data }) => {
    if (ok && data.state === "waiting" && show(data)) timer = setTimeout(poll, POLL_MS);
    else sessionStorage.removeItem(MARK);
  });
}
