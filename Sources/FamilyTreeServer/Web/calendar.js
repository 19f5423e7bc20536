"use strict";
// The birthdays page's calendar address: made (replacing the last one), shown to copy or to open
// in the calendar app (webcal:), and stopped. The address is put in the page as a value and an
// href, never as markup.
(function () {
  const tree = document.body.dataset.tree;
  const byID = id => document.getElementById(id);
  if (!tree || !byID("calendar-make")) { return; }
  const message = byID("calendar-message");
  let csrf = null;

  async function call(method, path) {
    if (csrf === null) {
      try {
        const me = await fetch("/api/v1/me", { headers: { "Accept": "application/json" }, credentials: "same-origin" });
        csrf = me.ok ? ((await me.json()).csrfToken || "") : "";
      } catch (error) { csrf = ""; }
    }
    try {
      const response = await fetch("/trees/" + encodeURIComponent(tree) + path, {
        method, headers: { "Accept": "application/json", "X-CSRF-Token": csrf }, credentials: "same-origin",
      });
      return { status: response.status, data: await response.json().catch(() => null) };
    } catch (error) {
      return { status: 0, data: { message: "the server cannot be reached; check the connection" } };
    }
  }
  function say(text, isError) {
    message.textContent = text;
    message.classList.toggle("error", Boolean(isError));
  }

  byID("calendar-make").addEventListener("click", async () => {
    const answer = await call("POST", "/calendar-address");
    if (answer.status !== 200 || !answer.data || typeof answer.data.path !== "string") {
      say((answer.data && answer.data.message) || "No address was made.", true);
      return;
    }
    const address = location.origin + answer.data.path;
    byID("calendar-url").value = address;
    byID("calendar-subscribe").href = address.replace(/^https?:/, "webcal:");
    byID("calendar-result").hidden = false;
    say("Your new calendar address is below; any address you made before has stopped.");
    byID("calendar-url").select();
  });
  byID("calendar-stop").addEventListener("click", async () => {
    const answer = await call("DELETE", "/calendar-address");
    if (answer.status !== 200) { say((answer.data && answer.data.message) || "Nothing was stopped.", true); return; }
    byID("calendar-result").hidden = true;
    say(answer.data.stopped ? "Stopped: calendars subscribed to your address get no more updates." : "You had no calendar address for this tree.");
  });
})();
