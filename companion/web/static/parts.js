// The board parts (companion/board.py): one renderer per part, none per game. A game describes its board as data
// in view.parts (main, revealed, over), and a seat's own secrets in view.secrets; this draws it with the page's building blocks (h, t, say, chip,
// dice, list, peek). Every text is a catalogue message, a number or a seat.
"use strict";

(function () {
  // -- text: a list of bits --------------------------------------------------------------------------------

  function bit(ctx, b) {
    if (!b || typeof b !== "object") return null;
    if (Number.isInteger(b.n)) return String(b.n);
    if (b.t) return ctx.rich(b.t);
    if (b.label) return ctx.h("span", { class: "label" }, ctx.say(b.label));
    if (typeof b.chip === "string") return ctx.chip(b.chip);
    if (Array.isArray(b.dice)) return ctx.dice(b.dice);
    if (Array.isArray(b.pips)) return pips(ctx, b.pips[0], b.pips[1]);
    return null;
  }

  function line(ctx, bits) {
    return ctx.list((Array.isArray(bits) ? bits : []).map((b) => bit(ctx, b)).filter((n) => n !== null));
  }

  function said(bits) {
    return Array.isArray(bits) && bits.length > 0;
  }

  function pips(ctx, done, most) {
    const out = [];
    for (let k = 0; k < most; k++) {
      out.push(ctx.h("span", { class: "pip" + (k < done ? " done" : "") }, k < done ? "●" : "○"));
    }
    return ctx.h("span", { class: "pips", role: "img", "aria-label": done + "/" + most }, out);
  }

  // -- the parts ---------------------------------------------------------------------------------------------

  const PARTS = {
    heading(ctx, p) {
      return [ctx.h("p", { class: "phase" }, line(ctx, p.line)),
        (p.side || []).filter(said).map((s) => ctx.h("p", { class: "heading-side" }, line(ctx, s)))];
    },

    lines(ctx, p) {
      const warning = p.tone === "warning" ? [ctx.t("page.warning"), " "] : [];
      return [p.title ? ctx.h("h2", {}, ctx.say(p.title)) : null,
        (p.lines || []).map((l) => ctx.h("p", { class: "part-line " + (p.tone || "plain") }, warning, line(ctx, l)))];
    },

    focus(ctx, p) {
      return ctx.h("div", { class: "focus" }, (p.lines || []).map((l, i) =>
        ctx.h("p", { class: i ? "focus-more" : "focus-main" }, line(ctx, l))));
    },

    zones(ctx, p) {
      const node = ctx.h("div", { class: "zones" }, (p.zones || []).map((z) => zone(ctx, z)));
      node.dataset.columns = String(p.columns || 3);
      return node;
    },

    grid(ctx, p) {
      const node = ctx.h("div", { class: "cell-grid", role: "list", "aria-label": p.label ? ctx.say(p.label) : null },
        (p.cells || []).map((c) => cell(ctx, c)));
      node.style.gridTemplateColumns = "repeat(" + (p.width || 1) + ", 1fr)";  // CSSOM: no inline style allowed
      const targets = (p.cells || []).some((c) => (c.outline || []).length);
      return [node, p.legend ? ctx.h("p", { class: "part-line hint" }, ctx.say(p.legend)) : null,
        targets ? ctx.h("p", { class: "part-line hint" }, ctx.t("page.cell_target_legend")) : null];
    },

    cards(ctx, p) {
      return ctx.h("section", { class: "table-cards" }, ctx.h("h3", {}, ctx.say(p.title)),
        (p.cards || []).length ? ctx.h("ul", { class: "card-row" }, p.cards.map((c) =>
          ctx.h("li", { class: "table-card" + (c.by ? " by" : "") },
            ctx.h("span", { class: "card-big", title: c.title ? ctx.say(c.title) : null }, String(c.big)),
            ctx.h("span", { class: "card-small" }, line(ctx, c.small)),
            c.by ? ctx.h("span", { class: "card-by" }, ctx.chip(c.by, "mini")) : null))) : null,
        said(p.footer) ? ctx.h("p", { class: "card-footer" }, line(ctx, p.footer)) : null);
    },

    seats(ctx, p) {
      return ctx.h("ul", { class: p.rows ? "seat-rows" : "seat-panels" }, (p.seats || []).map((s) =>
        ctx.h("li", { class: "seat-panel" + (s.lit ? " lit" : "") + (s.tone ? " " + s.tone : ""), "data-seat": s.seat },
          ctx.h("div", {}, ctx.chip(s.seat)),
          (s.lines || []).map((l) => ctx.h("div", { class: "seat-line" }, line(ctx, l))))));
    },

    // The end: a row per seat, best first; the winners' rows marked and said in a last column.
    scores(ctx, p) {
      const columns = p.columns || [];
      const rows = p.rows || [];
      const won = ctx.t(rows.filter((r) => r.winner).length > 1 ? "page.winners" : "page.winner");
      // On a narrow screen (a zoomed phone) the table scrolls in its own box, the page never sideways.
      return [ctx.h("h2", {}, ctx.say(p.title)),
        ctx.h("div", { class: "table-scroll", role: "region", tabindex: "0", "aria-label": ctx.say(p.title) },
        ctx.h("table", { class: "scores" },
          columns.length ? ctx.h("thead", {}, ctx.h("tr", {}, ctx.h("th", {}, ""),
            columns.map((c) => ctx.h("th", {}, ctx.say(c))), ctx.h("th", {}, ""))) : null,
          ctx.h("tbody", {}, rows.map((r) =>
            ctx.h("tr", { class: r.winner ? "winner" : "", "data-seat": r.seat }, ctx.h("td", {}, ctx.chip(r.seat)),
              (r.cells || []).map((c) => ctx.h("td", {}, line(ctx, c))), ctx.h("td", {}, r.winner ? won : "")))))),
        said(p.footer) ? ctx.h("p", { class: "hint" }, line(ctx, p.footer)) : null];
    },

    ballot(ctx, p) {
      const title = ctx.t("page.revealed", { purpose: p.title }) + (p.revote ? " (" + ctx.t("page.revote") + ")" : "");
      const leaders = p.leaders || [];
      return [ctx.h("h2", {}, title),
        ctx.h("ul", { class: "ballots" }, (p.rows || []).map((r) =>
          ctx.h("li", { class: "ballot-row", "data-voter": r.voter }, ctx.chip(r.voter), " ",
            ctx.h("span", { class: "weight" }, ctx.t("page.votes", { count: r.weight })), " → ",
            r.choice ? ctx.chip(r.choice) : ctx.h("span", { class: "abstained" }, ctx.t("page.abstained"))))),
        ctx.h("p", { class: "tally" }, ctx.h("span", { class: "label" }, ctx.t("page.tally")), " ",
          ctx.list((p.tally || []).map(([seat, n]) => ctx.h("span", { class: "tally-item" }, ctx.chip(seat), " " + n)))),
        ctx.h("p", { class: leaders.length === 1 ? "leaders won" : "leaders tied" },
          ctx.h("span", { class: "label" }, ctx.t(leaders.length === 1 ? "page.chosen" : "page.tie")), " ",
          ctx.list(leaders.map((c) => ctx.chip(c))))];
    },

    // Nothing secret is put in the page until the button is held: the peek draws it then, and takes it away.
    secret(ctx, p) {
      return [said(p.hint) ? ctx.h("p", { class: "hint" + (p.urgent ? " dice-hint" : "") }, line(ctx, p.hint)) : null,
        ctx.peek(ctx.t("page.peek_what", { what: ctx.say(p.label) }),
          () => (p.lines || []).map((l) => ctx.h("div", { class: "secret-line" }, line(ctx, l))))];
    },
  };

  function zone(ctx, z) {
    const h = ctx.h;
    const classes = ["zone"];
    if (z.closed) classes.push("closed");
    if (z.ring) classes.push("ring-" + z.ring);
    const head = [z.number ? h("span", { class: "zone-num" }, z.number) : null, " ",
      h("span", { class: "zone-name" }, ctx.say(z.name))];
    if ((z.arriving || []).length) head.push(" ", h("span", { class: "arriving" }, z.arriving.map((s) => ctx.chip(s, "mini"))));
    const count = z.count === null || z.count === undefined ? null
      : h("span", { class: "zone-count" + (z.count ? " some" : "") }, z.count_label ? ctx.say(z.count_label) : String(z.count));
    const tokens = z.tokens || [];
    return h("section", { class: classes.join(" "), "data-zone": z.id },
      h("div", { class: "zone-head" }, h("span", { class: "zone-title" }, head), count),
      h("div", { class: "zone-detail" }, line(ctx, z.detail), said(z.note) ? [" · ", h("strong", {}, line(ctx, z.note))] : null),
      z.closed ? null : h("ul", { class: "tokens" }, tokens.length ? tokens.map((tk) =>
        h("li", { class: "zone-token" + (tk.faded ? " faded" : ""), "data-seat": tk.seat }, ctx.chip(tk.seat), " ",
          h("span", { class: "token-name" }, ctx.say(tk.name)),
          tk.note ? [" ", h("span", { class: "token-note" }, ctx.say(tk.note))] : null))
        : z.empty ? h("li", { class: "nobody" }, ctx.say(z.empty)) : null));
  }

  // A cell says in words what it shows by colour, pattern or a bare number: face down, its zombie tokens, who
  // stands there (the chips' names), whose target corner it is (ringed in the seat's colour, marked ◎ with the
  // seat's symbol for the eye).
  function cell(ctx, c) {
    const h = ctx.h;
    const classes = ["cell", c.up ? "up" : "down"];
    if (c.lit) classes.push("lit");
    const outline = c.outline || [];
    const node = h("div", { class: classes.join(" "), role: "listitem", "data-cell": c.id },
      h("span", { class: "cell-label" }, c.label),
      c.up ? null : h("span", { class: "sr-only" }, ctx.t("page.cell_down")),
      c.count ? [h("span", { class: "cell-count", "aria-hidden": "true" }, String(c.count)),
        h("span", { class: "sr-only" }, ctx.t("page.cell_zombies", { count: c.count }))] : null,
      said(c.lying) ? h("span", { class: "cell-lying" }, line(ctx, c.lying)) : null,
      (c.seats || []).length ? h("span", { class: "cell-seats" }, c.seats.map((s) => ctx.chip(s, "mini"))) : null,
      outline.length ? [h("span", { class: "cell-target", "aria-hidden": "true" }, "◎",
        outline.map((s) => ctx.chip(s, "mini"))),
      h("span", { class: "sr-only" }, ctx.t("page.cell_target", { colours: outline }))] : null);
    if (outline.length) {  // each seat whose target this is, ringed in its colour
      node.style.boxShadow = outline.map((s, i) => "inset 0 0 0 " + (2 + 3 * i) + "px var(--" + s + ")").join(", ");
      node.dataset.outline = outline.join(" ");
    }
    return node;
  }

  function draw(ctx, parts) {
    return (Array.isArray(parts) ? parts : []).map((p) => {
      const renderer = p && PARTS[p.part];
      return renderer ? renderer(ctx, p) : null;
    });
  }

  function board(view, ctx) {
    const parts = view.parts || {};
    const title = parts.title ? [ctx.h("h2", {}, ctx.t("page.board"), " · ", ctx.say(parts.title))] : [];
    return [...title, ...draw(ctx, parts.main)];
  }

  function revealed(view, ctx) {
    return draw(ctx, (view.parts || {}).revealed);
  }

  // A seat's own secrets come beside the public board's parts, in its view alone.
  function secrets(view, ctx) {
    return draw(ctx, view.secrets);
  }

  function secretsKey(view) {
    return [view.seat, view.secrets || null, !!view.question];
  }

  function over(view, ctx) {
    return draw(ctx, (view.parts || {}).over);
  }

  window.BoardParts = { board, revealed, secrets, secretsKey, over };
})();
