// The fair-deal page, worked out here in the browser: SHA-256 of the revealed text (Web
// Crypto) against the commitment shown from the game's start; then the deal redone from the
// seed — the same generator (splitmix64) and shuffle (Fisher–Yates) as tapete/rng.py — step
// by step as the game's descriptor lists them, each pile of the first state checked against
// the shuffled deck at the positions it was dealt from. No rules here: the page only redoes
// the draws and compares.

const page = document.querySelector(".fairness");
const strings = JSON.parse(document.getElementById("fair-strings").textContent);
const verdict = document.getElementById("verdict");

async function check() {
  const text = page.dataset.preimage;
  if (!text || !verdict) return;
  if (!globalThis.crypto?.subtle) {
    verdict.textContent = strings.unavailable;
    return;
  }
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  const hex = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
  const ok = hex === page.dataset.commitment;
  verdict.textContent = ok ? strings.match : strings.mismatch;
  verdict.classList.toggle("bad", !ok);
  verdict.dataset.ok = ok ? "yes" : "no";
}

// --- the generator, as tapete/rng.py has it ------------------------------------------

const MASK = (1n << 64n) - 1n;
const TOP = 1n << 64n;

export class Rng {
  constructor(seed) { this.state = (BigInt(seed) ^ 0x5DEECE66D2B7E151n) & MASK; }

  next64() {
    this.state = (this.state + 0x9E3779B97F4A7C15n) & MASK;
    let z = this.state;
    z = ((z ^ (z >> 30n)) * 0xBF58476D1CE4E5B9n) & MASK;
    z = ((z ^ (z >> 27n)) * 0x94D049BB133111EBn) & MASK;
    return z ^ (z >> 31n);
  }

  /** A uniform integer in [0, n): rejection sampling, no modulo bias. */
  below(n) {
    const big = BigInt(n);
    const limit = TOP - (TOP % big);
    for (;;) {
      const x = this.next64();
      if (x < limit) return Number(x % big);
    }
  }

  /** Fisher–Yates, in place: from the end, swap each place with one of those before it. */
  shuffle(items) {
    for (let i = items.length - 1; i > 0; i--) {
      const j = this.below(i + 1);
      [items[i], items[j]] = [items[j], items[i]];
    }
  }
}

const SUIT = { H: "♥", D: "♦", C: "♣", S: "♠" };
const shown = (code) => code.replace(/^(10|[2-9JQKA])([HDCS])$/, (_m, r, s) => r + SUIT[s]);
const same = (a, b, sorted) => {
  if (a.length !== b.length) return false;
  const x = sorted ? [...a].sort() : a;
  const y = sorted ? [...b].sort() : b;
  return x.every((c, i) => c === y[i]);
};

function redo() {
  const data = document.getElementById("fair-redo");
  const seedEl = document.getElementById("seed");
  if (!data || !seedEl) return;
  const deal = JSON.parse(data.textContent);
  const rng = new Rng(seedEl.textContent.trim());
  const piles = Object.fromEntries(Object.entries(deal.decks).map(([k, v]) => [k, [...v]]));
  const rows = [];
  let ok = true;
  for (const step of deal.steps) {
    if (step.shuffle !== undefined) { rng.shuffle(piles[step.shuffle]); continue; }
    const k = rng.below(step.below);
    const good = k === step.want;
    ok &&= good;
    rows.push([step.title, strings.drawn.replace("{k}", k + 1).replace("{n}", step.below), good]);
  }
  for (const part of deal.parts) {
    const got = part.take.map((i) => piles[part.of][i]);
    const good = same(got, part.cards, !!part.sorted);
    ok &&= good;
    rows.push([part.title, part.cards.map(shown).join(" "), good]);
  }
  document.getElementById("redo").replaceChildren(...rows.map(([title, what, good]) => {
    const li = document.createElement("li");
    li.className = good ? "ok" : "bad";
    const head = document.createElement("strong");
    head.textContent = `${good ? "✓" : "✗"} ${title}: `;
    const cards = document.createElement("span");
    cards.className = "cards";
    cards.textContent = what;
    const tag = document.createElement("span");
    tag.className = "sr";
    tag.textContent = ` (${good ? strings.part_ok : strings.part_bad})`;
    li.append(head, cards, tag);
    return li;
  }));
  document.getElementById("redo-order").replaceChildren(...Object.values(piles).map((cards) => {
    const p = document.createElement("p");
    p.className = "cards";
    p.textContent = cards.map(shown).join(" ");
    return p;
  }));
  const el = document.getElementById("deal-verdict");
  el.textContent = ok ? strings.deal_match : strings.deal_mismatch;
  el.classList.toggle("bad", !ok);
  el.dataset.ok = ok ? "yes" : "no";
}

check();
redo();
