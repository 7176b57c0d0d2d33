// French cards drawn with HTML and CSS: readable ranks and suits at phone size. Their names
// (for screen readers and sentences) are the page's words, written by the server from the
// one model of the deck (tapete/cards.py, GameSpec.page_words): this module only draws.
import { _, fmt, pageData } from "./ui.js";

const SUIT = { H: "♥", D: "♦", C: "♣", S: "♠" };
const WORDS = pageData("tapete-words");

export function parse(code) {
  return { rank: code.slice(0, -1), suit: code.slice(-1) };
}

export function isJoker(code) { return code.startsWith("JK"); }

/** «rey de picas» / "king of spades"; «comodín». */
export function cardName(code) {
  if (isJoker(code)) return _("comodín");
  const { rank, suit } = parse(code);
  return fmt(WORDS.card, { rank: WORDS.ranks[rank], suit: WORDS.suits[suit] });
}

/** With its article, for a sentence: «el rey de picas», «la reina de picas», "the king of spades". */
export function theCard(code) {
  return isJoker(code) ? _("el comodín") : fmt(WORDS.the_card[parse(code).rank], { card: cardName(code) });
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

/** A card face down; ``label`` "": part of a picture that has its own words (hidden). */
export function backEl(extra = "", label = _("carta boca abajo")) {
  const el = document.createElement("div");
  el.className = `card back ${extra}`.trim();
  if (label) {
    el.setAttribute("role", "img");
    el.setAttribute("aria-label", label);
  } else el.setAttribute("aria-hidden", "true");
  return el;
}

export const SUITS = SUIT;
export function suitName(s) { return WORDS.suits[s]; }
