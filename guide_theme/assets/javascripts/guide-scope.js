// The storage helpers the theme's bundle expects as globals, scoped to the guide's base address
// (the theme writes them inline; the app's Content-Security-Policy allows no inline script).
(function () {
  "use strict";
  var scope = new URL(document.currentScript.dataset.scope, location);
  function key(name, base) {
    return (base || scope).pathname + "." + name;
  }
  window.__md_scope = scope;
  window.__md_hash = function (text) {
    return Array.from(text).reduce(function (hash, character) {
      return (hash << 5) - hash + character.charCodeAt(0);
    }, 0);
  };
  window.__md_get = function (name, storage, base) {
    return JSON.parse((storage || localStorage).getItem(key(name, base)));
  };
  window.__md_set = function (name, value, storage, base) {
    try {
      (storage || localStorage).setItem(key(name, base), JSON.stringify(value));
    } catch (error) {
      // Storage full or refused (a private window): the choice is then not remembered.
    }
  };
})();
