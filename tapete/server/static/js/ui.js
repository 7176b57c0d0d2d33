// What every table page shares: the message catalog, element lookup, the error toast.
//
// A message id is the Spanish text; the server puts the page's translations in a JSON
// block, <script type="application/json" id="tapete-strings"> ({id: text}, {id: [forms]}
// for plurals; nothing in Spanish): data, not script, so the page's CSP allows no inline
// script at all. `tapete catalogs update` finds every _("…") and ngettext("…", "…", n) here.

/** The JSON a page puts in its <script type="application/json" id=…> block (null if none). */
export function pageData(id) {
  const el = document.getElementById(id);
  return el ? JSON.parse(el.textContent) : null;
}

const STRINGS = pageData("tapete-strings") || {};
export const LANG = document.documentElement.lang || "es";

/** Fill {placeholders} in a text that is already in the page's language. */
export const fmt = (text, params = {}) =>
  String(text).replace(/\{(\w+)\}/g, (_m, k) => (params[k] ?? `{${k}}`));

/** A catalog message in the page's language, with {placeholders} filled in. */
export const _ = (id, params = {}) => {
  const text = STRINGS[id];
  return fmt(typeof text === "string" && text ? text : id, params);
};

/** The form of a message for `n` (Spanish and English: one, or other); {n} is n. */
export const ngettext = (singular, plural, n, params = {}) => {
  const forms = STRINGS[singular];
  const pick = n === 1 ? 0 : 1;
  const text = Array.isArray(forms) && forms[pick] ? forms[pick] : (pick ? plural : singular);
  return fmt(text, { n, ...params });
};

/** A number in the page's language ("54,9" / "54.9"). */
export const num = (value, digits = 1) =>
  Number(value).toLocaleString(LANG, { maximumFractionDigits: digits });

export const $ = (id) => document.getElementById(id);

/** An avatar (SVG, from the page's <template id="avatar-…">) in the frame a player wears
 * (``worn``: what the shop's items they chose are, ``{avatar, frame, …}``; none: the default). */
export function avatarEl(worn) {
  const el = document.createElement("span");
  el.className = `seat-avatar cos-${worn?.frame || "sin-marco"}`;
  el.setAttribute("aria-hidden", "true");
  const template = document.getElementById(`avatar-${worn?.avatar || "none"}`);
  if (template) el.append(template.content.cloneNode(true));
  return el;
}

/** Show a short message in #toast for a few seconds. */
export function toast(text) {
  const el = $("toast");
  el.textContent = text;
  el.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { el.hidden = true; }, 3500);
}

const FOCUSABLE = 'button:not([disabled]), [href], input:not([disabled]), select:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** Open a <dialog> (modal: the rest of the page inert, Esc cancels it unless ``sticky``);
 * when it closes, the focus goes back where it was — if that was drawn anew meanwhile, to the
 * first control where it was; if that is gone too, to ``then()``. */
export function openDialog(dialog, { modal = true, sticky = false, then = null } = {}) {
  if (dialog.open) return;
  const back = document.activeElement;
  const home = back && back !== document.body ? back.parentElement : null;
  dialog.oncancel = sticky ? (ev) => ev.preventDefault() : null;
  dialog.addEventListener("close", () => {
    let to = back && back.isConnected && back !== document.body ? back : null;
    // the table was drawn anew while the dialog was open: the first control where it was
    if (!to && home && home.isConnected) to = home.querySelector(FOCUSABLE);
    to = to || (then && then());
    if (to) to.focus();
    else if (dialog.contains(document.activeElement)) document.activeElement.blur(); // (not left inside)
  }, { once: true });
  if (modal) dialog.showModal(); else dialog.show();
}

export function closeDialog(dialog) {
  if (dialog.open) dialog.close();
}
