"""R calls that reanalyse the responses CSV as written, for the codebook: RRreg's ``RRuni`` (Heck &
Moshagen) for a column's prevalence and, where the rr package has the design, ``rr::rrreg``
(Blair, Imai & Zhou) for a regression. Every call reads the data frame ``d`` of :data:`READ_CSV`,
which keeps the export's column names (``key.option``) as they are and reads an empty cell (a
question skipped, or not asked) as NA; each call leaves a column's NAs out, as the app's n does."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

READ_CSV = 'd <- read.csv("{slug}-responses.csv", check.names = FALSE, na.strings = "")'
INSTALL = 'install.packages(c("RRreg", "rr"))'


def r_number(value: float) -> str:
    """A number to 15 significant digits: rr checks that p, p0 and p1 sum to 1 to 10 decimals."""
    return format(float(value), ".15g")


def r_vector(values: float | Sequence[float]) -> str:
    """One number, or R's ``c(…)`` of several."""
    if isinstance(values, int | float):
        return r_number(values)
    return "c(" + ", ".join(r_number(value) for value in values) + ")"


def r_vector_of_texts(texts: Sequence[str]) -> str:
    """R's ``c(…)`` of quoted texts (option ids: letters, digits, _ and -)."""
    return "c(" + ", ".join(f'"{text}"' for text in texts) + ")"


def r_column(name: str) -> str:
    """The column ``name`` of ``d``, whatever characters it holds, less its NAs (the respondents
    who skipped the question): a question's columns are empty together, so two of them stay
    aligned."""
    return f'na.omit(d[["{name}"]])'


def rruni(
    column: str, model: str, p: str, group: str | None = None, closed_form: bool = False
) -> str:
    """RRreg's univariate estimate of ``column`` (an R expression) under ``model`` with ``p``;
    ``closed_form`` keeps RRreg's closed form where it would refit by maximum likelihood on the
    boundary (``MLest = FALSE``)."""
    grouped = "" if group is None else f", group = {group}"
    closed = ", MLest = FALSE" if closed_form else ""
    return f'RRreg::RRuni({column}, model = "{model}", p = {p}{grouped}{closed})'


@dataclass(frozen=True)
class RModels:
    """A one-line design in R's terms: RRreg's model and its ``p``; rr's design and its named
    probabilities where rr has the design (else ``rr_design`` is None)."""

    rrreg_model: str
    rrreg_p: float | list[float]
    rr_design: str | None = None
    rr_args: dict[str, float] = field(default_factory=dict)
    # Where RRuni's ``pi`` holds the share of yes: RRreg's forced-response model lists the share
    # of each response category (0, then 1), the others give the one share.
    yes_at: str = ""

    def prevalence(self, column: str) -> str:
        """The RRuni call that estimates the share of true yes in ``column``."""
        return rruni(r_column(column), self.rrreg_model, r_vector(self.rrreg_p))

    def share_of_yes(self, column: str) -> str:
        """An R expression of the estimated share of true yes in ``column``."""
        return f"{self.prevalence(column)}$pi{self.yes_at}"

    def regression(self, column: str) -> str:
        """The rrreg call on an intercept (put the direct questions after ``~``); rr starts
        from random values unless told, and from zero it converges every time."""
        assert self.rr_design is not None, "only for a design rr has"
        args = "".join(f", {name} = {r_number(value)}" for name, value in self.rr_args.items())
        formula = f"`{column}` ~ 1"
        return f'rr::rrreg({formula}, data = d{args}, design = "{self.rr_design}", start = 0)'

    def entry(self, columns: Sequence[str]) -> dict:
        """The codebook's fields: the models, and per column the calls that run as written."""
        calls = [self.prevalence(column) for column in columns]
        entry: dict = {"RRreg_model": self.rrreg_model, "RRreg_p": self.rrreg_p}
        if self.rr_design is not None:
            entry["rr_design"] = self.rr_design
            calls += [self.regression(column) for column in columns]
        return entry | {"R": calls}


# The change between two waves (or two groups) from each one's published counts on the item's
# line E[share of 1] = a + b·π, as the app computes it (rr.difference): MOVER on each wave's exact
# Clopper–Pearson limits mapped through the line, not clipped. Base R only.
CHANGE_FUNCTION = """rr_change <- function(yes_from, n_from, yes_to, n_to, a, b, level = 0.95) {
  one <- function(yes, n) {
    ci <- binom.test(yes, n, conf.level = level)$conf.int
    limits <- sort((ci - a) / b)
    c(estimate = (yes / n - a) / b, low = limits[1], high = limits[2])
  }
  f <- one(yes_from, n_from); t <- one(yes_to, n_to)
  d <- unname(t["estimate"] - f["estimate"])
  low <- d - sqrt((t["estimate"] - t["low"])^2 + (f["high"] - f["estimate"])^2)
  high <- d + sqrt((t["high"] - t["estimate"])^2 + (f["estimate"] - f["low"])^2)
  c(change = d, ci_low = max(unname(low), -1), ci_high = min(unname(high), 1))
}"""
