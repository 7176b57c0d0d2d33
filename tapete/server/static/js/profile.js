// The profile page: each form posts to the account API and shows the server's answer.
// No rule here: the server says what happened, in the player's language.

import { api } from "./api.js";

const strings = JSON.parse(document.getElementById("profile-strings").textContent);
const status = document.getElementById("status");

function say(text, bad = false) {
  status.textContent = text;
  status.classList.toggle("bad", bad);
}

async function call(method, url, body) {
  const { ok, data } = await api(method, url, body);
  if (!ok) {
    say(data.message || strings.network, true);
    return null;
  }
  return data;
}

function on(id, event, handler) {
  const el = document.getElementById(id);
  if (el) el.addEventListener(event, handler);
}

function busy(form, yes) {
  for (const b of form.querySelectorAll("button")) b.disabled = yes;
}

// The day of the daily coins is the player's own: tell the server the browser's zone once.
const page = document.querySelector(".profile");
const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
const zoneKnown = page.dataset.tzKnown === "yes" || !zone
  ? Promise.resolve()
  : call("POST", "/api/cuenta/perfil", { tz: zone });

on("claim", "click", async (ev) => {
  ev.currentTarget.disabled = true;
  await zoneKnown;
  const data = await call("POST", "/api/monedas/diario");
  if (data) location.reload();
  else ev.currentTarget.disabled = false;
});

on("profile-form", "submit", async (ev) => {
  ev.preventDefault();
  const form = ev.currentTarget;
  const fields = new FormData(form);
  const body = { lang: fields.get("lang") };
  if (fields.get("name").trim()) body.name = fields.get("name");  // (blank: no name yet)
  if (fields.get("avatar")) body.avatar = fields.get("avatar");
  busy(form, true);
  const data = await call("POST", "/api/cuenta/perfil", body);
  busy(form, false);
  if (data) location.href = `/perfil?lang=${encodeURIComponent(body.lang)}`;
});

function codeFlow(formId, codeFormId, askUrl, confirmUrl, done) {
  let email = "";
  on(formId, "submit", async (ev) => {
    ev.preventDefault();
    const form = ev.currentTarget;
    email = new FormData(form).get("email");
    busy(form, true);
    const data = await call("POST", askUrl, { email });
    busy(form, false);
    if (!data) return;
    say(strings.sent.replace("{email}", data.email));
    const codeForm = document.getElementById(codeFormId);
    codeForm.hidden = false;
    codeForm.querySelector("input").focus();
  });
  on(codeFormId, "submit", async (ev) => {
    ev.preventDefault();
    const form = ev.currentTarget;
    const code = new FormData(form).get("code").trim();
    busy(form, true);
    const data = await call("POST", confirmUrl, { email, code });
    busy(form, false);
    if (data) done();
  });
}

codeFlow("mail-form", "code-form", "/api/cuenta/correo", "/api/cuenta/correo/confirmar",
  () => location.reload());
codeFlow("recover-form", "recover-code-form", "/api/cuenta/recuperar",
  "/api/cuenta/recuperar/confirmar", () => { location.href = "/perfil"; });

on("unlink", "click", async () => {
  if (await call("DELETE", "/api/cuenta/correo")) location.reload();
});

on("erase-form", "submit", async (ev) => {
  ev.preventDefault();
  const form = ev.currentTarget;
  busy(form, true);
  const data = await call("DELETE", "/api/cuenta", { confirm: form.elements.confirm.checked });
  busy(form, false);
  if (data) location.href = "/";
});

// The name strangers see: two words from the lists, or back to the one drawn at first.
async function publicName(name) {
  const data = await call("POST", "/api/jugadores/nombre", { name });
  if (!data) return;
  document.getElementById("public-now").textContent = data.name;
  const [animal, adjective] = data.key.split("-");
  document.getElementById("public-animal").value = animal;
  document.getElementById("public-adjective").value = adjective;
  say(data.name);
}

on("public-form", "submit", async (ev) => {
  ev.preventDefault();
  const form = ev.currentTarget;
  busy(form, true);
  const fields = new FormData(form);
  await publicName(`${fields.get("animal")}-${fields.get("adjective")}`);
  busy(form, false);
});

on("public-drawn", "click", async (ev) => {
  const form = ev.currentTarget.form;
  busy(form, true);
  await publicName(null);
  busy(form, false);
});
