// The table controller every game page uses: the socket and its messages (joined, update,
// sync, error), who sits where and their names, the offline banner, the clocks' countdowns
// and the end dialog. A game's module gives it a render function and draws its own felt;
// the server decides everything (the view carries what the page shows). A replay
// (replay.js) stands in for the socket.
import { GameSocket } from "./net.js";
import { mayStartNow, rematchLines, showLines } from "./rematch.js";
import { Replay } from "./replay.js";
import { $, _, avatarEl, closeDialog, ngettext, openDialog, pageData, toast } from "./ui.js";

/** A sentence ends with its stop (a text that ends in ! ? … or . keeps its own). */
const sentence = (text) => (/[.!?…»)]$/.test(text) ? text : `${text}.`);

export class Table {
  /**
   * @param {object} game
   * @param {(table: Table, change: {type: string, msg: object, animate: boolean}) => void} game.render
   *   draws the felt from table.view after every message that changed it
   * @param {(msg: object) => boolean} [game.message] handles a message type of its own
   *   (return true if it did); called before the standard handling
   * @param {(table: Table) => void} [game.offline] the connection dropped
   * @param {(table: Table, before: object) => string[]} [game.news] what just happened, in
   *   words, for the screen reader's announcements (``before``: the view before the message)
   * @param {(table: Table) => string} [game.turnWords] whose turn it is (and what to do), in words
   * @param {string} [game.timbre] the sound of a move: "card" (by default) or "tile"
   * @param {() => boolean} [game.alerts] false while the game plays itself (no sound, no
   *   turn alert: La guerra's autoplay)
   * @param {(move: object, view: object) => boolean} [game.again] a move the server refused as
   *   stale (another seat moved first) is sent again, at the new version, when this says it
   *   means the same on the new view (La guerra's «turn»: both players turn at once)
   */
  constructor(game) {
    this.game = game;
    this.root = document.querySelector("[data-game]");
    this.view = null;
    this.seats = [];
    this.mySeat = null;
    this.device = false; // a game on this device passed round (pass-and-play)
    this.waiting = false; // a move of ours is on its way
    this.sent = null; // the last move we sent (sent again if game.again says so)
    this.wasMine = null; // whether it was this player's turn at the last message (alerts)
    this.live = false; // a move has come since the page opened (the end's sound)
    this.lastTick = null;
    this.clocks = []; // [{kind, seat, until}] (until: performance.now() ms)
    this.connEl = $("conn");
    this.endEl = $("end");
    this.announcer = $("announce"); // the polite live region a screen reader speaks from
    this.spokenTurn = null;
    this.warned = new Set(); // the turn clocks already announced as running out
    const bar = $("roombar");
    this.room = bar ? bar.dataset.room : null; // a game among friends: its room's code
    this.lobby = null;
    this.presence = null;
    const replaybar = $("replaybar"); // a finished game's replay: its steps, not a socket
    this.replaying = !!replaybar;
    this.joined = false; // the socket's «joined» came since it last opened (browser tests: `still`)
    const handlers = {
      message: (msg) => { if (msg.type === "joined") this.joined = true; this.receive(msg); },
      offline: () => this.offline(),
      open: () => { if (this.room) this.sock.send({ type: "enter", room: this.room }); },
    };
    this.sock = replaybar ? new Replay(replaybar, handlers) : new GameSocket(this.root.dataset.game, handlers);
    this.said = new Map(); // seat → [text, until] of the last reaction it sent
    for (const b of document.querySelectorAll("[data-react]")) {
      b.addEventListener("click", () => this.send({ type: "lobby", action: "react", key: b.dataset.react }));
    }
    const again = $("again");
    if (again && again.dataset.rematch !== undefined) {
      again.addEventListener("click", () => this.rematch());
    }
    if (again && again.dataset.close !== undefined) again.addEventListener("click", () => this.dismissEnd());
    // the end dialog closes (×, Esc) to show the final table; «Ver el resultado» opens it again
    this.endDismissed = false;
    $("end-close")?.addEventListener("click", () => this.dismissEnd());
    $("end-open")?.addEventListener("click", () => this.reopenEnd());
    $("start-now")?.addEventListener("click", () => this.startNow());
    this.endEl?.addEventListener("cancel", (ev) => { ev.preventDefault(); this.dismissEnd(); });
    document.addEventListener("keydown", (ev) => { // (a replay's end is not modal: no cancel)
      if (ev.key === "Escape" && this.endEl?.open && !this.endEl.matches(":modal")) this.dismissEnd();
    });
    const keys = $("keys"); // the key help (templates/_keys.html): ? or the footer's button
    if (keys) {
      $("keys-open").addEventListener("click", () => openDialog(keys));
      $("keys-close").addEventListener("click", () => closeDialog(keys));
      document.addEventListener("keydown", (ev) => {
        if (ev.key !== "?" || ev.ctrlKey || ev.metaKey || ev.altKey || ["INPUT", "SELECT", "TEXTAREA"].includes(ev.target.tagName)) return;
        if (document.querySelector("dialog[open]:not(#keys)")?.matches(":modal")) return; // (another dialog first)
        ev.preventDefault();
        if (keys.open) closeDialog(keys); else openDialog(keys);
      });
    }
    // the page carries the table as the socket's «joined» shows it: drawn at once (once the
    // game's module has its table), the socket bringing what changed since
    const first = pageData("tapete-first");
    if (first && !this.replaying) {
      this.sock.version = first.version;
      queueMicrotask(() => { if (this.view === null) this.receive(first); });
    }
    this.tick = setInterval(() => this.updateCountdowns(), 250);
    window.__tapete = this; // browser tests read view and version here
    this.alerts = null; // static/js/alerts.js once loaded (sounds, the turn told elsewhere)
    if (!this.replaying) this.prepareAlerts();
  }

  get version() { return this.sock.version; }

  /** The table at rest, for the browser tests (tests/e2e/browser.py `still`): the socket
   * joined and its view drawn (no «Sin conexión» banner), no move of ours on its way, and a
   * replay not playing by itself. */
  get still() {
    return this.view !== null && this.joined && !this.waiting && this.connEl.hidden
      && !(this.replaying && this.sock.timer);
  }

  /** A seat's name as this player reads it: «Tú» for their own. */
  nameOf(seat) {
    const s = this.seats[seat];
    if (!s) return `#${seat + 1}`;
    return s.you ? _("Tú") : s.name;
  }

  /** The class of a seat's card back as its player chose it in the shop ("": the default). */
  backOf(seat) {
    const back = this.seats[seat]?.worn?.back;
    return back ? `cos-${back}` : "";
  }

  /** A seat's avatar (SVG, from the page's templates) in the frame its player wears. */
  avatarOf(seat) { return avatarEl(this.seats[seat]?.worn); }

  /** Send a move; false if it cannot go now (offline, or one already on its way). */
  move(move) {
    if (this.waiting || !this.sock.move(move)) return false;
    this.waiting = true;
    this.sent = move;
    return true;
  }

  send(message) { return this.sock.send(message); }

  receive(msg) {
    this.connEl.hidden = true;
    const prev = this.view;
    if (msg.type === "lobby") { this.lobbyChanged(msg); return; }
    if (msg.type === "presence") { this.presenceChanged(msg); return; }
    if (msg.type === "reaction") { this.reacted(msg); return; }
    if (msg.type === "guide") { this.guideSays(msg.guide); return; }
    if (msg.type === "joined" && msg.presence) this.presenceChanged(msg.presence);
    if (msg.type === "joined" && "guide" in msg) this.guideSays(msg.guide);
    if (this.game.message && this.game.message(msg)) return;
    let animate = true;
    if (msg.type === "joined") {
      this.seats = msg.seats;
      this.mySeat = msg.seat;
      this.view = msg.view;
      this.waiting = false;
      animate = false;
      this.device = !!msg.device; // (a device passed round: table.handoverTo)
      if (this.device) this.handoverTo(msg.handover);
    } else if (msg.type === "update" || msg.type === "sync") {
      this.view = msg.view;
      // (a device passed round: every move is this page's, whoever's seat it was for)
      if (msg.type === "sync" || msg.seat === this.mySeat || this.device) this.waiting = false;
    } else if (msg.type === "error") {
      this.waiting = false;
      if (msg.sync) this.view = msg.sync.view;
      if (msg.code !== "stale_version") toast(msg.message);
      else if (msg.sync && this.sent && this.game.again?.(this.sent, this.view)) {
        this.move(this.sent); // (at the sync's version; the felt is drawn as waiting for it)
      }
      animate = false;
    } else return;
    const clocks = msg.clocks || (msg.sync && msg.sync.clocks);
    if (clocks) this.setClocks(clocks);
    if (!this.view) return;
    const before = msg.type === "update" || msg.type === "sync" ? prev : null;
    this.game.render(this, { type: msg.type, msg, animate });
    if (!this.drawnAt) { // (when the table was first drawn: bench/page_weight.py reads it)
      this.drawnAt = performance.timeOrigin + performance.now();
      performance.mark("tapete-drawn");
    }
    this.speak(before);
    this.updateCountdowns();
    if (!this.replaying) this.alert(msg);
  }

  /** Load the sounds and alerts (alerts.js) at the first touch or key, when the tab goes
   * to the background, or at once if this device chose its sound before; the switches
   * under the table work from the first press. */
  prepareAlerts() {
    const load = () => {
      this.loadingAlerts ??= import("./alerts.js").then((m) => { this.alerts = m; });
      return this.loadingAlerts;
    };
    for (const ev of ["pointerdown", "keydown"]) document.addEventListener(ev, load, { once: true, capture: true });
    document.addEventListener("visibilitychange", () => { if (document.hidden) load(); });
    if (localStorage.getItem("tapete.sound")) load();
    for (const [id, which] of [["sound-toggle", "sound"], ["tick-toggle", "tick"], ["notify-ask", "notify"]]) {
      $(id)?.addEventListener("click", () => load().then(() => this.alerts.press(which)));
    }
  }

  /** A move's sound, and the turn's alert when it has just become this player's. */
  alert(msg) {
    const quiet = this.game.alerts && !this.game.alerts();
    const v = this.view;
    if (msg.type === "update") {
      this.live = true;
      if (!quiet) this.alerts?.play(this.game.timbre || "card");
    }
    const mine = this.mySeat !== null && !v.result
      && (typeof v.turn === "number" ? v.turn === this.mySeat : (v.actors || []).includes(this.mySeat));
    if (mine && this.wasMine === false && !quiet) {
      this.alerts?.yourTurn(this.game.turnWords ? this.game.turnWords(this) : "");
    }
    this.wasMine = mine;
  }

  /** A guided first game: what the table says now (``{key, text}``, or null), shown
   * between the felt and the hand and spoken once; «Saltar la guía» hides it for this game
   * (kept on this device). */
  guideSays(step) {
    const box = $("guide");
    if (!box) return;
    const key = `tapete.guide.${this.root.dataset.game}`;
    if (!box.dataset.ready) {
      box.dataset.ready = "1";
      $("guide-skip").addEventListener("click", () => {
        localStorage.setItem(key, "off");
        box.hidden = true;
        this.announce(_("Guía desactivada: sigues jugando sin ella."));
      });
    }
    const text = step ? step.text : "";
    const changed = text !== box.dataset.said;
    box.dataset.said = text;
    $("guide-text").textContent = text;
    box.hidden = !text || localStorage.getItem(key) === "off";
    if (changed && !box.hidden) this.announce(text);
  }

  /** A device passed round (pass-and-play): while it waits for the next player, the felt
   * is veiled and they tap «Soy Ana»; the server then shows their hand (a «joined» with
   * their seat), which lifts the veil. Nothing of their hand is on the page before. */
  handoverTo(next) {
    const box = $("device-handover");
    if (!box) return;
    if (!next) {
      if (box.open) closeDialog(box);
      return;
    }
    $("device-handover-title").textContent = _("Turno de {name}", { name: next.name });
    $("device-handover-text").textContent = _("Pasa el móvil a {name}. Los demás, sin mirar.", { name: next.name });
    const ok = $("device-handover-ok");
    ok.textContent = _("Soy {name}", { name: next.name });
    ok.onclick = () => this.send({ type: "handover", seat: next.seat });
    if (!box.open) openDialog(box, { sticky: true }); // (Esc does not lift it)
    ok.focus();
  }

  // the screen reader's announcements: what happened, then whose turn it is

  /** Say a sentence in the live region (a log: each one is spoken, none replaces another). */
  announce(text) {
    if (!text || !this.announcer) return;
    const p = document.createElement("p");
    p.textContent = text;
    this.announcer.append(p);
    while (this.announcer.children.length > 8) this.announcer.firstElementChild.remove();
  }

  speak(before) {
    const news = before && this.game.news ? this.game.news(this, before).filter(Boolean) : [];
    const turn = this.game.turnWords ? this.game.turnWords(this) : "";
    if (turn && (news.length || turn !== this.spokenTurn)) news.push(turn);
    this.spokenTurn = turn;
    if (news.length) this.announce(news.map(sentence).join(" "));
    if (this.endWords) this.announce(this.endWords); // (the end after the move that ended it)
    this.endWords = null;
  }

  offline() {
    this.connEl.textContent = _("Sin conexión. Reconectando…");
    this.connEl.hidden = false;
    this.waiting = false;
    this.joined = false;
    if (this.game.offline) this.game.offline(this);
  }

  // clocks: every element with data-clock="kind:seat" shows the seconds left

  setClocks(clocks) {
    const now = performance.now();
    this.clocks = clocks.map((c) => ({ kind: c.kind, seat: c.seat, until: now + c.ms, of: c.of || c.ms }));
  }

  secondsLeft(kind, seat) {
    const c = this.clocks.find((x) => x.kind === kind && x.seat === seat);
    return c ? Math.max(0, Math.ceil((c.until - performance.now()) / 1000)) : null;
  }

  updateCountdowns() {
    for (const el of document.querySelectorAll("[data-clock]")) {
      const [kind, seat] = el.dataset.clock.split(":");
      const left = this.secondsLeft(kind, Number(seat));
      el.textContent = left === null ? "" : _("{n} s", { n: left });
      el.hidden = left === null;
    }
    this.updatePresence();
    const turn = this.clocks.find((c) => c.kind === "turn");
    const left = turn ? Math.max(0, turn.until - performance.now()) : 0;
    if (turn) this.warnClock(turn, left);
    if (turn && turn.seat === this.mySeat && left > 0 && left <= 5000) { // the last five seconds
      const second = Math.ceil(left / 1000);
      if (second !== this.lastTick) this.alerts?.play("tick");
      this.lastTick = second;
    }
    const bar = $("turnclock");
    if (!bar) return;
    bar.hidden = !turn;
    if (!turn) return;
    $("turnclock-label").textContent = _("{name}: {n} s", { name: this.nameOf(turn.seat), n: Math.ceil(left / 1000) });
    $("turnclock-fill").style.width = `${Math.round((100 * left) / Math.max(1, turn.of))}%`;
    bar.classList.toggle("low", left < 10_000);
  }

  /** The turn clock's last ten seconds, and its last five, said once each. */
  warnClock(turn, left) {
    for (const at of [10, 5]) {
      const key = `${turn.seat}:${Math.round(turn.until)}:${at}`;
      if (left > at * 1000 || left <= (at - 1) * 1000 || this.warned.has(key)) continue;
      this.warned.add(key);
      this.announce(turn.seat === this.mySeat
        ? _("Te quedan {n} segundos", { n: at })
        : _("A {name} le quedan {n} segundos", { name: this.nameOf(turn.seat), n: at }));
    }
  }

  // a game among friends: the room around the table

  lobbyChanged(lobby) {
    this.lobby = lobby;
    const series = $("series"); // the room's running score: «Ana 3 – 2 Leo» (the server's words)
    if (series) {
      series.textContent = lobby.score || "";
      series.hidden = !lobby.score;
    }
    if (lobby.game_id && lobby.game_id !== this.root.dataset.game) {
      history.scrollRestoration = "manual"; // (the rematch's table: from its top)
      location.reload(); // the rematch has begun: its table
      return;
    }
    // between games: who asked, whom the rematch waits for, who went
    const status = $("rematch-status");
    if (status) showLines(status, rematchLines(lobby));
    const again = $("again");
    if (again && again.dataset.rematch !== undefined) {
      again.hidden = lobby.you === null; // (watching, or no longer seated)
      again.disabled = lobby.you !== null && lobby.rematch.includes(lobby.you);
    }
    const now = $("start-now");
    if (now) {
      now.hidden = !mayStartNow(lobby);
      now.disabled = false;
    }
  }

  reacted(msg) {
    const button = document.querySelector(`[data-react="${msg.key}"]`);
    const words = button ? button.textContent : msg.key;
    this.said.set(msg.seat, [words, performance.now() + 4000]);
    this.updatePresence(); // the presence line is polite live: a screen reader says it too
  }

  presenceChanged(presence) {
    this.presence = { ...presence, at: performance.now() };
    this.updatePresence();
  }

  updatePresence() {
    const list = $("presence");
    if (!list || !this.presence) return;
    const elapsed = performance.now() - this.presence.at;
    // only what needs a look: someone away, a bot standing in, something just said (a seat
    // not connected with no grace running has not come to this table yet: a new game's
    // players are on their way to it)
    const now = performance.now();
    const worth = this.presence.seats.filter((p) => p.bot || p.away || (!p.connected && p.grace_ms != null) || (this.said.get(p.seat)?.[1] ?? 0) > now);
    const went = (name) => { // what plays for one who went, as the server says
      if (this.presence.standin === "bot") return _("{name}: se fue · juega un bot", { name });
      if (this.presence.standin === "skip") return _("{name}: se fue · se salta su turno", { name });
      return _("{name}: se fue", { name });
    };
    list.replaceChildren(...worth.map((p) => {
      const li = document.createElement("li");
      const name = this.nameOf(p.seat);
      // (a grace that ran out here before the server says so: they went, no «0 s» left)
      const left = Math.max(0, Math.ceil(((p.grace_ms ?? 0) - elapsed) / 1000));
      if (p.away) { // past the grace, or left the room
        li.className = "gone";
        li.textContent = went(name);
      } else if (p.bot) { // timeouts in a row: a bot plays until they act again
        li.className = "bot";
        li.textContent = _("{name}: juega un bot por ahora", { name });
      } else if (!p.connected && left > 0) {
        li.className = "away";
        li.textContent = _("{name}: reconectando… {n} s", { name, n: left });
      } else if (!p.connected) {
        li.className = "gone";
        li.textContent = _("{name}: se fue", { name });
      } else {
        li.textContent = name;
      }
      const said = this.said.get(p.seat);
      if (said && said[1] > performance.now()) {
        const bubble = document.createElement("span");
        bubble.className = "said";
        bubble.textContent = said[0];
        li.append(" ", bubble);
      }
      return li;
    }));
    const watchers = $("watchers");
    watchers.hidden = !this.presence.watchers;
    watchers.textContent = ngettext("{n} persona mirando", "{n} personas mirando", this.presence.watchers);
  }

  rematch() {
    if (!this.lobby) return;
    this.sock.send({ type: "lobby", action: "rematch", version: this.lobby.version });
    $("again").disabled = true; // (the room's answer says whom it waits for)
  }

  /** The host starts the next game without waiting for those who have not answered. */
  startNow() {
    if (!this.lobby) return;
    this.sock.send({ type: "lobby", action: "start", version: this.lobby.version });
    $("start-now").disabled = true;
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
    const again = $("again");
    if (again.dataset.rematch !== undefined) { // watching, or no longer seated: no rematch
      again.hidden = (this.lobby ? this.lobby.you : this.mySeat) === null;
    }
    this.endEl.classList.toggle("won", !!end.won);
    if (this.live && !this.endSounded && !this.replaying) { // (not when opened already over)
      this.endSounded = true;
      this.alerts?.play(end.won ? "win" : "end");
    }
    if (!this.replaying) { // the end's extras, loaded at the end (a table's first load is light)
      import("./end_extras.js").then((m) => m.extras(this)).catch(() => {});
    }
    if (this.endDismissed) { // closed to look at the table: it stays closed
      const open = $("end-open");
      if (open) open.hidden = false;
      return;
    }
    const wasHidden = !this.endEl.open;
    this.openEnd();
    if (wasHidden) this.endWords = [end.title, end.reason].filter(Boolean).map(sentence).join(" ");
  }

  openEnd() {
    const wasHidden = !this.endEl.open;
    // (a replay's step bar stays in use above it: not modal there)
    openDialog(this.endEl, { modal: !this.replaying, sticky: true });
    const open = $("end-open");
    if (open) open.hidden = true;
    if (!wasHidden) return;
    const again = $("again"); // (one watching has no rematch to ask for: the close button)
    (again && !again.hidden && !again.disabled ? again : $("end-close") || again)?.focus();
  }

  /** The game is not over (a replay stepped back): no end, and no way to open it. */
  hideEnd() {
    this.endDismissed = false;
    closeDialog(this.endEl);
    const open = $("end-open");
    if (open) open.hidden = true;
  }

  /** The player closes the end to look at the final table (×, «Ver la mesa», Esc). */
  dismissEnd() {
    this.endDismissed = true;
    const open = $("end-open");
    if (open) open.hidden = false;
    if (!this.endEl.open) return;
    // the focus goes to what opens it again (after the dialog gives it back where it was)
    if (open) this.endEl.addEventListener("close", () => open.focus(), { once: true });
    closeDialog(this.endEl);
  }

  /** «Ver el resultado»: the end again. */
  reopenEnd() {
    this.endDismissed = false;
    this.openEnd();
  }
}

/** The entries of a log (the view's last few events, oldest first, the oldest dropped as
 * new ones come) that are not in the log before: after the longest overlap of its end with
 * the new one's start. */
export function newEntries(before, now) {
  const a = (before || []).map((e) => JSON.stringify(e));
  const b = (now || []).map((e) => JSON.stringify(e));
  for (let k = Math.min(a.length, b.length); k > 0; k--) {
    if (a.slice(a.length - k).every((x, i) => x === b[i])) return now.slice(k);
  }
  return now || [];
}
