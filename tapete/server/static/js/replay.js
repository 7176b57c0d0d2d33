// A finished game's replay: the table's own renderer, fed the views the server kept for
// each move (/api/partidas/{id}/repeticion) instead of a socket. It speaks to the table as
// the socket does (joined, update), so a game's module draws a replay as it draws a game;
// the views carry what the table hid (view.revealed). No rules here either.
import { $, _, ngettext, toast } from "./ui.js";

const PACE_MS = 1100; // between two moves while it plays

export class Replay {
  /**
   * @param {HTMLElement} bar the step bar (templates/_status.html: data-replay, data-seat)
   * @param {{message: (msg: object) => void}} handlers as GameSocket's
   */
  constructor(bar, handlers) {
    this.bar = bar;
    this.handlers = handlers;
    this.gameId = bar.dataset.replay;
    this.version = 0;
    this.data = null;
    this.at = 0;
    this.timer = null;
    this.range = $("replay-range");
    this.stepEl = $("replay-step");
    this.playEl = $("replay-play");
    $("replay-first").addEventListener("click", () => this.go(0));
    $("replay-prev").addEventListener("click", () => this.go(this.at - 1));
    $("replay-next").addEventListener("click", () => this.go(this.at + 1));
    $("replay-last").addEventListener("click", () => this.go(this.last));
    this.playEl.addEventListener("click", () => (this.timer ? this.pause() : this.play()));
    this.range.addEventListener("input", () => { this.pause(); this.go(Number(this.range.value)); });
    $("replay-seat").addEventListener("change", (ev) => this.load(Number(ev.target.value)));
    document.addEventListener("keydown", (ev) => this.key(ev));
    // another part of the page (the analysis) asks for a step
    document.addEventListener("tapete:replay-go", (ev) => { this.pause(); this.go(Number(ev.detail)); });
    const asked = Number(new URLSearchParams(location.search).get("paso"));
    this.at = Number.isInteger(asked) && asked > 0 ? asked : 0;
    this.load(Number(bar.dataset.seat));
  }

  // what the table asks of its socket: a replay sends nothing

  get open() { return false; }
  send() { return false; }
  move() { return false; }

  get last() { return this.data ? this.data.steps.length - 1 : 0; }

  /** The steps as ``seat`` saw them; the step shown stays where it was. */
  async load(seat) {
    let res;
    try {
      res = await fetch(`/api/partidas/${encodeURIComponent(this.gameId)}/repeticion?asiento=${seat}`, { headers: { accept: "application/json" } });
    } catch {
      toast(_("Sin conexión. Reconectando…"));
      return;
    }
    const body = await res.json().catch(() => ({}));
    if (!res.ok) { toast(body.message || _("No se ha podido cargar la repetición.")); return; }
    this.data = body;
    this.range.max = String(this.last);
    const url = new URL(location.href);
    url.searchParams.set("asiento", String(seat));
    history.replaceState(null, "", url);
    this.go(Math.min(this.at, this.last), true);
  }

  /** Show step ``k``: the next one drawn as a move (with the table's animations), any other
   * as the table is joined (at once). */
  go(k, fresh = false) {
    if (!this.data) return;
    const to = Math.max(0, Math.min(this.last, k));
    const step = this.data.steps[to];
    const asMove = !fresh && to === this.at + 1;
    this.at = to;
    this.version = step.n;
    if (asMove) {
      this.handlers.message({ type: "update", version: step.n, seat: step.seat, move: step.move, view: step.view });
    } else {
      this.handlers.message({ type: "joined", version: step.n, seat: this.data.seat, seats: this.data.seats, view: step.view });
    }
    this.range.value = String(to);
    const who = step.seat === null ? "" : this.data.seats[step.seat]?.name || "";
    this.stepEl.textContent = to === 0
      ? ngettext("El reparto · {n} jugada", "El reparto · {n} jugadas", this.last)
      : _("Jugada {k} de {n}: {name}", { k: to, n: this.last, name: who });
    $("replay-first").disabled = $("replay-prev").disabled = to === 0;
    $("replay-last").disabled = $("replay-next").disabled = to === this.last;
    if (to === this.last) this.pause();
    const url = new URL(location.href);
    url.searchParams.set("paso", String(to));
    history.replaceState(null, "", url);
  }

  play() {
    if (!this.data) return;
    if (this.at === this.last) this.go(0);
    this.playEl.textContent = "❚❚";
    this.playEl.setAttribute("aria-pressed", "true");
    this.playEl.setAttribute("aria-label", _("Pausa"));
    const tick = () => {
      this.go(this.at + 1);
      if (this.timer) this.timer = setTimeout(tick, PACE_MS);
    };
    this.timer = setTimeout(tick, PACE_MS / 2);
  }

  pause() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.playEl.textContent = "▶";
    this.playEl.setAttribute("aria-pressed", "false");
    this.playEl.setAttribute("aria-label", _("Reproducir"));
  }

  key(ev) {
    if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
    if (["INPUT", "SELECT", "TEXTAREA"].includes(document.activeElement?.tagName)) return;
    const to = { ArrowRight: this.at + 1, ArrowLeft: this.at - 1, Home: 0, End: this.last }[ev.key];
    if (to === undefined) return;
    ev.preventDefault();
    this.pause();
    this.go(to);
  }
}
