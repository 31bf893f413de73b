// Every board renderer the page knows, loaded by name: with the renderers themselves, the only place on the page
// that names a game. Each renderer registers itself in window.Boards; the page redraws when one has arrived.
"use strict";

(function () {
  const BOARDS = ["mall-of-horror"];
  for (const name of BOARDS) {
    const style = document.createElement("link");
    style.rel = "stylesheet";
    style.href = "/static/boards/" + name + ".css";
    document.head.append(style);
    const script = document.createElement("script");
    script.src = "/static/boards/" + name + ".js";
    script.async = false;
    script.addEventListener("load", () => window.dispatchEvent(new CustomEvent("companion:board", { detail: name })));
    document.head.append(script);
  }
})();
