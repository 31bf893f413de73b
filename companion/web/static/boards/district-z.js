// District-Z's board for the phone and host page: the city grid (each district face down or up, its zombie tokens,
// items and objective cards lying there, the survivors by their seat's chip, each player's target corner in his
// colour, the turn's district lit), the dice of the combat or the fight on the table, one line per survivor, and
// the end. The shell (app.js) knows no game: it calls board() and over() with the view and a context of building
// blocks (h, t, say, chip, dice, list). Words are the catalogue's dz.* keys. Nothing of this game is secret.
"use strict";

(function () {
  function players(view) {
    return Array.isArray(view.players) ? view.players : [];
  }

  function survivorsOf(view) {
    return view.survivors && typeof view.survivors === "object" ? view.survivors : {};
  }

  function labelled(ctx, text, ...rest) {
    return [ctx.h("span", { class: "label" }, text), " ", ...rest];
  }

  // -- the board ---------------------------------------------------------------------------------------

  function board(view, ctx) {
    const h = ctx.h;
    const grid = view.grid || {};
    const width = Number.isInteger(grid.width) ? grid.width : 6;
    const survivors = survivorsOf(view);
    const all = players(view);
    const heading = [ctx.t("dz.board.round", { round: view.round || 1 })];
    if (view.over) heading.push(ctx.t(view.lost ? "dz.board.lost" : "dz.board.over"));
    else if (view.turn) heading.push(ctx.t("dz.board.turn", { colour: view.turn }));
    const out = [h("h2", {}, ctx.t("page.board"), " · ", ctx.t("dz.title")),
      h("p", { class: "dz-phase" }, heading.join(" · "))];
    const table = onTable(view, ctx);
    if (table) out.push(table);
    const here = {};
    const targets = {};
    for (const seat of all) {
      const s = survivors[seat] || {};
      if (s.cell) (here[s.cell] = here[s.cell] || []).push(seat);
      if (s.target && !s.out) (targets[s.target] = targets[s.target] || []).push(seat);
    }
    const turnCell = view.turn && survivors[view.turn] ? survivors[view.turn].cell : null;
    const cells = Array.isArray(view.cells) ? view.cells : [];
    const city = h("div", { class: "dz-city", "aria-label": ctx.t("dz.board.city") }, cells.map((cell) =>
      district(ctx, cell, here[cell.cell] || [], targets[cell.cell] || [], cell.cell === turnCell)));
    city.style.gridTemplateColumns = "repeat(" + width + ", 1fr)";  // through the CSSOM: the page allows no inline style
    out.push(city);
    out.push(h("ul", { class: "dz-survivors" }, all.map((seat) => survivorLine(ctx, seat, survivors[seat] || {}))));
    out.push(h("p", { class: "dz-stock" }, ctx.t("dz.board.stock", { hidden: view.hidden_objectives || 0,
      aside: view.set_aside || 0, spare: view.spare_survivors || 0 })));
    out.push(h("p", { class: "dz-legend" }, ctx.t("dz.board.legend")));
    return out;
  }

  function district(ctx, cell, seats, targets, lit) {
    const h = ctx.h;
    const classes = ["dz-district", cell.up ? "up" : "down"];
    if (lit) classes.push("turn");
    const lying = [];
    if (cell.objectives) lying.push(h("span", { class: "dz-objective" }, "★".repeat(cell.objectives)));
    if (cell.items) lying.push(h("span", { class: "dz-items" }, "▣" + cell.items));
    const node = h("div", { class: classes.join(" "), "data-cell": cell.cell, "data-targets": targets.join(" ") },
      h("span", { class: "dz-name" }, cell.cell),
      cell.zombies ? h("span", { class: "dz-zombies" }, String(cell.zombies)) : null,
      lying.length ? h("span", { class: "dz-lying" }, lying) : null,
      seats.length ? h("span", { class: "dz-people" }, seats.map((seat) => ctx.chip(seat, "dz-mini"))) : null);
    if (targets.length) {  // each player's target corner, ringed in his colour
      node.style.boxShadow = targets.map((seat, i) => "inset 0 0 0 " + (2 + 3 * i) + "px var(--" + seat + ")").join(", ");
    }
    return node;
  }

  function onTable(view, ctx) {
    const h = ctx.h;
    const combat = view.combat;
    if (combat && typeof combat === "object") {
      const parts = [h("span", {}, ctx.t("dz.board.combat", { cell: combat.cell, count: combat.zombies,
        attack: combat.attack }))];
      if (Array.isArray(combat.red) && combat.red.length) {
        parts.push(h("span", { class: "dz-red" }, labelled(ctx, ctx.t("dz.board.red"), ctx.dice(combat.red))));
      }
      if (Array.isArray(combat.black) && combat.black.length) {
        parts.push(h("span", { class: "dz-black" }, labelled(ctx, ctx.t("dz.board.black"), ctx.dice(combat.black))));
      }
      return h("p", { class: "dz-table" }, parts);
    }
    const fight = view.fight;
    if (fight && typeof fight === "object") {
      const parts = [h("span", {}, ctx.t("dz.board.fight", { colour: fight.attacker, to_seat: fight.defender }))];
      for (const dice of [fight.red, fight.other]) {
        if (Array.isArray(dice) && dice.length) {
          parts.push(h("span", {}, ctx.dice(dice), " Σ " + dice.reduce((a, b) => a + b, 0)));
        }
      }
      return h("p", { class: "dz-table" }, parts);
    }
    if (Number.isInteger(view.die) && ["outcome", "special", "zombies", "item_kind", "item_attack",
      "item_health"].includes(view.step)) {
      return h("p", { class: "dz-table" }, labelled(ctx, ctx.t("dz.board.event"), ctx.dice([view.die])));
    }
    return null;
  }

  function survivorLine(ctx, seat, s) {
    const h = ctx.h;
    let text;
    if (s.won) text = ctx.t("dz.board.won");
    else if (s.out) text = ctx.t("dz.board.out");
    else if (s.attack === null || s.attack === undefined || s.health === null || s.health === undefined) {
      text = ctx.t("dz.board.waiting");
    } else {
      const parts = [(s.cell || ""), ctx.t("dz.board.survivor", { attack: s.attack, health: s.health,
        damage: s.damage || 0 })];
      if (Array.isArray(s.items) && s.items.length) {
        parts.push(ctx.t("dz.board.items", { count: s.items.length, hands: s.hands || 0 }));
      }
      if (s.objective) parts.push("★ → " + s.target);
      else if (s.target) parts.push(ctx.t("dz.board.target", { cell: s.target }));
      text = parts.filter(Boolean).join(" · ");
    }
    return h("li", { class: "dz-survivor" + (s.won ? " won" : "") + (s.out ? " out" : ""), "data-seat": seat },
      ctx.chip(seat), " ", h("span", { class: "dz-stats" }, text));
  }

  // -- the end -----------------------------------------------------------------------------------------

  function over(view, ctx) {
    const h = ctx.h;
    const winners = Array.isArray(view.winners) ? view.winners : [];
    const survivors = survivorsOf(view);
    const ranked = winners.concat(players(view).filter((p) => !winners.includes(p)));
    return [
      h("h2", {}, ctx.t(view.lost ? "dz.board.lost" : "dz.board.over")),
      h("table", { class: "scores" }, h("tbody", {}, ranked.map((p) => {
        const s = survivors[p] || {};
        const result = winners.includes(p) ? "won" : s.out ? "out" : "alive";
        return h("tr", { class: winners.includes(p) ? "winner" : "", "data-seat": p },
          h("td", {}, ctx.chip(p)), h("td", {}, ctx.t("dz.board.result." + result)));
      }))),
    ];
  }

  function revealed() {
    return [];
  }

  function secrets() {
    return [];  // every die of District-Z is rolled in the open
  }

  function secretsKey() {
    return [];
  }

  (window.Boards = window.Boards || {})["district-z"] = { board, revealed, secrets, secretsKey, over };
})();
