// Eaten by Zombies!'s board for the phone and host page: the turn, the zombie deck and discard with the flips a
// turn, the field's zombies as cards (level in red, speed by its arrow) with both sums, each seat (human or zombie
// player, the zombies among his cards, his Powers), the Powers in force with what they do, the last fight or run,
// the market; a zombie player's own hand behind hold-to-peek; the end. The shell (app.js) knows no game: it calls
// board(), revealed(), secrets() and over() with the view and a context of building blocks (h, t, say, chip, list,
// peek). Every word is the catalogue's (ebz.* for the game's, page.* for the page's).
"use strict";

(function () {
  const LEVELS = [1, 2, 4, 6, 8];

  function players(view) {
    return Array.isArray(view.players) ? view.players : [];
  }

  function labelled(ctx, key, params, ...rest) {
    return [ctx.h("span", { class: "label" }, ctx.t(key, params)), " ", ...rest];
  }

  function zombieCard(ctx, zombie) {
    const h = ctx.h;
    return h("li", { class: "zombie-card" + (zombie.by ? " added" : ""), "data-level": String(zombie.level),
      "data-speed": String(zombie.speed) },
      h("span", { class: "zombie-level", title: ctx.t("ebz.board.level") }, String(zombie.level)),
      h("span", { class: "zombie-speed", title: ctx.t("ebz.board.speed") }, "→ " + zombie.speed),
      zombie.by ? h("span", { class: "zombie-by" }, ctx.t("ebz.board.by", { colour: zombie.by })) : null);
  }

  function seatCard(view, ctx, seat) {
    const h = ctx.h;
    const zombie = (view.zombie_players || []).includes(seat);
    const powers = (view.powers || {})[seat] || [];
    const held = (view.zombies_held || {})[seat] || 0;
    const classes = ["ebz-seat"];
    if (zombie) classes.push("zombie-player");
    if (view.active === seat) classes.push("active");
    if ((view.adders || []).includes(seat)) classes.push("adder");
    return h("li", { class: classes.join(" "), "data-seat": seat },
      h("div", {}, ctx.chip(seat)),
      h("div", { class: "ebz-status" }, ctx.t(zombie ? "ebz.board.zombie_player" : "ebz.board.human"),
        powers.length ? [" · ", h("span", { class: "ebz-powers" }, ctx.t("ebz.board.powers", { levels: powers.join(" ") }))]
          : null),
      h("div", { class: "ebz-held" }, ctx.t(zombie ? "ebz.board.in_hand" : "ebz.board.held", { count: held })));
  }

  function lastLine(view, ctx) {
    const last = view.last;
    if (!last || typeof last !== "object") {
      return ctx.t(view.rounding === "up" ? "ebz.board.rounding.up" : "ebz.board.rounding.down");
    }
    const parts = [ctx.t(last.how === "fight" ? "ebz.board.last.fight" : "ebz.board.last.run",
      { colour: last.seat, value: last.value, need: last.need }), ctx.t("ebz.board.result." + last.result)];
    if (last.remove) parts.push(ctx.t("ebz.board.remove", { count: last.remove }));
    if (last.budget !== null && last.budget !== undefined) parts.push(ctx.t("ebz.board.budget", { budget: last.budget }));
    return parts.join(" · ");
  }

  // -- the board ---------------------------------------------------------------------------------------

  function board(view, ctx) {
    const h = ctx.h;
    const out = [h("h2", {}, ctx.t("page.board"), " · ", ctx.t("ebz.title"))];
    let heading = ctx.t("ebz.board.setup");
    if (view.active) heading = ctx.t("ebz.board.turn", { round: view.round, colour: view.active });
    else if (view.over) heading = ctx.t("ebz.board.over");
    out.push(h("p", { class: "phase" }, heading));
    out.push(h("p", { class: "ebz-counts" },
      h("span", { class: "count deck" }, labelled(ctx, "ebz.board.deck", {}, h("strong", {}, String(view.deck ?? 0)))),
      h("span", { class: "count discard" }, labelled(ctx, "ebz.board.discard", {},
        h("strong", {}, String(view.discard ?? 0)))),
      h("span", { class: "count flips" }, ctx.t("ebz.board.flips", { flips: view.flips ?? 1 }))));
    const field = Array.isArray(view.field) ? view.field : [];
    out.push(h("section", { class: "ebz-field" },
      h("h3", {}, ctx.t(field.length ? "ebz.board.field" : "ebz.board.empty")),
      field.length ? [h("ul", { class: "zombie-cards" }, field.map((z) => zombieCard(ctx, z))),
        h("p", { class: "sums" }, ctx.t("ebz.board.sums", { level_sum: view.level_sum, speed_sum: view.speed_sum }))]
        : null));
    out.push(h("ul", { class: "ebz-seats" }, players(view).map((seat) => seatCard(view, ctx, seat))));
    const inForce = Array.isArray(view.in_force) ? view.in_force : [];
    out.push(inForce.length
      ? h("div", { class: "in-force" }, h("span", { class: "label" }, ctx.t("ebz.board.in_force")),
        h("ul", {}, inForce.map((level) => h("li", { "data-power": String(level) }, ctx.t("ebz.power." + level)))))
      : h("p", { class: "in-force none" }, ctx.t("ebz.board.no_power")));
    out.push(h("p", { class: "ebz-last" }, lastLine(view, ctx)));
    if (Array.isArray(view.market) && view.market.length) {
      out.push(h("p", { class: "ebz-market" }, ctx.t("ebz.board.market", { kinds: view.market })));
    }
    out.push(h("p", { class: "ebz-total" }, ctx.t("ebz.board.count", { total: view.total })));
    return out;
  }

  // -- the seat's secrets: a zombie player's hand --------------------------------------------------------

  function secretsKey(view) {
    return [view.seat, view.hand || null];
  }

  function secrets(view, ctx) {
    const hand = view.hand;
    if (!hand || typeof hand !== "object" || !LEVELS.some((l) => hand[String(l)])) return [];
    const levels = LEVELS.filter((l) => hand[String(l)]).map((l) => [l, hand[String(l)]]);
    return [ctx.peek(ctx.t("ebz.board.your_hand"), () => [
      ctx.h("ul", { class: "hand-levels" }, levels.map(([level, count]) =>
        ctx.h("li", {}, ctx.t("ebz.board.hand_levels", { level, count }))))])];
  }

  // -- the end -----------------------------------------------------------------------------------------

  function over(view, ctx) {
    const h = ctx.h;
    const winners = Array.isArray(view.winners) ? view.winners : [];
    const zombies = Array.isArray(view.zombie_players) ? view.zombie_players : [];
    const all = players(view);
    const ranked = all.slice().sort((a, b) => (winners.includes(a) ? 0 : 1) - (winners.includes(b) ? 0 : 1) ||
      all.indexOf(a) - all.indexOf(b));
    const shared = winners.length > 1;
    return [
      h("h2", {}, ctx.t("ebz.board.over")),
      h("table", { class: "scores" },
        h("tbody", {}, ranked.map((p) => h("tr", { class: winners.includes(p) ? "winner" : "", "data-seat": p },
          h("td", {}, ctx.chip(p)),
          h("td", {}, ctx.t(zombies.includes(p) ? "ebz.board.zombie_player" : "ebz.board.human")),
          h("td", {}, winners.includes(p) ? ctx.t(shared ? "page.winners" : "page.winner") : ""))))),
    ];
  }

  function revealed() {
    return [];  // no secret ballot in this game
  }

  (window.Boards = window.Boards || {})["eaten-by-zombies"] = { board, revealed, secrets, secretsKey, over };
})();
