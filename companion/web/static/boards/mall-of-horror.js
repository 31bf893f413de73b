// Mall of Horror's board for the phone and host page: the six locations, the zombies, the characters, the
// Chief, the revealed ballot, the seat's own secrets behind hold-to-peek, and the end.
// The shell (app.js) knows no game: it calls board(), revealed(), secrets() and over() with the view and a
// context of building blocks (h, t, say, rich, chip, dice, peek, list). The words are the catalogue's:
// mall.* for the game's (locations, characters, phases, vote purposes, the board's labels), page.* for the
// page's own. Game knowledge (locations, capacities) lives here and nowhere else on the page.
"use strict";

(function () {
  const LOCATIONS = [1, 2, 3, 4, 5, 6];
  const CAPACITY = { 1: 3, 2: 4, 3: 4, 4: null, 5: 3, 6: 6 };  // null: no limit

  function players(view) {
    return Array.isArray(view.players) ? view.players : [];
  }

  function placeText(ctx, loc) {
    return ctx.say({ key: "mall.board.place", params: { location: loc } });
  }

  // A location: its number in a badge and its name, as the catalogue says it ("4 Parking").
  function place(ctx, loc) {
    const text = placeText(ctx, loc);
    const match = text.match(/^(\d+)\s*(.*)$/);
    return ctx.h("span", { class: "place", "data-location": String(loc) },
      match ? [ctx.h("span", { class: "loc-num" }, match[1]), " ", match[2]] : text);
  }

  function character(ctx, kind) {
    return ctx.t("mall.character." + kind);
  }

  function labelled(ctx, key, params, ...rest) {
    return [ctx.h("span", { class: "label" }, ctx.t(key, params)), " ", ...rest];
  }

  // -- the board ---------------------------------------------------------------------------------------

  function board(view, ctx) {
    const h = ctx.h;
    const all = players(view);
    const out = [h("h2", {}, ctx.t("page.board"), " · ", ctx.t("mall.title"))];
    // The phase as a nested message: its name is the game's own, whatever another game calls "phase".
    const phaseName = { key: "mall.phase." + view.phase, params: {} };
    const phase = view.round ? ctx.t("mall.board.round", { round: view.round, phase: phaseName })
      : ctx.t("mall.board.setup", { phase: phaseName });
    out.push(h("p", { class: "phase" }, phase));
    if (view.chief) {
      out.push(h("p", { class: "chief" }, labelled(ctx, "mall.board.chief", {}, ctx.chip(view.chief, "is-chief"),
        view.elected ? [" ", h("span", { class: "badge elected" }, "✓ " + ctx.t("mall.board.elected"))] : null)));
    }
    if (view.chief_destination) {
      out.push(h("p", { class: "chief-destination" },
        ctx.t("mall.board.chief_goes", { location: view.chief_destination })));
    }
    if (Array.isArray(view.chosen) && view.chosen.length) {
      out.push(h("p", { class: "chosen" }, labelled(ctx, "mall.board.chosen", {},
        ctx.list(view.chosen.map((c) => ctx.chip(c))))));
    }
    if (view.destinations && typeof view.destinations === "object") {
      out.push(h("p", { class: "destinations" }, labelled(ctx, "mall.board.destinations", {},
        ctx.list(all.filter((p) => p in view.destinations).map((p) =>
          h("span", { class: "destination" }, ctx.chip(p), " → ", placeText(ctx, view.destinations[p])))))));
    }
    if (Array.isArray(view.cup)) {
      out.push(h("p", { class: "cup" }, labelled(ctx, "mall.board.zombie_dice", {}, ctx.dice(view.cup))));
    }
    if (Array.isArray(view.dice)) {
      out.push(h("p", { class: "placement-dice" }, labelled(ctx, "mall.board.placement_dice", {},
        ctx.dice(view.dice))));
    }
    for (const warning of Array.isArray(view.warnings) ? view.warnings : []) {
      const text = warning && typeof warning === "object" ? ctx.say(warning) : String(warning);
      out.push(h("p", { class: "warning" }, ctx.t("page.warning"), " ", text));
    }
    out.push(h("div", { class: "locations" }, LOCATIONS.map((loc) => locationCard(view, ctx, loc))));
    if (view.unplaced && typeof view.unplaced === "object") {
      const left = all.filter((p) => Array.isArray(view.unplaced[p]) && view.unplaced[p].length);
      if (left.length) {
        out.push(h("p", { class: "unplaced" }, labelled(ctx, "mall.board.unplaced", {},
          ctx.list(left.map((p) => h("span", { class: "token-group" }, ctx.chip(p), " ",
            view.unplaced[p].map((kind) => character(ctx, kind)).join(", ")))))));
      }
    }
    const hands = view.hands || {};
    out.push(h("p", { class: "hands" }, labelled(ctx, "mall.board.hands", {},
      ctx.list(all.map((p) => h("span", { class: "hand" }, ctx.chip(p), " " + (hands[p] ?? 0)))),
      " · ", h("span", { class: "deck" }, ctx.t("mall.board.deck", { count: view.deck ?? 0 })))));
    return out;
  }

  function locationCard(view, ctx, loc) {
    const h = ctx.h;
    const closed = Array.isArray(view.closed) && view.closed.includes(loc);
    const zombies = (view.zombies || {})[String(loc)] || 0;
    const people = [];
    for (const colour of players(view)) {
      const hidden = ((view.hidden || {})[colour]) || [];
      for (const [kind, where] of Object.entries((view.characters || {})[colour] || {})) {
        if (where === loc) people.push({ colour, kind, hidden: hidden.includes(kind) });
      }
    }
    const attacked = view.phase === "attack" && view.location === loc;
    const capacity = CAPACITY[loc];
    const classes = ["location"];
    if (closed) classes.push("closed");
    if (attacked) classes.push("attacked");
    if (view.vote && view.vote.location === loc && view.vote.purpose === "victim") classes.push("voting");
    let meta;
    if (closed) meta = ctx.t("mall.board.closed");
    else if (capacity === null) meta = ctx.t("mall.board.capacity_unlimited", { people: people.length });
    else meta = ctx.t("mall.board.capacity", { people: people.length, capacity });
    return h("section", { class: classes.join(" "), "data-location": String(loc) },
      h("div", { class: "loc-head" }, place(ctx, loc),
        h("span", { class: "zombies" + (zombies ? " some" : "") }, ctx.t("mall.board.zombies", { count: zombies }))),
      h("div", { class: "loc-meta" }, meta,
        attacked ? [" · ", h("strong", {}, ctx.t("mall.board.under_attack"))] : null),
      closed ? null : h("ul", { class: "people" }, people.length ? people.map((p) =>
        h("li", { class: "token", "data-colour": p.colour, "data-character": p.kind }, ctx.chip(p.colour), " ",
          h("span", { class: "character" }, character(ctx, p.kind)),
          p.hidden ? [" ", h("span", { class: "hidden-mark" }, ctx.t("mall.board.hidden"))] : null))
        : h("li", { class: "nobody" }, ctx.t("mall.board.nobody"))));
  }

  // -- the revealed ballot -----------------------------------------------------------------------------

  // What the vote was for; a victim vote says where ("victim vote at 1 Restroom").
  function purpose(vote) {
    if (vote.purpose === "victim" && vote.location) {
      return { key: "mall.board.vote_at", params: { purpose: vote.purpose, location: vote.location } };
    }
    return { key: "mall.purpose." + vote.purpose, params: {} };
  }

  function revealed(view, ctx) {
    const vote = view.revealed;
    if (!vote || typeof vote !== "object") return [];
    const h = ctx.h;
    const title = ctx.t("page.revealed", { purpose: purpose(vote) }) +
      (vote.stage === 2 ? " (" + ctx.t("page.revote") + ")" : "");
    const ballots = vote.ballots || {};
    const rows = Object.entries(vote.weights || {}).map(([voter, weight]) =>
      h("li", { class: "ballot-row", "data-voter": voter }, ctx.chip(voter), " ",
        h("span", { class: "weight" }, ctx.t("page.votes", { count: weight })), " → ",
        ballots[voter] ? ctx.chip(ballots[voter]) : h("span", { class: "abstained" }, ctx.t("page.abstained"))));
    const tally = Object.entries(vote.tally || {}).map(([colour, n]) =>
      h("span", { class: "tally-item" }, ctx.chip(colour), " ", String(n)));
    const leaders = Array.isArray(vote.leaders) ? vote.leaders : [];
    return [
      h("h2", {}, title),
      h("ul", { class: "ballots" }, rows),
      h("p", { class: "tally" }, labelled(ctx, "page.tally", {}, ctx.list(tally))),
      h("p", { class: leaders.length === 1 ? "leaders won" : "leaders tied" },
        labelled(ctx, leaders.length === 1 ? "page.chosen" : "page.tie", {}, ctx.list(leaders.map((c) => ctx.chip(c))))),
    ];
  }

  // -- the seat's secrets, each behind hold-to-peek ----------------------------------------------------
  // Nothing secret is put in the page until the button is held: the peek draws it then, and takes it away.

  function secretsKey(view) {
    return [view.seat, view.cup_seen || null, view.ballot || null, view.destination || null, lookers(view),
      zombiePlayer(view), !!view.question];
  }

  // Who else may look at the secret dice: the elected Chief and this round's Security Camera players (public
  // plays, in this round's narration).
  function lookers(view) {
    if (!Array.isArray(view.cup_seen)) return [];
    const out = [];
    if (view.elected && view.chief) out.push(view.chief);
    for (const entry of Array.isArray(view.narration) ? view.narration : []) {
      const colour = entry && entry.key === "mall.n.card.camera" && entry.params ? entry.params.colour : null;
      if (colour && !out.includes(colour)) out.push(colour);
    }
    return out.filter((c) => c !== view.seat);
  }

  // A player with no character left plays the zombies.
  function zombiePlayer(view) {
    const mine = (view.characters || {})[view.seat];
    return !!view.round && !view.over && (!mine || Object.keys(mine).length === 0);
  }

  // The dice as the locations they send zombies to; a die on a closed location sends none.
  function diceAsPlaces(view, ctx, values) {
    const counts = new Map();
    for (const d of values.slice().sort((a, b) => a - b)) counts.set(d, (counts.get(d) || 0) + 1);
    const closed = Array.isArray(view.closed) ? view.closed : [];
    return ctx.h("ul", { class: "dice-places" }, [...counts].map(([loc, count]) =>
      ctx.h("li", { class: closed.includes(loc) ? "closed" : "" },
        ctx.t(closed.includes(loc) ? "mall.board.dice_closed" : "mall.board.dice_to", { count, location: loc }))));
  }

  function secrets(view, ctx) {
    const h = ctx.h;
    const out = [];
    if (zombiePlayer(view) && !view.question) out.push(h("p", { class: "zombie-player" }, ctx.t("mall.fact.zombie_player")));
    if (Array.isArray(view.cup_seen)) {
      const values = view.cup_seen.slice();
      const others = lookers(view);
      out.push(h("p", { class: "hint dice-hint" }, ctx.t("page.dice_secret_hint"), " ", others.length
        ? ctx.rich({ key: "mall.fact.dice_seen", params: { colours: others } }) : ctx.t("mall.fact.dice_alone")),
        ctx.peek(ctx.t("page.peek_dice"), () => [
          h("div", {}, h("span", { class: "label" }, ctx.t("mall.board.zombie_dice")), " ", ctx.dice(values)),
          diceAsPlaces(view, ctx, values)]));
    }
    if (typeof view.ballot === "string") {
      const ballot = view.ballot;
      out.push(ctx.peek(ctx.t("page.peek_vote"), () => [h("span", { class: "label" }, ctx.t("page.your_vote")), " ",
        ctx.chip(ballot)]));
    }
    if (Number.isInteger(view.destination)) {
      const destination = view.destination;
      out.push(ctx.peek(ctx.t("mall.board.peek_destination"), () => [
        h("span", { class: "label" }, ctx.t("mall.board.your_destination")), " ", placeText(ctx, destination)]));
    }
    return out;
  }

  // -- the end -----------------------------------------------------------------------------------------

  function over(view, ctx) {
    const h = ctx.h;
    const scores = view.scores || {};
    const winners = Array.isArray(view.winners) ? view.winners : [];
    const ranked = players(view).slice().sort((a, b) => (scores[b] || 0) - (scores[a] || 0));
    const shared = winners.length > 1;
    return [
      h("h2", {}, ctx.t("mall.board.over")),
      h("table", { class: "scores" },
        h("thead", {}, h("tr", {}, h("th", {}, ""), h("th", {}, ctx.t("page.score")), h("th", {}, ""))),
        h("tbody", {}, ranked.map((p) => h("tr", { class: winners.includes(p) ? "winner" : "", "data-seat": p },
          h("td", {}, ctx.chip(p)), h("td", {}, ctx.t("page.points", { count: scores[p] || 0 })),
          h("td", {}, winners.includes(p) ? ctx.t(shared ? "page.winners" : "page.winner") : ""))))),
    ];
  }

  (window.Boards = window.Boards || {})["mall-of-horror"] = { board, revealed, secrets, secretsKey, over };
})();
