/**
 * Filling a translated message's named placeholders: "{n} people" with {n: 30} is "30 people".
 * Its own module so that a page needing only this does not load the builder's code with it.
 * @module fill
 */

/**
 * A message with each `{name}` replaced by `values[name]`; a placeholder without a value stays.
 * @param {string} template
 * @param {Record<string, unknown>} values
 * @returns {string}
 */
export function fill(template, values) {
  return template.replace(/\{(\w+)\}/g, (match, name) => (name in values ? String(values[name]) : match));
}
