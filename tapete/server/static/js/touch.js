// A touch phone has no keyboard to speak of: its tables show no keyboard hints (table.css,
// `.touch`). Decided once, as the page loads, from what the screen says of its pointer, so
// the page stays as the phone draws it (a full-page capture, which drops the emulation of
// touch for a moment, included).
document.documentElement.classList.toggle("touch", matchMedia("(hover: none), (pointer: coarse)").matches);
