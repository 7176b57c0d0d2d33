// The shop: buy and wear, as the server says. No price or balance is decided here.

const strings = JSON.parse(document.getElementById("profile-strings").textContent);
const status = document.getElementById("status");

async function post(url, item) {
  let response;
  try {
    response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ item }),
      credentials: "same-origin",
    });
  } catch {
    status.textContent = strings.network;
    status.classList.add("bad");
    return false;
  }
  if (response.ok) return true;
  let data = {};
  try { data = await response.json(); } catch { /* no body */ }
  status.textContent = data.message || strings.network;
  status.classList.add("bad");
  return false;
}

for (const button of document.querySelectorAll("button.buy, button.equip")) {
  button.addEventListener("click", async () => {
    button.disabled = true;
    const buying = button.classList.contains("buy");
    const item = button.dataset.item;
    let ok = await post(buying ? "/api/tienda/comprar" : "/api/tienda/equipar", item);
    if (ok && buying) ok = await post("/api/tienda/equipar", item);  // (what you buy, you wear)
    if (ok) location.reload();
    else button.disabled = false;
  });
}
