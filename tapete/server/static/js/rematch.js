// Between two games of a private room, in words: who asked for the rematch, whom it waits
// for, and who went (and what plays for them in the next game). The server decides; the
// room's `lobby` message says it all (`over`, `rematch`, `waiting`, each seat's `away`,
// `standin`). Shared by the end dialog (table.js) and the room's page (room.js).
import { _, ngettext } from "./ui.js";

const namesOf = (lobby, seats) => seats.map((s) => lobby.seats[s]?.name).filter(Boolean).join(", ");

/** What stands in for players who went, by the lobby's `standin`. */
export function goneWords(lobby, seats) {
  const names = namesOf(lobby, seats);
  const n = seats.length;
  if (lobby.standin === "bot") {
    return ngettext("{names} se fue: jugará un bot hasta que vuelva.", "{names} se fueron: jugarán bots hasta que vuelvan.", n, { names });
  }
  if (lobby.standin === "skip") {
    return ngettext("{names} se fue: se saltará su turno hasta que vuelva.", "{names} se fueron: se saltarán sus turnos hasta que vuelvan.", n, { names });
  }
  return ngettext("{names} se fue.", "{names} se fueron.", n, { names });
}

/** The lines that say where the rematch is (none while a game is on). */
export function rematchLines(lobby) {
  if (!lobby || !lobby.over) return [];
  const lines = [];
  const mine = lobby.you !== null && lobby.rematch.includes(lobby.you);
  const asked = lobby.rematch.filter((s) => s !== lobby.you);
  const waiting = lobby.waiting.filter((s) => s !== lobby.you);
  if (asked.length && !mine) lines.push(_("Quieren la revancha: {names}", { names: namesOf(lobby, asked) }));
  if (waiting.length && (mine || asked.length)) lines.push(_("Esperando a: {names}", { names: namesOf(lobby, waiting) }));
  const gone = lobby.seats.filter((s) => s.away).map((s) => s.seat);
  if (gone.length) lines.push(goneWords(lobby, gone));
  return lines;
}

/** Whether the host may start the next game now without waiting («Empezar ya»). */
export const mayStartNow = (lobby) =>
  !!lobby && lobby.host && lobby.over && lobby.can_start && lobby.waiting.some((s) => s !== lobby.you);

/** Fill a status element with these lines (one a line; hidden when there are none). */
export function showLines(el, lines) {
  el.replaceChildren(...lines.map((line) => {
    const span = document.createElement("span");
    span.className = "line";
    span.textContent = line;
    return span;
  }));
  el.hidden = !lines.length;
}
