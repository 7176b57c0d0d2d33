// What every table page shares: the message catalog, element lookup, the error toast.

const STRINGS = window.TAPETE_STRINGS || {};

/** A catalog string with {placeholders} filled in (the server puts the page's strings in). */
export const tr = (key, params = {}) =>
  (STRINGS[key] || key).replace(/\{(\w+)\}/g, (_, k) => (params[k] ?? `{${k}}`));

export const $ = (id) => document.getElementById(id);

/** Show a short message in #toast for a few seconds. */
export function toast(text) {
  const el = $("toast");
  el.textContent = text;
  el.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { el.hidden = true; }, 3500);
}
