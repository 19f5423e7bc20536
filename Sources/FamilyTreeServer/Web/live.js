"use strict";
// The chart page served by `familytree serve`: other relatives' changes drawn as they are saved,
// and for helpers and above, editing from the card, linking two people by a long press and a
// drag (or "Link to…" and a choice), and undo of one's own last edits. What the server answers
// reaches the page as text only (textContent, values), never as markup.
(function () {
  const facts = document.body.dataset, viewer = window.familyTreeViewer;
  if (!facts.tree || !viewer) { return; }
  const tree = facts.tree, me = facts.user, role = facts.role;
  const canEdit = role === "helper" || role === "admin" || role === "owner";
  const isAdmin = role === "admin" || role === "owner";
  const base = "/trees/" + encodeURIComponent(tree);
  const card = document.getElementById("card"), toolbar = document.getElementById("toolbar");
  let shown = Number(facts.sequence) || 0;
  const undoTokens = [];

  function element(tag, text, className) {
    const node = document.createElement(tag);
    if (text !== undefined) { node.textContent = text; }
    if (className) { node.className = className; }
    return node;
  }
  function button(text, action, className) {
    const node = element("button", text, className);
    node.type = "button";
    node.addEventListener("click", action);
    return node;
  }

  // A line at the foot of the screen for what happened (read out by screen readers).
  // The page may bring it, saying what is under way from its first paint.
  const status = document.getElementById("live-status") || element("p", "", "live-status");
  status.id = "live-status";
  status.setAttribute("role", "status");
  status.setAttribute("aria-live", "polite");
  if (!status.isConnected) { document.body.append(status); }
  let statusTimer = null;
  // A line said `untilReplaced` stays until another takes its place (what is still under way).
  function say(text, isError, untilReplaced) {
    status.textContent = text;
    status.classList.toggle("error", Boolean(isError));
    status.hidden = !text;
    clearTimeout(statusTimer);
    if (text && !untilReplaced) { statusTimer = setTimeout(() => { status.hidden = true; }, isError ? 12000 : 6000); }
  }
  say("");
  if (facts.earlier === "true") {
    // The server opened the page on the tree as it was a moment ago: the newest is being laid out.
    say("Drawing the latest changes\u2026");
  }
  const livingHidden = "Living people are shown as \u201cLiving\u201d in your view of this tree.";
  if (facts.hidesLiving === "true") {
    // Said once, and kept in the toolbar's title for whoever looks again.
    say(livingHidden);
    if (toolbar) { toolbar.title = "Living people are hidden in your view of this tree"; }
  }

  async function call(method, path, body) {
    const headers = { "Accept": "application/json" };
    if (body !== undefined) { headers["Content-Type"] = "application/json"; }
    if (method !== "GET" && facts.csrf) { headers["X-CSRF-Token"] = facts.csrf; }
    try {
      const response = await fetch(base + path, { method, headers, credentials: "same-origin", body: body === undefined ? undefined : JSON.stringify(body) });
      let data = null;
      try { data = await response.json(); } catch (error) { data = null; }
      return { status: response.status, data };
    } catch (error) {
      return { status: 0, data: { message: "the server cannot be reached; check the connection" } };
    }
  }
  const messageOf = answer => (answer.data && typeof answer.data.message === "string") ? answer.data.message : "the server said no (" + answer.status + ")";

  // MARK: The tree as it is now

  // A page opened on a large tree not laid out yet shows the people nearest where it opens
  // first (`data-preview`), and the whole tree once the server has laid it out.
  let whole = facts.preview !== "true";
  // The person the preview opened on stays where it is on screen when the whole tree comes.
  const previewStart = whole ? undefined : viewer.start || undefined;
  let refreshing = null, again = false;
  async function refresh() {
    if (refreshing) { again = true; return refreshing; }
    refreshing = (async () => {
      do {
        again = false;
        // Only what changed since the version shown, when the boxes stand where they stood.
        let answer = await call("GET", whole ? "/chart.json?since=" + shown : "/chart.json");
        const patch = whole && answer.status === 200 && answer.data ? answer.data.patch : null;
        if (patch && !(patch.from === shown && answer.data.sequence >= shown && viewer.patch(patch.m))) {
          answer = await call("GET", "/chart.json");
        }
        if (answer.status === 200 && answer.data && answer.data.sequence >= shown && (answer.data.data || patch)) {
          shown = answer.data.sequence;
          if (answer.data.data) { viewer.load(answer.data.data, whole ? undefined : previewStart); whole = true; }
          document.body.dataset.shown = String(shown);
        } else if (!whole) {
          say("The whole tree could not be drawn yet (" + messageOf(answer) + "); trying again\u2026", true, true);
        }
      } while (again);
      refreshing = null;
    })();
    return refreshing;
  }
  // Asked for until it comes (a proxy may give up on a long layout), waiting longer each time.
  const afterWhole = [];
  async function loadWhole() {
    say("Drawing the whole tree\u2026", false, true);
    for (let attempt = 0; !whole; attempt += 1) {
      await refresh();
      if (!whole) { await new Promise(resolve => setTimeout(resolve, Math.min(30000, 1000 * 2 ** attempt))); }
    }
    say(facts.hidesLiving === "true" ? livingHidden : "");
    // A person the address names who was not in the first picture is shown now.
    let wanted = null;
    try { wanted = decodeURIComponent(location.hash.slice(1)); } catch (error) { wanted = null; }
    if (wanted && viewer.selected !== wanted && viewer.person(wanted)) { viewer.select(wanted); }
    for (const then of afterWhole) { then(); }
    document.body.dataset.whole = "true";
  }
  /// Runs `action` once the whole tree is on the page (at once when it is).
  function onceWholeIsIn(action) { if (whole) { action(); } else { afterWhole.push(action); } }
  if (whole) { document.body.dataset.whole = "true"; } else { loadWhole(); }

  if (window.EventSource) {
    const events = new EventSource(base + "/events?after=" + shown);
    events.addEventListener("change", event => {
      let change;
      try { change = JSON.parse(event.data); } catch (error) { return; }
      if (change.sequence <= shown) { return; }
      refresh();
      if (change.by !== me) { say(change.summary); }
    });
    events.addEventListener("denied", event => {
      events.close();
      let text = "You no longer have a role on this tree.";
      try { text = JSON.parse(event.data).message || text; } catch (error) { /* the default */ }
      say(text, true);
    });
  }

  // MARK: This is me

  // The user's own person in this tree, kept with their account (so every device knows it): the
  // card says how everyone else is related to them, and the chart opens on them. A person this
  // browser kept before the account could is said to the server once, then forgotten here.
  let myself = facts.myself || null;
  if (myself && !viewer.person(myself)) { myself = null; }
  // Judged against everyone, not a large tree's first picture of a part of it.
  onceWholeIsIn(function moveFromThisBrowser() {
    const key = "familytree.me." + me + "." + tree;
    let storage = null;
    try { storage = window.localStorage; } catch (error) { return; }
    const kept = storage ? storage.getItem(key) : null;
    if (!kept) { return; }
    if (myself || !viewer.person(kept)) { storage.removeItem(key); return; }
    myself = kept;
    call("PUT", "/myself", { member: kept }).then(answer => { if (answer.status === 200) { storage.removeItem(key); } });
  });
  const relationCache = new Map();
  async function relationTo(id) {
    const key = shown + " " + myself + " " + id;
    if (!relationCache.has(key)) {
      const answer = await call("GET", "/relation?from=" + encodeURIComponent(myself) + "&to=" + encodeURIComponent(id));
      relationCache.set(key, answer.status === 200 && answer.data ? answer.data.words : null);
    }
    return relationCache.get(key);
  }
  card.addEventListener("familytree:card", async event => {
    const id = event.detail.id, name = document.getElementById("card-name");
    const line = element("p", "", "relation");
    line.id = "card-relation";
    name.after(line);
    const meButton = button(myself === id ? "This is not me" : "This is me", async () => {
      const chosen = myself === id ? null : id;
      const answer = await call("PUT", "/myself", { member: chosen });
      if (answer.status !== 200) { say("Not saved: " + messageOf(answer), true); return; }
      myself = chosen;
      say(myself ? "The card now says how each person is related to you." : "No one is you in this tree now.");
      viewer.select(id);
    }, "quiet me");
    meButton.setAttribute("aria-pressed", String(myself === id));
    card.append(meButton);
    if (myself) {
      const words = myself === id ? "you" : await relationTo(id);
      if (viewer.selected === id && words) { line.textContent = words === "you" ? "This is you" : "Your " + words; }
    }
  });

  /// The card shown as the page opens gets what this script adds: drawn again, once every
  /// listener is in place (on the user's own person, unless the address names another).
  function showFirstCard() {
    const first = myself && !location.hash ? myself : viewer.selected;
    if (first) { viewer.select(first); }
  }

  if (!canEdit) { showFirstCard(); return; }

  // MARK: Saving, conflicts and undo

  const undoButton = button("Undo", undo);
  undoButton.id = "undo";
  undoButton.title = "Undo your last change (Ctrl+Z)";
  undoButton.hidden = true;
  toolbar.append(undoButton);
  const addButton = button("Add person", () => openAdd(null, "add"));
  addButton.id = "add-person";
  addButton.title = "Add someone not yet related to anyone in the tree";
  toolbar.insertBefore(addButton, undoButton);

  async function save(edits, what) {
    say("Saving…");
    const answer = await call("POST", "/edits", { edits });
    if (answer.status === 409 && answer.data && Array.isArray(answer.data.conflicts)) {
      say("");
      return resolve(edits, answer.data.conflicts, what);
    }
    if (answer.status !== 200) { say("Not saved: " + messageOf(answer), true); return null; }
    if (answer.data.undo) { undoTokens.push(answer.data.undo); }
    undoButton.hidden = undoTokens.length === 0;
    say(what + (answer.data.undo ? "" : " (this one cannot be undone here)"));
    await refresh();
    return answer.data;
  }

  async function undo() {
    const token = undoTokens.pop();
    undoButton.hidden = undoTokens.length === 0;
    if (!token) { return; }
    const answer = await call("POST", "/undo", { token });
    if (answer.status === 409 && answer.data && Array.isArray(answer.data.conflicts)) {
      say("Not undone: " + answer.data.message, true);
      return;
    }
    if (answer.status !== 200) { say("Not undone: " + messageOf(answer), true); return; }
    say("Undone.");
    await refresh();
  }
  document.addEventListener("keydown", event => {
    const typing = event.target && /^(INPUT|TEXTAREA|SELECT)$/.test(event.target.tagName);
    if (!typing && (event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "z" && undoTokens.length) {
      event.preventDefault();
      undo();
    }
  });

  const fieldWords = { firstName: "First name", middleName: "Middle name", lastName: "Last name", nickname: "Nickname", sex: "Sex",
                       birthday: "Birthday", deathDate: "Date of death", notes: "Notes", photo: "Photo" };

  /// Another relative changed a field since the user read it: show both, let the user choose.
  function resolve(edits, conflicts, what) {
    return new Promise(done => {
      const dialog = modal("Someone else changed this too");
      dialog.body.append(element("p", "While you were editing, the tree changed. Choose what to keep:"));
      const choices = [];
      for (const conflict of conflicts) {
        const group = element("fieldset");
        group.append(element("legend", conflict.name + " · " + (fieldWords[conflict.field] || conflict.field)));
        const name = "keep-" + conflict.member + "-" + conflict.field;
        for (const [value, words, text] of [["mine", "Yours", conflict.yours], ["theirs", "Now in the tree", conflict.theirs]]) {
          const label = element("label", undefined, "choice");
          const radio = element("input");
          radio.type = "radio"; radio.name = name; radio.value = value; radio.checked = value === "mine";
          label.append(radio, element("strong", words + ": "), element("span", conflict.field === "photo" ? (text ? "a photo" : "none") : (text || "(empty)")));
          group.append(label);
        }
        dialog.body.append(group);
        choices.push({ conflict, name });
      }
      dialog.actions.append(button("Save my choice", async () => {
        const keep = choices.map(({ conflict, name }) => ({ conflict, mine: dialog.element.querySelector("input[name=\"" + CSS.escape(name) + "\"]:checked").value === "mine" }));
        dialog.close();
        // Mine: saved over theirs (what the tree holds now is what was seen). Theirs: left out.
        const next = edits.map(edit => {
          if (edit.op !== "edit") { return edit; }
          const fields = { ...edit.fields }, was = { ...(edit.was || {}) };
          for (const { conflict, mine } of keep) {
            if (conflict.member !== edit.member) { continue; }
            if (mine) { was[conflict.field] = conflict.theirs === undefined ? null : conflict.theirs; } else { delete fields[conflict.field]; delete was[conflict.field]; }
          }
          return { ...edit, fields, was };
        }).filter(edit => edit.op !== "edit" || Object.keys(edit.fields).length > 0);
        done(next.length ? await save(next, what) : (await refresh(), say("Kept what is in the tree."), null));
      }));
      dialog.actions.append(button("Cancel", () => { dialog.close(); done(null); }, "quiet"));
      dialog.open();
    });
  }

  // MARK: Dialogs and forms

  /// A modal dialog (the browser's own: focus kept inside, Escape closes it).
  function modal(title) {
    const dialog = element("dialog", undefined, "live-dialog");
    const heading = element("h2", title);
    heading.id = "dialog-title-" + Math.random().toString(36).slice(2);
    dialog.setAttribute("aria-labelledby", heading.id);
    const body = element("div", undefined, "dialog-body"), actions = element("div", undefined, "actions");
    dialog.append(heading, body, actions);
    document.body.append(dialog);
    dialog.addEventListener("close", () => dialog.remove());
    return { element: dialog, body, actions, open: () => dialog.showModal(), close: () => dialog.close() };
  }

  function textField(form, key, value, options = {}) {
    const label = element("label", fieldWords[key] || key);
    const input = element(options.multiline ? "textarea" : "input");
    input.name = key;
    if (!options.multiline) { input.type = "text"; }
    input.value = value || "";
    if (options.placeholder) { input.placeholder = options.placeholder; }
    if (options.required) { input.required = true; }
    input.maxLength = key === "notes" ? 20000 : 200;
    label.append(input);
    form.append(label);
    return input;
  }
  function sexField(form, value) {
    const label = element("label", fieldWords.sex);
    const select = element("select");
    select.name = "sex";
    for (const [option, words] of [["", "Not given"], ["female", "Female"], ["male", "Male"], ["other", "Other"], ["unknown", "Unknown"]]) {
      const item = element("option", words);
      item.value = option;
      item.selected = (value || "") === option;
      select.append(item);
    }
    label.append(select);
    form.append(label);
    return select;
  }
  /// A photo from the phone or the computer, made small (256 px) before it is saved.
  function photoField(form, value) {
    const label = element("label", fieldWords.photo);
    const input = element("input");
    input.type = "file"; input.accept = "image/*"; input.name = "photo-file";
    label.append(input);
    form.append(label);
    const state = { value: value || null, changed: false };
    const remove = button("No photo", () => { state.value = null; state.changed = true; input.value = ""; remove.hidden = true; }, "quiet");
    remove.hidden = !value;
    form.append(remove);
    input.addEventListener("change", () => {
      const file = input.files && input.files[0];
      if (!file) { return; }
      const image = new Image(), url = URL.createObjectURL(file);
      image.onload = () => {
        const scale = Math.min(1, 256 / Math.max(image.naturalWidth, image.naturalHeight));
        const canvas = document.createElement("canvas");
        canvas.width = Math.max(1, Math.round(image.naturalWidth * scale)); canvas.height = Math.max(1, Math.round(image.naturalHeight * scale));
        canvas.getContext("2d").drawImage(image, 0, 0, canvas.width, canvas.height);
        state.value = canvas.toDataURL("image/jpeg", 0.85);
        state.changed = true;
        remove.hidden = false;
        URL.revokeObjectURL(url);
      };
      image.onerror = () => { say("That file is not an image this browser can read.", true); URL.revokeObjectURL(url); };
      image.src = url;
    });
    return state;
  }

  /// A new person's fields: the form's inputs.
  function personForm(form) {
    return {
      firstName: textField(form, "firstName", "", { required: true }), lastName: textField(form, "lastName"),
      birthday: textField(form, "birthday", "", { placeholder: "1952-03-14, 1952, about 1950" }), sex: sexField(form, ""),
    };
  }
  const valuesOf = inputs => Object.fromEntries(Object.entries(inputs).map(([key, input]) => [key, input.value.trim() || null]));

  // MARK: The card's actions

  function openEdit(id) {
    return (async () => {
      const answer = await call("GET", "/people/" + encodeURIComponent(id));
      if (answer.status !== 200) { say("Cannot edit: " + messageOf(answer), true); return; }
      const seen = answer.data.fields;
      const dialog = modal("Edit " + (seen.firstName || "") + (seen.lastName ? " " + seen.lastName : ""));
      const form = element("form", undefined, "live-form");
      form.id = "edit-form";
      const inputs = {};
      for (const key of ["firstName", "middleName", "lastName", "nickname"]) { inputs[key] = textField(form, key, seen[key], { required: key === "firstName" }); }
      inputs.sex = sexField(form, seen.sex);
      inputs.birthday = textField(form, "birthday", seen.birthday, { placeholder: "1952-03-14, 1952, about 1950" });
      inputs.deathDate = textField(form, "deathDate", seen.deathDate, { placeholder: "leave empty if living" });
      inputs.notes = textField(form, "notes", seen.notes, { multiline: true });
      const photo = photoField(form, seen.photo);
      dialog.body.append(form);
      // A submit button of the form (outside it, in the dialog's actions): Enter submits too.
      const submit = element("button", "Save");
      submit.type = "submit";
      submit.setAttribute("form", form.id);
      dialog.actions.append(submit, button("Cancel", () => dialog.close(), "quiet"));
      form.addEventListener("submit", event => {
        event.preventDefault();
        const fields = {}, was = {};
        for (const [key, input] of Object.entries(inputs)) {
          const value = key === "notes" ? (input.value.trim() ? input.value : null) : (input.value.trim() || null);
          if (value !== (seen[key] === undefined ? null : seen[key])) { fields[key] = value; was[key] = seen[key] === undefined ? null : seen[key]; }
        }
        if (photo.changed) { fields.photo = photo.value; was.photo = seen.photo === undefined ? null : seen.photo; }
        dialog.close();
        if (Object.keys(fields).length) { save([{ op: "edit", member: id, fields, was }], "Saved."); }
      });
      dialog.open();
      inputs.firstName.focus();
    })();
  }

  function openAdd(id, op) {
    const person = id === null ? { name: "", spouses: [] } : viewer.person(id);
    const titles = { add: "Add a person", addChild: "Add a child of ", addParent: "Add a parent of ", addPartner: "Add a partner of " };
    const dialog = modal(titles[op] + person.name);
    const form = element("form", undefined, "live-form");
    form.id = "add-form";
    const inputs = personForm(form);
    let otherParent = null, date = null;
    if (op === "addChild" && person.spouses.length) {
      const label = element("label", "Other parent");
      otherParent = element("select");
      otherParent.name = "other";
      for (const spouse of person.spouses) { const item = element("option", spouse.name); item.value = spouse.id; otherParent.append(item); }
      const none = element("option", "No one / not known"); none.value = ""; otherParent.append(none);
      label.append(otherParent);
      form.append(label);
    }
    if (op === "addPartner") { date = textField(form, "married", "", { placeholder: "wedding date, if known" }); date.previousSibling.textContent = "Married on"; }
    dialog.body.append(form);
    const submit = element("button", "Add");
    submit.type = "submit";
    submit.setAttribute("form", form.id);
    dialog.actions.append(submit, button("Cancel", () => dialog.close(), "quiet"));
    form.addEventListener("submit", async event => {
      event.preventDefault();
      const edit = { op, member: id === null ? "-" : id, fields: valuesOf(inputs) };
      if (otherParent && otherParent.value) { edit.other = otherParent.value; }
      if (date && date.value.trim()) { edit.date = date.value.trim(); }
      dialog.close();
      const saved = await save([edit], "Added " + edit.fields.firstName + ".");
      if (saved && saved.created && saved.created[0]) { viewer.select(saved.created[0]); }
    });
    dialog.open();
    inputs.firstName.focus();
  }

  /// How two people are related, chosen after a drag from one to the other or "Link to…".
  function chooseLink(from, to) {
    const a = viewer.person(from), b = viewer.person(to);
    if (!a || !b || from === to) { return; }
    const dialog = modal("Link " + a.name + " and " + b.name);
    dialog.element.id = "link-dialog";
    const choices = [
      ["link", a.name + " also belongs to " + b.name + "’s family (cross-bloodline link)", { op: "link", member: from, other: to }],
      ["child", a.name + " is a child of " + b.name, { op: "childOf", member: from, other: to }],
      ["parent", b.name + " is a child of " + a.name, { op: "childOf", member: to, other: from }],
      ["partner", a.name + " and " + b.name + " are partners", { op: "marry", member: from, other: to }],
    ];
    const list = element("div", undefined, "link-choices");
    for (const [key, words, edit] of choices) {
      const choice = button(words, () => { dialog.close(); save([edit], "Linked."); }, "choice");
      choice.dataset.choice = key;
      list.append(choice);
    }
    dialog.body.append(list);
    dialog.actions.append(button("Cancel", () => dialog.close(), "quiet"));
    dialog.open();
    list.firstChild.focus();
  }
  viewer.onLink = chooseLink;

  // "Link to…": the next person chosen (search, click or keyboard) is the other one.
  let linkingFrom = null;
  card.addEventListener("familytree:card", event => {
    const id = event.detail.id;
    if (linkingFrom && linkingFrom !== id) {
      const from = linkingFrom;
      linkingFrom = null;
      say("");
      chooseLink(from, id);
    }
    const actions = element("div", undefined, "card-actions");
    actions.setAttribute("role", "group");
    actions.setAttribute("aria-label", "Change this person");
    actions.append(
      button("Edit", () => openEdit(id)), button("Add child", () => openAdd(id, "addChild")),
      button("Add parent", () => openAdd(id, "addParent")), button("Add partner", () => openAdd(id, "addPartner")),
      button("Link to…", () => {
        linkingFrom = id;
        say("Now find or click the person to link " + viewer.person(id).name + " with (Escape to stop).");
        document.getElementById("search").focus();
      }));
    if (isAdmin) {
      actions.append(button("Remove", async () => {
        if (window.confirm("Remove " + viewer.person(id).name + " from the tree? An admin can restore them, and Undo takes it back.")) {
          await save([{ op: "remove", member: id }], "Removed.");
        }
      }, "danger"));
    }
    card.append(actions);
  });
  document.addEventListener("keydown", event => {
    if (event.key === "Escape" && linkingFrom) { linkingFrom = null; say("Linking stopped."); }
  });
  document.body.classList.add("can-edit");
  showFirstCard();
})();
