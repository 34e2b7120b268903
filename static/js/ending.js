/**
 * Where a respondent's survey ends before a response: screened out at a page's end (the page's
 * `screen_out_if` holds for their plain answers), or turned away because a quota they belong to is
 * full. Both are decided on this device from answers asked plainly, never from a report.
 *
 * To ask which quotas are full, the page sends nothing of the respondent's: it fetches the list and
 * decides here. A screen-out sends only the page's id, once per submission id, to be counted. The
 * end is kept in the survey's memo, so a reload shows it again instead of the questions; the
 * answers on the page are cleared, the direct answers kept for a reload forgotten, and a panel's address (its parameters filled in on this
 * device) is where the respondent goes next.
 * @module ending
 */
import { rememberEnded } from "./memo.js";
import { holds } from "./flow.js";
import { clearTruth, showNotice } from "./view.js";

/**
 * @typedef {{id: string, rule: import("./flow.js").Rule, decidedAt: string}} PageQuota
 * @typedef {"screen_out" | "quota_full"} Why
 * @typedef {{ why: Why, where: string }} Ending Why, and the page that screened out or the full quota.
 */

/**
 * The quotas decided at the end of page `pageId` that these plain answers belong to.
 * @param {PageQuota[]} quotas
 * @param {string} pageId
 * @param {Map<string, string | number>} plain
 * @returns {string[]} Their ids.
 */
export function quotasDecidedAt(quotas, pageId, plain) {
  return quotas.filter((quota) => quota.decidedAt === pageId && holds(quota.rule, plain)).map((quota) => quota.id);
}

/**
 * The ids of the survey's full quotas; none where the server cannot be asked (the server still
 * refuses a response into a full quota when it arrives).
 * @param {string} url
 * @param {typeof fetch} [fetcher]
 * @returns {Promise<string[]>}
 */
export async function fullQuotas(url, fetcher = fetch) {
  try {
    const reply = await fetcher(url, { headers: { Accept: "application/json" }, cache: "no-store" });
    if (!reply.ok) return [];
    const body = await reply.json();
    return Array.isArray(body.full) ? body.full : [];
  } catch {
    return [];
  }
}

/**
 * Whether the survey ends for this respondent at the end of `flowPage`: screened out by its rule,
 * or one of the quotas decided there is full.
 * @param {import("./survey.js").Page} page
 * @param {import("./flow.js").FlowPage & {screenOutIf?: import("./flow.js").Rule | null}} flowPage
 * @param {Map<string, string | number>} plain
 * @returns {Promise<Ending | null>}
 */
export async function endingAt(page, flowPage, plain) {
  if (flowPage.screenOutIf && holds(flowPage.screenOutIf, plain)) return { why: "screen_out", where: flowPage.id ?? "" };
  const mine = quotasDecidedAt(page.config.quotas, flowPage.id ?? "", plain);
  if (!mine.length) return null;
  const full = await fullQuotas(page.config.endings.quotasFullUrl);
  const quota = mine.find((id) => full.includes(id));
  return quota === undefined ? null : { why: "quota_full", where: quota };
}

/**
 * End the survey here: keep the end in the memo, count it (the page's or the quota's id only),
 * clear the answers, and go to the panel's address or show why it ended.
 * @param {import("./survey.js").Page} page
 * @param {Ending} ending
 * @param {() => string} newId Draws a submission id, where the memo has none yet.
 */
export async function endSurvey(page, ending, newId) {
  const { config } = page;
  const submission = await page.lock(async () => {
    const stored = await page.mirror();
    const id = rememberEnded(stored, config.slug, config.revision, ending.why, newId);
    await page.share(stored.value);
    return id;
  });
  const [url, field] = ending.why === "screen_out" ? [config.endings.screenOutUrl, "page"] : [config.endings.turnedAwayUrl, "quota"];
  await countEnding(url, { [field]: ending.where }, submission);
  showEnded(page, ending.why);
}

/**
 * Tell the server a respondent's survey ended early (`body`: the page that screened them out, or
 * the full quota), once per submission id; a failure loses one count and nothing else.
 * @param {string} url
 * @param {{ page: string } | { quota: string }} body
 * @param {string} submission
 * @param {typeof fetch} [fetcher]
 */
export async function countEnding(url, body, submission, fetcher = fetch) {
  try {
    await fetcher(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", "Idempotency-Key": submission },
      body: JSON.stringify(body),
      keepalive: true,
    });
  } catch {
    // Offline: the respondent's way out does not wait for a count.
  }
}

/**
 * Show the end in place of the questions, the answers cleared; where the survey is on a panel,
 * go to its address for this end, its parameters filled in from this device.
 * @param {import("./survey.js").Page} page
 * @param {Why} why
 */
export function showEnded(page, why) {
  const { config } = page;
  for (const view of page.views.values()) clearTruth(view, true);
  for (const input of page.form.querySelectorAll("input, textarea, select")) input.disabled = true;
  const ended = document.getElementById("ended");
  for (const reason of ended.querySelectorAll("[data-why]")) reason.hidden = reason.dataset.why !== why;
  showNotice("ended");
  ended.focus();
  const address = why === "screen_out" ? config.panel?.screenOutUrl : config.panel?.quotaFullUrl;
  // Already sent there once (the id is forgotten then): Back or a reopened page just shows the end.
  if (!address || !page.panel || !page.panel.hasKept(config.slug, page.storage)) return;
  const link = page.panel.takePanelLink(config.panel, config.slug, page.storage, address);
  const anchor = document.getElementById("ended-address");
  anchor.href = link;
  document.getElementById("ended-link").hidden = false;
  window.location.assign(link);
}
