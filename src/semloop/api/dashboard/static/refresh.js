// Keeps a page current: every data-refresh seconds, fetches it again and swaps in the new
// <main>, keeping the scroll position. Skipped while the tab is hidden or a field of the
// page has focus; a lost session (redirected to sign-in) reloads the page.
(function () {
  "use strict";
  const main = document.querySelector("main[data-refresh]");
  if (!main) return;
  const every = Number(main.dataset.refresh) * 1000;
  async function refresh() {
    const active = document.activeElement;
    if (document.visibilityState !== "visible" || (active && main.contains(active) &&
        active.matches("input, select, textarea, details, summary"))) return;
    let reply;
    try {
      reply = await fetch(location.href, { credentials: "same-origin" });
    } catch (_) {
      return; // the server is away: try again next time
    }
    if (reply.redirected) { location.reload(); return; }
    if (!reply.ok) return;
    const page = new DOMParser().parseFromString(await reply.text(), "text/html");
    const fresh = page.querySelector("main[data-refresh]");
    if (fresh) main.innerHTML = fresh.innerHTML;
  }
  setInterval(refresh, every);
})();
