// The phone page: a seat's voting wheel, the host's table screen, or the spectators' board.
// One WebSocket to the table (protocol v1, see companion/web/protocol.py). Everything shown is built with
// createElement and textContent: data from the table is never parsed as HTML.
"use strict";

(function () {
  const I = window.I18N;
  const t = I.t;

  const COLOURS = ["red", "yellow", "blue", "green", "purple", "black"];
  const SYMBOLS = { red: "●", yellow: "▲", blue: "■", green: "◆", purple: "★", black: "✚" };
  const LOCATIONS = [1, 2, 3, 4, 5, 6];
  const CAPACITY = { 1: 3, 2: 4, 3: 4, 4: null, 5: 3, 6: 6 };
  const STOP_CODES = new Set([4001, 4002, 4004]);  // taken over, new game, unknown token: do not come back
  const PAGE_KEY = "companion.page";

  const app = {
    token: null,
    role: null,
    seat: null,
    view: null,
    connected: [],
    host: null,
    ws: null,
    backoff: 500,
    retry: null,
    stopped: false,
    status: "connecting",
    notice: null,  // a lasting message: this page is no longer a seat (taken over, new game, unknown link)
    error: null,  // the last refusal, shown until the next answer is stored or the question changes
    errorQuestion: null,
    acked: new Set(),  // question ids this device's answer was stored for
    hostNote: null,
    answerFor: null,  // host: the seat being answered for
    newGame: { players: [], threats: true, secondTie: "character", endTiming: "immediate", open: false },
  };

  // -- building the page ------------------------------------------------------------------------------------

  function h(tag, props, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(props || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "class") node.className = value;
      else if (key === "text") node.textContent = String(value);
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else if (key === "disabled" || key === "checked" || key === "open" || key === "selected") node[key] = true;
      else if (key === "value") node.value = String(value);
      else node.setAttribute(key, String(value));
    }
    for (const child of children.flat(Infinity)) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  function known(colour) {
    return COLOURS.includes(colour) ? colour : "unknown";
  }

  // A colour always with its name and its symbol, never by colour alone (colour-blind players).
  function chip(colour, extra) {
    const c = known(colour);
    return h("span", { class: "chip c-" + c + (extra ? " " + extra : ""), "data-colour": c },
      h("span", { class: "sym", "aria-hidden": "true" }, SYMBOLS[c] || "?"),
      h("span", { class: "name" }, I.colour(colour)));
  }

  function place(loc) {
    return h("span", { class: "place" }, h("span", { class: "loc-num" }, String(loc)), " ", I.location(loc));
  }

  function placeText(loc) {
    return loc + " " + I.location(loc);
  }

  function dice(values) {
    return h("span", { class: "dice" }, values.map((d) => h("span", { class: "die" }, String(d))));
  }

  function plural(n, one, many) {
    return n === 1 ? t(one) : t(many, { n });
  }

  function listOf(nodes) {
    const out = [];
    nodes.forEach((node, i) => {
      if (i) out.push(" ");
      out.push(node);
    });
    return out;
  }

  // -- hold to peek ----------------------------------------------------------------------------------------
  // The secret is put in the page only while the finger (or mouse, or key) is down, and removed on release,
  // so it is never in the page for a neighbour to read.

  const peeks = new Set();

  function peekButton(label, secret) {
    const wrap = h("div", { class: "peek" });
    let shown = null;
    const hide = () => {
      if (shown) shown.remove();
      shown = null;
      button.classList.remove("held");
      peeks.delete(entry);
    };
    const show = (event) => {
      if (event) event.preventDefault();
      if (shown) return;
      shown = h("div", { class: "peek-secret", role: "status" }, secret());
      wrap.append(shown);
      button.classList.add("held");
      peeks.add(entry);
    };
    const entry = { wrap, hide };
    const button = h("button", { type: "button", class: "peek-button" }, label);
    button.addEventListener("pointerdown", show);
    for (const kind of ["pointerup", "pointerleave", "pointercancel", "blur"]) button.addEventListener(kind, hide);
    button.addEventListener("keydown", (e) => { if (e.key === " " || e.key === "Enter") show(e); });
    button.addEventListener("keyup", hide);
    button.addEventListener("contextmenu", (e) => e.preventDefault());
    button.addEventListener("click", (e) => e.preventDefault());
    wrap.append(button);
    return wrap;
  }

  function hideAllPeeks() {
    for (const entry of [...peeks]) entry.hide();
  }

  function sweepPeeks() {
    for (const entry of [...peeks]) if (!entry.wrap.isConnected) entry.hide();
  }

  window.addEventListener("pointerup", hideAllPeeks);
  window.addEventListener("pointercancel", hideAllPeeks);
  window.addEventListener("blur", hideAllPeeks);

  // -- sections: each is rebuilt only when what it shows has changed ------------------------------------

  const drawn = new Map();

  function section(id, key, build) {
    const node = document.getElementById(id);
    if (!node) return;
    const full = I.lang + "\u0000" + key;
    if (drawn.get(id) === full) return;
    drawn.set(id, full);
    const children = build().flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false);
    node.replaceChildren(...children);
    node.hidden = children.length === 0;
    sweepPeeks();
  }

  function render() {
    document.documentElement.lang = I.lang;
    document.title = t("app_title");
    renderHeader();
    section("notice", JSON.stringify(app.notice), () =>
      app.notice ? [h("p", { class: "notice-text" }, t(app.notice)),
        app.notice === "taken_over" ? h("p", { class: "hint" }, t("taken_over_hint")) : null] : []);
    section("error", JSON.stringify(app.error), () => app.error ? [
      h("span", { class: "error-text" }, app.error),
      h("button", { type: "button", class: "dismiss", "aria-label": t("dismiss"),
        onclick: () => { app.error = null; render(); } }, "×"),
    ] : []);
    const view = app.view;
    const shown = !app.notice;
    section("question", shown && app.role === "seat" ? questionKey(view) : "", () =>
      shown && app.role === "seat" && view ? seatQuestion(view) : []);
    section("secrets", shown && app.role === "seat" && view ? JSON.stringify(view.cup_seen || null) : "", () =>
      shown && app.role === "seat" && view && Array.isArray(view.cup_seen) ? diceSecret(view) : []);
    section("waiting", shown && view ? JSON.stringify([view.prompt, app.seat]) : "", () =>
      shown && view ? waiting(view) : []);
    section("host", shown && app.role === "host" ? hostKey() : "", () =>
      shown && app.role === "host" ? hostControls() : []);
    section("over", shown && view ? JSON.stringify([view.over, view.scores, view.winners]) : "", () =>
      shown && view && view.over ? gameOver(view) : []);
    section("revealed", shown && view ? JSON.stringify(view.revealed || null) : "", () =>
      shown && view && view.revealed ? revealed(view.revealed) : []);
    section("board", shown ? JSON.stringify(boardKey(view)) : "", () =>
      shown ? (view ? board(view) : (app.role ? [h("p", { class: "hint" }, t("no_game"))] : [])) : []);
    section("fairness", shown && view ? JSON.stringify(view.cup_rolls || []) : "", () =>
      shown && view ? fairness(view.cup_rolls || []) : []);
    section("join", shown && app.role === "host" ? JSON.stringify([app.host, app.connected, view && view.players])
      : "", () => shown && app.role === "host" && app.host ? join() : []);
    placeJoin();
    section("newgame", shown && app.role === "host" ? JSON.stringify([!!view, app.newGame]) : "", () =>
      shown && app.role === "host" ? newGameForm(!view) : []);
    keepAwake(!!view && !view.over && !app.stopped);
  }

  // On the table's screen the QR codes come right after the controls while a phone is missing, and go below
  // the board once every seat is connected.
  function placeJoin() {
    const joinNode = document.getElementById("join");
    const anchor = document.getElementById(missingSeats().length ? "over" : "newgame");
    if (joinNode && anchor && joinNode.nextElementSibling !== anchor) anchor.before(joinNode);
  }

  function missingSeats() {
    const seats = app.view ? app.view.players : Object.keys((app.host && app.host.seats) || {});
    return seats.filter((s) => !app.connected.includes(s));
  }

  function renderHeader() {
    document.getElementById("title").textContent = t("app_title");
    const who = document.getElementById("who");
    section("who", JSON.stringify([app.role, app.seat]), () => {
      if (app.role === "seat") return [h("span", { class: "label" }, t("you_are")), " ", chip(app.seat)];
      if (app.role === "host") return [t("role_host")];
      if (app.role === "spectator") return [t("role_spectator")];
      return [];
    });
    who.hidden = !app.role;
    const status = document.getElementById("status");
    status.textContent = t("status_" + app.status);
    status.className = "status " + app.status;
    const label = document.getElementById("lang-label");
    label.textContent = t("language");
    const select = document.getElementById("lang");
    if (!select.options.length) {
      for (const { code, name } of I.LANGUAGES) select.append(h("option", { value: code, lang: code }, name));
      select.addEventListener("change", () => { I.set(select.value); render(); });
    }
    select.value = I.lang;
  }

  // -- the seat's question ---------------------------------------------------------------------------------

  // The rules' step (the third part of the question id, e.g. "3-move-sprint-..."): sprint and move ask the
  // same kind of question, but say different things.
  function stepOf(view) {
    return view.prompt ? String(view.prompt.id).split("-")[2] || "" : "";
  }

  function questionKey(view) {
    if (!view) return "none";
    return JSON.stringify([view.prompt, view.options, view.ballot, view.destination, view.vote, view.window,
      view.location, view.destinations, view.characters, view.dice, view.phase, view.over,
      view.prompt && app.acked.has(view.prompt.id)]);
  }

  function questionTitle(view, seat) {
    const prompt = view.prompt;
    const step = stepOf(view);
    if (prompt.kind === "ballot" && view.vote) {
      const vote = view.vote;
      const title = vote.purpose === "truck" ? t("q_vote_truck") : vote.purpose === "chief" ? t("q_vote_chief")
        : t("q_vote_victim", { location: placeText(vote.location) });
      return [title];
    }
    if (prompt.kind === "location") {
      if (view.phase === "placement") return [t("q_place", { dice: (view.dice || []).join(", ") })];
      if (step === "chief") return [t("q_chief_destination")];
      return [t("q_destination")];
    }
    if (prompt.kind === "character") {
      if (step === "sprint") return [t("q_sprint")];
      if (step === "victim") return [t("q_victim", { location: placeText(view.location) })];
      const target = (view.destinations || {})[seat];
      return [t("q_move", { location: target ? placeText(target) : "?" })];
    }
    if (prompt.kind === "card") {
      if (view.window && view.window.kind === "camera") return [t("q_camera")];
      return [t("q_window", { location: placeText(view.window ? view.window.location : view.location) })];
    }
    if (prompt.kind === "gift") return [t("q_gift")];
    return [t("q_other")];
  }

  function optionLabel(option, view) {
    const seat = option.seat;
    if ("vote" in option) return [chip(option.vote)];
    if ("give" in option) return [chip(option.give)];
    if ("pass" in option) return [t("opt_pass")];
    if ("play" in option) {
      const card = option.play;
      if (card === "weapon") return [option.kills === 2 ? t("opt_weapon2") : t("opt_weapon1")];
      if (card === "hidden") return [t("opt_hidden", { character: I.character(option.character) })];
      if (card === "sprint") return [t("opt_sprint", { location: placeText(option.go) })];
      return [I.card(card)];
    }
    if ("go" in option && "character" in option) {
      return [t("opt_place", { character: I.character(option.character), location: placeText(option.go) })];
    }
    if ("go" in option) return [place(option.go)];
    if ("move" in option) {
      const from = ((view.characters || {})[seat] || {})[option.move];
      const to = (view.destinations || {})[seat];
      if (from && to && stepOf(view) === "move") {
        return [t("opt_move", { character: I.character(option.move), from: placeText(from), to: placeText(to) })];
      }
      return [I.character(option.move) + (from ? " (" + placeText(from) + ")" : "")];
    }
    if ("victim" in option) return [I.character(option.victim)];
    return [JSON.stringify(option)];
  }

  function optionButtons(options, view, onPick) {
    const wide = options.some((o) => !("vote" in o) && !("give" in o));
    return h("div", { class: "options" + (wide ? " wide" : "") }, options.map((option) =>
      h("button", { type: "button", class: "option", "data-action": JSON.stringify(option),
        onclick: () => onPick(option) }, optionLabel(option, view))));
  }

  function seatQuestion(view) {
    const prompt = view.prompt;
    const options = view.options || [];
    if (view.over) return [];
    if (!prompt || !options.length) {
      return [h("p", { class: "idle" }, t("nothing_to_do"))];
    }
    const out = [h("h2", { class: "question-title" }, questionTitle(view, app.seat))];
    if (prompt.kind === "ballot" && view.vote) {
      if (view.vote.stage === 2) {
        out.push(h("p", { class: "revote" }, t("q_revote", { colours: "" }), listOf(view.vote.candidates.map(chip))));
      }
      const weight = (view.vote.weights || {})[app.seat];
      if (weight) out.push(h("p", { class: "weight" }, t("your_weight", { n: weight })));
    }
    out.push(optionButtons(options, view, (option) => answer(prompt.id, option)));
    if (prompt.kind === "ballot" && view.ballot) {
      out.push(h("div", { class: "receipt" }, h("p", { class: "received" }, t("vote_received")),
        h("p", { class: "hint" }, t("change_vote")),
        peekButton(t("peek_vote"), () => [t("your_vote"), " ", chip(view.ballot)])));
    } else if (prompt.kind === "location" && prompt.secret && view.destination) {
      out.push(h("div", { class: "receipt" }, h("p", { class: "received" }, t("answer_received")),
        h("p", { class: "hint" }, t("change_destination")),
        peekButton(t("peek_destination"), () => [t("your_destination"), " ", place(view.destination)])));
    } else if (app.acked.has(prompt.id)) {
      out.push(h("div", { class: "receipt" }, h("p", { class: "received" }, t("answer_received"))));
    }
    return out;
  }

  function diceSecret(view) {
    const values = view.cup_seen.slice();
    return [h("p", { class: "hint" }, t("dice_secret_hint")),
      peekButton(t("peek_dice"), () => [h("span", { class: "label" }, t("secret_dice")), " ", dice(values)])];
  }

  function waiting(view) {
    const prompt = view.prompt;
    if (!prompt || !prompt.waiting || !prompt.waiting.length) return [];
    const me = app.role === "seat" ? app.seat : null;
    return [h("span", { class: "label" }, t("waiting_on")), " ",
      listOf(prompt.waiting.map((s) => s === me
        ? h("span", { class: "me-wait" }, chip(s, "me"), " ", h("span", { class: "me-note" }, "(" + t("you") + ")"))
        : chip(s)))];
  }

  // -- public parts ----------------------------------------------------------------------------------------

  function purposeText(vote) {
    if (vote.purpose === "truck") return t("purpose_truck");
    if (vote.purpose === "chief") return t("purpose_chief");
    return t("purpose_victim", { location: placeText(vote.location) });
  }

  function revealed(vote) {
    const title = t("revealed_title", { purpose: purposeText(vote) }) +
      (vote.stage === 2 ? " (" + t("revote_mark") + ")" : "");
    const ballots = vote.ballots || {};
    const rows = Object.entries(vote.weights || {}).map(([voter, weight]) =>
      h("li", { class: "ballot-row", "data-voter": known(voter) }, chip(voter), " ",
        h("span", { class: "weight" }, plural(weight, "votes_1", "votes_n")), " → ",
        ballots[voter] ? chip(ballots[voter]) : h("span", { class: "abstained" }, t("abstained"))));
    const tally = Object.entries(vote.tally || {}).map(([colour, n]) =>
      h("span", { class: "tally-item" }, chip(colour), " ", String(n)));
    const leaders = vote.leaders || [];
    return [
      h("h2", {}, title),
      h("ul", { class: "ballots" }, rows),
      h("p", { class: "tally" }, h("span", { class: "label" }, t("tally")), " ", listOf(tally)),
      h("p", { class: leaders.length === 1 ? "leaders won" : "leaders tied" },
        h("span", { class: "label" }, leaders.length === 1 ? t("chosen") : t("tie")), " ",
        listOf(leaders.map((c) => chip(c)))),
    ];
  }

  function boardKey(view) {
    if (!view) return [app.role];
    const { prompt, options, ballot, destination, cup_seen: seen, cup_rolls: rolls, can_undo: undo, ...rest } =
      view;
    return rest;  // the public board only; secrets stay out of it
  }

  function phaseText(view) {
    const phase = t("phase_" + view.phase);
    return view.round ? t("round_phase", { n: view.round, phase }) : t("setup", { phase });
  }

  function board(view) {
    const out = [h("h2", {}, t("board"))];
    out.push(h("p", { class: "phase" }, phaseText(view)));
    out.push(h("p", { class: "chief" }, h("span", { class: "label" }, t("chief")), " ", chip(view.chief),
      view.elected ? [" ", h("span", { class: "badge elected" }, "✓ " + t("elected"))] : null));
    if (view.chief_destination) {
      out.push(h("p", { class: "chief-destination" }, t("chief_chose", { location: placeText(view.chief_destination) })));
    }
    if (view.chosen && view.chosen.length) {
      out.push(h("p", { class: "chosen" }, h("span", { class: "label" }, t("have_chosen")), " ",
        listOf(view.chosen.map((c) => chip(c)))));
    }
    if (view.destinations) {
      out.push(h("p", { class: "destinations" }, h("span", { class: "label" }, t("destinations")), " ",
        listOf(view.players.filter((p) => p in view.destinations).map((p) =>
          h("span", { class: "destination" }, chip(p), " → ", placeText(view.destinations[p]))))));
    }
    if (Array.isArray(view.cup)) {
      out.push(h("p", { class: "cup" }, h("span", { class: "label" }, t("zombie_dice")), " ", dice(view.cup)));
    }
    if (Array.isArray(view.dice)) {
      out.push(h("p", { class: "placement-dice" }, h("span", { class: "label" }, t("placement_dice")), " ",
        dice(view.dice)));
    }
    for (const warning of view.warnings || []) {
      out.push(h("p", { class: "warning" }, t("warning"), " ", warning));
    }
    out.push(h("div", { class: "locations" }, LOCATIONS.map((loc) => locationCard(view, loc))));
    if (view.unplaced) {
      const left = view.players.filter((p) => (view.unplaced[p] || []).length);
      if (left.length) {
        out.push(h("p", { class: "unplaced" }, h("span", { class: "label" }, t("unplaced")), " ",
          listOf(left.map((p) => h("span", {}, chip(p), " ", view.unplaced[p].map(I.character).join(", "))))));
      }
    }
    out.push(h("p", { class: "hands" }, h("span", { class: "label" }, t("hands")), " ",
      listOf(view.players.map((p) => h("span", { class: "hand" }, chip(p), " " + ((view.hands || {})[p] ?? 0)))),
      " · ", t("deck_n", { n: view.deck ?? 0 })));
    return out;
  }

  function locationCard(view, loc) {
    const closed = (view.closed || []).includes(loc);
    const zombies = (view.zombies || {})[String(loc)] || 0;
    const people = [];
    for (const colour of view.players) {
      const hidden = (view.hidden || {})[colour] || [];
      for (const [kind, where] of Object.entries((view.characters || {})[colour] || {})) {
        if (where === loc) people.push({ colour, kind, hidden: hidden.includes(kind) });
      }
    }
    const attacked = view.phase === "attack" && view.location === loc;
    const cap = CAPACITY[loc];
    const classes = ["location"];
    if (closed) classes.push("closed");
    if (attacked) classes.push("attacked");
    if (view.vote && view.vote.location === loc) classes.push("voting");
    return h("section", { class: classes.join(" "), "data-location": String(loc) },
      h("div", { class: "loc-head" }, place(loc),
        h("span", { class: "zombies" + (zombies ? " some" : "") }, plural(zombies, "zombies_1", "zombies_n"))),
      h("div", { class: "loc-meta" }, closed ? t("closed")
        : cap === null ? t("capacity_unlimited") : t("capacity_n", { n: people.length + "/" + cap }),
      attacked ? [" · ", h("strong", {}, t("under_attack"))] : null),
      closed ? null : h("ul", { class: "people" }, people.length ? people.map((p) =>
        h("li", {}, chip(p.colour), " ", I.character(p.kind), p.hidden ? " " + t("hidden_mark") : ""))
        : h("li", { class: "nobody" }, t("nobody"))));
  }

  // -- the fairness of the cup -----------------------------------------------------------------------------

  const checked = new Map();

  function verifies(roll) {
    const key = roll.commitment + "|" + roll.dice.join(",") + "|" + roll.nonce;
    if (!checked.has(key)) {
      checked.set(key, window.SHA256.commitment(roll.dice, roll.nonce) === String(roll.commitment).toLowerCase());
    }
    return checked.get(key);
  }

  function rollItem(roll, n) {
    const open = Array.isArray(roll.dice) && typeof roll.nonce === "string";
    const ok = open && verifies(roll);
    return h("div", { class: "roll", "data-roll": String(n) },
      h("div", { class: "roll-title" }, t("roll_n", { n, count: roll.count })),
      h("div", { class: "commit" }, h("span", { class: "label" }, t("commitment")), " ",
        h("code", {}, String(roll.commitment))),
      open ? [
        h("div", {}, h("span", { class: "label" }, t("placement_dice")), " ", dice(roll.dice)),
        h("div", { class: "nonce" }, h("span", { class: "label" }, t("nonce")), " ", h("code", {}, roll.nonce)),
        h("div", { class: "verify " + (ok ? "ok" : "bad") }, ok ? t("verified") : t("mismatch")),
      ] : h("div", { class: "sealed" }, t("sealed")));
  }

  function fairness(rolls) {
    if (!rolls.length) return [];
    const items = rolls.map((roll, i) => rollItem(roll, i + 1)).reverse();
    const older = items.slice(3);
    return [
      h("h2", {}, t("fairness_title")),
      h("p", { class: "hint" }, t("fairness_hint")),
      items.slice(0, 3),
      older.length ? h("details", {}, h("summary", {}, t("earlier_rolls", { n: older.length })), older) : null,
    ];
  }

  function gameOver(view) {
    const players = view.players.slice().sort((a, b) => (view.scores[b] || 0) - (view.scores[a] || 0));
    const shared = (view.winners || []).length > 1;
    return [
      h("h2", {}, t("game_over")),
      h("table", { class: "scores" },
        h("thead", {}, h("tr", {}, h("th", {}, ""), h("th", {}, t("score")), h("th", {}, ""))),
        h("tbody", {}, players.map((p) => h("tr", { class: view.winners.includes(p) ? "winner" : "" },
          h("td", {}, chip(p)), h("td", {}, t("points_n", { n: view.scores[p] || 0 })),
          h("td", {}, view.winners.includes(p) ? (shared ? t("winners") : t("winner")) : ""))))),
    ];
  }

  // -- the host ------------------------------------------------------------------------------------------

  function hostKey() {
    const view = app.view;
    return JSON.stringify([view && view.prompt, view && view.can_undo, app.connected, app.host && app.host.options,
      app.answerFor, app.hostNote, view && [view.vote, view.window, view.location, view.destinations,
        view.characters, view.dice, view.phase]]);
  }

  function hostControls() {
    const view = app.view;
    if (!view) return [];
    const prompt = view.prompt;
    const out = [h("h2", {}, t("host_title"))];
    out.push(h("p", { class: "phones" }, h("span", { class: "label" }, t("phones")), " ",
      listOf(view.players.map((p) => h("span", { class: "phone " + (app.connected.includes(p) ? "on" : "off"),
        "data-seat": known(p) }, chip(p), " ", app.connected.includes(p) ? "✓ " + t("connected")
        : "✗ " + t("missing"))))));
    const undoSteps = view.can_undo || 0;
    out.push(h("div", { class: "controls" },
      h("button", { type: "button", id: "close-ballot", disabled: !(prompt && prompt.kind === "ballot"),
        onclick: () => hostSend({ type: "close" }) }, t("close_ballot")),
      h("button", { type: "button", id: "undo", disabled: undoSteps < 1,
        onclick: () => hostSend({ type: "undo", steps: 1 }) }, undoSteps ? t("undo_n", { n: undoSteps }) : t("undo"))));
    if (app.hostNote) out.push(h("p", { class: "received" }, app.hostNote));
    const missing = prompt ? prompt.waiting.filter((s) => !app.connected.includes(s)) : [];
    const box = h("div", { class: "answer-for" }, h("h3", {}, t("answer_for")));
    if (!missing.length) {
      box.append(h("p", { class: "hint" }, t("answer_for_none")));
    } else {
      if (!missing.includes(app.answerFor)) app.answerFor = missing[0];
      box.append(h("p", { class: "pick-seat" }, h("span", { class: "label" }, t("answer_for_pick")), " ",
        listOf(missing.map((s) => h("button", { type: "button", class: "seat-pick" + (s === app.answerFor ? " on" : ""),
          "data-seat": known(s), "aria-pressed": s === app.answerFor ? "true" : "false",
          onclick: () => { app.answerFor = s; render(); } }, chip(s))))));
      const options = ((app.host && app.host.options) || {})[app.answerFor] || [];
      box.append(h("p", { class: "question-title" }, questionTitle(view, app.answerFor)));
      box.append(optionButtons(options, view, (option) => answer(prompt.id, option)));
    }
    out.push(box);
    if (app.host && app.host.pads) {  // a pad hub: "press any button on a pad to give it to ..."
      out.push(h("p", { class: "give-pad" }, h("span", { class: "label" }, t("give_pad")), " ",
        listOf(view.players.map((p) => h("button", { type: "button", class: "seat-pick", "data-seat": known(p),
          onclick: () => hostSend({ type: "give_pad", seat: p }) }, chip(p))))));
    }
    return out;
  }

  function qrPath(what) {
    return "/qr/" + encodeURIComponent(app.token) + "/" + encodeURIComponent(what) + ".svg";
  }

  function join() {
    const host = app.host;
    const cards = [];
    if (host.wifi) {
      cards.push(h("figure", { class: "qr-card wifi" },
        h("img", { class: "qr", src: qrPath("wifi"), alt: t("wifi_qr", { ssid: host.wifi }), width: "220",
          height: "220" }),
        h("figcaption", {}, t("wifi_qr", { ssid: host.wifi }))));
    }
    const seats = app.view ? app.view.players : Object.keys(host.seats || {});
    for (const seat of seats) {
      const url = (host.seats || {})[seat];
      if (!url) continue;
      const on = app.connected.includes(seat);
      cards.push(h("figure", { class: "qr-card seat", "data-seat": known(seat) },
        h("img", { class: "qr", src: qrPath(seat), alt: t("seat_qr") + " " + I.colour(seat), width: "220", height: "220" }),
        h("figcaption", {}, h("span", { class: "label" }, t("seat_qr")), " ", chip(seat), " ",
          h("span", { class: "phone " + (on ? "on" : "off") }, on ? "✓ " + t("connected") : "✗ " + t("missing")),
          h("div", { class: "url" }, url))));
    }
    if (host.spectator) {
      cards.push(h("figure", { class: "qr-card spectator" },
        h("img", { class: "qr", src: qrPath("watch"), alt: t("spectator_qr"), width: "220", height: "220" }),
        h("figcaption", {}, t("spectator_qr"), h("div", { class: "url" }, host.spectator))));
    }
    return [h("h2", {}, t("join_title")), h("div", { class: "qr-grid" }, cards)];
  }

  function newGameForm(noGame) {
    const form = app.newGame;
    const toggle = (colour) => {
      const i = form.players.indexOf(colour);
      if (i >= 0) form.players.splice(i, 1);
      else form.players.push(colour);
      render();
    };
    const body = [
      h("p", {}, t("new_game_players")),
      h("div", { class: "colour-picks" }, COLOURS.map((c) => h("button", { type: "button",
        class: "colour-pick" + (form.players.includes(c) ? " on" : ""), "data-colour": c,
        "aria-pressed": form.players.includes(c) ? "true" : "false", onclick: () => toggle(c) }, chip(c),
        form.players.includes(c) ? h("span", { class: "order" }, String(form.players.indexOf(c) + 1)) : null))),
      h("ol", { class: "seating" }, form.players.map((c) => h("li", {}, chip(c)))),
      h("p", { class: "hint" }, t("new_game_hint")),
      h("button", { type: "button", class: "small", onclick: () => { form.players = []; render(); } },
        t("new_game_clear")),
      h("label", { class: "check" }, h("input", { type: "checkbox", id: "opt-threats", checked: form.threats,
        onchange: (e) => { form.threats = e.target.checked; render(); } }), " ", t("opt_threats_carry")),
      h("label", { class: "field" }, t("opt_second_tie"), h("select", { id: "opt-second-tie",
        onchange: (e) => { form.secondTie = e.target.value; render(); } },
      h("option", { value: "character", selected: form.secondTie === "character" }, t("opt_second_tie_character")),
      h("option", { value: "colour", selected: form.secondTie === "colour" }, t("opt_second_tie_colour")))),
      h("label", { class: "field" }, t("opt_end_timing"), h("select", { id: "opt-end-timing",
        onchange: (e) => { form.endTiming = e.target.value; render(); } },
      h("option", { value: "immediate", selected: form.endTiming === "immediate" }, t("opt_end_immediate")),
      h("option", { value: "round_end", selected: form.endTiming === "round_end" }, t("opt_end_round")))),
      h("button", { type: "button", id: "start-game", class: "primary",
        disabled: form.players.length < 3 || form.players.length > 6, onclick: startGame }, t("start_game")),
    ];
    if (noGame) return [h("h2", {}, t("new_game")), body];
    const details = h("details", { open: form.open }, h("summary", {}, t("new_game")), body);
    details.addEventListener("toggle", () => { form.open = details.open; });
    return [details];
  }

  function startGame() {
    const form = app.newGame;
    hostSend({ type: "new_game", game: "mall-of-horror", players: form.players.slice(), options: {
      threats_carry_to_revote: form.threats, second_tie_victim: form.secondTie, end_timing: form.endTiming,
    } });
    form.open = false;
  }

  // -- talking to the table --------------------------------------------------------------------------------

  function send(message) {
    if (!app.ws || app.ws.readyState !== WebSocket.OPEN) {
      app.error = t("status_reconnecting");
      render();
      return false;
    }
    app.ws.send(JSON.stringify({ v: 1, ...message }));
    return true;
  }

  function answer(question, action) {
    send({ type: "answer", question, action });
  }

  function hostSend(message) {
    app.hostNote = null;
    send(message);
  }

  function onMessage(message) {
    switch (message.type) {
      case "welcome":
        app.role = message.role;
        app.seat = message.seat || null;
        app.backoff = 500;
        app.status = "connected";
        break;
      case "state": {
        const before = app.view && app.view.prompt ? app.view.prompt.id : null;
        app.view = message.view || null;
        app.connected = message.connected || [];
        app.host = message.host || null;
        const now = app.view && app.view.prompt ? app.view.prompt.id : null;
        if (app.error && app.errorQuestion !== now && before !== now) app.error = null;
        break;
      }
      case "ack":
        app.error = null;
        if (message.question) app.acked.add(message.question);
        else app.hostNote = t("done");
        break;
      case "error":
        onError(message);
        break;
      case "taken_over":
        stop("taken_over");
        break;
      case "notice":  // from the table's devices, e.g. "pad hub disconnected" (host screen only)
        if (typeof message.message === "string") app.hostNote = message.message;
        break;
      default:
        break;  // pong, or a newer server's message this page does not know
    }
    render();
  }

  function onError(message) {
    const code = message.code;
    const text = typeof message.message === "string" ? message.message : "";
    if (code === "unknown_token" || code === "new_game") {
      forget();
      stop(code === "new_game" ? "new_game_started" : "unknown_token");
      return;
    }
    app.errorQuestion = app.view && app.view.prompt ? app.view.prompt.id : null;
    if (code === "stale") app.error = t("stale");
    else if (code === "rate_limited") app.error = t("rate_limited");
    else if (code === "refused" || code === "forbidden") app.error = t("refused", { message: text });
    else app.error = t("server_error", { message: text });
  }

  function stop(notice) {
    app.stopped = true;
    app.notice = notice;
    app.status = "stopped";
    clearTimeout(app.retry);
    if (app.ws) app.ws.close();
    hideAllPeeks();
  }

  function connect() {
    if (app.stopped) return;
    clearTimeout(app.retry);
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(scheme + "//" + location.host + "/ws/" + encodeURIComponent(app.token));
    app.ws = ws;
    ws.addEventListener("message", (event) => {
      if (app.ws !== ws || typeof event.data !== "string") return;
      let message;
      try {
        message = JSON.parse(event.data);
      } catch (e) {
        return;
      }
      if (message && typeof message === "object") onMessage(message);
    });
    ws.addEventListener("close", (event) => {
      if (app.ws !== ws) return;
      app.ws = null;
      if (STOP_CODES.has(event.code) && !app.stopped) {
        stop(event.code === 4001 ? "taken_over" : event.code === 4002 ? "new_game_started" : "unknown_token");
      }
      if (app.stopped) {
        render();
        return;
      }
      app.status = "reconnecting";
      render();
      app.retry = setTimeout(connect, app.backoff);
      app.backoff = Math.min(app.backoff * 2, 8000);  // 0.5 s, 1 s, 2 s, ... 8 s
    });
  }

  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "hidden") {
      hideAllPeeks();
      return;
    }
    if (!app.ws && !app.stopped) {  // back from sleep: try now rather than at the end of the backoff
      app.backoff = 500;
      connect();
    }
    wakeLock = null;  // the system releases the lock when the page is hidden
    render();
  });

  // -- the screen stays on while a game runs ---------------------------------------------------------------

  let wakeLock = null;
  let wakeLockAsked = false;

  function keepAwake(wanted) {
    if (!("wakeLock" in navigator) || !navigator.wakeLock) return;
    if (wanted && !wakeLock && !wakeLockAsked && document.visibilityState === "visible") {
      wakeLockAsked = true;
      Promise.resolve().then(() => navigator.wakeLock.request("screen")).then((lock) => {
        wakeLock = lock;
        wakeLockAsked = false;
        if (lock && lock.addEventListener) lock.addEventListener("release", () => { wakeLock = null; });
      }, () => { wakeLockAsked = false; wakeLock = "refused"; });  // not allowed here: do without
    } else if (!wanted && wakeLock && wakeLock !== "refused") {
      const lock = wakeLock;
      wakeLock = null;
      Promise.resolve().then(() => lock.release()).catch(() => {});
    }
  }

  // -- the link ------------------------------------------------------------------------------------------

  function tokenFromPath() {
    const match = location.pathname.match(/^\/([shw])\/([A-Za-z0-9_-]+)\/?$/);
    return match ? match[2] : null;
  }

  function remember() {
    try {
      localStorage.setItem(PAGE_KEY, location.pathname);
    } catch (e) {
      // the URL still has the token
    }
  }

  function forget() {
    try {
      if (localStorage.getItem(PAGE_KEY) === location.pathname) localStorage.removeItem(PAGE_KEY);
    } catch (e) {
      // nothing kept
    }
  }

  function start() {
    I.choose();
    app.token = tokenFromPath();
    if (!app.token) {
      let kept = null;
      try {
        kept = localStorage.getItem(PAGE_KEY);
      } catch (e) {
        kept = null;
      }
      if (kept && /^\/[shw]\/[A-Za-z0-9_-]+$/.test(kept)) {
        location.replace(kept);
        return;
      }
      app.stopped = true;
      app.notice = "no_token";
      app.status = "stopped";
      render();
      return;
    }
    remember();
    render();
    connect();
  }

  start();
})();
