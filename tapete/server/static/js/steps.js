import { pageData } from "./ui.js";

const { hint: HINT, steps: STEPS, step: STEP } = pageData("rules-steps");
// Step-by-step viewer for the worked examples: one step at a time, chosen by a tap or the arrows.
document.querySelectorAll(".example ol.steps").forEach((list) => {
  const steps = [...list.children];
  const bar = document.createElement("div");
  bar.className = "stepper";
  const hint = document.createElement("p");
  hint.className = "stepper-hint";
  hint.textContent = HINT;
  const buttons = document.createElement("div");
  buttons.className = "stepper-buttons";
  buttons.setAttribute("role", "group");
  buttons.setAttribute("aria-label", STEPS);
  steps.forEach((_li, i) => {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "step-btn";
    b.dataset.i = i;
    b.setAttribute("aria-label", STEP.replace("{n}", i + 1));
    b.textContent = i + 1;
    buttons.appendChild(b);
  });
  bar.append(hint, buttons);
  list.before(bar);
  const show = (i) => {
    steps.forEach((li, j) => { li.classList.toggle("step-on", j === i); li.classList.toggle("step-off", j > i); });
    bar.querySelectorAll(".step-btn").forEach((b, j) => b.setAttribute("aria-pressed", String(j === i)));
  };
  bar.addEventListener("click", (e) => { const b = e.target.closest(".step-btn"); if (b) show(Number(b.dataset.i)); });
  bar.addEventListener("keydown", (e) => {
    const cur = [...bar.querySelectorAll(".step-btn")].findIndex((b) => b.getAttribute("aria-pressed") === "true");
    if (e.key === "ArrowRight" || e.key === "ArrowLeft") {
      const i = Math.max(0, Math.min(steps.length - 1, cur + (e.key === "ArrowRight" ? 1 : -1)));
      show(i); bar.querySelectorAll(".step-btn")[i].focus();
    }
  });
  steps.forEach((li, i) => li.addEventListener("click", () => show(i)));
  show(0);
});
