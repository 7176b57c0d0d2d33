// El Peaje's setup page: the players' names for the variant chosen, and the toll's ideas.
import { pageData } from "./ui.js";
const { words: T, names: initial } = pageData("peaje-setup");
const fill = (text, params) => text.replace(/\{(\w+)\}/g, (_m, k) => params[k] ?? `{${k}}`);
const form = document.getElementById("pj-form");
const names = document.getElementById("names");
const count = document.getElementById("count");
const out = document.getElementById("count-out");
const hint = document.getElementById("players-hint");
function limits() {
  const v = form.querySelector("input[name=variant]:checked");
  return [Number(v.dataset.min), Number(v.dataset.max), v.value];
}
function draw() {
  const [lo, hi, variant] = limits();
  const n = Math.min(hi, Math.max(lo, Number(count.value)));
  count.value = n; out.textContent = n;
  hint.textContent = lo === hi ? `(${lo})` : fill(T.range, { low: lo, high: hi });
  const typed = [...names.querySelectorAll("input")].map((i) => i.value);
  const keep = typed.length ? typed : initial;
  const friends = document.getElementById("with-friends");
  if (friends) friends.hidden = variant === "solitario"; // one player: no room
  names.replaceChildren(...Array.from({ length: n }, (_x, i) => {
    const label = document.createElement("label");
    label.className = "name";
    const tag = variant === "patata" ? fill(T.number, { n: i + 1 }) : (variant === "dos" ? (i === 0 ? T.answers : T.checks) : fill(T.player, { n: i + 1 }));
    label.innerHTML = `<span></span><input class="text" type="text" name="player" maxlength="24" autocomplete="off">`;
    label.querySelector("span").textContent = tag;
    label.querySelector("input").value = keep[i] || "";
    label.querySelector("input").placeholder = variant === "patata" ? `${i + 1}` : T.optional;
    return label;
  }));
  document.getElementById("fewer").disabled = n <= lo;
  document.getElementById("more").disabled = n >= hi;
}
form.addEventListener("change", (e) => { if (e.target.name === "variant") { count.value = limits()[0]; draw(); } });
if (!form.querySelector("input[name=variant]:checked")) form.querySelector("input[name=variant]:not([disabled])").checked = true;
document.getElementById("fewer").addEventListener("click", () => { count.value = Number(count.value) - 1; draw(); });
document.getElementById("more").addEventListener("click", () => { count.value = Number(count.value) + 1; draw(); });
form.querySelectorAll("[data-toll]").forEach((b) => b.addEventListener("click", () => { document.getElementById("toll").value = b.dataset.toll; }));
draw();
