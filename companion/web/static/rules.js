// The rule at hand (companion/rulebook.py) on the page: "Why?" beside a line of the narration or a question, and
// first-game mode's explanations. It knows no game: it draws the words each view carries (view.rules by rule id,
// and a line's or a question's `rule` and `now`), with the page's building blocks (ctx: h, t, say, rich).
"use strict";

(function () {
  // A rule's words: the rule, the moment's facts, the table options in force that change it.
  function words(ctx, told, now) {
    const out = [ctx.h("p", { class: "rule-text" }, ctx.say(told.text))];
    if (now) out.push(ctx.h("p", { class: "rule-now" }, ctx.rich(now)));
    for (const note of told.options || []) out.push(ctx.h("p", { class: "rule-option" }, ctx.say(note)));
    return out;
  }

  // "Why?": a disclosure (a native <details>: a button for a screen reader, a switch and a keyboard alike) that
  // opens on the rule behind `item` (a line or a question) with its title; null where it has none.
  function why(ctx, item, rules) {
    const told = item && item.rule && rules ? rules[item.rule] : null;
    if (!told) return null;
    const title = ctx.say(told.title);
    return ctx.h("details", { class: "why", "data-rule": item.rule },
      ctx.h("summary", { "aria-label": ctx.t("rules.why_label", { text: title }) }, ctx.t("rules.why")),
      ctx.h("div", { class: "rule" }, ctx.h("p", { class: "rule-title" }, title), words(ctx, told, item.now)));
  }

  // First-game mode: the rules this moment meets for the first time that this page has not explained yet in this
  // game, each with its title and words, and "Got it" (which calls `done` with them). Null when there are none.
  function firstTime(ctx, first, rules, seen, done) {
    const fresh = (Array.isArray(first) ? first : []).filter((rule) => rules && rules[rule] && !seen.has(rule));
    if (!fresh.length) return null;
    const parts = fresh.map((rule, n) => [
      ctx.h("h3", n === 0 ? { id: "first-time-title" } : {},
        ctx.say({ key: "rules.first", params: { title: rules[rule].title } })),
      words(ctx, rules[rule], null)]);
    return ctx.h("section", { class: "first-time", "aria-labelledby": "first-time-title", "data-rules": fresh.join(" ") },
      parts, ctx.h("button", { type: "button", class: "got-it", onclick: () => done(fresh) }, ctx.t("rules.got_it")));
  }

  // What this page has explained in first-game mode, by game: kept for the page's life (and a reload) in this tab.
  function seenIn(game) {
    const key = "companion.first." + game;
    let ids = [];
    try {
      ids = JSON.parse(sessionStorage.getItem(key) || "[]");
    } catch (error) {
      ids = [];
    }
    const seen = new Set(Array.isArray(ids) ? ids : []);
    seen.keep = (more) => {
      more.forEach((rule) => seen.add(rule));
      try {
        sessionStorage.setItem(key, JSON.stringify([...seen]));
      } catch (error) { /* a private tab: kept in memory only */ }
    };
    return seen;
  }

  window.RuleAtHand = { why, firstTime, seenIn };
})();
