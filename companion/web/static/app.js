// The phone page: a seat's questions, the host's table screen, or the spectators' board, for any game.
// The shell knows no game: it renders the seat's question by its kind, the narration, the host's controls and
// the fairness of the dice cup; every game's board is drawn from the parts the game describes (static/parts.js,
// one renderer per part, none per game). Every word comes from the catalogue (GET /i18n/<lang>.json).
// One WebSocket to the table (protocol v1, see companion/web/protocol.py). Everything shown is built with
// createElement and textContent: data from the table is never parsed as HTML.
"use strict";

(function () {
  // Seat colours: each with a symbol, so that no colour is told by its colour alone (colour-blind players).
  const SYMBOLS = { red: "●", yellow: "▲", blue: "■", green: "◆", purple: "★", black: "✚", white: "○", orange: "✦" };
  // Taken over, new game, takeover refused, unknown token, host link renewed: do not come back.
  const STOP_CODES = new Map([[4001, "page.taken_over"], [4002, "page.new_game_started"],
    [4003, "faults.page.refused_notice"], [4004, "page.unknown_token"], [4005, "faults.page.host_renewed"]]);
  const PAGE_KEY = "companion.page";
  const LANG_KEY = "companion.lang";
  const DEVICE_KEY = "companion.device";  // this device's own random key: a seat is bound to the first device

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
    serverLang: null,  // the language the table renders this connection's errors in
    notice: null,  // a lasting message key: this page is no longer a seat (taken over, new game, unknown link)
    error: null,  // the last refusal {key, params, message, lang}, shown until the next answer or question
    errorQuestion: null,
    hostNote: null,
    hostPending: false,
    firstDone: 0,  // first-game mode: "Got it" taps (the section is drawn again without what was explained)
    openCards: null,  // the question whose cards are unfolded
    cardPick: null,  // in the unfolded cards: {id, group, choice} — a card, then its option, then "play it?"
    drafts: {},  // number and assignment answers being filled in, by question id
    armed: null,  // the answer tapped once that asks for a second tap (its JSON)
    sent: null,  // the seat's answer on its way: {question, answer (its JSON), label}
    chosen: {},  // the seat's answers the table took, by question id (its JSON): marked among the answers
    announced: null,  // the last question said aloud (its id)
    toReceipt: false,  // a secret answer was just taken: the focus goes to its receipt
    device: null,  // this device's key (sent with the seat's link: another device must be allowed first)
    waiting: false,  // this device asks for a seat another device has: it sees the public board only
    takeoverRequest: null,  // the seat's own device: another device asks for the seat (its request id)
  };

  // -- words: the catalogue -------------------------------------------------------------------------------

  const words = { lang: "en", languages: {}, plural: "en", terms: {}, families: {}, messages: {} };

  function pluralIndex(n) {
    return words.plural === "en" ? (n === 1 ? 0 : 1) : 0;
  }

  // The sentence of `key` (the plural form for `count`), or the key itself when the catalogue lacks it.
  function raw(key, count) {
    const found = words.messages[key];
    if (found === undefined || found === null || found === "") return key;
    if (Array.isArray(found)) {
      const n = Number.isInteger(count) ? count : 1;
      return found[Math.min(pluralIndex(n), found.length - 1)];
    }
    return String(found);
  }

  function has(key) {
    return Object.prototype.hasOwnProperty.call(words.messages, key);
  }

  function isMessage(value) {
    return value !== null && typeof value === "object" && !Array.isArray(value) && typeof value.key === "string";
  }

  function plainValue(value) {
    if (value === null || value === undefined) return "None";
    if (typeof value === "boolean") return value ? "True" : "False";
    return String(value);
  }

  // A sentence's pieces: literal text, and the placeholders with their names ("{{" and "}}" are braces).
  function pieces(sentence) {
    const out = [];
    const pattern = /\{\{|\}\}|\{([^{}]*)\}/g;
    let last = 0;
    let match;
    while ((match = pattern.exec(sentence)) !== null) {
      if (match.index > last) out.push({ text: sentence.slice(last, match.index) });
      if (match[0] === "{{") out.push({ text: "{" });
      else if (match[0] === "}}") out.push({ text: "}" });
      else out.push({ name: match[1] });
      last = pattern.lastIndex;
    }
    if (last < sentence.length) out.push({ text: sentence.slice(last) });
    return out;
  }

  function joined(parts) {
    if (!parts.length) return [raw("list.none")];
    if (parts.length === 1) return [parts[0]];
    const out = [];
    parts.forEach((part, i) => {
      if (i === parts.length - 1) out.push(raw("list.and"));
      else if (i) out.push(raw("list.separator"));
      out.push(part);
    });
    return out;
  }

  // The terms of a message: its game's (every key of a game begins with the family of its words) or the table's.
  function termsOf(key) {
    const family = String(key).split(".", 1)[0];
    return Object.prototype.hasOwnProperty.call(words.families, family) ? words.families[family] : words.terms;
  }

  // One parameter, as the catalogue renders it: terms through their prefix (the message's own terms), lists
  // joined, messages nested (with their own key's terms). With `nodes`, colours become chips (symbol and name).
  function param(name, value, nodes, terms) {
    if (Array.isArray(value)) return joined(value.map((v) => param(name, v, nodes, terms)).map((p) => p.flat()));
    if (isMessage(value)) return nodes ? rich(value) : [say(value)];
    const prefix = Object.prototype.hasOwnProperty.call(terms, name) ? terms[name] : undefined;
    if (prefix === undefined) return [plainValue(value)];
    if (prefix === "colour") return [nodes ? chip(value) : seatName(value)];
    return [raw(prefix + "." + plainValue(value))];
  }

  function render(message, nodes) {
    const params = (message && message.params) || {};
    const sentence = raw(message.key, params.count);
    const terms = termsOf(message.key);
    const out = [];
    for (const piece of pieces(sentence)) {
      if ("text" in piece) out.push(piece.text);
      else if (Object.prototype.hasOwnProperty.call(params, piece.name)) out.push(...param(piece.name, params[piece.name], nodes, terms));
      else out.push("{" + piece.name + "}");
    }
    return nodes ? tied(out.flat(Infinity)) : out.flat(Infinity);
  }

  // A chip and the text right after it ("'s", "的", a comma) on one line: never the possessive alone on the next.
  function tied(out) {
    const kept = [];
    for (let i = 0; i < out.length; i += 1) {
      const next = out[i + 1];
      const lead = typeof next === "string" && out[i] instanceof Element && out[i].classList.contains("chip")
        ? /^\S{1,3}/u.exec(next) : null;
      if (!lead) {
        kept.push(out[i]);
        continue;
      }
      kept.push(h("span", { class: "chip-tie" }, out[i], lead[0]));
      out[i + 1] = next.slice(lead[0].length);
    }
    return kept;
  }

  // A message {key, params} as text in the page's language.
  function say(message) {
    return render(message, false).join("");
  }

  // The same as nodes: colours shown as chips.
  function rich(message) {
    return render(message, true);
  }

  function t(key, params) {
    return say({ key, params: params || {} });
  }

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
    return typeof colour === "string" && Object.prototype.hasOwnProperty.call(SYMBOLS, colour) ? colour : "unknown";
  }

  function colourName(colour) {
    const key = "colour." + colour;
    return has(key) ? raw(key) : String(colour);
  }

  // The people's names of the game on the table, by seat (view.names: typed at the new game, text only).
  let unnamedNow = false;
  function names() {
    const given = app.view && app.view.names;
    return !unnamedNow && given && typeof given === "object" && !Array.isArray(given) ? given : {};
  }

  // What `build` draws names seats by their colour only (a new game's seats have no names yet).
  function unnamed(build) {
    unnamedNow = true;
    try {
      return build();
    } finally {
      unnamedNow = false;
    }
  }

  // A seat as players call it: its colour, and its person's name where one was given ("Anna (Red)", the
  // catalogue's colour.named). The name is only ever text: a text node, never markup.
  function seatName(colour) {
    const name = Object.prototype.hasOwnProperty.call(names(), colour) ? names()[colour] : null;
    if (typeof name !== "string" || !name) return colourName(colour);
    return pieces(raw("colour.named")).map((piece) => "text" in piece ? piece.text
      : piece.name === "name" ? name : piece.name === "colour" ? colourName(colour) : "{" + piece.name + "}").join("");
  }

  // A colour always with its name and its symbol, never by colour alone; with its person's name where given.
  function chip(colour, extra) {
    const c = known(colour);
    return h("span", { class: "chip c-" + c + (extra ? " " + extra : ""), "data-colour": c },
      h("span", { class: "sym", "aria-hidden": "true" }, SYMBOLS[c] || "?"),
      h("span", { class: "name" }, seatName(colour)));
  }

  function dice(values) {
    // Spaces between the dice: a screen reader says "1 4 5 5", not "one thousand four hundred and fifty-five".
    return h("span", { class: "dice" }, listOf(values.map((d) => h("span", { class: "die" }, String(d)))));
  }

  function listOf(nodes) {
    const out = [];
    nodes.forEach((node, i) => {
      if (i) out.push(" ");
      out.push(node);
    });
    return out;
  }

  // -- a secret: held, or opened by a plain activation -----------------------------------------------------
  // The secret is in the page only while shown, so it is never there for a neighbour to read. Held (a finger, the
  // mouse or a key down) it shows until let go; a plain activation (a tap, a screen reader's double-tap, a switch,
  // Enter) opens it until activated again or OPEN_FOR passes, and this phone's own voice (#say) says it once.

  const HOLD_MS = 300;  // a press this long is a hold: its release hides the secret again
  const OPEN_FOR = 10000;
  const peeks = new Set();

  function peekButton(label, secret) {
    const wrap = h("div", { class: "peek" });
    const button = h("button", { type: "button", class: "peek-button", "aria-expanded": "false" }, label);
    let shown = null;
    let open = false;
    let press = 0;  // when the press going on began (-1: on an open secret)
    let ended = null;  // the press that just ended: the click after it belongs to it
    let timer = 0;
    const entry = { wrap, hide, held: () => shown && !open };
    function hide() {
      clearTimeout(timer);
      if (shown) hush();
      if (shown) shown.remove();
      shown = null;
      open = false;
      button.classList.remove("held");
      button.setAttribute("aria-expanded", "false");
      peeks.delete(entry);
    }
    function show(opening) {
      if (!shown) {
        shown = h("div", { class: "peek-secret", onclick: hide }, secret());  // open, a tap on it closes it
        wrap.append(shown);
        peeks.add(entry);
        button.setAttribute("aria-expanded", "true");
      }
      open = opening;
      // Above the finger (it hides what is under it), over the page: nothing moves. Above the button when there
      // is room; else, held, from the top of the screen (it lets touches through: the finger keeps holding);
      // open, below the button if it fits (the button stays in sight, to close it).
      const box = button.getBoundingClientRect();
      const high = window.innerHeight;
      const style = shown.style;
      style.top = style.bottom = "";
      if (box.top - 16 >= shown.offsetHeight) style.bottom = Math.round(high - box.top + 8) + "px";
      else style.top = (open && box.bottom + 8 + shown.offsetHeight <= high ? Math.round(box.bottom + 8) : 4) + "px";
      button.classList.toggle("held", !open);
      shown.classList.toggle("open", open);
      if (open) {
        clearTimeout(timer);
        timer = setTimeout(hide, OPEN_FOR);
        speak(spoken(shown));
      }
    }
    const down = (event) => {
      if (event.repeat) return event.preventDefault();  // a key held down: still the one press
      press = open ? -1 : performance.now();
      if (!open) show(false);
    };
    const up = () => {
      if (!press) return;
      ended = { at: performance.now(), tap: press > 0 && performance.now() - press < HOLD_MS, closing: press < 0 };
      press = 0;
      if (entry.held()) hide();
    };
    const gone = () => {  // the finger slid off, the system took the touch, the focus left: a hold ends
      press = 0;
      if (entry.held()) hide();
    };
    const key = (handle) => (event) => { if (event.key === " " || event.key === "Enter") handle(event); };
    button.addEventListener("pointerdown", (event) => { if (event.isPrimary !== false) { event.preventDefault(); down(event); } });
    button.addEventListener("pointerup", up);
    for (const kind of ["pointerleave", "pointercancel", "blur"]) button.addEventListener(kind, gone);
    button.addEventListener("keydown", key(down));
    button.addEventListener("keyup", key(up));
    button.addEventListener("contextmenu", (event) => event.preventDefault());
    button.addEventListener("click", (event) => {
      event.preventDefault();
      const last = ended;
      ended = null;
      if (press > 0 && entry.held()) {  // Enter: the click comes while the key is still down
        press = 0;
        show(true);
      } else if (last && performance.now() - last.at < 1000) {  // the click that ends a press
        if (last.closing) hide();
        else if (last.tap) show(true);  // a short tap: a plain activation (a hold that ended stays hidden)
      } else if (shown) {
        hide();  // a click alone: a screen reader, a switch, a script
      } else {
        show(true);
      }
    });
    wrap.append(button);
    return wrap;
  }

  function hideAllPeeks() {
    for (const entry of [...peeks]) entry.hide();
  }

  function releaseHeld() {
    for (const entry of [...peeks]) if (entry.held()) entry.hide();
  }

  function sweepPeeks() {
    for (const entry of [...peeks]) if (!entry.wrap.isConnected) entry.hide();
  }

  window.addEventListener("pointerup", releaseHeld);
  window.addEventListener("pointercancel", releaseHeld);
  window.addEventListener("blur", hideAllPeeks);

  // -- this phone's own voice: one polite announcement at a time (a receipt, a new question, a secret) -------

  const announcer = document.getElementById("say");
  let voice = [];
  let voiceTimer = 0;

  // What is said within a moment is one announcement, a receipt (`first`) before the question after it.
  function speak(lines, first) {
    if (!announcer) return;
    if (!voiceTimer) {
      voice = [];
      announcer.textContent = "";  // the same words said again are said again
    }
    voice[first ? "unshift" : "push"](...[].concat(lines));
    clearTimeout(voiceTimer);
    voiceTimer = setTimeout(() => {
      voiceTimer = 0;
      announcer.replaceChildren(...voice.map((line) => h("p", {}, line)));  // a pause between lines
    }, 60);
  }

  // A secret closed again leaves the voice too.
  function hush() {
    clearTimeout(voiceTimer);
    voiceTimer = 0;
    if (announcer) announcer.textContent = "";
  }

  // What a screen reader says of a secret, line by line: no colour's symbol, a space between the pieces.
  function spoken(node) {
    const copy = node.cloneNode(true);
    for (const hidden of copy.querySelectorAll("[aria-hidden=true]")) hidden.remove();
    for (const piece of copy.querySelectorAll("*")) piece.after(" ");
    const lines = [...copy.querySelectorAll(".secret-line, li, h3")];
    return (lines.length ? lines : [copy]).map((n) => n.textContent.replace(/\s+/g, " ").trim());
  }

  // What a board renderer may use: the page's words and its building blocks.
  function context() {
    return { h, t, say, rich, has, chip, dice, list: listOf, peek: peekButton, lang: words.lang, role: app.role,
      seat: app.seat };
  }

  function boardOf(view) {
    return view && view.parts && typeof view.parts === "object" && window.BoardParts ? window.BoardParts : null;
  }

  // A part of a board renderer; a missing or failing renderer leaves the rest of the page working.
  function drawnBy(view, part, fallback) {
    const board = boardOf(view);
    if (!board || typeof board[part] !== "function") return fallback();
    try {
      return board[part](view, context()) || [];
    } catch (error) {
      console.error("board renderer", view.board, part, error);
      return fallback();
    }
  }

  // -- the host's tools: fetched by the host's page only (static/host.js), never by a seat's phone ------------

  const HOST_SECTIONS = ["host", "correct", "join", "hostnav", "newgame", "people", "history"];

  function loadHostTools() {
    if (document.getElementById("host-tools")) return;
    document.head.append(h("link", { rel: "stylesheet", href: "/static/host.css" }),
      h("script", { id: "host-tools", src: "/static/host.js", onload: () => paint() }));
  }

  function hostTools(tools) {
    if (!tools) {
      for (const id of HOST_SECTIONS) section(id, "", () => []);
      return;
    }
    try {
      tools.draw({ h, t, say, rich, chip, known, colourName, seatName, unnamed, isMessage, list: listOf, section, paint,
        app, send: hostSend, questionBlock, takeoverBox, lang: words.lang });
    } catch (error) {
      console.error("host tools", error);
    }
  }

  // -- sections: each is rebuilt only when what it shows has changed ------------------------------------

  const drawn = new Map();

  // -- focus survives a redraw: the control that had it, drawn anew, has it again ----------------------------
  // A control is known by what it does (its answer, card, seat...), not by its state; gone, the new question's
  // title or the section's first words take the focus, never the top of the page.

  const keyOf = (n) => [n.tagName, (n.getAttribute("class") || "").replace(/\b(armed|chosen|on|held)\b/g, "").trim(),
    ...["id", "data-answer", "data-choice", "data-card", "data-item", "data-to", "data-seat", "type"].map((a) =>
      n.getAttribute(a))].join("|");
  const alike = (node, key) => [...node.querySelectorAll("*")].filter((n) => keyOf(n) === key);
  let focusedTitle = false;  // a new question's title took the focus (it is read there: not said again)

  function refocus(node, key, index) {
    const same = alike(node, key)[index];
    const target = same && !same.disabled ? same : node.querySelector(".question-title, h2, h3, p");
    if (!target) return;
    if (!target.matches("button, input, select, summary, a, [tabindex]")) target.tabIndex = -1;
    target.focus({ preventScroll: true });
    if (target !== same && target.matches(".question-title")) focusedTitle = true;
  }

  function section(id, key, build) {
    const node = document.getElementById(id);
    if (!node) return;
    const full = words.lang + "\u0000" + JSON.stringify(names()) + "\u0000" + key;  // a seat's name is in every chip
    if (drawn.get(id) === full) return;
    drawn.set(id, full);
    const active = document.activeElement;
    const held = active !== node && node.contains(active) && keyOf(active);
    const index = held ? alike(node, held).indexOf(active) : 0;
    const children = [build()].flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false);
    node.replaceChildren(...children);
    node.hidden = children.length === 0;
    sweepPeeks();
    if (held && !node.hidden) refocus(node, held, index);
  }

  function redraw() {
    drawn.clear();
    paint();
  }

  function paint() {
    document.documentElement.lang = words.lang;
    document.title = t("page.title");
    document.body.className = app.role ? "role-" + app.role : "";
    renderHeader();
    const view = app.view;
    const shown = !app.notice;
    const seat = shown && app.role === "seat" && view;
    section("notice", JSON.stringify(app.notice), () =>
      app.notice ? [h("p", { class: "notice-text" }, t(app.notice)),
        app.notice === "page.taken_over" ? h("p", { class: "hint" }, t("page.taken_over_hint"), " ",
          t("faults.page.taken_over_allow")) : null] : []);
    section("error", JSON.stringify([app.error, app.serverLang]), () => app.error ? [
      h("span", { class: "error-text" }, errorText(app.error)),
      h("button", { type: "button", class: "dismiss", "aria-label": t("page.dismiss"),
        onclick: () => { app.error = null; paint(); } }, "×"),
    ] : []);
    section("first", seat ? JSON.stringify([view.first, view.rules, app.firstDone]) : "", () =>
      seat ? firstTime(view) : []);
    section("question", seat ? JSON.stringify([view.question, !!view.over, app.status, app.openCards, app.cardPick, app.armed,
      app.waiting, app.takeoverRequest, app.drafts[view.question && view.question.id],
      app.chosen[view.question && view.question.id], countdown.question]) : "", () =>
      seat ? seatQuestion(view) : []);
    document.getElementById("question").dataset.question = (seat && view.question && view.question.id) || "";
    section("secrets", seat && !app.waiting ? secretsKey(view) : "", () =>
      seat && !app.waiting ? drawnBy(view, "secrets", () => []) : []);
    section("waiting", shown && view ? JSON.stringify([view.prompt, app.seat, !!view.question, countdown.question,
      !!(view.question && view.question.held)]) : "", () =>
      shown && view ? waiting(view) : []);
    section("narration", shown && view ? JSON.stringify([view.narration, view.narration_mine, view.undone, app.seat,
      app.role]) : "",
      () => shown && view ? narration(view) : []);
    section("over", shown && view ? JSON.stringify(publicKey(view)) : "", () =>
      shown && view && view.over ? drawnBy(view, "over", () => genericOver(view)) : []);
    section("revealed", shown && view ? JSON.stringify(publicKey(view)) : "", () =>
      shown && view ? drawnBy(view, "revealed", () => []) : []);
    section("board", shown ? JSON.stringify([app.role, publicKey(view)]) : "", () =>
      shown ? (view ? drawnBy(view, "board", () => noBoard(view))
        : (app.role ? [h("p", { class: "hint" }, t(app.role === "host" ? "page.no_game_host" : "page.no_game"))]
          : [])) : []);
    section("fairness", shown && view ? JSON.stringify(view.cup_rolls || []) : "", () =>
      shown && view ? fairness(view.cup_rolls || []) : []);
    hostTools(shown && app.role === "host" ? window.HostTools : null);
    keepAwake(!!view && !view.over && !app.stopped);
  }

  // The board's part of the view: everything but the seat's own question and lines (a board draws no secret).
  function publicKey(view) {
    if (!view) return null;
    const { question, narration_mine: mine, ...rest } = view;
    return rest;
  }

  function secretsKey(view) {
    const board = boardOf(view);
    if (board && typeof board.secretsKey === "function") {
      try {
        return JSON.stringify(board.secretsKey(view));
      } catch (error) {
        console.error("board renderer", view.board, "secretsKey", error);
      }
    }
    return JSON.stringify(publicKey(view));
  }

  function noBoard(view) {
    return [h("h2", {}, t("page.board")), h("p", { class: "hint no-board" }, t("page.no_board"))];
  }

  function genericOver(view) {
    const winners = Array.isArray(view.winners) ? view.winners : [];
    return [h("h2", {}, t("page.game_over")),
      winners.length ? h("p", { class: "winners" }, h("span", { class: "label" },
        t(winners.length > 1 ? "page.winners" : "page.winner")), " ", listOf(winners.map((w) => chip(w)))) : null];
  }

  function renderHeader() {
    document.getElementById("title").textContent = t("page.title");
    const who = document.getElementById("who");
    section("who", JSON.stringify([app.role, app.seat]), () => {
      if (app.role === "seat") return [h("span", { class: "label" }, t("page.you_are")), " ", chip(app.seat)];
      if (app.role === "host") return [t("page.role.host")];
      if (app.role === "spectator") return [t("page.role.spectator")];
      return [];
    });
    who.hidden = !app.role;
    const status = document.getElementById("status");
    const said = t("page.status." + app.status);
    if (status.textContent !== said) status.textContent = said;  // a live region: said only when it changes
    status.className = "status " + app.status;
    document.getElementById("lang-label").textContent = t("page.language");
    const select = document.getElementById("lang");
    const codes = Object.keys(words.languages || {});
    if (select.options.length !== codes.length) {
      select.replaceChildren(...codes.map((code) => h("option", { value: code, lang: code }, words.languages[code])));
    }
    select.value = words.lang;
  }

  function errorText(error) {
    if (error.local) return t(error.local);
    const fresh = typeof error.message === "string" && error.message && error.lang === words.lang;
    const text = fresh ? error.message : error.key ? say({ key: error.key, params: error.params || {} })
      : String(error.message || error.code || "");
    if (error.code === "refused" || error.code === "forbidden" || error.code === "not_your_seat") {
      return t("page.refused", { message: text });
    }
    if (error.code === "stale" || error.code === "rate_limited") return text;
    return t("page.server_error", { message: text });
  }

  // -- the grace before a reveal: every device counts down from the view's "revealing" ---------------------
  // The table holds the last secret answer a few seconds (its seat may change it) and says how many were left
  // when the board last changed; each page counts from the moment it first heard of that grace.

  const countdown = { question: null, until: 0, timer: null };

  function followRevealing(view) {
    const revealing = view && view.revealing && typeof view.revealing === "object" ? view.revealing : null;
    if (!revealing) {
      countdown.question = null;
      clearInterval(countdown.timer);
      countdown.timer = null;
      return;
    }
    if (countdown.question !== revealing.question) {
      const left = Number(revealing.left);
      countdown.question = revealing.question;
      countdown.until = performance.now() + 1000 * (Number.isFinite(left) && left > 0 ? left : 0);
    }
    if (!countdown.timer) countdown.timer = setInterval(tick, 200);
  }

  function secondsLeft() {
    return Math.max(0, Math.ceil((countdown.until - performance.now()) / 1000));
  }

  // Only the figure changes: the answers under a finger are never drawn again while it counts.
  function tick() {
    const left = String(secondsLeft());
    for (const node of document.querySelectorAll(".reveal-left")) {
      if (node.textContent !== left) node.textContent = left;
    }
  }

  // "Revealing in 3 s: change your answer?" to the seat that answered last, "Revealing in 3 s" to everyone else.
  function revealingLine(key, mine) {
    return h("p", { class: "revealing" + (mine ? " mine" : ""), "data-question": countdown.question },
      pieces(raw(key)).map((piece) => "text" in piece ? piece.text : piece.name === "seconds"
        ? h("span", { class: "reveal-left" }, String(secondsLeft())) : "{" + piece.name + "}"));
  }

  // -- the seat's question, whatever the game --------------------------------------------------------------

  function seatQuestion(view) {
    if (app.waiting) return [h("p", { class: "takeover-wait" }, t("faults.page.waiting", { seat: app.seat }))];
    const asked = app.takeoverRequest ? [takeoverBox(t("faults.page.asked", { seat: app.seat }), (allow) =>
      send({ type: "takeover", request: app.takeoverRequest, allow }), "seat")] : [];
    return asked.concat(seatQuestionProper(view));
  }

  // A device asks for a seat: the seat's own device or the table screen allows it, or refuses.
  function takeoverBox(text, decide, where) {
    return h("div", { class: "takeover", role: "alertdialog", "data-where": where },
      h("p", {}, text),
      h("div", { class: "controls" },
        h("button", { type: "button", class: "takeover-allow danger", onclick: () => decide(true) },
          t("faults.page.allow")),
        h("button", { type: "button", class: "takeover-refuse", onclick: () => decide(false) },
          t("faults.page.refuse"))));
  }

  function seatQuestionProper(view) {
    const question = view.question;
    if (!question) return view.over ? [] : [h("p", { class: "idle" }, t("page.nothing_to_do"))];
    return [questionBlock(question, "seat"), seeBoard()];
  }

  // The whole board is one tap away from the question.
  function seeBoard() {
    return h("button", { type: "button", class: "small see-board", onclick: () => {
      const board = document.getElementById("board");
      if (board && !board.hidden) board.scrollIntoView({ block: "start" });
    } }, t("page.see_board"));
  }

  // A question by its kind: pick, ballot, cards, number or assign. `where` keeps the host's apart.
  function questionBlock(question, where) {
    const online = app.status === "connected";
    const out = [h(where === "seat" ? "h2" : "h4", { class: "question-title" }, rich(question.title))];
    if (Array.isArray(question.facts) && question.facts.length) {
      out.push(h("ul", { class: "facts" }, question.facts.map((fact) => h("li", {}, rich(fact)))));
    }
    if (!online) out.push(h("p", { class: "offline hint" }, t("page.offline")));
    const choices = Array.isArray(question.choices) ? question.choices : [];
    const plain = choices.filter((c) => c.group !== "card");
    const cards = choices.filter((c) => c.group === "card");
    const send = (action, label) => answer(question.id, action, where === "seat" ? label : undefined);
    const chosen = where === "seat" ? app.chosen[question.id] || null : null;
    if (question.kind === "number") {
      out.push(numberAnswer(question, online, send));
    } else if (question.kind === "assign") {
      out.push(assignAnswer(question, online, send));
    } else {
      const id = where + ":" + question.id;
      const open = app.openCards === id;
      // "Play a card…" sits among the answers (beside passing), the cards unfold below them.
      const fold = cards.length ? h("button", { type: "button", class: "play-card",
        "aria-expanded": open ? "true" : "false", disabled: !online,
        onclick: () => { app.openCards = open ? null : id; app.cardPick = null; paint(); } },
      open ? t("page.hide_cards") : t("page.play_card")) : null;
      // Once a card is chosen, its steps take the place of the other answers (back with "Hide the cards").
      const picking = open && app.cardPick && app.cardPick.id === id && app.cardPick.group !== null;
      if (plain.length && !picking) {
        const secret = question.secret || question.kind === "ballot";
        out.push(h("div", { class: "options" }, plain.map((c) => optionButton(c, online, send, id, chosen, secret)),
          fold));
      } else if (fold) {
        out.push(fold);
      }
      if (cards.length && open && online) out.push(cardSteps(id, cards, send));
    }
    if (question.secret || question.kind === "ballot") {
      const ballot = question.kind === "ballot";
      out.push(h("div", { class: "receipt" }, question.answered ? [
        h("p", { class: "received" }, t(ballot ? "page.vote_received" : "page.answer_received")),
        question.held && countdown.question ? revealingLine("ui.revealing", true)
          : h("p", { class: "hint" }, t(ballot ? "page.change_vote" : "page.change_answer")),
      ] : h("p", { class: "hint secret-hint" }, t("page.secret_answer"))));
    }
    if (where === "seat") out.push(whyOf(question));  // the rule behind it, below the answers
    return out;
  }

  // The cards, in steps: a card (the choices that say the same sentence with other parameters are one card),
  // then its option when it has several (where to go, whom to hide), then "play it?" — one mis-tap never
  // spends a card.
  function cardGroups(cards) {
    const groups = [];
    for (const choice of cards) {
      const key = choice.label && typeof choice.label.key === "string" ? choice.label.key : JSON.stringify(choice.action);
      let group = groups.find((g) => g.key === key);
      if (!group) groups.push(group = { key, choices: [] });
      group.choices.push(choice);
    }
    return groups;
  }

  function cardSteps(id, cards, send) {
    const groups = cardGroups(cards);
    const pick = app.cardPick && app.cardPick.id === id ? app.cardPick : { id, group: null, choice: null };
    const go = (group, choice) => { app.cardPick = { id, group, choice }; paint(); };
    const back = (to) => h("button", { type: "button", class: "small card-back", onclick: to }, t("page.card_back"));
    const group = groups.find((g) => g.key === pick.group);
    if (group && group.choices[pick.choice]) {
      const choice = group.choices[pick.choice];
      return h("div", { class: "card-confirm", role: "alertdialog" },
        h("p", { class: "confirm-text" }, rich({ key: "page.card_confirm", params: { choice: choice.label } })),
        choice.note ? h("p", { class: "option-note" }, rich(choice.note)) : null,
        h("div", { class: "controls" },
          h("button", { type: "button", class: "option primary confirm-card",
            "data-answer": JSON.stringify(choice.action), onclick: () => {
              app.cardPick = null;
              app.openCards = null;
              send(choice.action, choice.label);
            } }, h("span", { class: "option-label" }, t("page.card_play"))),
          back(() => go(group.choices.length > 1 ? group.key : null, null))));
    }
    if (group && group.choices.length > 1) {
      const note = group.choices[0].note;
      return h("div", { class: "card-options" },
        note ? h("p", { class: "card-effect" }, rich(note)) : null,
        h("div", { class: "options" }, group.choices.map((choice, i) => h("button", { type: "button",
          class: "option card-choice", "data-choice": JSON.stringify(choice.action), onclick: () => go(group.key, i) },
        h("span", { class: "option-label" }, rich(choice.label)),
        choice.note && JSON.stringify(choice.note) !== JSON.stringify(note)
          ? h("span", { class: "option-note" }, rich(choice.note)) : null))),
        back(() => go(null, null)));
    }
    return h("div", { class: "options cards wide" }, groups.map((g) => {
      const first = g.choices[0];
      const many = g.choices.length > 1;
      return h("button", { type: "button", class: "option card-pick", "data-card": g.key,
        "data-answers": JSON.stringify(g.choices.map((c) => c.action)), onclick: () => go(g.key, many ? null : 0) },
      h("span", { class: "option-label" }, many ? [rich(first.note || first.label), "…"] : rich(first.label)),
      !many && first.note ? h("span", { class: "option-note" }, rich(first.note)) : null);
    }));
  }

  // A choice that changes the game for good (a player dies, a phase ends) asks for a second tap.
  // Each answer is a toggle that says whether it is the one chosen (aria-pressed); a public answer's choice is
  // marked to the eye too (✓), a secret one only to the ear and behind "see your secret".
  function optionButton(choice, online, send, asked, chosen, secret) {
    const answer = JSON.stringify(choice.action);
    const armed = choice.confirm === true && app.armed === asked + answer;  // armed for this question only
    const picked = chosen === answer;
    return h("button", { type: "button", class: "option" + (choice.group ? " group-" + choice.group : "")
      + (armed ? " armed" : "") + (picked && !secret ? " chosen" : ""), "data-answer": answer,
      "data-slot": choice.slot, disabled: !online, "data-armed": armed ? "true" : null,
      "aria-pressed": picked ? "true" : "false",
      onclick: () => {
        if (choice.confirm === true && !armed) {
          app.armed = asked + answer;
          paint();
          speak(t("page.confirm_again", { choice: choice.label }), true);
          return;
        }
        app.armed = null;
        send(choice.action, choice.label);
        if (armed) paint();  // the second tap sent it: no longer "Sure? Tap again"
      } },
    h("span", { class: "option-label" }, picked && !secret ? h("span", { class: "chosen-mark", "aria-hidden": "true" },
      "✓") : null,
    armed ? rich({ key: "page.confirm_again", params: { choice: choice.label } }) : rich(choice.label)),
    choice.note ? h("span", { class: "option-note" }, rich(choice.note)) : null);
  }

  function built(question, value) {
    return { ...(question.answer || {}), [question.field]: value };
  }

  function numberAnswer(question, online, send) {
    const low = Number.isInteger(question.low) ? question.low : 0;
    const high = Number.isInteger(question.high) ? question.high : low;
    const draft = app.drafts[question.id];
    const start = Number.isInteger(draft) ? draft : low;
    const input = h("input", { type: "number", class: "number", inputmode: "numeric", min: low, max: high, step: 1,
      value: start, "aria-label": t("page.number_range", { low, high }) });
    const button = h("button", { type: "button", class: "option primary send", disabled: !online,
      "data-answer": JSON.stringify(built(question, start)) }, t("page.send"));
    const current = () => {
      if (input.value.trim() === "") return null;  // an emptied field is no answer (Number("") would be 0)
      const n = Number(input.value);
      return Number.isInteger(n) && n >= low && n <= high ? n : null;
    };
    input.addEventListener("input", () => {
      const n = current();
      if (n !== null) app.drafts[question.id] = n;
      button.disabled = !online || n === null;
      button.setAttribute("data-answer", JSON.stringify(built(question, n)));
    });
    button.addEventListener("click", () => {
      const n = current();
      if (n !== null) {
        app.drafts[question.id] = n;
        send(built(question, n), n);
      }
    });
    return h("div", { class: "number-answer" },
      h("label", { class: "field" }, h("span", { class: "label" }, t("page.number_range", { low, high })), input),
      button);
  }

  // An assignment the question already holds in its answer is the rules' proposal: the selects start from it.
  function proposed(question, items, targets) {
    const given = question.answer && question.field ? question.answer[question.field] : null;
    const start = {};
    if (!given || typeof given !== "object" || Array.isArray(given)) return start;
    const known = new Set(targets.map((target) => target.value));
    for (const item of items) {
      if (Object.prototype.hasOwnProperty.call(given, item.value) && known.has(given[item.value])) {
        start[item.value] = given[item.value];
      }
    }
    return start;
  }

  function assignAnswer(question, online, send) {
    const items = Array.isArray(question.items) ? question.items : [];
    const targets = Array.isArray(question.targets) ? question.targets : [];
    const chosen = { ...(app.drafts[question.id] || proposed(question, items, targets)) };
    const complete = () => items.every((item) => Object.prototype.hasOwnProperty.call(chosen, item.value));
    const button = h("button", { type: "button", class: "option primary send", disabled: !online || !complete(),
      "data-answer": JSON.stringify(built(question, chosen)) }, t("page.send"));
    const rows = items.map((item) => {
      const select = h("select", { class: "assign-target", "data-item": item.value },
        h("option", { value: "" }, t("page.assign_pick")),
        targets.map((target) => h("option", { value: target.value, selected: chosen[item.value] === target.value },
          say(target.label))));
      select.addEventListener("change", () => {
        if (select.value === "") delete chosen[item.value];
        else chosen[item.value] = select.value;
        app.drafts[question.id] = { ...chosen };
        button.disabled = !online || !complete();
        button.setAttribute("data-answer", JSON.stringify(built(question, chosen)));
      });
      return h("label", { class: "field assign-row" }, h("span", { class: "assign-item" }, rich(item.label)), select);
    });
    button.addEventListener("click", () => { if (complete()) send(built(question, { ...chosen }), null); });
    return h("div", { class: "assign-answer" }, rows, button);
  }

  function waiting(view) {
    const prompt = view.prompt;
    const held = app.role === "seat" && view.question && view.question.held;
    const reveal = countdown.question && !held ? revealingLine("page.revealing", false) : null;
    if (!prompt || !Array.isArray(prompt.waiting) || !prompt.waiting.length) return reveal ? [reveal] : [];
    const me = app.role === "seat" ? app.seat : null;
    const title = prompt.title && !view.question ? [h("p", { class: "prompt-title" }, rich(prompt.title)), whyOf(prompt)]
      : null;
    return [reveal, title, h("p", { class: "waiting-seats" }, h("span", { class: "label" }, t("page.waiting_on")), " ",
      listOf(prompt.waiting.map((s) => s === me
        ? h("span", { class: "me-wait" }, chip(s, "me"), " ", h("span", { class: "me-note" }, "(" + t("page.you") + ")"))
        : chip(s))))];
  }

  // -- the narration: this round, latest first ------------------------------------------------------------

  function lineItem(entry, extra) {
    const act = entry && entry.act === true;
    return h("li", { class: "line" + (act ? " act" : "") + (extra ? " " + extra : ""), "data-key": entry.key },
      act ? h("span", { class: "act-mark", role: "img", "aria-label": t("page.act"), title: t("page.act") }, "☛")
        : null,
      h("span", { class: "line-text" }, rich(entry)), extra === "private" ? null : whyOf(entry));
  }

  // "Why?" beside a line or a question: the rule behind it, from the view's words (static/rules.js).
  function whyOf(item) {
    const rules = app.view && app.view.rules;
    return window.RuleAtHand && item ? window.RuleAtHand.why(context(), item, rules) : null;
  }

  // First-game mode on a seat's phone: the rules this moment meets for the first time, once in this game on this
  // page, until "Got it".
  function firstTime(view) {
    if (!window.RuleAtHand || !Array.isArray(view.first) || !view.first.length) return [];
    const seen = window.RuleAtHand.seenIn((app.token || "") + "." + (view.game || ""));
    return window.RuleAtHand.firstTime(context(), view.first, view.rules, seen, (rules) => {
      seen.keep(rules);
      app.firstDone += 1;
      paint();
    }) || [];
  }

  // A line is about a seat when one of its parameters names it (its colour), however deep.
  function mentions(value, seat) {
    if (value === seat) return true;
    if (Array.isArray(value)) return value.some((v) => mentions(v, seat));
    if (value && typeof value === "object") return Object.values(value).some((v) => mentions(v, seat));
    return false;
  }

  const LATEST = 5;  // lines shown at once on a seat's phone; the rest of the round one tap away

  function narration(view) {
    let lines = Array.isArray(view.narration) ? view.narration.slice().reverse() : [];
    const seat = app.role === "seat" ? app.seat : null;
    if (seat) {  // of the latest lines, those about this player first; nothing newer is ever folded below older
      const latest = lines.slice(0, LATEST);
      const about = latest.filter((entry) => entry && mentions(entry.params, seat));
      lines = about.concat(latest.filter((entry) => !about.includes(entry)), lines.slice(LATEST));
    }
    const mine = app.role === "seat" && Array.isArray(view.narration_mine) ? view.narration_mine.slice().reverse() : [];
    const undone = Array.isArray(view.undone) ? view.undone : [];
    if (!lines.length && !mine.length && !undone.length) return [];
    return [
      h("h2", {}, t("page.narration")),
      undone.length ? h("div", { class: "undone" }, h("h3", {}, t("page.undone")),
        h("ul", { class: "lines" }, undone.map((entry) => lineItem(entry, "taken-back")))) : null,
      // Lines for this seat alone (what the dice showed him...): behind hold-to-peek, like every secret.
      mine.length ? h("div", { class: "mine" }, peekButton(t("page.peek_mine"), () => [
        h("h3", {}, t("page.narration_mine")),
        h("ul", { class: "lines" }, mine.map((entry) => lineItem(entry, "private")))])) : null,
      lines.length ? h("ul", { class: "lines public" }, (seat ? lines.slice(0, LATEST) : lines).map((entry) =>
        lineItem(entry, seat && mentions(entry.params, seat) ? "about-me" : ""))) : null,
      seat && lines.length > LATEST ? h("details", { class: "more-lines" },
        h("summary", {}, t("page.more_lines", { count: lines.length - LATEST })),
        h("ul", { class: "lines public" }, lines.slice(LATEST).map((entry) =>
          lineItem(entry, mentions(entry.params, seat) ? "about-me" : "")))) : null,
    ];
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
      h("div", { class: "roll-title" }, t("page.roll", { n, count: roll.count })),
      h("div", { class: "commit" }, h("span", { class: "label" }, t("page.commitment")), " ",
        h("code", {}, String(roll.commitment))),
      open ? [
        h("div", {}, h("span", { class: "label" }, t("page.dice")), " ", dice(roll.dice)),
        h("div", { class: "nonce" }, h("span", { class: "label" }, t("page.nonce")), " ", h("code", {}, roll.nonce)),
        h("div", { class: "verify " + (ok ? "ok" : "bad") }, ok ? t("page.verified") : t("page.mismatch")),
      ] : h("div", { class: "sealed" }, t("page.sealed")));
  }

  // Folded to one line ("✓ dice verified") that opens; open by itself when a roll does not match its seal.
  function fairness(rolls) {
    if (!rolls.length) return [];
    const items = rolls.map((roll, i) => rollItem(roll, i + 1)).reverse();
    const older = items.slice(3);
    const opened = rolls.filter((roll) => Array.isArray(roll.dice) && typeof roll.nonce === "string");
    const bad = opened.filter((roll) => !verifies(roll)).length;
    const line = bad ? h("span", { class: "verify bad" }, t("page.fairness_bad", { count: bad }))
      : opened.length ? h("span", { class: "verify ok" }, t("page.fairness_ok", { count: opened.length }))
        : h("span", { class: "sealed" }, t("page.fairness_sealed"));
    return [h("details", { class: "fairness-fold", open: bad > 0 },
      h("summary", {}, h("span", { class: "fairness-name" }, t("page.fairness_title")), " ", line),
      h("p", { class: "hint" }, t("page.fairness_hint")),
      items.slice(0, 3),
      older.length ? h("details", {}, h("summary", {}, t("page.earlier_rolls", { count: older.length })), older)
        : null)];
  }

  // -- talking to the table --------------------------------------------------------------------------------

  function send(message) {
    if (!app.ws || app.ws.readyState !== WebSocket.OPEN) {
      app.error = { local: "page.not_sent" };
      paint();
      return false;
    }
    app.ws.send(JSON.stringify({ v: 1, ...message }));
    return true;
  }

  // `label` (the answer as the seat reads it, a message or a number): said back once the table has it; a
  // choice's answer is then marked among the answers while the question stays open (a secret one, until the reveal).
  function answer(question, action, label) {
    app.sent = label === undefined ? null : { question, answer: JSON.stringify(action), label };
    send({ type: "answer", question, action });
  }

  function hostSend(message) {
    app.hostNote = null;
    app.hostPending = send(message);
    paint();
  }

  function onMessage(message) {
    switch (message.type) {
      case "welcome":
        app.role = message.role;
        if (app.role === "host") loadHostTools();
        app.seat = message.seat || null;
        app.waiting = message.waiting === true;
        app.backoff = 500;
        app.status = "connected";
        break;
      case "state": {
        const before = app.view && app.view.prompt ? app.view.prompt.id : null;
        app.view = message.view || null;
        app.connected = Array.isArray(message.connected) ? message.connected : [];
        app.host = message.host || null;
        const now = app.view && app.view.prompt ? app.view.prompt.id : null;
        if (app.error && app.errorQuestion !== now && before !== now) app.error = null;
        if (before !== now) app.cardPick = null;
        followRevealing(app.view);
        break;
      }
      case "ack":
        app.error = null;
        if (message.question && app.sent && app.sent.question === message.question) {
          const sent = app.sent;
          app.sent = null;
          app.chosen[sent.question] = sent.answer;
          const asked = app.view && app.view.question;
          // A secret answer: the focus goes to its receipt, so that no ring around the answer tells a neighbour.
          app.toReceipt = asked && asked.id === sent.question && (asked.secret || asked.kind === "ballot")
            ? sent.question : false;
          speak(sent.label === null ? t("page.answer_received") : t("page.you_chose", { choice: sent.label }), true);
        }
        if (!message.question && app.hostPending) app.hostNote = t("page.done");
        app.hostPending = false;
        break;
      case "error":
        app.hostPending = false;
        onError(message);
        break;
      case "taken_over":
        stop("page.taken_over");
        break;
      case "takeover_asked":  // another device asks for this seat: this device may allow it
        app.takeoverRequest = typeof message.request === "string" ? message.request : null;
        break;
      case "takeover_settled":
        app.takeoverRequest = null;
        break;
      case "host_link":  // the host link was renewed from this page: move to the new one
        if (typeof message.path === "string" && /^\/h\/[A-Za-z0-9_-]+$/.test(message.path)) {
          app.stopped = true;
          try {
            localStorage.setItem(PAGE_KEY, message.path);
          } catch (e) {
            // the new URL holds the token
          }
          location.replace(message.path);
        }
        break;
      case "notice":  // from the table's devices, e.g. "pad hub disconnected" (host screen only)
        app.hostNote = typeof message.message === "string" && message.message ? message.message
          : typeof message.key === "string" ? say({ key: message.key, params: message.params || {} }) : null;
        break;
      default:
        break;  // pong, or a newer server's message this page does not know
    }
    focusedTitle = false;
    paint();
    if (app.toReceipt) {  // the receipt is drawn once the table's new view says the answer is in
      const here = app.view && app.view.question && app.view.question.id === app.toReceipt;
      const receipt = document.querySelector("#question .received");
      if (!here || receipt) app.toReceipt = false;
      if (here && receipt && document.getElementById("question").contains(document.activeElement)) {
        receipt.tabIndex = -1;
        receipt.focus({ preventScroll: true });
      }
    }
    announceQuestion();
  }

  // A new question for this seat is said once ("New question: ..."), unless the focus went to its title (read
  // there); a redraw, another language, a reconnection say nothing.
  function announceQuestion() {
    const question = app.role === "seat" && !app.notice && !app.waiting && app.view ? app.view.question : null;
    if (!question || question.id === app.announced) return;
    app.announced = question.id;
    if (!focusedTitle) speak(t("page.new_question", { question: question.title }));
  }

  function onError(message) {
    const code = message.code;
    if (code === "unknown_token" || code === "new_game" || code === "host_renewed") {
      forget();
      stop(code === "new_game" ? "page.new_game_started" : code === "host_renewed" ? "faults.page.host_renewed"
        : "page.unknown_token");
      return;
    }
    if (code === "takeover_refused") {
      stop("faults.page.refused_notice");
      return;
    }
    app.errorQuestion = app.view && app.view.prompt ? app.view.prompt.id : null;
    app.error = { code: String(code || ""), key: typeof message.key === "string" ? message.key : null,
      params: message.params && typeof message.params === "object" ? message.params : {},
      message: typeof message.message === "string" ? message.message : "", lang: app.serverLang };
  }

  function stop(notice) {
    app.stopped = true;
    app.notice = notice;
    app.status = "stopped";
    clearTimeout(app.retry);
    if (app.ws) app.ws.close();
    hideAllPeeks();
  }

  function tellLanguage() {
    if (app.ws && app.ws.readyState === WebSocket.OPEN && app.serverLang !== words.lang) {
      app.ws.send(JSON.stringify({ v: 1, type: "lang", lang: words.lang }));
      app.serverLang = words.lang;
    }
  }

  function connect() {
    if (app.stopped) return;
    clearTimeout(app.retry);
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(scheme + "//" + location.host + "/ws/" + encodeURIComponent(app.token) + "?lang=" +
      encodeURIComponent(words.lang) + "&device=" + encodeURIComponent(app.device));
    app.ws = ws;
    app.serverLang = null;
    ws.addEventListener("open", () => {
      if (app.ws === ws) tellLanguage();
    });
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
      if (STOP_CODES.has(event.code) && !app.stopped) stop(STOP_CODES.get(event.code));
      if (app.stopped) {
        paint();
        return;
      }
      app.status = "reconnecting";
      paint();
      app.retry = setTimeout(connect, app.backoff);
      app.backoff = Math.min(app.backoff * 2, 8000);  // 0.5 s, 1 s, 2 s, ... 8 s
    });
  }

  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "hidden") {
      hideAllPeeks();
      return;
    }
    if (!app.ws && !app.stopped && app.token) {  // back from sleep: try now rather than at the end of the backoff
      app.backoff = 500;
      connect();
    }
    wakeLock = null;  // the system releases the lock when the page is hidden
    paint();
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

  // -- the language ----------------------------------------------------------------------------------------

  // A language code for a browser tag: zh-TW/zh-HK/zh-Hant → zh-Hant, other zh → zh-Hans, else the base tag.
  function codeFor(tag) {
    const lower = String(tag).toLowerCase();
    if (lower.startsWith("zh")) return /hant|-tw|-hk|-mo/.test(lower) ? "zh-Hant" : "zh-Hans";
    return lower.split("-")[0];
  }

  function storedLanguage() {
    try {
      return localStorage.getItem(LANG_KEY);
    } catch (e) {
      return null;  // storage can be off (private mode): fall back to the browser's languages
    }
  }

  const catalogues = new Map();

  function fetchCatalogue(code) {
    if (!/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(code)) return Promise.resolve(null);
    if (!catalogues.has(code)) {
      catalogues.set(code, fetch("/i18n/" + encodeURIComponent(code) + ".json", { cache: "no-cache" })
        .then((response) => (response.ok ? response.json() : null))
        .then((data) => (data && typeof data === "object" && data.messages ? data : null))
        .catch(() => null)
        .then((data) => {
          if (!data) catalogues.delete(code);  // not spoken here (or the network failed): try again another time
          return data;
        }));
    }
    return catalogues.get(code);
  }

  async function firstCatalogue(codes) {
    for (const code of codes) {
      const data = await fetchCatalogue(code);
      if (data) return data;
    }
    return null;
  }

  function use(data) {
    words.lang = typeof data.lang === "string" ? data.lang : "en";
    words.languages = data.languages && typeof data.languages === "object" ? data.languages : {};
    words.plural = data.plural === "en" ? "en" : "one";
    words.terms = data.terms && typeof data.terms === "object" ? data.terms : {};
    words.families = data.families && typeof data.families === "object" ? data.families : {};
    words.messages = data.messages;
  }

  async function switchLanguage(code) {
    const data = await fetchCatalogue(code);
    if (!data) return;
    use(data);
    try {
      localStorage.setItem(LANG_KEY, words.lang);
    } catch (e) {
      // remembered for this page only
    }
    tellLanguage();
    redraw();
  }

  document.getElementById("lang").addEventListener("change", (event) => switchLanguage(event.target.value));

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

  // This device's key: kept in the browser, so that a reload or a new Wi-Fi keeps the seat without asking.
  function deviceKey() {
    let key = null;
    try {
      key = localStorage.getItem(DEVICE_KEY);
    } catch (e) {
      key = null;
    }
    if (!key || !/^[A-Za-z0-9_-]{16,64}$/.test(key)) {
      const bytes = new Uint8Array(16);
      crypto.getRandomValues(bytes);
      key = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
      try {
        localStorage.setItem(DEVICE_KEY, key);
      } catch (e) {
        // kept for this page only (private browsing): a reload asks the table again
      }
    }
    return key;
  }

  async function start() {
    app.device = deviceKey();
    const wanted = [storedLanguage(), ...(navigator.languages || [navigator.language])].filter(Boolean).map(codeFor);
    const data = await firstCatalogue([...new Set([...wanted, "en"])]);
    if (data) use(data);
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
      app.notice = "page.no_token";
      app.status = "stopped";
      paint();
      return;
    }
    remember();
    if (location.pathname.startsWith("/h/")) loadHostTools();  // while the socket opens
    paint();
    connect();
  }

  // For tests and assistive tools: the page's own rendering of a catalogue message, in its language.
  window.Page = Object.freeze({ say, get lang() { return words.lang; } });

  start();
})();
