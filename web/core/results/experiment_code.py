"""The codebook's entry for a split-ballot experiment: what the ``condition`` column means, and R
that reanalyses the responses CSV as downloaded: the allocation check (``chisq.test``), each
contrast exactly as the app computes it (``rr_contrast``, base R) and, against the condition asked
directly, RRreg's ``RRlog`` with that condition as group 0 and the other as a covariate."""

from __future__ import annotations

from web.core.models import Question, Survey
from web.core.results.experiment import compared_items, reference_row
from web.core.surveys.designs.r_code import r_column, r_number, r_vector, r_vector_of_texts

# The contrast of two conditions from each one's counts on its own line E[share of 1] = a + b·π,
# as the app computes it (rr.contrast): MOVER on each condition's exact Clopper–Pearson limits
# mapped through its line, not clipped, and the one-sided Wald p-value that the first finds more.
CONTRAST_FUNCTION = """rr_contrast <- function(yes_1, n_1, a_1, b_1, yes_2, n_2, a_2, b_2, level = 0.95) {
  one <- function(yes, n, a, b) {
    ci <- binom.test(yes, n, conf.level = level)$conf.int
    limits <- sort((ci - a) / b)
    possible <- min(max(yes / n, min(a, a + b)), max(a, a + b))
    c(estimate = (yes / n - a) / b, se = sqrt(possible * (1 - possible) / n) / abs(b),
      low = limits[1], high = limits[2])
  }
  f <- one(yes_1, n_1, a_1, b_1); s <- one(yes_2, n_2, a_2, b_2)
  d <- unname(f["estimate"] - s["estimate"])
  low <- d - sqrt((f["estimate"] - f["low"])^2 + (s["high"] - s["estimate"])^2)
  high <- d + sqrt((f["high"] - f["estimate"])^2 + (s["estimate"] - s["low"])^2)
  c(difference = d, ci_low = max(unname(low), -1), ci_high = min(unname(high), 1),
    p_more = unname(1 - pnorm(d / sqrt(f["se"]^2 + s["se"]^2))))
}"""


def experiment_entry(survey: Survey) -> dict:
    """The experiment's conditions, the allocation check and each item's contrasts, in R."""
    conditions = survey.condition_list
    ids = [condition.id for condition in conditions]
    total = sum(condition.share for condition in conditions)
    table = f"table(factor(d$condition, levels = {r_vector_of_texts(ids)}))"
    shares = r_vector([condition.share / total for condition in conditions])
    return {
        "conditions": [condition.to_dict() for condition in conditions],
        "column_meaning": "condition: the condition the respondent's page drew, by chance alone "
        "with the declared shares (independent of every answer). A question asked by condition "
        "has a column per condition, <id>@<condition>, empty for the other conditions' "
        "respondents.",
        "allocation_R": f"chisq.test({table}, p = {shares})",
        "R_functions": CONTRAST_FUNCTION,
        "items": [_item(asked) for asked in compared_items(survey).values()],
    }


def _item(rows: list[Question]) -> dict:
    """One item's contrasts with the reference condition (the one asked directly, or the
    first), each as rr_contrast on the CSV's columns, and RRlog where the reference is direct."""
    reference = reference_row(rows)
    calls = []
    for row in rows:
        if row is reference:
            continue
        calls.append(
            {
                "condition": row.condition,
                "versus": reference.condition,
                "contrast": f"rr_contrast({_counts(row)}, {_counts(reference)})",
                **({"RRlog": _rrlog(row, reference)} if not reference.asked_with.protects else {}),
            }
        )
    return {"id": rows[0].question_id, "known_prevalence": rows[0].known_prevalence,
            "contrasts": calls}  # fmt: skip


def _counts(row: Question) -> str:
    """yes, n, a, b of a condition's column, as rr_contrast takes them."""
    column = r_column(row.key)
    offset, slope = row.asked_with.noise_line(row)
    return (
        f"sum({column}, na.rm = TRUE), sum(!is.na({column})), {r_number(offset)}, {r_number(slope)}"
    )


def _rrlog(row: Question, reference: Question) -> str | None:
    """RRreg's logistic RR regression of the item on a dummy for the randomized condition, with
    the direct condition as group 0: plogis(intercept) is the direct share, plogis(intercept +
    treated) the randomized condition's (their maximum-likelihood estimates)."""
    entry = row.asked_with.codebook(row)
    model, p = entry.get("RRreg_model"), entry.get("RRreg_p")
    if model is None or p is None:
        return None
    return (
        "local({ "
        f's <- d[d$condition %in% c("{reference.condition}", "{row.condition}"), ]; '
        f's$treated <- as.numeric(s$condition == "{row.condition}"); '
        f's$y <- ifelse(s$treated == 1, s[["{row.key}"]], s[["{reference.key}"]]); '
        f'RRreg::RRlog(y ~ treated, data = s, model = "{model}", p = {r_vector(p)}, '
        "group = s$treated, LR.test = FALSE) })"
    )
