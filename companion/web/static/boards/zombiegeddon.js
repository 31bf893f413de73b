// Zombiegeddon's board for the phone and host page: the phase, whose turn it is with his two actions, the turn
// order, who has entered his largest zombie disc or handed in his score sheet (never what), the revealed largest
// discs and who starts post-bomb, the seat's own entries behind hold-to-peek, and every sheet's breakdown at the
// end. The shell (app.js) knows no game: it calls board(), revealed(), secrets() and over() with the view and a
// context of building blocks. Every word is the catalogue's (zg.* for the game's, page.* for the page's).
"use strict";

(function () {
  const KINDS = ["food", "zombies"];  // the kinds of disc that score, when a view does not list them
  const kinds = (view) => (Array.isArray(view.kinds) ? view.kinds.filter((k) => typeof k === "string") : KINDS);
  const SET_BONUS = "1→1 · 2→3 · 3→6 · 4→10 · 5→15 · 6+→20";

  function players(view) {
    return Array.isArray(view.players) ? view.players : [];
  }

  function has(list, seat) {
    return Array.isArray(list) && list.includes(seat);
  }

  // What the table knows of one player now: his turn and actions, entered or handed in, his score.
  function status(view, ctx, seat) {
    if (view.phase === "pre" || view.phase === "post") {
      return view.turn === seat ? ctx.t("zg.board.actions", { count: view.actions || 0, most: view.actions_per_turn || 2 })
        : "";
    }
    if (view.phase === "largest") {
      if (!has(view.asked, seat)) return "";
      return has(view.entered, seat) ? ctx.t("zg.board.entered") : ctx.t("zg.board.waiting");
    }
    if (view.phase === "sheet") return has(view.handed_in, seat) ? ctx.t("zg.board.handed_in") : ctx.t("zg.board.filling");
    const total = ((view.scores || {})[seat] || {}).total || 0;
    return ctx.t("zg.board.score", { total }) + (has(view.winners, seat) ? " · " + ctx.t("zg.board.winner") : "");
  }

  function marks(ctx, done, most) {
    const out = [];
    for (let k = 0; k < most; k++) out.push(ctx.h("span", { class: "zg-mark" + (k < done ? " done" : "") }, k < done ? "●" : "○"));
    return ctx.h("span", { class: "zg-marks", "aria-hidden": "true" }, out);
  }

  function revealedLine(ctx, shown) {
    return ctx.h("p", { class: "zg-largest" }, ctx.h("span", { class: "label" }, ctx.t("zg.board.largest")), " ",
      ctx.list(Object.entries(shown).map(([seat, n]) => ctx.h("span", { class: "zg-entry", "data-seat": seat },
        ctx.chip(seat), " ", String(n)))));
  }

  // -- the board ---------------------------------------------------------------------------------------

  function board(view, ctx) {
    const h = ctx.h;
    const order = Array.isArray(view.order) && view.order.length ? view.order : players(view);
    const out = [h("h2", {}, ctx.t("page.board"), " · ", ctx.t("zg.title")),
      h("p", { class: "phase zg-phase" }, ctx.t("zg.phase." + (view.phase || "pre")))];
    if ((view.phase === "pre" || view.phase === "post") && view.turn) {
      const done = view.actions || 0;
      const most = view.actions_per_turn || 2;
      out.push(h("div", { class: "zg-turn" }, h("p", { class: "zg-whose" }, ctx.t("zg.board.turn", { colour: view.turn })),
        marks(ctx, done, most), h("p", { class: "zg-count" }, ctx.t("zg.board.actions", { count: done, most }))));
    }
    if (view.phase === "largest") {
      out.push(h("p", { class: "zg-ask" }, view.below === null || view.below === undefined ? ctx.t("zg.q.largest")
        : ctx.t("zg.q.next_largest", { number: view.below })));
    }
    if (view.phase === "sheet") out.push(h("p", { class: "zg-ask" }, ctx.t("zg.q.sheets")));
    out.push(h("ul", { class: "zg-seats" }, order.map((seat) => h("li", {
      class: "zg-seat" + (view.turn === seat ? " turn" : "") + (has(view.winners, seat) ? " winner" : ""),
      "data-seat": seat }, ctx.chip(seat), " ", h("span", { class: "zg-status" }, status(view, ctx, seat))))));
    for (const shown of Array.isArray(view.revealed) ? view.revealed : []) {
      if (shown && typeof shown === "object") out.push(revealedLine(ctx, shown));
    }
    if (view.starter) out.push(h("p", { class: "zg-starter" }, ctx.t("zg.board.starter", { colour: view.starter })));
    out.push(h("p", { class: "zg-order hint" }, h("span", { class: "label" }, ctx.t("zg.board.order")), " ",
      order.map((seat, i) => [i ? " → " : "", ctx.chip(seat)])));
    out.push(h("p", { class: "zg-legend hint" }, ctx.t("zg.board.legend"), " · ", SET_BONUS));
    return out;
  }

  function revealed() {
    return [];  // the largest discs stay on the board once revealed; the sheets are the end's table
  }

  // -- the seat's own entries, each behind hold-to-peek ------------------------------------------------

  function secretsKey(view) {
    return [view.seat, Number.isInteger(view.largest) ? view.largest : null, view.sheet_score || null,
      !!view.question];
  }

  function sheetLines(view, ctx) {
    const s = view.sheet_score || {};
    const h = ctx.h;
    return h("ul", { class: "zg-sheet" },
      kinds(view).map((kind) => h("li", {}, ctx.t("zg.board.sheet_line", { zg_kind: kind, count: s[kind] || 0,
        points: s[kind + "_points"] || 0, bonus: s[kind + "_bonus"] || 0 }))),
      h("li", {}, ctx.t("zg.board.sheet_tokens", { count: s.tokens || 0, points: s.token_points || 0 })),
      h("li", { class: "zg-total" }, ctx.t("zg.board.sheet_total", { total: s.total || 0 })));
  }

  function secrets(view, ctx) {
    const out = [];
    if (Number.isInteger(view.largest)) {
      const number = view.largest;
      out.push(ctx.peek(ctx.t("zg.board.my_largest_what"), () => ctx.t("zg.board.my_largest", { number })));
    }
    if (view.sheet_score && typeof view.sheet_score === "object") {
      out.push(ctx.peek(ctx.t("zg.board.my_sheet"), () => sheetLines(view, ctx)));
    }
    return out;
  }

  // -- the end: every sheet at once, with its breakdown --------------------------------------------------

  function over(view, ctx) {
    const h = ctx.h;
    const scores = view.scores || {};
    const winners = Array.isArray(view.winners) ? view.winners : [];
    const total = (p) => (scores[p] || {}).total || 0;
    const ranked = players(view).slice().sort((a, b) => total(b) - total(a));
    const columns = [...kinds(view), "tokens", "total"];
    return [
      h("h2", {}, ctx.t("zg.phase.over")),
      h("table", { class: "scores zg-scores" },
        h("thead", {}, h("tr", {}, h("th", {}, ""), columns.map((c) => h("th", {}, ctx.t("zg.board.col." + c))))),
        h("tbody", {}, ranked.map((p) => {
          const s = scores[p] || {};
          return h("tr", { class: winners.includes(p) ? "winner" : "", "data-seat": p },
            h("td", {}, ctx.chip(p)),
            kinds(view).map((kind) => h("td", { "data-kind": kind }, ctx.t("zg.board.cell", { count: s[kind] || 0,
              points: s[kind + "_points"] || 0, bonus: s[kind + "_bonus"] || 0 }))),
            h("td", { "data-kind": "tokens" }, (s.tokens || 0) + "×5=\u200b" + (s.token_points || 0)),
            h("td", { class: "zg-total" }, String(s.total || 0),
              winners.includes(p) ? [" ", h("span", { class: "zg-won" }, ctx.t("zg.board.winner"))] : null));
        }))),
      h("p", { class: "hint" }, ctx.t("zg.board.legend"), " · ", SET_BONUS),
    ];
  }

  (window.Boards = window.Boards || {}).zombiegeddon = { board, revealed, secrets, secretsKey, over };
})();
