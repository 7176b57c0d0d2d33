// Every page: the service worker (sw.js) that keeps the rules and guides for reading
// offline and makes the hall installable as an app. Nothing else: the pages work without it.
if ("serviceWorker" in navigator) {
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {});
}
