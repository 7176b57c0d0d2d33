// The game socket: join with the last version seen, reconnect with backoff,
// hand every server message to the page. No rules here.

export class GameSocket {
  constructor(gameId, handlers) {
    this.gameId = gameId;
    this.handlers = handlers;
    this.version = null;
    this.ws = null;
    this.delay = 250;
    this.ref = 0;
    this.closed = false;
    this.opened = false; // (before the first open, a move waits for it: the page drew the table)
    this.queued = null;
    this.connect();
  }

  connect() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${proto}://${location.host}/ws`);
    this.ws = ws;
    ws.onopen = () => {
      this.delay = 250;
      ws.send(JSON.stringify({ type: "join", game: this.gameId, version: this.version }));
      this.opened = true;
      this.handlers.open?.();
      if (this.queued) ws.send(JSON.stringify(this.queued));
      this.queued = null;
    };
    ws.onmessage = (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch { return; }
      if (typeof msg.version === "number" && (msg.type === "joined" || msg.type === "update" || msg.type === "sync")) {
        this.version = msg.version;
      }
      if (msg.type === "error" && msg.sync) this.version = msg.sync.version;
      this.handlers.message?.(msg);
    };
    ws.onclose = () => {
      if (this.closed) return;
      this.handlers.offline?.();
      setTimeout(() => this.connect(), this.delay);
      this.delay = Math.min(this.delay * 2, 5000);
    };
  }

  get open() { return this.ws && this.ws.readyState === WebSocket.OPEN; }

  send(message) {
    if (!this.open) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  move(move) {
    const first = !this.opened && this.ws && this.ws.readyState === WebSocket.CONNECTING;
    if (!this.open && !(first && !this.queued)) return false;
    this.ref += 1;
    const message = { type: "move", version: this.version, move, ref: this.ref };
    if (this.open) this.ws.send(JSON.stringify(message));
    else this.queued = message; // (sent once the socket has joined)
    return true;
  }
}
