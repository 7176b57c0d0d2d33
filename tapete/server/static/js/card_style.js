// The card style a viewer chooses for the French-deck tables (One Card, La guerra): a class
// `style-<x>` on the body (table.css draws the styles), remembered in this browser. El Peaje's
// style is a game option instead: its page sets the same class from the game's config.
//
// Imported by templates/_card_style.html, which also holds the <select id="card-style">.
// It shows no text of its own: the select's words are in the template.

export const STYLES = ["clasico", "cuatro_colores", "alto_contraste"];
export const DEFAULT_STYLE = "clasico";
const KEY = "tapete.cards";

/** The style this browser remembers (the default if none, or an unknown one). */
export function storedStyle() {
  let value = null;
  try {
    value = localStorage.getItem(KEY);
  } catch { /* storage refused (private mode, a policy): the default */ }
  return STYLES.includes(value) ? value : DEFAULT_STYLE;
}

/** Draw the cards in ``style``: exactly one `style-<x>` class on the body. */
export function applyStyle(style) {
  const chosen = STYLES.includes(style) ? style : DEFAULT_STYLE;
  for (const s of STYLES) document.body.classList.toggle(`style-${s}`, s === chosen);
  const select = document.getElementById("card-style");
  if (select && select.value !== chosen) select.value = chosen;
  return chosen;
}

/** Draw the cards in ``style`` and remember it. */
export function chooseStyle(style) {
  const chosen = applyStyle(style);
  try {
    localStorage.setItem(KEY, chosen);
  } catch { /* not remembered; still applied */ }
  return chosen;
}

applyStyle(storedStyle());
const select = document.getElementById("card-style");
if (select) select.addEventListener("change", () => chooseStyle(select.value));
// another tab of this browser chose a style: follow it
window.addEventListener("storage", (e) => {
  if (e.key === KEY) applyStyle(storedStyle());
});
