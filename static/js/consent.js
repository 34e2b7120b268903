/**
 * A survey's consent, asked before its questions. Agreeing is kept in this browser's memo of the
 * survey (never sent), so a reload or a second tab goes straight to the questions; declining
 * keeps and sends nothing. Once agreed, the privacy box above the questions is folded: it stays
 * one click away without pushing the questions down. Loaded only by a survey with a consent text.
 * @module consent
 */
import { commitReported, loadMemo } from "./memo.js";
import { newSubmissionId } from "./random.js";

/** The memo's entry that says this browser agreed. */
export const CONSENT_ITEM = "@consent";

/**
 * Ask for consent unless this browser agreed already; resolves once the questions may show
 * (never, for a respondent who declines).
 * @param {import("./survey.js").Page} page
 * @param {import("./memo.js").Memo} memo
 */
export function askConsent(page, memo) {
  const box = document.getElementById("consent");
  if (!box) return;
  if (memo.reported.has(CONSENT_ITEM)) return showQuestions(page, box, false);
  page.form.hidden = true;
  box.hidden = false;
  // Disabled in the page as sent, until this code is there to answer them.
  for (const id of ["consent-agree", "consent-decline"]) document.getElementById(id).disabled = false;
  document.getElementById("consent-agree").addEventListener("click", () => {
    showQuestions(page, box, true);
    if (!page.preview) keepConsent(page);
  });
  document.getElementById("consent-decline").addEventListener("click", () => {
    box.hidden = true;
    const declined = document.getElementById("consent-declined");
    declined.hidden = false;
    declined.focus();
    // From a panel: back to it by its screen-out address, which tells it only that this one ends.
    const address = page.config.panel?.screenOutUrl;
    if (address && page.panel && !page.preview && page.panel.hasKept(page.config.slug, page.storage)) {
      window.location.assign(page.panel.takePanelLink(page.config.panel, page.config.slug, page.storage, address));
    }
  });
}

/** Hide the consent, fold the privacy box, show the questions (`focus`: the first one). */
function showQuestions(page, box, focus) {
  box.hidden = true;
  page.form.hidden = false;
  const privacy = document.getElementById("privacy");
  if (privacy) privacy.open = false;
  if (!focus) return;
  const first = page.form.querySelector("h2");
  first?.setAttribute("tabindex", "-1");
  first?.focus();
}

/** Keep "agreed" in the memo every tab reads, under the survey's lock. */
function keepConsent(page) {
  const { config } = page;
  return page.lock(async () => {
    const stored = await page.mirror();
    if (loadMemo(stored, config.slug, config.revision).reported.has(CONSENT_ITEM)) return;
    commitReported(stored, config.slug, config.revision, new Map([[CONSENT_ITEM, { bit: 1, epsilon: 0, procedure: "consent" }]]), newSubmissionId);
    await page.share(stored.value);
  });
}
