// The kept evening's own script (companion/export.py inlines it into the document after sha256.js and parts.js): it draws each game's
// final board with the page's part renderers, and checks every roll of the cup again in the reader's browser.
// The board's messages come rendered in the document's language; what is drawn is built with createElement and
// textContent, never parsed as HTML. Nothing is fetched.
"use strict";

(function () {
  const words = JSON.parse(document.getElementById("export-words").textContent);

  // -- words: the sentences parts.js and the check ask for -------------------------------------------------------

  function raw(key, count) {
    const found = words.messages[key];
    if (found === undefined || found === null || found === "") return key;
    if (Array.isArray(found)) {
      const n = Number.isInteger(count) ? count : 1;
      return found[Math.min(words.plural === "en" && n !== 1 ? 1 : 0, found.length - 1)];
    }
    return String(found);
  }

  function joined(parts) {
    if (!parts.length) return raw("list.none");
    if (parts.length === 1) return parts[0];
    return parts.slice(0, -1).join(raw("list.separator")) + raw("list.and") + parts[parts.length - 1];
  }

  // A parameter: a seat said with its person's name, a list joined, anything else as it is (already words).
  function value(name, v, seats) {
    if (Array.isArray(v)) return joined(v.map((x) => value(name, x, seats)));
    if (words.seat_terms.includes(name) && Object.prototype.hasOwnProperty.call(seats, v)) return seats[v];
    return v === null || v === undefined ? "" : String(v);
  }

  function t(key, params, seats) {
    const given = params || {};
    return raw(key, given.count).replace(/\{\{|\}\}|\{([^{}]*)\}/g, (match, name) => {
      if (match === "{{") return "{";
      if (match === "}}") return "}";
      return Object.prototype.hasOwnProperty.call(given, name) ? value(name, given[name], seats || {}) : match;
    });
  }

  // -- building blocks, as the page's (app.js) ----------------------------------------------------------------

  function h(tag, props, ...children) {
    const node = document.createElement(tag);
    for (const [key, v] of Object.entries(props || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (key === "class") node.className = v;
      else if (key === "text") node.textContent = String(v);
      else if (!key.startsWith("on")) node.setAttribute(key, String(v));
    }
    for (const child of children.flat(Infinity)) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  function listOf(nodes) {
    const out = [];
    nodes.forEach((node, i) => {
      if (i) out.push(" ");
      out.push(node);
    });
    return out;
  }

  function chip(seat, extra, seats) {
    const colour = Object.prototype.hasOwnProperty.call(words.symbols, seat) ? seat : "unknown";
    return h("span", { class: "chip c-" + colour + (extra ? " " + extra : ""), "data-colour": colour },
      h("span", { class: "sym", "aria-hidden": "true" }, words.symbols[colour] || "?"),
      h("span", { class: "name" }, Object.prototype.hasOwnProperty.call(seats, seat) ? seats[seat] : String(seat)));
  }

  function dice(values) {
    return h("span", { class: "dice" }, listOf(values.map((d) => h("span", { class: "die" }, String(d)))));
  }

  // A finished game keeps no secret: what a cover would hide is simply shown, folded.
  function peek(label, secret) {
    return h("details", { class: "peek" }, h("summary", {}, label), secret());
  }

  // The board's headings one level under the section that holds it (parts.js starts at h2).
  function demote(box, level) {
    for (const old of [...box.querySelectorAll("h1, h2, h3, h4, h5, h6")]) {
      const made = document.createElement("h" + Math.min(6, Number(old.tagName[1]) + level - 1));
      for (const attribute of [...old.attributes]) made.setAttribute(attribute.name, attribute.value);
      made.append(...old.childNodes);
      old.replaceWith(made);
    }
  }

  function drawBoard(article) {
    const box = article.querySelector(".board");
    const source = article.querySelector(".board-data");
    if (!box || !source) return;
    try {
      const data = JSON.parse(source.textContent);
      const seats = data.seats || {};
      const text = (said) => (said === null || said === undefined ? "" : String(said));
      const ctx = { h, t: (key, params) => t(key, params, seats), say: text, rich: text, has: (key) => key in words.messages,
        chip: (seat, extra) => chip(seat, extra, seats), dice, list: listOf, peek, lang: words.lang, role: "export",
        seat: null };
      box.append(...[window.BoardParts.board({ parts: { main: data.main } }, ctx)].flat(Infinity)
        .filter((node) => node !== null && node !== undefined && node !== false));
      demote(box, Number(box.dataset.level) || 2);
    } catch (error) {
      box.replaceChildren(h("p", { class: "hint" }, t("export.board_failed")));
      console.error("export board", error);
    }
  }

  // -- the cup: every roll checked again here, from what the document shows ------------------------------------

  function checkRolls(article) {
    let checked = 0;
    let bad = 0;
    for (const row of article.querySelectorAll("tr.roll")) {
      const cell = row.querySelector(".browser-check");
      const nonce = row.querySelector(".nonce");
      const faces = [...row.querySelectorAll(".die")].map((die) => die.textContent.trim());
      if (!cell || !nonce || !faces.length) continue;  // never revealed: nothing to check
      const sealed = row.querySelector(".commitment").textContent.trim().toLowerCase();
      const ok = window.SHA256.commitment(faces, nonce.textContent.trim()) === sealed;
      cell.textContent = t(ok ? "export.browser_checked" : "export.browser_mismatch");
      cell.className = "browser-check verify " + (ok ? "ok" : "bad");
      checked += 1;
      if (!ok) bad += 1;
    }
    const summary = article.querySelector(".browser-summary");
    if (summary && checked) {
      summary.textContent = bad ? t("export.browser_summary_bad", { count: bad })
        : t("export.browser_summary_ok", { count: checked });
      summary.className = "browser-summary verify " + (bad ? "bad" : "ok");
    }
  }

  for (const article of document.querySelectorAll("article.game")) {
    drawBoard(article);
    checkRolls(article);
  }
})();
