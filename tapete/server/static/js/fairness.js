// The fair-deal page: recompute SHA-256 of the revealed text here, in the browser (Web
// Crypto), and say whether it is the commitment shown from the game's start.

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

check();
