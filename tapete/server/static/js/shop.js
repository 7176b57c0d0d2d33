// The shop: buy and wear, as the server says. No price or balance is decided here.

import { api } from "./api.js";

const strings = JSON.parse(document.getElementById("profile-strings").textContent);
const status = document.getElementById("status");

async function post(url, item) {
  const { ok, data } = await api("POST", url, { item });
  if (ok) return true;
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
