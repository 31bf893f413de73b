// The host's tools on the page: the table's controls (close a ballot, undo, answer for a seat with no phone,
// give a pad), the QR codes that seat the players, the links along the board, a new game from the games' own
// forms (with the people's names), the board corrected to what lies on the table (the game's edits: host.edits),
// and the save file's statistics and history (HostPeople, at the end of this file). Only the host's page fetches
// this file (app.js loads it for the host's link): a seat's phone never does.
// It knows no game, and draws with the page's building blocks, as the board parts do (static/parts.js).
"use strict";

(function () {
  const NAME_MOST = 20;  // characters of a name: companion/names.py's MAX_NAME (the table refuses a longer one)
  // Seconds the last secret answer waits before its reveal (companion/table.py: DEFAULT_REVEAL_GRACE, at most 5).
  const REVEAL_GRACE = 3;
  const REVEAL_GRACE_MOST = 5;

  // What only the host's page holds: the seat answered for, an open confirmation, the QR codes shown again, the
  // new game being chosen.
  const mine = {
    answerFor: null,
    confirmUndo: false,
    confirmRenew: false,
    shownQr: new Set(),  // seats with a device whose QR code is shown again anyway
    // names: {seat: what was typed}, kept for the next game; sent: a new game on its way (the form stays open until
    // the table takes it, and says why not under the error line).
    newGame: { game: null, players: [], options: {}, open: false, names: {}, sent: false, grace: REVEAL_GRACE },
    // The board being corrected: open, the place tapped (an edit's `at`), the changes not yet applied ({id: value}),
    // a correction sent (closed once the table took it), a game started to be continued (the view it replaces).
    correct: { open: false, at: null, draft: {}, sent: false, continuing: null, focus: null },
  };

  // The page's building blocks and its state, as app.js hands them over at each drawing.
  let app, h, t, say, rich, chip, known, colourName, seatName, unnamed, isMessage, list, section, paint, send,
    questionBlock, takeoverBox;

  function draw(ctx) {
    ({ app, h, t, say, rich, chip, known, colourName, seatName, unnamed, isMessage, list, section, paint, send,
      questionBlock, takeoverBox } = ctx);
    const view = app.view;
    placeCorrect();
    followCorrection();
    followNewGame();
    section("host", hostKey(), hostControls);
    section("join", JSON.stringify([app.host && [app.host.seats, app.host.spectator, app.host.wifi,
      app.host.claimed], app.connected, view && view.players, [...mine.shownQr]]), () => app.host ? join() : []);
    placeJoin();
    section("hostnav", JSON.stringify([!!view, missingSeats().length, edits().length > 0]), () => hostNav(view));
    // What is typed in a name field redraws nothing (the field keeps its caret); the fields are drawn from it.
    section("newgame", JSON.stringify([view ? view.game || "" : null, { ...mine.newGame, names: null },
      app.host && [app.host.games, app.host.names_used]]), () => unnamed(() => newGameForm(!view)));
    people(ctx);
    section("correct", JSON.stringify([mine.correct.open && [mine.correct.at, mine.correct.draft, edits(),
      view && view.parts && view.parts.main, app.status]]), () => mine.correct.open ? corrector() : []);
    focusAfter();
  }

  // On the table's screen the QR codes come right after the controls while a phone is missing, and go below
  // the board once every seat is connected.
  function placeJoin() {
    const joinNode = document.getElementById("join");
    const anchor = document.getElementById(missingSeats().length ? "over" : "newgame");
    if (joinNode && anchor && joinNode.nextElementSibling !== anchor) anchor.before(joinNode);
  }

  function missingSeats() {
    const seats = app.view && Array.isArray(app.view.players) ? app.view.players
      : Object.keys((app.host && app.host.seats) || {});
    return seats.filter((s) => !app.connected.includes(s));
  }

  function hostKey() {
    const view = app.view;
    return JSON.stringify([view && view.prompt, view && view.can_undo, view && view.undo_why, edits().length > 0,
      view && view.players, app.connected,
      app.host && [app.host.questions, app.host.pads, app.host.problems, app.host.takeovers], mine.answerFor,
      app.hostNote, mine.confirmUndo, mine.confirmRenew, app.status, app.openCards, app.cardPick, app.armed, app.drafts]);
  }

  // What the table screen must see first: storage that takes no write, a missing pad hub, a device asking
  // for a seat; and the renewal of the host link.
  function hostAlerts() {
    const host = app.host || {};
    const out = [];
    const problems = Array.isArray(host.problems) ? host.problems.filter(isMessage) : [];
    if (problems.length) {
      out.push(h("div", { class: "problems", role: "alert" }, h("h3", {}, t("faults.page.problems")),
        h("ul", {}, problems.map((problem) => h("li", { "data-key": problem.key }, rich(problem))))));
    }
    const takeovers = host.takeovers && typeof host.takeovers === "object" ? host.takeovers : {};
    for (const [seat, request] of Object.entries(takeovers)) {
      out.push(takeoverBox(t("faults.page.host_asked", { seat }), (allow) =>
        send({ type: "takeover", seat, request: String(request), allow }), "host:" + known(seat)));
    }
    return out;
  }

  function renewHost() {
    if (!mine.confirmRenew) {
      return h("button", { type: "button", id: "renew-host", class: "small",
        onclick: () => { mine.confirmRenew = true; paint(); } }, t("faults.page.renew_host"));
    }
    return h("div", { class: "confirm", role: "alertdialog" },
      h("p", {}, t("faults.page.renew_confirm")),
      h("div", { class: "controls" },
        h("button", { type: "button", id: "renew-yes", class: "danger",
          onclick: () => { mine.confirmRenew = false; send({ type: "renew_host" }); } }, t("faults.page.renew_yes")),
        h("button", { type: "button", id: "renew-cancel", onclick: () => { mine.confirmRenew = false; paint(); } },
          t("page.cancel"))));
  }

  function hostControls() {
    const view = app.view;
    if (!view) {
      return [hostAlerts(), app.hostNote ? h("p", { class: "received" }, app.hostNote) : null, renewHost()];
    }
    const prompt = view.prompt;
    const players = Array.isArray(view.players) ? view.players : [];
    const out = [h("h2", {}, t("page.host_title")), hostAlerts()];
    out.push(h("p", { class: "phones" }, h("span", { class: "label" }, t("page.phones")), " ",
      list(players.map((p) => h("span", { class: "phone " + (app.connected.includes(p) ? "on" : "off"),
        "data-seat": known(p) }, chip(p), " ", app.connected.includes(p) ? "✓ " + t("page.connected")
        : "✗ " + t("page.missing"))))));
    const undoSteps = view.can_undo || 0;
    out.push(h("div", { class: "controls" },
      h("button", { type: "button", id: "close-ballot", disabled: !(prompt && prompt.kind === "ballot"),
        onclick: () => send({ type: "close" }) }, t("page.close_ballot")),
      h("button", { type: "button", id: "undo", disabled: undoSteps < 1 || mine.confirmUndo,
        onclick: () => { mine.confirmUndo = true; paint(); } },
      undoSteps ? t("page.undo_n", { count: undoSteps }) : t("page.undo"))));
    if (undoSteps < 1 && isMessage(view.undo_why)) {  // why undo cannot step back; the board corrected instead
      out.push(h("p", { class: "undo-why", id: "undo-why" }, h("span", {}, say(view.undo_why)), " ",
        edits().length ? h("button", { type: "button", id: "undo-correct", class: "small",
          onclick: openCorrector }, t("page.correct_title")) : null));
    }
    if (mine.confirmUndo && undoSteps > 0) {
      out.push(h("div", { class: "confirm", role: "alertdialog" },
        h("p", {}, t("page.undo_confirm")),
        h("div", { class: "controls" },
          h("button", { type: "button", id: "undo-yes", class: "danger",
            onclick: () => { mine.confirmUndo = false; send({ type: "undo", steps: 1 }); } }, t("page.undo_yes")),
          h("button", { type: "button", id: "undo-cancel", onclick: () => { mine.confirmUndo = false; paint(); } },
            t("page.cancel")))));
    }
    if (app.hostNote) out.push(h("p", { class: "received" }, app.hostNote));
    const questions = (app.host && app.host.questions) || {};
    const missing = prompt && Array.isArray(prompt.waiting)
      ? prompt.waiting.filter((s) => !app.connected.includes(s) && questions[s]) : [];
    const box = h("div", { class: "answer-for" }, h("h3", {}, t("page.answer_for")));
    if (!missing.length) {
      box.append(h("p", { class: "hint" }, t("page.answer_for_none")));
    } else {
      if (!missing.includes(mine.answerFor)) mine.answerFor = missing[0];
      box.append(h("p", { class: "pick-seat" }, h("span", { class: "label" }, t("page.answer_for_pick")), " ",
        list(missing.map((s) => h("button", { type: "button", class: "seat-pick" + (s === mine.answerFor ? " on" : ""),
          "data-seat": known(s), "aria-pressed": s === mine.answerFor ? "true" : "false",
          onclick: () => { mine.answerFor = s; paint(); } }, chip(s))))));
      box.append(h("div", { class: "question" }, questionBlock(questions[mine.answerFor], "host")));
    }
    out.push(box);
    if (app.host && app.host.pads) {  // a pad hub: "press any button on a pad to give it to ..."
      out.push(h("p", { class: "give-pad" }, h("span", { class: "label" }, t("page.give_pad")), " ",
        list(players.map((p) => h("button", { type: "button", class: "seat-pick", "data-seat": known(p),
          onclick: () => send({ type: "give_pad", seat: p }) }, chip(p))))));
    }
    out.push(renewHost());
    return out;
  }

  // The table's screen shows the board first and whole; everything else is one tap away, below it.
  function hostNav(view) {
    const to = (id) => () => {
      const node = document.getElementById(id);
      if (node && !node.hidden) node.scrollIntoView({ block: "start" });
    };
    const links = view ? [["host", "page.host_title"], ["narration", "page.narration"],
      ["join", "page.join_title"], ["newgame", "page.new_game"], ["fairness", "page.fairness_title"],
      ["people", "stats.title"]]
      : [["newgame", "page.new_game"], ["join", "page.join_title"], ["people", "stats.title"]];
    if (edits().length) links.splice(1, 0, ["correct", "page.correct_title"]);
    return links.map(([id, key]) => h("button", { type: "button", class: "nav-link", "data-to": id,
      onclick: id === "correct" ? openCorrector : to(id) },
    t(key), id === "join" && missingSeats().length ? " (" + missingSeats().length + ")" : null));
  }

  function qrPath(what) {
    return "/qr/" + encodeURIComponent(app.token) + "/" + encodeURIComponent(what) + ".svg";
  }

  function join() {
    const host = app.host;
    const cards = [];
    if (host.wifi) {
      const caption = t("page.wifi_qr", { ssid: host.wifi });
      cards.push(h("figure", { class: "qr-card wifi" },
        h("img", { class: "qr", src: qrPath("wifi"), alt: caption, width: "220", height: "220" }),
        h("figcaption", {}, caption)));
    }
    const seats = app.view && Array.isArray(app.view.players) ? app.view.players : Object.keys(host.seats || {});
    const claimed = Array.isArray(host.claimed) ? host.claimed : [];
    // A seat with a device: its QR code leaves the screen, so that nobody else at the table scans it.
    const hidden = seats.filter((s) => claimed.includes(s) && !mine.shownQr.has(s));
    const toggle = (seat) => {
      if (mine.shownQr.has(seat)) mine.shownQr.delete(seat);
      else mine.shownQr.add(seat);
      paint();
    };
    for (const seat of seats) {
      const url = (host.seats || {})[seat];
      if (!url || hidden.includes(seat)) continue;
      const on = app.connected.includes(seat);
      cards.push(h("figure", { class: "qr-card seat", "data-seat": known(seat) },
        h("img", { class: "qr", src: qrPath(seat), alt: t("page.seat_qr") + " " + seatName(seat), width: "220",
          height: "220" }),
        h("figcaption", {}, h("span", { class: "label" }, t("page.seat_qr")), " ", chip(seat), " ",
          h("span", { class: "phone " + (on ? "on" : "off") }, on ? "✓ " + t("page.connected") : "✗ " + t("page.missing")),
          h("div", { class: "url" }, url),
          claimed.includes(seat) ? h("button", { type: "button", class: "small hide-qr", "data-seat": known(seat),
            onclick: () => toggle(seat) }, t("faults.page.hide_qr")) : null)));
    }
    const shownAgain = hidden.length ? h("p", { class: "hidden-qrs" }, h("span", { class: "label" },
      t("faults.page.hidden_qrs")), " ", list(hidden.map((seat) => h("button", { type: "button",
      class: "seat-pick show-qr", "data-seat": known(seat), onclick: () => toggle(seat) }, chip(seat), " ",
      t("faults.page.show_qr"))))) : null;
    if (host.spectator) {
      cards.push(h("figure", { class: "qr-card spectator" },
        h("img", { class: "qr", src: qrPath("watch"), alt: t("page.spectator_qr"), width: "220", height: "220" }),
        h("figcaption", {}, t("page.spectator_qr"), h("div", { class: "url" }, host.spectator))));
    }
    return [h("h2", {}, t("page.join_title")), shownAgain, h("div", { class: "qr-grid" }, cards)];
  }

  // -- a new game, from the games' own forms -------------------------------------------------------------

  function optionKey(value) {
    return typeof value === "string" ? value : JSON.stringify(value);
  }

  function newGameForm(noGame) {
    const games = (app.host && Array.isArray(app.host.games)) ? app.host.games : [];
    if (!games.length) return [];
    const form = mine.newGame;
    const playing = app.view && games.find((g) => g.game === app.view.game);
    const game = games.find((g) => g.game === form.game) || playing || games[0];  // the game on the table first
    if (form.game !== game.game) {
      form.game = game.game;
      form.players = [];
      form.options = {};
    }
    const colours = Array.isArray(game.colours) ? game.colours : [];
    const toggle = (colour) => {
      const i = form.players.indexOf(colour);
      if (i >= 0) form.players.splice(i, 1);
      else form.players.push(colour);
      paint();
    };
    const options = Array.isArray(game.options) ? game.options : [];
    const seated = form.players.length >= game.min_players && form.players.length <= game.max_players;
    const body = [
      games.length > 1 ? h("label", { class: "field" }, t("page.new_game_game"), h("select", { id: "new-game-game",
        onchange: (e) => { form.game = e.target.value; paint(); } },
      games.map((g) => h("option", { value: g.game, selected: g.game === game.game }, say(g.title))))) : null,
      h("p", {}, t("page.new_game_players")),
      h("div", { class: "colour-picks" }, colours.map((c) => h("button", { type: "button",
        class: "colour-pick" + (form.players.includes(c) ? " on" : ""), "data-colour": known(c),
        "aria-pressed": form.players.includes(c) ? "true" : "false", onclick: () => toggle(c) }, chip(c),
        form.players.includes(c) ? h("span", { class: "order" }, String(form.players.indexOf(c) + 1)) : null))),
      nameFields(form),
      h("p", { class: "hint" }, t("page.new_game_count", { low: game.min_players, high: game.max_players }),
        game.note ? [" ", rich(game.note)] : null),
      h("button", { type: "button", class: "small", onclick: () => { form.players = []; paint(); } },
        t("page.new_game_clear")),
      options.map((option) => {
        const current = Object.prototype.hasOwnProperty.call(form.options, option.name)
          ? form.options[option.name] : option.default;
        const choices = Array.isArray(option.choices) ? option.choices : [];
        return h("label", { class: "field" }, rich(option.label), h("select", { id: "opt-" + option.name,
          "data-option": option.name, onchange: (e) => {
            const picked = choices.find((c) => optionKey(c.value) === e.target.value);
            if (picked) form.options[option.name] = picked.value;
            paint();
          } }, choices.map((c) => h("option", { value: optionKey(c.value), selected: optionKey(c.value) === optionKey(current) },
          say(c.label)))));
      }),
      graceField(form),
      h("div", { class: "controls start" },
        h("button", { type: "button", id: "start-game", class: "primary", disabled: !seated,
          onclick: () => startGame(game, options) }, t("page.start_game")),
        h("button", { type: "button", id: "continue-game", disabled: !seated, "aria-describedby": "continue-hint",
          onclick: () => continueGame(game, options) }, t("page.continue_game"))),
      h("p", { class: "hint", id: "continue-hint" }, t("page.continue_hint")),
    ];
    const title = [t("page.new_game"), " · ", say(game.title)];
    if (noGame) return [h("h2", {}, title), body];
    const details = h("details", { open: form.open }, h("summary", {}, title), body);
    details.addEventListener("toggle", () => { form.open = details.open; });
    return [details];
  }

  // The seats chosen, in seating order, each with an optional name (a name used before is offered as it is typed).
  // What is typed is kept as typed: the table checks it (companion/names.py) and refuses it in one line.
  function nameFields(form) {
    if (!form.players.length) return null;
    const used = app.host && Array.isArray(app.host.names_used) ? app.host.names_used.filter((n) => typeof n === "string")
      : [];
    return h("fieldset", { class: "names" }, h("legend", {}, t("names.label")),
      h("p", { class: "hint", id: "names-hint" }, t("names.hint")),
      h("ol", { class: "seating" }, form.players.map((c) => h("li", {}, h("label", { class: "field name-field" },
        h("span", { class: "name-label" }, rich({ key: "names.field", params: { seat: c } })),
        h("input", { type: "text", id: "name-" + known(c), class: "person-name", "data-seat": known(c),
          maxlength: NAME_MOST, autocomplete: "off", spellcheck: "false", list: used.length ? "names-used" : null,
          "aria-label": t("names.field", { seat: c }), "aria-describedby": "names-hint", value: typeof form.names[c] === "string" ? form.names[c] : "",
          oninput: (event) => { form.names[c] = event.target.value; } }))))),
      used.length ? h("datalist", { id: "names-used", "aria-label": t("names.used_before") },
        used.map((name) => h("option", { value: name }))) : null);
  }

  // The table's option, whatever the game: how long the last secret answer can still be changed before the reveal.
  function graceField(form) {
    const seconds = [...Array(REVEAL_GRACE_MOST + 1).keys()];
    return [h("label", { class: "field" }, t("page.reveal_grace"),
      h("select", { id: "reveal-grace", "aria-describedby": "reveal-grace-hint",
        onchange: (e) => { form.grace = Number(e.target.value); paint(); } },
      seconds.map((n) => h("option", { value: n, selected: n === form.grace },
        n ? t("page.reveal_seconds", { count: n }) : t("page.reveal_at_once"))))),
    h("p", { class: "hint", id: "reveal-grace-hint" }, t("page.reveal_grace_hint"))];
  }

  function startGame(game, options) {
    const form = mine.newGame;
    const chosen = {};
    for (const option of options) {
      chosen[option.name] = Object.prototype.hasOwnProperty.call(form.options, option.name)
        ? form.options[option.name] : option.default;
    }
    const names = {};
    for (const seat of form.players) {
      if (typeof form.names[seat] === "string" && form.names[seat].trim()) names[seat] = form.names[seat];
    }
    app.error = null;
    form.sent = send({ type: "new_game", game: game.game, players: form.players.slice(), options: chosen, names,
      reveal_grace: form.grace });
  }

  // A new game sent: the form closes once the table has started it, and stays open under a refusal (a name that
  // is no name, a setup the game does not take), with what was typed.
  function followNewGame() {
    const form = mine.newGame;
    if (!form.sent || app.hostPending) return;
    form.sent = false;
    if (!app.error) form.open = false;
  }

  // A game in progress: started as a new game, then its board entered as it lies on the table (the corrector
  // opens once the table's board of the new game has come).
  function continueGame(game, options) {
    app.error = null;
    mine.correct.continuing = { view: app.view };
    startGame(game, options);
  }

  // -- the board corrected: what lies on the table is the truth ----------------------------------------------

  // What the table may correct now (companion/board.py: Edit), as the host's state says it.
  function edits() {
    const all = app.host && Array.isArray(app.host.edits) ? app.host.edits : [];
    return all.filter((e) => e && typeof e.id === "string" && typeof e.at === "string" && isMessage(e.label));
  }

  function openCorrector() {
    Object.assign(mine.correct, { open: true, at: null, draft: {}, sent: false, focus: "correct" });
    paint();
  }

  function closeCorrector() {
    Object.assign(mine.correct, { open: false, at: null, draft: {}, sent: false, focus: "board" });
    app.error = null;  // a refusal of the draft left behind goes with it
    paint();
  }

  // A correction sent closes the corrector once the table has taken it (its acknowledgement), and stays open with
  // its changes on a refusal (the error line says why); a game being continued opens it on the new game's board.
  function followCorrection() {
    const state = mine.correct;
    if (state.sent && !app.hostPending) {
      state.sent = false;
      if (app.error) state.focus = "error";
      else Object.assign(state, { open: false, at: null, draft: {}, focus: "board" });
    }
    const going = state.continuing;
    if (going && app.hostPending) going.view = app.view;
    else if (going && app.error) state.continuing = null;  // the game was refused: the form stays
    else if (going && app.view && app.view !== going.view) {
      state.continuing = null;
      Object.assign(state, { open: true, at: null, draft: {}, sent: false, focus: "correct" });
    }
  }

  // Where the eyes and the focus go once the corrector opens (its title), closes (the board, corrected) or is
  // refused (the error line, above it).
  function focusAfter() {
    const to = mine.correct.focus;
    mine.correct.focus = null;
    const node = to === "correct" ? document.querySelector("#correct h2") : to === "board"
      ? document.querySelector("#board h2") || document.getElementById("board") : to === "error"
        ? document.getElementById("error") : null;
    if (!node || node.closest("[hidden]")) return;
    node.scrollIntoView({ block: to === "error" ? "nearest" : "start" });
    if (to === "error") return;  // an alert: said as it comes; the focus stays on Apply
    node.tabIndex = -1;
    node.focus({ preventScroll: true });
  }

  // While open, the corrector comes first on the table's screen, under the error line that says a refusal.
  function placeCorrect() {
    if (document.getElementById("correct")) return;
    const host = document.getElementById("host");
    if (host) {
      host.after(h("section", { id: "correct", class: "card correct", "aria-labelledby": "correct-title",
        hidden: true }));
    }
  }

  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

  // A value as the board says it: a choice's words, or the number ("—": none).
  function valueSaid(edit, value) {
    const choice = Array.isArray(edit.choices) ? edit.choices.find((c) => same(c.value, value)) : null;
    if (choice) return choice.label;
    return Number.isInteger(value) ? value : "—";
  }

  function allows(edit, value) {
    if (Array.isArray(edit.choices)) return edit.choices.some((c) => same(c.value, value));
    return Number.isInteger(value) && (!Number.isInteger(edit.low) || value >= edit.low) &&
      (!Number.isInteger(edit.high) || value <= edit.high);
  }

  // The places of the board (zones, cells, seat panels) in the board's order, each named as the board shows it:
  // {place: [its name as text, a function drawing it]}.
  function places(view) {
    const found = new Map();
    const add = (id, text, drawn) => {
      if (typeof id === "string" && !found.has(id)) found.set(id, [text, drawn || (() => text)]);
    };
    const parts = view && view.parts && Array.isArray(view.parts.main) ? view.parts.main : [];
    for (const part of parts) {
      if (!part || typeof part !== "object") continue;
      for (const zone of part.part === "zones" && Array.isArray(part.zones) ? part.zones : []) {
        add(zone.id, (zone.number ? zone.number + " " : "") + (isMessage(zone.name) ? say(zone.name) : zone.id));
      }
      for (const cell of part.part === "grid" && Array.isArray(part.cells) ? part.cells : []) {
        add(cell.id, String(cell.label || cell.id));
      }
      for (const panel of part.part === "seats" && Array.isArray(part.seats) ? part.seats : []) {
        add(panel.seat, seatName(panel.seat), () => chip(panel.seat));
      }
    }
    return found;
  }

  function corrector() {
    const state = mine.correct;
    const all = edits();
    const byId = new Map(all.map((e) => [e.id, e]));
    for (const [id, value] of Object.entries(state.draft)) {  // the board moved on: a change that no longer holds goes
      const edit = byId.get(id);
      if (!edit || !allows(edit, value) || same(edit.value, value)) delete state.draft[id];
    }
    const named = places(app.view);
    const at = new Map();  // place -> its facts, in the board's order
    for (const place of named.keys()) at.set(place, []);
    const whole = [];
    for (const edit of all) {
      if (edit.at && at.has(edit.at)) at.get(edit.at).push(edit);
      else whole.push(edit);  // the board as a whole, or a place this board does not draw
    }
    const shown = [...at].filter(([, facts]) => facts.length);
    if (!shown.some(([place]) => place === state.at)) state.at = null;
    const out = [h("h2", { id: "correct-title" }, t("page.correct_title")),
      h("p", { class: "hint" }, t("page.correct_hint"))];
    if (!all.length) {  // nothing offered: the table's reason where it has one (a secret answer cast), else none
      const why = app.host && isMessage(app.host.correct_why) ? app.host.correct_why : null;
      out.push(h("p", { class: "hint correct-why" }, why ? say(why) : t("page.correct_nothing")));
    }
    if (shown.length) {
      out.push(h("h3", {}, t("page.correct_places")),
        h("div", { class: "edit-places" }, shown.map(([place, facts]) => {
          const open = place === state.at;
          const changed = facts.filter((e) => Object.prototype.hasOwnProperty.call(state.draft, e.id)).length;
          return h("button", { type: "button", class: "edit-place" + (changed ? " changed" : ""),
            "data-item": "@" + place, "aria-expanded": open ? "true" : "false", "aria-controls": "edit-facts",
            onclick: () => { state.at = open ? null : place; paint(); } }, named.get(place)[1]());
        })));
      const open = shown.find(([place]) => place === state.at);
      out.push(open ? h("div", { class: "edit-facts", id: "edit-facts", role: "group",
        "aria-label": named.get(open[0])[0] }, open[1].map(factRow))
        : h("p", { class: "hint", id: "edit-facts" }, t("page.correct_pick")));
    }
    if (whole.length) {
      out.push(h("h3", {}, t("page.correct_whole")), h("div", { class: "edit-facts whole" }, whole.map(factRow)));
    }
    const changes = Object.entries(state.draft);
    out.push(h("h3", {}, t("page.correct_draft")), changes.length
      ? h("ul", { class: "edit-draft" }, changes.map(([id, value]) => {
        const edit = byId.get(id);
        return h("li", { "data-edit": id }, rich({ key: "page.correct_change",
          params: { what: edit.label, was: valueSaid(edit, edit.value), now: valueSaid(edit, value) } }));
      }))
      : h("p", { class: "hint edit-none" }, t("page.correct_none")));
    out.push(h("div", { class: "controls" },
      h("button", { type: "button", id: "correct-apply", class: "primary",
        disabled: !changes.length || app.status !== "connected", onclick: () => {
          if (state.sent) return;  // on its way: one correction at a time
          state.sent = true;
          app.error = null;
          send({ type: "correct", changes: { ...state.draft } });
        } }, t("page.correct_apply")),
      h("button", { type: "button", id: "correct-cancel", onclick: closeCorrector }, t("page.cancel"))));
    return h("div", { class: "corrector", onkeydown: (event) => { if (event.key === "Escape") closeCorrector(); } },
      out);
  }

  // A change to the draft: back to what the board says now, it is no change.
  function draft(edit, value) {
    if (same(value, edit.value)) delete mine.correct.draft[edit.id];
    else mine.correct.draft[edit.id] = value;
    paint();
  }

  // One fact: its words, and its value drafted with − and + (a whole number) or one of its choices.
  function factRow(edit) {
    const drafted = Object.prototype.hasOwnProperty.call(mine.correct.draft, edit.id);
    const now = drafted ? mine.correct.draft[edit.id] : edit.value;
    const row = (control) => h("div", { class: "edit-fact" + (drafted ? " changed" : ""), role: "group",
      "aria-label": say(edit.label) }, h("span", { class: "edit-what" }, rich(edit.label)), control);
    if (Array.isArray(edit.choices)) {
      return row(h("div", { class: "edit-choices" }, edit.choices.map((c) => h("button", { type: "button",
        class: "edit-choice" + (same(c.value, now) ? " on" : ""), "data-item": edit.id,
        "data-choice": JSON.stringify(c.value), "aria-pressed": same(c.value, now) ? "true" : "false",
        onclick: () => draft(edit, c.value) }, isMessage(c.label) ? rich(c.label) : String(c.value)))));
    }
    const number = Number.isInteger(now) ? now : Number.isInteger(edit.low) ? edit.low : 0;
    const shown = "edit-value-" + edit.id.replace(/[^A-Za-z0-9_-]/g, "_");
    // − or +: at the end of the range it does nothing and keeps the focus (aria-disabled, not disabled).
    const step = (by, name, key) => {
      const end = !allows(edit, number + by);
      return h("button", { type: "button", class: "step " + name, "data-item": edit.id, "aria-describedby": shown,
        "aria-label": t(key, { what: edit.label }), "aria-disabled": end ? "true" : null,
        onclick: () => { if (!end) draft(edit, number + by); } }, by < 0 ? "−" : "+");
    };
    return row(h("div", { class: "edit-number" }, step(-1, "less", "page.correct_less"),
      h("span", { class: "edit-value", id: shown }, String(number)), step(1, "more", "page.correct_more")));
  }

  // -- the save file's statistics and history (HostPeople, below) -------------------------------------------

  const PEOPLE_SECTIONS = ["people", "history"];

  function people(ctx) {
    const main = document.querySelector("main");
    for (const id of PEOPLE_SECTIONS) {
      if (main && !document.getElementById(id)) {
        main.append(h("section", { id, class: "card " + id, "aria-labelledby": id + "-title", hidden: true }));
      }
    }
    try {
      HostPeople.draw(ctx);
    } catch (error) {
      console.error("host people", error);
    }
  }

  window.HostTools = Object.freeze({ draw });
})();

// The save file's people on the table's screen: the statistics of every finished game (companion/stats.py) with a
// bar chart of wins per person and a wins-over-time line, per game a table of what it counts; and the history of
// finished games by evening, each game and each evening to download as one HTML file (companion/export.py).
// Drawn by the host's tools above (HostTools); the figures come by GETs with the host's token.
// Text only: names are text nodes and SVG text, never markup. Each chart is an image with its figures said in its
// label, and the same figures are in a table beside it.
const HostPeople = (function () {
  const SVG = "http://www.w3.org/2000/svg";
  const LINES = 6;  // people drawn in the wins-over-time chart at most (the most wins); its table lists them too
  const DASHES = ["", "8 4", "2 4", "12 4 2 4", "4 4", "1 3"];  // each line its own dash, not its colour alone
  const got = {
    key: null,  // what the figures were asked for (the game on the table, over or not): asked again when it changes
    stats: null, statsFailed: false,
    history: null, historyFailed: false,
    asked: 0, version: 0,
  };
  let c;  // the page's building blocks (static/app.js), at this drawing
  // A phone's width: the charts drawn narrower, so that their words stay big enough to read (drawn again when the
  // screen turns).
  const phoneWide = window.matchMedia("(max-width: 520px)");
  phoneWide.addEventListener("change", () => { if (c) c.paint(); });
  let narrow = false;

  function draw(ctx) {
    c = ctx;
    ask();
    narrow = phoneWide.matches;
    const key = JSON.stringify([got.version, c.lang, narrow]);
    c.section("people", key, () => c.unnamed(statistics));
    c.section("history", key, () => c.unnamed(history));
  }

  // -- the figures, from the table ------------------------------------------------------------------------------

  function base() {
    return "/x/" + encodeURIComponent(c.app.token) + "/";
  }

  // Asked when the host's page opens, and again when a game starts or ends (a finished game adds to them).
  function ask() {
    const app = c.app;
    if (!app.token || app.status !== "connected") return;
    const view = app.view;
    const key = JSON.stringify([app.token, view ? [view.game, view.players, !!view.over] : null]);
    if (key === got.key) return;
    got.key = key;
    const asked = ++got.asked;
    const fetched = (name, field) => fetch(base() + name, { cache: "no-store" })
      .then((response) => {
        if (!response.ok) throw new Error(String(response.status));
        return response.json();
      })
      .then((data) => {
        if (asked !== got.asked) return;
        got[field] = data && typeof data === "object" ? data : null;
        got[field + "Failed"] = !got[field];
      }, () => {
        if (asked === got.asked) got[field + "Failed"] = true;
      })
      .then(() => {
        got.version++;
        c.paint();
      });
    fetched("stats.json", "stats");
    fetched("history.json", "history");
  }

  // -- words and numbers ----------------------------------------------------------------------------------------

  function number(value, digits) {
    if (typeof value !== "number" || !isFinite(value)) return "—";
    return new Intl.NumberFormat(c.lang, { maximumFractionDigits: digits === undefined ? 1 : digits }).format(value);
  }

  function percent(value) {
    if (typeof value !== "number" || !isFinite(value)) return "—";
    return new Intl.NumberFormat(c.lang, { style: "percent", maximumFractionDigits: 0 }).format(value);
  }

  function when(iso, options) {
    const date = new Date(iso);
    return isNaN(date.getTime()) ? "—" : new Intl.DateTimeFormat(c.lang, options).format(date);
  }

  // A person of the statistics: a name, or a seat's colour where no name was given.
  function personText(row) {
    return typeof row.name === "string" && row.name ? row.name : c.colourName(String(row.colour));
  }

  function person(row) {
    return typeof row.name === "string" && row.name ? c.h("span", { class: "person" }, row.name)
      : c.chip(String(row.colour));
  }

  // A seat of a finished game: its colour, and the name given then ("Anna (Red)").
  function seat(colour, names) {
    const node = c.chip(colour);
    const name = names && typeof names[colour] === "string" ? names[colour] : "";
    if (name) node.querySelector(".name").textContent = c.t("colour.named", { name, colour });
    return node;
  }

  function rows(list) {
    return Array.isArray(list) ? list.filter((row) => row && typeof row === "object" && typeof row.person === "string")
      : [];
  }

  // -- statistics ---------------------------------------------------------------------------------------------

  function statistics() {
    const h = c.h;
    const stats = got.stats;
    const out = [h("h2", { id: "people-title" }, stats && stats.games ? c.t("stats.title_count", { count: stats.games })
      : c.t("stats.title"))];
    if (!stats) {
      out.push(h("p", { class: "hint" }, c.t(got.statsFailed ? "page.people.failed" : "page.people.loading")));
      return out;
    }
    const unreadable = Array.isArray(stats.unreadable) ? stats.unreadable : [];
    if (unreadable.length) {
      out.push(h("p", { class: "hint" }, c.t("stats.unreadable", { count: unreadable.length, ids: unreadable })));
    }
    const everyone = rows(stats.people);
    if (!stats.games || !everyone.length) {
      out.push(h("p", { class: "hint stats-none" }, c.t("stats.none")));
      return out;
    }
    out.push(h("h3", {}, c.t("stats.every_game")),
      h("div", { class: "charts" },
        h("figure", { class: "chart-box" }, h("figcaption", {}, c.t("stats.wins_chart")), barChart(everyone)),
        lineFigure(Array.isArray(stats.timeline) ? stats.timeline : [], everyone)),
      table(c.t("stats.every_game"), everyone, []));
    for (const game of Array.isArray(stats.by_game) ? stats.by_game : []) {
      if (!game || typeof game !== "object") continue;
      const title = c.isMessage(game.title) ? c.say(game.title) : String(game.game);
      const keys = Array.isArray(game.stats) ? game.stats.filter((k) => typeof k === "string") : [];
      out.push(h("h3", { class: "game-title", "data-game": String(game.game) }, title),
        h("p", { class: "hint" }, c.t("stats.game_line", { game: title, count: game.played,
          rounds: number(game.rounds_avg), minutes: number(game.minutes_avg) })),
        table(title, rows(game.people), keys));
    }
    return out;
  }

  // A table of the figures per person; a narrow screen scrolls it sideways within its frame (focusable, named).
  function table(caption, people, keys) {
    const h = c.h;
    const columns = ["played", "wins", "win_rate", "score_avg", "score_best", "rounds_avg", "minutes_avg"];
    const cell = (row, column) => column === "win_rate" ? percent(row.win_rate)
      : number(row[column], column === "played" || column === "wins" || column === "score_best" ? 0 : 1);
    return h("div", { class: "table-frame", role: "region", tabindex: "0", "aria-label": caption },
      h("table", { class: "stats-table" },
        h("caption", { class: "sr-only" }, caption),
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, c.t("stats.col.person")),
          columns.map((column) => h("th", { scope: "col" }, c.t("stats.col." + column))),
          keys.map((key) => h("th", { scope: "col", "data-stat": key }, c.t(key))))),
        h("tbody", {}, people.map((row) => h("tr", { "data-person": row.person },
          h("th", { scope: "row" }, person(row)),
          columns.map((column) => h("td", { "data-col": column }, cell(row, column))),
          keys.map((key) => h("td", { "data-stat": key }, number((row.counts || {})[key], 0))))))));
  }

  // -- charts: SVG drawn as elements, text as text --------------------------------------------------------------

  function s(tag, attributes, ...children) {
    const node = document.createElementNS(SVG, tag);
    for (const [key, value] of Object.entries(attributes || {})) {
      if (value !== null && value !== undefined) node.setAttribute(key, String(value));
    }
    for (const child of children.flat(Infinity)) {
      if (child !== null && child !== undefined) node.append(child instanceof Node ? child : String(child));
    }
    return node;
  }

  // Text cut to about `room` units of width at `size` (a wide character counts as one em, another as 0.6).
  function fit(text, room, size) {
    let width = 0;
    let out = "";
    for (const character of text) {
      width += (/[\u1100-\uffff]/.test(character) ? 1 : 0.6) * size;
      if (width > room) return out + "…";
      out += character;
    }
    return text;
  }

  function winsSaid(row) {
    return c.t("page.people.wins_of", { who: personText(row), count: row.wins });
  }

  // Wins per person, a bar each (most wins first), its length in proportion to the wins.
  function barChart(people) {
    const width = narrow ? 300 : 400;
    const label = narrow ? 110 : 140;
    const row = 30;
    const top = 6;
    const most = Math.max(1, ...people.map((p) => p.wins || 0));
    const span = width - label - 40;
    const height = top * 2 + people.length * row;
    return s("svg", { class: "chart bars", viewBox: `0 0 ${width} ${height}`, role: "img",
      "aria-label": c.t("page.people.bars_said", { list: people.map(winsSaid) }) },
    s("line", { class: "axis", x1: label, x2: label, y1: top - 2, y2: height - top + 2 }),
    people.map((p, i) => {
      const y = top + i * row;
      const name = personText(p);
      const long = span * (p.wins || 0) / most;
      return s("g", { class: "bar-row", "data-person": p.person },
        s("title", {}, winsSaid(p)),
        s("text", { class: "bar-label", x: label - 8, y: y + row / 2, "text-anchor": "end",
          "dominant-baseline": "central" }, fit(name, label - 12, 14)),
        s("rect", { class: "bar", x: label, y: y + 5, width: long.toFixed(2), height: row - 10, rx: 3,
          "data-wins": p.wins || 0 }),
        s("text", { class: "bar-value", x: (label + long + 6).toFixed(2), y: y + row / 2,
          "dominant-baseline": "central" }, number(p.wins || 0, 0)));
    }));
  }

  // Each person's wins so far after each finished game (oldest first): those with the most wins, a line each.
  function lineFigure(timeline, people) {
    const h = c.h;
    const shown = people.filter((p) => (p.wins || 0) > 0).slice(0, LINES);
    if (!timeline.length || !shown.length) return null;
    const runs = shown.map((p) => {
      let wins = 0;
      return [0, ...timeline.map((game) => (wins += (Array.isArray(game.winners) && game.winners.includes(p.person))
        ? 1 : 0))];
    });
    const games = timeline.length;
    const most = Math.max(1, ...runs.map((run) => run[run.length - 1]));
    const [width, height, left, right, top, bottom] = narrow ? [310, 210, 26, 84, 12, 34]
      : [400, 230, 30, 100, 12, 34];
    const x = (i) => left + (width - left - right) * i / games;
    const y = (v) => top + (height - top - bottom) * (1 - v / most);
    const step = Math.max(1, Math.ceil(most / 5));
    const ticks = [];
    for (let v = 0; v <= most; v += step) ticks.push(v);
    // The names at the lines' ends, moved apart where two end alike (14 units between them at least).
    const ends = runs.map((run, i) => ({ i, at: y(run[run.length - 1]) })).sort((a, b) => a.at - b.at);
    ends.forEach((end, k) => { if (k && end.at - ends[k - 1].at < 14) end.at = ends[k - 1].at + 14; });
    const said = c.t("page.people.line_said", { count: games, list: shown.map(winsSaid) });
    const tall = Math.max(height, Math.ceil(ends[ends.length - 1].at + 10));  // room for a name moved down
    const chart = s("svg", { class: "chart lines", viewBox: `0 0 ${width} ${tall}`, role: "img", "aria-label": said },
    ticks.map((v) => s("g", { class: "tick" },
      s("line", { class: "grid", x1: left, x2: width - right, y1: y(v), y2: y(v) }),
      s("text", { class: "tick-label", x: left - 6, y: y(v), "text-anchor": "end", "dominant-baseline": "central" },
        number(v, 0)))),
    s("line", { class: "axis", x1: left, x2: width - right, y1: y(0), y2: y(0) }),
    s("text", { class: "tick-label", x: x(1), y: height - bottom + 16, "text-anchor": "middle" }, number(1, 0)),
    games > 1 ? s("text", { class: "tick-label", x: x(games), y: height - bottom + 16, "text-anchor": "middle" },
      number(games, 0)) : null,
    s("text", { class: "axis-label", x: (left + width - right) / 2, y: height - 4, "text-anchor": "middle" },
      c.t("page.people.games_axis")),
    runs.map((run, i) => s("g", { class: "run run-" + i, "data-person": shown[i].person },
      s("title", {}, winsSaid(shown[i])),
      s("polyline", { class: "run-line", fill: "none", "stroke-dasharray": DASHES[i] || null,
        points: run.map((v, k) => x(k).toFixed(1) + "," + y(v).toFixed(1)).join(" ") }),
      s("circle", { class: "run-end", cx: x(games), cy: y(run[run.length - 1]), r: 4 }),
      s("text", { class: "run-label", x: x(games) + 8, y: ends.find((end) => end.i === i).at,
        "dominant-baseline": "central" }, fit(personText(shown[i]), right - 12, 13)))));
    // The same figures as a table, for a screen reader: the wins so far of each person drawn, game by game.
    const figures = h("div", { class: "sr-only" }, h("table", { class: "line-table" },
      h("caption", {}, c.t("stats.wins_over_time")),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, c.t("page.people.game_number")),
        h("th", { scope: "col" }, c.t("page.people.col_finished")),
        shown.map((p) => h("th", { scope: "col" }, personText(p))))),
      h("tbody", {}, timeline.map((game, k) => h("tr", {}, h("th", { scope: "row" }, number(k + 1, 0)),
        h("td", {}, when(game.finished, { dateStyle: "medium" })),
        runs.map((run) => h("td", {}, number(run[k + 1], 0))))))));
    // Which line is whose: its dash and colour beside the name (the names also end the lines).
    const key = h("ul", { class: "run-key", "aria-hidden": "true" }, shown.map((p, i) => h("li", {},
      s("svg", { viewBox: "0 0 36 12", class: "chart" }, s("g", { class: "run-" + i }, s("line", { class: "run-line",
        x1: 1, x2: 35, y1: 6, y2: 6, "stroke-dasharray": DASHES[i] || null }))),
      personText(p) + " " + number(p.wins || 0, 0))));
    return h("figure", { class: "chart-box" }, h("figcaption", {}, c.t("stats.wins_over_time")), chart, key, figures);
  }

  // -- history: the finished games by evening, each to take home ----------------------------------------------

  function download(path, text, what) {
    return c.h("a", { class: "download", href: base() + path + "?lang=" + encodeURIComponent(c.lang), download: "",
      "data-download": what }, text);
  }

  function history() {
    const h = c.h;
    const out = [h("h2", { id: "history-title" }, c.t("page.people.history"))];
    const data = got.history;
    if (!data) {
      out.push(h("p", { class: "hint" }, c.t(got.historyFailed ? "page.people.failed" : "page.people.loading")));
      return out;
    }
    const games = (Array.isArray(data.games) ? data.games : []).filter((g) => g && Number.isInteger(g.id));
    if (!games.length) {
      out.push(h("p", { class: "hint history-none" }, c.t("page.people.no_history")));
      return out;
    }
    const byId = new Map(games.map((g) => [g.id, g]));
    const evenings = (Array.isArray(data.evenings) ? data.evenings : []).map((ids) =>
      (Array.isArray(ids) ? ids : []).map((id) => byId.get(id)).filter(Boolean).sort((a, b) => b.id - a.id))
      .filter((evening) => evening.length);
    for (const evening of evenings) {
      const first = evening[evening.length - 1];
      out.push(h("div", { class: "evening", "data-first": first.id },
        h("div", { class: "evening-head" },
          h("h3", {}, c.t("page.people.evening", { date: when(first.finished || first.started, { dateStyle: "full" }),
            count: evening.length })),
          download("evening/" + first.id + ".html", c.t("page.people.save_evening"), "evening:" + first.id)),
        h("ol", { class: "history-games" }, evening.map(historyItem))));
    }
    return out;
  }

  function historyItem(game) {
    const h = c.h;
    const title = c.isMessage(game.title) ? c.say(game.title) : String(game.game);
    const names = game.names && typeof game.names === "object" ? game.names : {};
    const players = Array.isArray(game.players) ? game.players.map(String) : [];
    const winners = Array.isArray(game.winners) ? game.winners.map(String) : [];
    return h("li", { class: "history-game", "data-game": game.id },
      h("p", { class: "history-title" }, h("span", { class: "history-time" },
        when(game.finished, { timeStyle: "short" })), " · ", h("strong", {}, title)),
      h("p", { class: "history-players" }, h("span", { class: "label" }, c.t("page.people.players")), " ",
        c.list(players.map((p) => seat(p, names)))),
      h("p", { class: "history-winners" }, h("span", { class: "label" },
        c.t(winners.length > 1 ? "page.winners" : "page.winner")), " ",
      winners.length ? c.list(winners.map((w) => seat(w, names))) : c.t("page.people.no_winner")),
      download("game/" + game.id + ".html", c.t("page.people.save_game"), "game:" + game.id));
  }

  return Object.freeze({ draw });
})();
