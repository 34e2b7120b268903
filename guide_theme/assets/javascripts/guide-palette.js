// The colour scheme the reader chose with the header's toggle, applied before the page paints.
(function () {
  "use strict";
  var saved = window.__md_get("__palette");
  if (!saved || !saved.color) {
    return;
  }
  var color = saved.color;
  if (color.media === "(prefers-color-scheme)") {
    var light = matchMedia("(prefers-color-scheme: light)").matches;
    var input = document.querySelector(
      "[data-md-color-media='(prefers-color-scheme: " + (light ? "light" : "dark") + ")']"
    );
    color = {
      media: input.getAttribute("data-md-color-media"),
      scheme: input.getAttribute("data-md-color-scheme"),
      primary: input.getAttribute("data-md-color-primary"),
      accent: input.getAttribute("data-md-color-accent"),
    };
  }
  Object.keys(color).forEach(function (name) {
    document.body.setAttribute("data-md-color-" + name, color[name]);
  });
})();
