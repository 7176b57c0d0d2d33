// The table controller every game page uses: the socket and its messages (joined, update,
// sync, error), who sits where and their names, the offline banner, the clocks' countdowns
// and the end dialog. A game's module gives it a render function and draws its own felt;
// the server decides everything (the view carries what the page shows).
import { GameSocket } from "./net.js";
import { $, _, toast } from "./ui.js";

export class Table {
  /**
   * @param {object} game
   * @param {(table: Table, change: {type: string, msg: object, animate: boolean}) => void} game.render
   *   draws the felt from table.view after every message that changed it
   * @param {(msg: object) => boolean} [game.message] handles a message type of its own
   *   (return true if it did); called before the standard handling
   * @param {(table: Table) => void} [game.offline] the connection dropped
   */
  constructor(game) {
    this.game = game;
    this.root = document.querySelector("[data-game]");
    this.view = null;
    this.seats = [];
    this.mySeat = null;
    this.waiting = false; // a move of ours is on its way
    this.clocks = []; // [{kind, seat, until}] (until: performance.now() ms)
    this.connEl = $("conn");
    this.endEl = $("end");
    this.sock = new GameSocket(this.root.dataset.game, {
      message: (msg) => this.receive(msg),
      offline: () => this.offline(),
    });
    this.tick = setInterval(() => this.updateCountdowns(), 250);
    window.__tapete = this; // browser tests read view and version here
  }

  get version() { return this.sock.version; }

  /** A seat's name as this player reads it: «Tú» for their own. */
  nameOf(seat) {
    const s = this.seats[seat];
    if (!s) return `#${seat + 1}`;
    return s.you ? _("Tú") : s.name;
  }

  /** Send a move; false if it cannot go now (offline, or one already on its way). */
  move(move) {
    if (this.waiting || !this.sock.move(move)) return false;
    this.waiting = true;
    return true;
  }

  send(message) { return this.sock.send(message); }

  receive(msg) {
    this.connEl.hidden = true;
    if (this.game.message && this.game.message(msg)) return;
    let animate = true;
    if (msg.type === "joined") {
      this.seats = msg.seats;
      this.mySeat = msg.seat;
      this.view = msg.view;
      this.waiting = false;
      animate = false;
    } else if (msg.type === "update" || msg.type === "sync") {
      this.view = msg.view;
      if (msg.type === "sync" || msg.seat === this.mySeat) this.waiting = false;
    } else if (msg.type === "error") {
      this.waiting = false;
      if (msg.sync) this.view = msg.sync.view;
      if (msg.code !== "stale_version") toast(msg.message);
      animate = false;
    } else return;
    const clocks = msg.clocks || (msg.sync && msg.sync.clocks);
    if (clocks) this.setClocks(clocks);
    if (!this.view) return;
    this.game.render(this, { type: msg.type, msg, animate });
    this.updateCountdowns();
  }

  offline() {
    this.connEl.textContent = _("Sin conexión. Reconectando…");
    this.connEl.hidden = false;
    this.waiting = false;
    if (this.game.offline) this.game.offline(this);
  }

  // clocks: every element with data-clock="kind:seat" shows the seconds left

  setClocks(clocks) {
    const now = performance.now();
    this.clocks = clocks.map((c) => ({ kind: c.kind, seat: c.seat, until: now + c.ms }));
  }

  secondsLeft(kind, seat) {
    const c = this.clocks.find((x) => x.kind === kind && x.seat === seat);
    return c ? Math.max(0, Math.ceil((c.until - performance.now()) / 1000)) : null;
  }

  updateCountdowns() {
    for (const el of document.querySelectorAll("[data-clock]")) {
      const [kind, seat] = el.dataset.clock.split(":");
      const left = this.secondsLeft(kind, Number(seat));
      el.textContent = left === null ? "" : `${left} s`;
      el.hidden = left === null;
    }
  }

  // the end dialog (templates/_end.html): a title, why it ended, a line of figures, a list

  /**
   * @param {{title: string, reason?: string, stats?: string, rows?: {text: string, winner?: boolean}[], won?: boolean}} end
   */
  showEnd(end) {
    $("end-title").textContent = end.title;
    const reason = $("end-reason");
    reason.textContent = end.reason || "";
    reason.hidden = !end.reason;
    const stats = $("end-stats");
    stats.textContent = end.stats || "";
    stats.hidden = !end.stats;
    $("end-list").replaceChildren(...(end.rows || []).map((row) => {
      const li = document.createElement("li");
      li.textContent = row.text;
      if (row.winner) li.className = "winner";
      return li;
    }));
    const wasHidden = this.endEl.hidden;
    this.endEl.hidden = false;
    this.endEl.classList.toggle("won", !!end.won);
    if (wasHidden) $("again").focus();
  }

  hideEnd() { this.endEl.hidden = true; }
}
