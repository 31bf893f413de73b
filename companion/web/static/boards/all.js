// Every board renderer the page knows, loaded by name when a game's board is first drawn: with the renderers
// themselves, the only place on the page that names a game. Each renderer registers itself in window.Boards; the
// page redraws when one has arrived. Only the game on the table is fetched: a weak Wi-Fi pays for one, not four.
"use strict";

(function () {
  const BOARDS = ["mall-of-horror", "eaten-by-zombies", "zombiegeddon", "district-z"];
  const asked = new Set();
  window.loadBoard = function (name) {
    if (!BOARDS.includes(name) || asked.has(name)) return;
    asked.add(name);
    const style = document.createElement("link");
    style.rel = "stylesheet";
    style.href = "/static/boards/" + name + ".css";
    document.head.append(style);
    const script = document.createElement("script");
    script.src = "/static/boards/" + name + ".js";
    script.addEventListener("load", () => window.dispatchEvent(new CustomEvent("companion:board", { detail: name })));
    document.head.append(script);
  };
})();
