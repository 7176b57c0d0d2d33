// ESLint for the pages' ES modules (tapete/server/static/js/), run by `make lint`: the
// recommended rules, and what a browser module may use. Style is not its business.
import js from "@eslint/js";
import globals from "globals";

export default [
  js.configs.recommended,
  {
    files: ["tapete/server/static/js/**/*.js"],
    languageOptions: {
      sourceType: "module",
      globals: { ...globals.browser },
    },
    rules: {
      "no-unused-vars": "error",
      "no-undef": "error",
      eqeqeq: ["error", "always", { null: "ignore" }], // (`x != null`: null or undefined)
    },
  },
  {
    // the service worker: a classic script, whose first lines app_shell.py writes
    files: ["tapete/server/static/js/sw.js"],
    languageOptions: {
      sourceType: "script",
      globals: { ...globals.serviceworker, BUILD: "readonly", KEEP: "readonly", OFFLINE: "readonly" },
    },
  },
];
