"use strict";
// The family's pages: sign in, accept an invite, the trees one reaches, sign out. Everything the
// page shows from the server goes in as text (textContent), never as markup.
(function () {
  const view = document.body.dataset.view;
  const byID = id => document.getElementById(id);
  let csrfToken = null;

  /// One call to the HTTP API; the answer's status and JSON body (null when there is none).
  async function api(method, path, body) {
    const headers = { "Accept": "application/json" };
    if (body !== undefined) { headers["Content-Type"] = "application/json"; }
    if (csrfToken && method !== "GET") { headers["X-CSRF-Token"] = csrfToken; }
    let response;
    try {
      response = await fetch("/api/v1" + path, {
        method, headers, credentials: "same-origin", body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (error) {
      return { status: 0, data: { message: "the server cannot be reached; check the connection and try again" } };
    }
    let data = null;
    if (response.status !== 204) {
      try { data = await response.json(); } catch (error) { data = null; }
    }
    return { status: response.status, data };
  }

  function messageOf(answer, fallback) {
    return (answer.data && typeof answer.data.message === "string") ? answer.data.message : fallback;
  }

  /// Shows one section of the page and moves the focus to its heading.
  function show(id) {
    for (const section of document.querySelectorAll("main > section")) { section.hidden = section.id !== id; }
    const heading = byID(id).querySelector("h1");
    if (heading) { heading.setAttribute("tabindex", "-1"); heading.focus(); }
  }

  function say(element, text, isError) {
    element.textContent = text;
    element.classList.toggle("error", Boolean(isError));
  }

  function signedIn(user, token) {
    csrfToken = token;
    byID("who").textContent = user;
    byID("account").hidden = false;
  }

  function signedOut() {
    csrfToken = null;
    byID("account").hidden = true;
    byID("who").textContent = "";
  }

  const roleWords = { owner: "your own tree", admin: "you manage it", helper: "you can edit it", viewer: "you can look at it" };

  async function showTrees() {
    const list = byID("tree-list"), status = byID("trees-message");
    list.replaceChildren();
    say(status, "Loading…");
    show("trees");
    const answer = await api("GET", "/trees");
    if (answer.status !== 200 || !Array.isArray(answer.data)) {
      say(status, messageOf(answer, "the trees could not be loaded"), true);
      return;
    }
    say(status, answer.data.length === 0 ? "No tree yet: ask a relative for an invite, or push one with familytree sync push." : "");
    for (const membership of answer.data) {
      const item = document.createElement("li"), link = document.createElement("a"), role = document.createElement("span");
      const tree = "/trees/" + encodeURIComponent(membership.tree);
      link.href = tree;
      link.className = "tree";
      link.textContent = membership.tree === membership.user ? "Your tree" : membership.tree + "’s tree";
      role.className = "role";
      role.textContent = roleWords[membership.role] || membership.role;
      link.append(role);
      const birthdays = document.createElement("a");
      birthdays.href = tree + "/birthdays";
      birthdays.className = "more";
      birthdays.textContent = "Birthdays";
      birthdays.setAttribute("aria-label", "Birthdays in " + link.firstChild.textContent.replace(/^Your tree$/, "your tree"));
      item.append(link, birthdays);
      list.append(item);
    }
  }

  /// Where to go after signing in: a tree page the server sent the user from, else the list.
  function afterSignIn() {
    const next = new URLSearchParams(location.search).get("next");
    if (next && /^\/trees\/[^/?#]+(\/birthdays)?$/.test(next)) { location.assign(next); return; }
    showTrees();
  }

  async function signIn(user, password, status) {
    const answer = await api("POST", "/session", { user, password });
    if (answer.status !== 200) {
      say(status, messageOf(answer, "signing in failed"), true);
      return false;
    }
    signedIn(answer.data.user, answer.data.csrfToken);
    return true;
  }

  function busy(form, isBusy) {
    for (const control of form.querySelectorAll("button, input")) { control.disabled = isBusy; }
  }

  byID("signin-form").addEventListener("submit", async event => {
    event.preventDefault();
    const form = event.target, status = byID("signin-message");
    busy(form, true);
    say(status, "Signing in…");
    const ok = await signIn(byID("signin-user").value.trim(), byID("signin-password").value, status);
    busy(form, false);
    if (ok) {
      byID("signin-password").value = "";
      say(status, "");
      afterSignIn();
    } else {
      byID("signin-password").focus();
    }
  });

  byID("invite-form").addEventListener("submit", async event => {
    event.preventDefault();
    const form = event.target, status = byID("invite-message");
    const user = byID("invite-user").value.trim(), password = byID("invite-password").value;
    if (password !== byID("invite-repeat").value) {
      say(status, "the two passwords differ", true);
      byID("invite-repeat").focus();
      return;
    }
    const code = location.pathname.split("/").pop();
    busy(form, true);
    say(status, "Joining…");
    const answer = await api("POST", "/invites/" + encodeURIComponent(code) + "/accept", { user, password });
    if (answer.status !== 201) {
      busy(form, false);
      say(status, messageOf(answer, "joining failed"), true);
      return;
    }
    const ok = await signIn(user, password, status);
    busy(form, false);
    if (ok) {
      history.replaceState(null, "", "/");
      showTrees();
    }
  });

  byID("signout").addEventListener("click", async () => {
    const answer = await api("DELETE", "/session");
    if (answer.status !== 204 && answer.status !== 401) {
      say(byID("trees-message"), messageOf(answer, "signing out failed"), true);
      return;
    }
    signedOut();
    if (view === "invite") { history.replaceState(null, "", "/"); }
    show("signin");
  });

  async function start() {
    const me = await api("GET", "/me");
    if (me.status === 200 && me.data) {
      signedIn(me.data.user, me.data.csrfToken || null);
      if (view === "invite") { show("invite"); } else { afterSignIn(); }
      return;
    }
    signedOut();
    show(view === "invite" ? "invite" : "signin");
  }
  start();
})();
