/**
 * A survey fielded on an online panel: the panel's parameters (its id for the respondent, the
 * study's) are read from the page's own address, kept on this device, taken out of the address
 * bar, and filled into the panel's completion address once the response is stored (or into its
 * screen-out or full-quota address, where the survey ends early for the respondent). They are never
 * sent with the answers: a panel id beside a response would tie every report to a person.
 * @module panel
 */

/** Where this device keeps a survey's panel parameters until the response is stored. */
export const panelKey = (slug) => `rr-panel:${slug}`;

/**
 * Keep the panel's parameters found in `location`'s query (the first time they are there), and
 * take them out of the address bar.
 * @param {{parameters: string[]}} panel
 * @param {string} slug
 * @param {{href: string}} location
 * @param {Storage} storage
 * @param {{replaceState: Function}} history
 */
export function keepPanelParameters(panel, slug, location, storage, history) {
  const address = new URL(location.href);
  const found = panel.parameters.filter((name) => address.searchParams.has(name));
  if (!found.length) return;
  const kept = Object.fromEntries(found.map((name) => [name, address.searchParams.get(name)]));
  storage.setItem(panelKey(slug), JSON.stringify(kept));
  for (const name of found) address.searchParams.delete(name);
  history.replaceState(history.state ?? null, "", `${address.pathname}${address.search}${address.hash}`);
}

/**
 * Whether this device still keeps the survey's panel parameters (they are forgotten once its
 * address is taken: a Back or a reopened page must not send the panel an empty id).
 * @param {string} slug
 * @param {Storage} storage
 */
export function hasKept(slug, storage) {
  return storage.getItem(panelKey(slug)) !== null;
}

/**
 * The panel's `address` (its completion address unless another is given) with the kept parameters
 * filled in (each URL-encoded; one not kept is left empty); the kept parameters are forgotten.
 * @param {{parameters: string[], completeUrl: string}} panel
 * @param {string} slug
 * @param {Storage} storage
 * @param {string} [address]
 * @returns {string}
 */
export function takePanelLink(panel, slug, storage, address = panel.completeUrl) {
  const raw = storage.getItem(panelKey(slug));
  storage.removeItem(panelKey(slug));
  let kept = {};
  try {
    kept = raw ? JSON.parse(raw) : {};
  } catch {
    kept = {};
  }
  return address.replace(/\{([A-Za-z][A-Za-z0-9_]*)\}/g, (whole, name) =>
    panel.parameters.includes(name) ? encodeURIComponent(Object.hasOwn(kept, name) ? String(kept[name]) : "") : whole,
  );
}
