"""A methods paragraph a researcher can paste into a paper, in Markdown and LaTeX, in the
reader's language: each randomized question's design in the literature's words with its report
probabilities and ε, the survey's total ε, the estimator, the interval's method by name, what was
published (n, batches, minimum n), the questions asked directly, a split ballot's conditions,
shares, allocation check and contrasts; with the references."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from flask_babel import gettext as _

from web.core.infrastructure.i18n import shown
from web.core.models import Survey, unbounded_questions
from web.core.results.methods_flow import fielding_paragraphs

# The method's founding paper, cited in the first sentence whatever the designs.
WARNER = (
    "Warner, S. L. (1965). Randomized response: a survey technique for eliminating evasive answer "
    "bias. Journal of the American Statistical Association, 60(309), 63–69."
)
CLOPPER_PEARSON = (
    "Clopper, C. J., & Pearson, E. S. (1934). The use of confidence or fiducial limits illustrated "
    "in the case of the binomial. Biometrika, 26(4), 404–413."
)
NEWCOMBE = (
    "Newcombe, R. G. (1998). Interval estimation for the difference between independent "
    "proportions: comparison of eleven methods. Statistics in Medicine, 17(8), 873–890."
)
IMAI = (
    "Imai, K. (2011). Multivariate regression analysis for the item count technique. Journal of "
    "the American Statistical Association, 106(494), 407–416."
)
# Symbols written once for both forms: (Markdown, LaTeX).
SYMBOLS = {
    "ε": ("ε", r"$\varepsilon$"),
    "π̂": ("π̂", r"$\hat{\pi}$"),
    "λ̂": ("λ̂", r"$\hat{\lambda}$"),
    "λ₀": ("λ₀", r"$\lambda_0$"),
    "λ₁": ("λ₁", r"$\lambda_1$"),
    "χ²": ("χ²", r"$\chi^2$"),
    "×": ("×", r"$\times$"),
    "−": ("−", r"$-$"),
}
LATEX_SPECIAL = {
    "\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
    "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
}  # fmt: skip


@dataclass(frozen=True)
class Methods:
    """The paragraphs and references, written out as Markdown and as LaTeX."""

    paragraphs: tuple[str, ...]
    references: tuple[str, ...]

    @property
    def shown_paragraphs(self) -> list[str]:
        """The paragraphs as a page shows them (symbols as characters)."""
        return [_symbols(paragraph, 0) for paragraph in self.paragraphs]

    @property
    def markdown(self) -> str:
        body = self.shown_paragraphs
        listed = [f"- {reference}" for reference in self.references]
        heading = _("References")
        return "\n\n".join([*body, f"**{heading}**", "\n".join(listed)]) + "\n"

    @property
    def latex(self) -> str:
        body = [_symbols(_escaped(paragraph), 1) for paragraph in self.paragraphs]
        listed = [rf"\item {_escaped(reference)}" for reference in self.references]
        heading = _escaped(_("References"))
        return "\n\n".join([
            *body, rf"\paragraph{{{heading}}}",
            "\\begin{itemize}\n" + "\n".join(listed) + "\n\\end{itemize}",
        ]) + "\n"  # fmt: skip

    def to_dict(self) -> dict:
        return {"markdown": self.markdown, "latex": self.latex}

    def __repr__(self) -> str:
        return f"Methods({len(self.paragraphs)} paragraphs, {len(self.references)} references)"


def survey_methods(survey: Survey, min_n: int) -> Methods:
    """The survey's methods paragraph in the request's language."""
    # A list experiment randomizes which list is shown, not the answer: its own paragraph.
    listed = [question for question in survey.questions if question.design.controls is not None]
    randomized = [
        question
        for question in survey.questions
        if question.asked_with.protects and question.design.controls is None
    ]
    direct = [question for question in survey.questions if not question.asked_with.protects]
    paragraphs = []
    if randomized:
        paragraphs.append(" ".join([
            _("Sensitive questions were asked with randomized response (Warner 1965): each "
              "respondent's device randomized the answer before it was sent, and only the "
              "randomized report was stored."),
            *(_design_sentence(question) for question in randomized),
            _("The survey's total privacy cost is ε = %(total)s, the sum over its questions "
              "(a question with k options spun one by one costs k × ε).",
              total=_number(survey.epsilon_total)),
            *([_("Questions with no ε bound are left out of the total (%(count)d here).",
                 count=len(unbounded_questions(survey)))]
              if unbounded_questions(survey) else []),
        ]))  # fmt: skip
        paragraphs.append(
            _("Each prevalence π̂ was estimated without bias as π̂ = (λ̂ − λ₀) / (λ₁ − λ₀), "
              "where λ̂ is the share of respondents reporting yes and λ₀, λ₁ are the design's "
              "probabilities of a yes report for a true no and a true yes. Its %(level)d%% "
              "interval is the exact Clopper–Pearson interval (Clopper & Pearson 1934) on the "
              "reported share, carried through the design's line and clipped to 0–100%%.",
              level=95)
        )  # fmt: skip
    if listed:
        paragraphs.append(_lists_paragraph(listed))
    if direct:
        asked = ", ".join(_direct_words(question) for question in _once_per_condition(direct))
        paragraphs.append(_("Asked directly, with no randomizing (and no ε): %(questions)s.",
                            questions=asked))  # fmt: skip
    if survey.condition_list:
        paragraphs.append(_experiment_sentence(survey))
    paragraphs += fielding_paragraphs(survey, min_n)
    paragraphs.append(
        _("%(n)s responses were published. Results were published in batches of %(batch)s "
          "responses, so that no single response can be read off a change, and any figure of "
          "fewer than %(min)s respondents was withheld.",
          n=f"{survey.published_count:,}", batch=survey.results_batch, min=min_n)
    )  # fmt: skip
    return Methods(tuple(paragraphs), _references(randomized, listed, bool(survey.condition_list)))


def _lists_paragraph(listed) -> str:
    """The list experiments: how each was asked, how it was estimated, and why no ε bounds it."""
    asked = "; ".join(
        _("“%(question)s”%(condition)s, %(count)d control items and the sensitive item “%(item)s”",
          question=shown(question.texts).text, count=question.design.control_count,
          item=shown(question.design.sensitive_text or question.texts).text,
          condition=_(" (in condition %(condition)s)", condition=question.condition)
          if question.condition is not None else "")
        for question in listed
    )  # fmt: skip
    return _(
        "Asked as list experiments (the item count technique): %(questions)s. Each respondent's "
        "device drew them at random, half and half, into the short list (the control items) or "
        "the long list (the control items and the sensitive item), and the order of the items "
        "for them; respondents gave only how many items applied. The share holding the sensitive "
        "item was estimated by the difference in the two lists' mean counts, with the HC3 "
        "standard error and a Wald %(level)d%% interval, and by maximum likelihood (Imai 2011), "
        "as list::ictreg does; Blair and Imai's (2012) test for design effects was applied. A "
        "list experiment has no ε bound: a count of every item of the long list, or of none, "
        "gives the answer away; these questions are left out of the survey's total ε.",
        questions=asked, level=95,
    )  # fmt: skip


def _design_sentence(question) -> str:
    """One randomized question: its wording, design in the literature's words, report
    probabilities and ε (per option where each is spun)."""
    spins = question.type.spin_count(len(question.options))
    cost = (
        _("no ε bound, since a “no” is never forced; estimated in closed form with the share of "
          "honest carriers, with Wald intervals")
        if math.isinf(question.epsilon)
        else
        _("ε = %(epsilon)s per option × %(count)d options = %(total)s",
          epsilon=_number(question.epsilon), count=spins, total=_number(question.type.cost(question)))
        if spins > 1
        else _("ε = %(epsilon)s", epsilon=_number(question.epsilon))
    )  # fmt: skip
    condition = (
        _(" (in condition %(condition)s)", condition=question.condition)
        if question.condition is not None
        else ""
    )
    words = {"question": shown(question.texts).text, "condition": condition,
             "design": question.type.design_words(question.asked_with), "cost": cost}  # fmt: skip
    try:
        line = question.type.line_of(question)
    except ValueError:  # arms of their own (cheating detection, the lie detector): no single line
        return _("“%(question)s”%(condition)s was asked with %(design)s, each arm with its own "
                 "probabilities; %(cost)s.", **words)  # fmt: skip
    return _(
        "“%(question)s”%(condition)s was asked with %(design)s: a yes report with probability "
        "λ₁ = %(yes)s for a true yes and λ₀ = %(no)s for a true no; %(cost)s.",
        yes=_share(line.yes_given_yes), no=_share(line.yes_given_no), **words,
    )  # fmt: skip


def _direct_words(question) -> str:
    """A question asked directly, with the split ballot's condition that asks it so."""
    text = f"“{shown(question.texts).text}”"
    if question.condition is None:
        return text
    return _("%(question)s (in condition %(condition)s)", question=text,
             condition=question.condition)  # fmt: skip


def _experiment_sentence(survey: Survey) -> str:
    total = sum(condition.share for condition in survey.condition_list)
    conditions = ", ".join(
        _("%(condition)s (%(percent)s of respondents)", condition=condition.id,
          percent=f"{condition.share / total:.0%}")
        for condition in survey.condition_list
    )  # fmt: skip
    return _(
        "Each respondent's device assigned them at random to one of the conditions %(conditions)s; "
        "the allocation was checked with Pearson's χ² test against these shares. Each condition's "
        "estimate was compared with the condition asking directly by their difference, with "
        "Newcombe's MOVER interval built on each estimate's exact limits (Newcombe 1998).",
        conditions=conditions,
    )


def _references(randomized, listed, experiment: bool) -> tuple[str, ...]:
    found = [WARNER] if randomized else []
    found += [question.asked_with.reference for question in (*randomized, *listed)]
    found += [CLOPPER_PEARSON] if randomized else []
    found += [IMAI] if listed else []
    found += [NEWCOMBE] if experiment else []
    return tuple(sorted(dict.fromkeys(reference for reference in found if reference)))


def _once_per_condition(questions) -> list:
    """Each question once per condition that asks it directly."""
    return list({(q.question_id, q.condition): q for q in questions}.values())


def _number(value: float) -> str:
    return f"{value:.4g}"


def _share(value: float) -> str:
    return f"{value:.3f}".rstrip("0").rstrip(".") if value not in (0, 1) else f"{value:g}"


def _escaped(text: str) -> str:
    """Text as LaTeX reads it (its special characters written out)."""
    return "".join(LATEX_SPECIAL.get(character, character) for character in text)


SYMBOL = re.compile(
    "|".join(re.escape(symbol) for symbol in sorted(SYMBOLS, key=len, reverse=True))
)
# Each symbol inside a formula (its LaTeX without the dollars).
MATH_FORMS = {symbol: latex.strip("$") for symbol, (_markdown, latex) in SYMBOLS.items()}
_TOKEN = rf"(?:{SYMBOL.pattern}|\d[\d,]*(?:\.\d+)?|[=/()])"
MATH_RUN = re.compile(rf"{_TOKEN}(?: ?{_TOKEN})*")


def _symbols(text: str, form: int) -> str:
    """The symbols in ``text`` in Markdown (0) or LaTeX (1): in LaTeX, a run of symbols, numbers
    and operators that holds a symbol is one formula, ``$\\lambda_1 = 0.731$``, its = inside."""
    if form == 0:
        return SYMBOL.sub(lambda match: SYMBOLS[match.group(0)][0], text)
    return MATH_RUN.sub(_formula, text)


def _formula(match: re.Match) -> str:
    """A run as one formula where it holds a symbol (a prose parenthesis left outside)."""
    run = match.group(0)
    if not SYMBOL.search(run):
        return run
    outside = ""
    while run.endswith(")") and run.count(")") > run.count("("):
        run, outside = run[:-1].rstrip(), ")" + outside
    inner = SYMBOL.sub(lambda found: MATH_FORMS[found.group(0)], run).replace("−", "-")
    return f"${inner}${outside}"
