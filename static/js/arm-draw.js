/**
 * The arm of a question whose arms ask no wheel (the extended crosswise model): drawn once per
 * respondent, half and half, with the browser's cryptographic generator, and kept in the survey's
 * memo beside the reports, before its innocuous question is shown; a reload, Back or a second tab
 * shows the same one. The arm is chance alone, and is sent with the report.
 * @module arm-draw
 */
import { commitReported, loadMemo } from "./memo.js";
import { cryptoUint32, newSubmissionId, pickByShares } from "./random.js";

const KEPT_AS = "arm";

/**
 * The memo's entry for a question's arm (no question's item starts with "@").
 * @param {string} id The question's id.
 */
export const armItem = (id) => `@arm:${id}`;

/**
 * Whether a question draws an arm before it is answered: an answer of two arms whose report the
 * respondent gives.
 * @param {{answer: string, mode: string}} question
 */
export const drawsArmFirst = (question) => question.answer === "arm" && question.mode === "report";

/**
 * The arm this browser keeps for the question, if it is one.
 * @param {{reported: Map<string, {bit: unknown, procedure: string}>}} memo
 * @param {string} id
 * @returns {number | undefined}
 */
export function keptArm(memo, id) {
  const entry = memo.reported.get(armItem(id));
  if (!entry || entry.procedure !== KEPT_AS) return undefined;
  return entry.bit === "0" || entry.bit === "1" ? Number(entry.bit) : undefined;
}

/**
 * Keep an arm for each question of the page that draws one first ({@link drawsArmFirst}).
 * @param {any} page
 */
export function keepArmsOf(page) {
  const section = (id) => page.form.querySelector(`section[data-question="${CSS.escape(id)}"]`);
  return keepArms(page, page.config.questions.filter(drawsArmFirst), section);
}

/**
 * Keep an arm for each of `questions`: the one this browser keeps, or one drawn now and committed
 * (under the survey's lock, to both stores) before its innocuous question shows; a preview draws
 * afresh and keeps nothing. Each question's `keptArm` is set and its arm's question revealed.
 * @param {any} page The survey page (its config, lock, memo mirror and shared store).
 * @param {any[]} questions
 * @param {(id: string) => HTMLElement | null} sectionOf
 * @param {import("./random.js").Uint32Source} [random]
 */
export async function keepArms(page, questions, sectionOf, random = cryptoUint32) {
  const { config } = page;
  const draw = () => pickByShares([1, 1], random);
  const arms = page.preview
    ? new Map(questions.map((question) => [question.id, draw()]))
    : await page.lock(async () => {
        const stored = await page.mirror();
        const memo = loadMemo(stored, config.slug, config.revision);
        const found = new Map();
        const drawn = new Map();
        for (const question of questions) {
          const kept = keptArm(memo, question.id);
          const arm = kept ?? draw();
          if (kept === undefined) drawn.set(armItem(question.id), { bit: String(arm), epsilon: 0, procedure: KEPT_AS });
          found.set(question.id, arm);
        }
        if (drawn.size) {
          commitReported(stored, config.slug, config.revision, drawn, newSubmissionId);
          await page.share(stored.value);
        }
        return found;
      });
  for (const question of questions) {
    question.keptArm = arms.get(question.id);
    for (const text of sectionOf(question.id)?.querySelectorAll(".arm-innocuous") ?? []) {
      text.hidden = Number(text.dataset.arm) !== question.keptArm;
    }
  }
}
