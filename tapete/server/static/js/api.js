// One request to the hall's JSON API, as every page makes it: same origin, a JSON body, the
// answer's JSON ({} when it has none). It never throws: a request that never reached the
// server answers { ok: false, status: 0, data: {} }, and the page says so in its own words.

export async function api(method, url, body) {
  let response;
  try {
    response = await fetch(url, {
      method,
      headers: { "content-type": "application/json", accept: "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "same-origin",
    });
  } catch {
    return { ok: false, status: 0, data: {} };
  }
  const data = await response.json().catch(() => ({}));
  return { ok: response.ok, status: response.status, data };
}
