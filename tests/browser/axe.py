"""axe-core, injected by Playwright into a page: the WCAG 2.x A and AA violations it finds."""

from __future__ import annotations

from tests.servers import ROOT

AXE = ROOT / "node_modules/axe-core/axe.min.js"
RULES = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
# The screens on which a page of one kind is checked with axe and for fit: each language and each
# width once, the phone in Korean, whose labels run longer. What these checks find depends on the
# width (a row too wide), or on the labels' length at that width, and Korean on a phone is the
# harder of the two phones. The accessibility walks (test_accessibility.py) check every pair of
# language, theme and width on the pages every survey has.
LANGUAGE_AND_WIDTH = [("en-US", 1280), ("ko-KR", 320)]


def violations(page) -> list:
    """axe's violations, then the controls :func:`contrast_problems` finds."""
    return [*axe_violations(page), *contrast_problems(page)]


def axe_violations(page) -> list:
    # A profile that bypasses the page's CSP has axe in every document already
    # (tests/browser/conftest.py); elsewhere it is added (the app allows no inline script).
    # Only violations are read: axe then builds a selector for one node of each other result
    # (passes, incomplete, inapplicable) instead of for every node, its slowest step.
    if not page.evaluate("typeof axe === 'object'"):
        page.add_script_tag(path=str(AXE))
    return page.evaluate(
        """async (tags) => (await axe.run(document, {
              runOnly: {type: "tag", values: tags}, resultTypes: ["violations"],
            })).violations.map((v) => [v.id, v.nodes.map((n) => n.target.join(" ")).slice(0, 3)])""",
        RULES,
    )


def phone_problems(page, width: int = 320) -> list:
    """What keeps a page from working on a phone ``width`` px wide: axe's violations, and a page
    wider than the screen (a sideways scroll)."""
    wider = page.evaluate("document.documentElement.scrollWidth") > width
    return [*violations(page), *(["wider than the screen"] if wider else [])]


# Every control's text against the background it is drawn on (WCAG 1.4.3): axe leaves a control
# "incomplete" where it cannot tell the background (a button's own background under a rule that
# takes it away), and a Delete button once sat there with its text the colour of its background.
# Here the background is the first opaque one from the control up, blended with the translucent
# ones above it; a control drawn over an image or a gradient is left to axe.
CONTRAST = """() => {
  const parse = (value) => {
    const m = /rgba?\\(([\\d.]+),\\s*([\\d.]+),\\s*([\\d.]+)(?:,\\s*([\\d.]+))?\\)/.exec(value);
    return m ? [Number(m[1]), Number(m[2]), Number(m[3]), m[4] === undefined ? 1 : Number(m[4])] : null;
  };
  const luminance = ([r, g, b]) => {
    const channel = (c) => { c /= 255; return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
  };
  const over = (top, bottom) => top.slice(0, 3).map((c, i) => c * top[3] + bottom[i] * (1 - top[3])).concat(1);
  const backgroundOf = (element) => {
    const layers = [];
    for (let node = element; node; node = node.parentElement) {
      const style = getComputedStyle(node);
      if (style.backgroundImage !== "none") return null;
      const colour = parse(style.backgroundColor);
      if (colour && colour[3] > 0) layers.push(colour);
      if (colour && colour[3] >= 1) break;
    }
    let result = [255, 255, 255, 1];
    for (const layer of layers.reverse()) result = over(layer, result);
    return result;
  };
  const found = [];
  const controls = "button, a[href], summary, label, select, input[type=submit], [role=button]";
  for (const element of document.querySelectorAll(controls)) {
    const box = element.getBoundingClientRect();
    const style = getComputedStyle(element);
    // Unseen: no box, hidden, disabled (WCAG exempts inactive controls), or moved off the page
    // until focused (the skip link, which has a background of its own then).
    if (!box.width || !box.height || style.visibility === "hidden" || element.disabled) continue;
    if (box.right <= 0 || box.bottom <= 0) continue;
    if (!element.textContent.trim() || element.closest("[hidden], [aria-hidden=true]")) continue;
    const background = backgroundOf(element);
    const text = parse(style.color);
    if (!background || !text) continue;
    const ink = over(text, background);
    const [light, dark] = [luminance(ink), luminance(background)].sort((a, b) => b - a);
    const ratio = (light + 0.05) / (dark + 0.05);
    const size = parseFloat(style.fontSize);
    const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
    if (ratio < (large ? 3 : 4.5)) {
      const tag = `${element.tagName.toLowerCase()}.${[...element.classList].join(".")}`;
      const name = element.id ? `#${element.id}` : tag;
      found.push(`${name} "${element.textContent.trim().slice(0, 30)}" ${ratio.toFixed(2)}:1`);
    }
  }
  return found;
}"""


def contrast_problems(page) -> list:
    """Controls whose text does not stand out from its background by 4.5:1 (3:1 when large)."""
    found = page.evaluate(CONTRAST)
    return [["control-contrast", found[:3]]] if found else []
