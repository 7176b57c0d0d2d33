// French cards drawn with HTML and CSS: readable ranks and suits at phone size.

const SUIT = { H: "♥", D: "♦", C: "♣", S: "♠" };
const SUIT_NAME = {
  es: { H: "corazones", D: "diamantes", C: "tréboles", S: "picas" },
  en: { H: "hearts", D: "diamonds", C: "clubs", S: "spades" },
};
const RANK_NAME = {
  es: { 2: "dos", 3: "tres", 4: "cuatro", 5: "cinco", 6: "seis", 7: "siete", 8: "ocho", 9: "nueve", 10: "diez", J: "jota", Q: "reina", K: "rey", A: "as" },
  en: { 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine", 10: "ten", J: "jack", Q: "queen", K: "king", A: "ace" },
};
const LANG = document.documentElement.lang === "en" ? "en" : "es";

export function parse(code) {
  return { rank: code.slice(0, -1), suit: code.slice(-1) };
}

export function isJoker(code) { return code.startsWith("JK"); }

export function cardName(code) {
  if (isJoker(code)) return LANG === "es" ? "comodín" : "joker";
  const { rank, suit } = parse(code);
  const r = RANK_NAME[LANG][rank], s = SUIT_NAME[LANG][suit];
  return LANG === "es" ? `${r} de ${s}` : `${r} of ${s}`;
}

export function cardText(code) {
  if (isJoker(code)) return "★";
  const { rank, suit } = parse(code);
  return `${rank}${SUIT[suit]}`;
}

export function cardEl(code, extra = "") {
  const el = document.createElement("div");
  if (isJoker(code)) {
    el.className = `card face joker ${code === "JK2" ? "red" : "black"} ${extra}`.trim();
    el.setAttribute("role", "img");
    el.setAttribute("aria-label", cardName(code));
    el.dataset.code = code;
    el.innerHTML = `<span class="corner tl" aria-hidden="true"><b>★</b></span><span class="center figure" aria-hidden="true"><b>★</b><i>JOKER</i></span>`;
    return el;
  }
  const { rank, suit } = parse(code);
  const red = suit === "H" || suit === "D";
  el.className = `card face ${red ? "red" : "black"} ${extra}`.trim();
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", cardName(code));
  el.dataset.code = code;
  const s = SUIT[suit];
  const face = ["J", "Q", "K"].includes(rank);
  el.innerHTML =
    `<span class="corner tl" aria-hidden="true"><b>${rank}</b><i>${s}</i></span>` +
    `<span class="center${face ? " figure" : ""}" aria-hidden="true">${face ? `<b>${rank}</b>` : ""}<i>${s}</i></span>` +
    `<span class="corner br" aria-hidden="true"><b>${rank}</b><i>${s}</i></span>`;
  return el;
}

export function backEl(extra = "", label = LANG === "es" ? "carta boca abajo" : "face-down card") {
  const el = document.createElement("div");
  el.className = `card back ${extra}`.trim();
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", label);
  return el;
}

export const SUITS = SUIT;
export function suitName(s) { return SUIT_NAME[LANG][s]; }
