// The service worker (served at /sw.js by app_shell.py, which sets BUILD, KEEP and OFFLINE
// above this line). It keeps, in a cache named after the build, the rules, the guides, the
// offline page and their files; a page read while online is kept again, fresh. Playing
// needs the server: a page that is not kept shows the offline page; the socket and the API
// are never answered from the cache.
const CACHE = `tapete-${BUILD}`;
const READABLE = new Set(KEEP.filter((u) => !u.startsWith("/static/")));

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(KEEP)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith("tapete-") && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

async function fromCacheFirst(request) {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(request);
  if (hit) return hit;
  const response = await fetch(request);
  if (response.ok && new URL(request.url).searchParams.has("v")) cache.put(request, response.clone());
  return response;
}

async function page(request) {
  const url = new URL(request.url);
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (response.ok && READABLE.has(url.pathname)) cache.put(url.pathname, response.clone());
    return response;
  } catch {
    return (READABLE.has(url.pathname) && (await cache.match(url.pathname))) || (await cache.match(OFFLINE)) || Response.error();
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.startsWith("/static/")) event.respondWith(fromCacheFirst(request));
  else if (request.mode === "navigate") event.respondWith(page(request));
});
