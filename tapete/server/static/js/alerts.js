// Sounds and turn alerts of every table (table.js calls them; nothing here knows a game).
//
// The sounds are made for Tapete, here, by the browser's Web Audio: oscillators and a
// burst of filtered noise, shaped in a few milliseconds — no recording, nothing licensed
// from anyone: a card laid, a tile set down, your turn, the clock's last five seconds, a
// win, the end. Sound is on by default, the clock's tick off; both switches are remembered
// on this device («Sonido», «Tictac»). A device on silent stays silent: the page plays
// through the device's own volume, never above it.
//
// When it becomes your turn while the tab is hidden, the title and the icon say so, a
// notification is shown if the player allowed them («Avisarme»), and a phone vibrates —
// unless the player asked for reduced motion.
//
// table.js loads this module at the player's first touch or key, when the tab goes to the
// background, or at once when this device has chosen its sound before: a table's first
// load stays as light as before (bench/page_weight.py), and no sound could play earlier.
import { $, _ } from "./ui.js";

const KEY = "tapete.sound";
let audio = null;

function prefs() {
  try { return JSON.parse(localStorage.getItem(KEY) || "{}"); } catch { return {}; }
}

export const soundOn = () => prefs().on !== false;
export const tickOn = () => prefs().tick === true;

function setPref(name, value) {
  localStorage.setItem(KEY, JSON.stringify({ ...prefs(), [name]: value }));
}

/** The page's audio, made (or woken) at the player's first touch: browsers let a page
 * sound only after one. */
function context() {
  if (!audio) {
    const Audio = window.AudioContext || window.webkitAudioContext;
    if (!Audio) return null;
    audio = new Audio();
  }
  if (audio.state === "suspended") audio.resume().catch(() => {});
  return audio;
}
if (soundOn() && navigator.userActivation?.hasBeenActive) context(); // (loaded by a touch)

function tone(a, freq, at, length, { type = "sine", gain = 0.12, to = null } = {}) {
  const osc = a.createOscillator();
  const amp = a.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, at);
  if (to) osc.frequency.exponentialRampToValueAtTime(to, at + length);
  amp.gain.setValueAtTime(0.0001, at);
  amp.gain.exponentialRampToValueAtTime(gain, at + 0.01);
  amp.gain.exponentialRampToValueAtTime(0.0001, at + length);
  osc.connect(amp).connect(a.destination);
  osc.start(at);
  osc.stop(at + length + 0.02);
}

function hiss(a, at, length, { gain = 0.2, freq = 2500, q = 0.8 } = {}) {
  const frames = Math.max(1, Math.floor(a.sampleRate * length));
  const buffer = a.createBuffer(1, frames, a.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < frames; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / frames) ** 2;
  const src = a.createBufferSource();
  src.buffer = buffer;
  const filter = a.createBiquadFilter();
  filter.type = "bandpass";
  filter.frequency.value = freq;
  filter.Q.value = q;
  const amp = a.createGain();
  amp.gain.value = gain;
  src.connect(filter).connect(amp).connect(a.destination);
  src.start(at);
}

const SOUNDS = {
  card: (a, t) => hiss(a, t, 0.07, { gain: 0.35, freq: 3200 }),
  tile: (a, t) => { tone(a, 1250, t, 0.05, { type: "triangle", gain: 0.08 }); hiss(a, t, 0.03, { gain: 0.25, freq: 1800, q: 2 }); },
  turn: (a, t) => { tone(a, 660, t, 0.14); tone(a, 990, t + 0.12, 0.2); },
  tick: (a, t) => tone(a, 1500, t, 0.04, { type: "square", gain: 0.04 }),
  win: (a, t) => [523, 659, 784, 1047].forEach((f, i) => tone(a, f, t + i * 0.09, 0.22, { type: "triangle" })),
  end: (a, t) => tone(a, 440, t, 0.45, { type: "triangle", to: 220 }),
};

/** Play a sound by name (card, tile, turn, tick, win, end), if sound is on. */
export function play(name) {
  if (!soundOn() || (name === "tick" && !tickOn())) return;
  const a = context();
  if (!a || a.state !== "running") return; // (no touch yet: the browser keeps it silent)
  SOUNDS[name]?.(a, a.currentTime + 0.01);
}

// the turn, told to a player who is elsewhere ---------------------------------------------

const reduced = () => window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;
const titleBefore = document.title;
const iconEl = document.querySelector('link[rel="icon"]');
const iconBefore = iconEl ? iconEl.getAttribute("href") : null;
const ICON_TURN = "data:image/svg+xml," + encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="12" fill="#0f5132"/>'
  + '<text x="28" y="46" font-size="40" text-anchor="middle" fill="#fff">♠</text><circle cx="50" cy="14" r="12" fill="#e0a526"/></svg>');

function calm() {
  document.title = titleBefore;
  if (iconEl && iconBefore) iconEl.setAttribute("href", iconBefore);
}
document.addEventListener("visibilitychange", () => { if (!document.hidden) calm(); });

/** It has just become this player's turn: a chime; and if the tab is hidden, the title,
 * the icon, a notification (if allowed) and a vibration say so. */
export function yourTurn(words) {
  play("turn");
  if (!document.hidden) return;
  document.title = _("● Te toca · {title}", { title: titleBefore });
  if (iconEl) iconEl.setAttribute("href", ICON_TURN);
  if (!reduced() && navigator.vibrate) navigator.vibrate([120, 80, 120]);
  if (window.Notification && Notification.permission === "granted" && prefs().notify !== false) {
    try {
      const note = new Notification(_("Te toca en Tapete"), { body: words || "", tag: "tapete-turn", icon: iconBefore || undefined });
      note.onclick = () => { window.focus(); note.close(); };
    } catch { /* (a phone wants a service worker for these: the title and vibration say it) */ }
  }
}

/** The switches under the table (sound, the clock's tick, notifications) as they stand. */
export function show() {
  const sound = $("sound-toggle");
  const tick = $("tick-toggle");
  const notify = $("notify-ask");
  if (sound) {
    sound.setAttribute("aria-pressed", String(soundOn()));
    sound.textContent = soundOn() ? _("Sonido: sí") : _("Sonido: no");
  }
  if (tick) {
    tick.hidden = !soundOn();
    tick.setAttribute("aria-pressed", String(tickOn()));
    tick.textContent = tickOn() ? _("Tictac del reloj: sí") : _("Tictac del reloj: no");
  }
  if (notify) notify.hidden = !(window.Notification && Notification.permission === "default");
}

/** A switch was pressed: "sound", "tick" or "notify". */
export async function press(which) {
  if (which === "sound") {
    setPref("on", !soundOn());
    if (soundOn()) { context(); play("card"); }
  } else if (which === "tick") {
    setPref("tick", !tickOn());
    play("tick");
  } else if (which === "notify" && window.Notification) {
    try { await Notification.requestPermission(); } catch { /* (refused: the title says it) */ }
  }
  show();
}

show();
