"""The public simulation lab: randomized response, Laplace and Gaussian noise, computed with rr."""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

import numpy as np
from flask import Blueprint, abort, render_template, request
from flask_babel import gettext as _

import rr
from rr.mechanism import noise_line
from rr.sanitized import ACCOUNTINGS, POSTERIORS
from web.classroom.experiment_lab import experiment_query
from web.classroom.list_lab import list_query
from web.classroom.number_lab import number_class
from web.classroom.report_lab import (
    MAX_REPORT_RUNS,
    MAX_REPORT_VALUES,
    REPORT_RUNS,
    REPORT_SETTING,
    RHAT_WARNING,
    lab_report,
    report_figures,
    reproduction,
)
from web.core.infrastructure.extensions import limiter
from web.core.surveys.designs import default_design, registered
from web.core.surveys.limits import MAX_OPTIONS, page_limits
from web.site.compute import computed
from web.site.query import number_argument, seed_argument

bp = Blueprint("lab", __name__)
# Each call runs up to 20,000 simulated surveys: generous for a class, a brake for a script.
LAB_REQUESTS = "240/minute"
limiter.limit(LAB_REQUESTS, scope="lab")(bp)

MAX_N = 1_000_000
# A simulated class is drawn square by square on the page: beyond this it stops being readable.
MAX_CLASS = 2000
MAX_TRIALS = 20_000
MAX_BITS = 5_000


@bp.get("/lab")
def lab():
    """Controls and charts; the page's script asks the endpoints below for the numbers. The
    designs' comparison at one ε is drawn by the server (``?designs_epsilon=``)."""
    limits = page_limits() | {"labMaxN": MAX_CLASS}
    epsilon = number_argument("designs_epsilon", 1, DESIGNS_MIN_EPSILON, DESIGNS_MAX_EPSILON)
    n = int(number_argument("report_n", 1000, 10, 10_000))
    low = number_argument("report_low", 0, -1e6, 1e6)
    high = number_argument("report_high", 100, -1e6, 1e6)
    if not low < high:
        abort(400, f"report_low must be below report_high, got {low:g} and {high:g}")
    repetitions = None  # the report's experiment repeated, only when asked (seconds of work)
    if "reproduce" in request.args:
        repetitions = int(number_argument("reproduce", REPORT_RUNS, 2, MAX_REPORT_RUNS))
    runs, trace_points = computed(lab_report, n, low, high)
    return render_template(
        "lab.html",
        messages=lab_messages(),
        limits=limits,
        designs=designs_comparison(round(epsilon, 3)),
        design_priors=DESIGN_PRIORS,
        design_sizes={"surveys": DESIGN_SURVEYS, "n": DESIGN_RESPONDENTS},
        spinners=[design for design in registered() if design.every_type],
        report={"n": n, "low": low, "high": high, "runs": runs, "traces": trace_points},
        reproduced=computed(reproduction, repetitions) if repetitions else None,
        rhat_warning=RHAT_WARNING,
        repetitions=repetitions or REPORT_RUNS,
        experiment=experiment_query(),
        list_experiment=list_query(),
    )


DESIGN_PRIORS = (0.1, 0.3, 0.5, 0.7, 0.9)
DESIGNS_MIN_EPSILON, DESIGNS_MAX_EPSILON = 0.05, 5.0
DESIGN_SURVEYS, DESIGN_RESPONDENTS = 4000, 500


class DesignRow(NamedTuple):
    """One design at the compared ε: its report probabilities, and the variance of its estimate
    per respondent (n·Var) at each true share, by formula and over simulated surveys."""

    name: str
    title: object
    design: rr.Design
    formula: tuple[float, ...]
    simulated: tuple[float, ...]


@lru_cache(maxsize=64)
def designs_comparison(epsilon: float) -> tuple[DesignRow, ...]:
    """Each design with a lab entry (web/core/surveys/designs/) at ``epsilon``, with its title;
    the numbers come from the compute pool once per ε."""
    titles = {entry.name: entry.lab.title for entry in registered() if entry.lab is not None}
    return tuple(
        DesignRow(name, titles[name], design, formula, simulated)
        for name, design, formula, simulated in computed(design_numbers, epsilon)
    )


def design_numbers(epsilon: float) -> list[tuple[str, rr.Design, tuple, tuple]]:
    """Each lab design's name, rr design, and n·Var by formula and over simulated surveys at
    ``epsilon``; simulated with a fixed seed, so the same ε always shows the same numbers."""
    rows = []
    rng = np.random.default_rng(2026)
    for entry in registered():
        if entry.lab is None:
            continue
        name, design = entry.name, entry.lab.design(entry.name, epsilon)
        formula = tuple(design.variance(pi, 1) for pi in DESIGN_PRIORS)
        simulated = []
        for pi in DESIGN_PRIORS:
            counts = design.simulate_counts(pi, DESIGN_RESPONDENTS, DESIGN_SURVEYS, seed=rng)
            estimates = (counts / DESIGN_RESPONDENTS - design.offset) / design.slope
            simulated.append(float(estimates.var(ddof=1)) * DESIGN_RESPONDENTS)
        rows.append((name, design, formula, tuple(simulated)))
    return rows


def _procedure() -> str:
    procedure = request.args.get("procedure", default_design().name)
    spinners = [design.name for design in registered() if design.every_type]
    if procedure not in spinners:
        abort(400, f"procedure must be one of {spinners}, got {procedure!r}")
    return procedure


@bp.get("/api/lab/report")
def report():
    """The reference report's experiment repeated ``runs`` times at ε = 0.1, 1 and 10 (defaults:
    the report's setting and its own procedure), with the accounting and posterior named."""
    setting = REPORT_SETTING
    n = int(number_argument("n", setting["n"], 10, 10_000))
    low = number_argument("low", setting["low"], -1e9, 1e9)
    high = number_argument("high", setting["high"], -1e9, 1e9)
    if not low < high:
        abort(400, f"low must be below high, got {low:g} and {high:g}")
    mean = number_argument("mean", setting["mean"], low, high)
    variance = number_argument("variance", setting["variance"], 1e-12, (high - low) ** 2)
    runs = int(number_argument("runs", REPORT_RUNS, 2, MAX_REPORT_RUNS))
    if runs * n > MAX_REPORT_VALUES:
        abort(400, f"runs × n must be at most {MAX_REPORT_VALUES:,}, got {runs} × {n}")
    accounting = _choice("accounting", "report", ACCOUNTINGS)
    posterior = _choice("posterior", "naive", POSTERIORS)
    return computed(report_figures, n, low, high, mean, variance, runs, accounting, posterior)


def _choice(name: str, default: str, allowed: tuple[str, ...]) -> str:
    value = request.args.get(name, default)
    if value not in allowed:
        abort(400, f"{name} must be one of {', '.join(allowed)}, got {value!r}")
    return value


@bp.get("/api/lab/distribution")
def distribution():
    """The estimate over many simulated classes: a histogram, its spread and the interval's coverage."""
    share = number_argument("true_proportion", 0.3, 0, 1)
    n = int(number_argument("n", 30, 1, MAX_N))
    epsilon = number_argument("epsilon", 1, 1e-3, 10)
    trials = int(number_argument("trials", 2000, 1, MAX_TRIALS))
    return computed(distribution_figures, share, n, epsilon, trials, _procedure(), seed_argument())


def distribution_figures(
    share: float, n: int, epsilon: float, trials: int, procedure: str, seed: int | None
) -> dict:
    """The distribution's figures for checked arguments (tens of milliseconds at the limits)."""
    draws = rr.simulate_estimates(share, n, epsilon, procedure, trials=trials, seed=seed)
    histogram = rr.lattice_histogram(draws, n, epsilon)
    offset, slope = noise_line(epsilon)
    theta = offset + slope * share
    coverage = rr.simulate_coverage(share, n, epsilon, procedure, trials=trials, seed=seed)
    return {
        "edges": histogram.edges.tolist(),
        "counts": histogram.counts.tolist(),
        "trials": trials,
        "mean": float(draws.mean()),
        "sd": float(draws.std(ddof=1)) if trials > 1 else 0.0,
        "theory_sd": float(np.sqrt(theta * (1 - theta) / n) / slope),
        "coverage": coverage.coverage,
        "mean_width": coverage.mean_width,
    }


@bp.get("/api/lab/running")
def running():
    """Estimate and 95% interval after each respondent of one simulated class."""
    bits = request.args.get("bits", "")
    if not bits or len(bits) > MAX_BITS or set(bits) - {"0", "1"}:
        abort(400, f"bits must be 1 to {MAX_BITS} characters, each 0 or 1")
    epsilon = number_argument("epsilon", 1, 1e-3, 10)
    procedure = _procedure()
    yes = np.cumsum(np.frombuffer(bits.encode(), dtype=np.uint8) - ord("0"))
    result = rr.estimate_proportion(yes, np.arange(1, len(bits) + 1), epsilon, procedure)
    return {name: getattr(result, name).tolist() for name in ("estimate", "ci_low", "ci_high")}


@bp.get("/api/lab/number")
def number():
    """One class answering a number question with one spin each, beside the Laplace and
    Gaussian mechanisms at the same ε (web/classroom/number_lab.py)."""
    n = int(number_argument("n", 200, 1, MAX_CLASS))
    epsilon = number_argument("epsilon", 1, 1e-3, 10)
    seed = seed_argument()
    return number_class(n, epsilon, _procedure(), np.random.default_rng(seed))


@bp.get("/lab/averaging")
def averaging_present():
    """The averaging attack alone, large, for a projector."""
    return render_template("lab_averaging.html", messages=lab_messages())


@bp.get("/api/lab/averaging")
def averaging():
    """The averaging attack on one respondent asked the same question wave after wave: how often
    the majority of their reports is their true answer, with fresh draws and with a permanent
    randomized response (rr.averaging_attack)."""
    epsilon = number_argument("epsilon", 1, 0.05, 5)
    bound = number_argument("epsilon_permanent", 2, 0.1, 8)
    waves = int(number_argument("waves", 50, 1, 200))
    try:
        attack = rr.averaging_attack(epsilon, bound, waves)
    except ValueError as error:
        abort(400, str(error))
    return {
        "epsilon": epsilon,
        "epsilon_permanent": bound,
        "keep": attack.limit,
        "light": attack.light,
        "fresh": attack.fresh.tolist(),
        "permanent": attack.permanent.tolist(),
        "limit": attack.limit,
    }


@bp.get("/api/lab/choice")
def choice():
    """Estimates and 95% intervals of each option from a simulated class's single-choice reports."""
    raw = request.args.get("counts", "")
    counts = [int(part) for part in raw.split(",") if part.strip().isdigit()]
    if len(counts) != len(raw.split(",")) or not 2 <= len(counts) <= MAX_OPTIONS:
        abort(400, f"counts must be 2 to {MAX_OPTIONS} whole numbers, comma-separated")
    if not 1 <= sum(counts) <= MAX_CLASS:
        abort(400, f"counts must add up to 1 to {MAX_CLASS}")
    epsilon = number_argument("epsilon", 1, 1e-3, 10)
    result = rr.estimate_choice(counts, epsilon, _procedure())
    return {
        "light_fraction": rr.choice_light_fraction(epsilon, len(counts), _procedure()),
        "truth_probability": rr.choice_probabilities(epsilon, len(counts)).truth,
        **{name: getattr(result, name).tolist() for name in ("estimate", "ci_low", "ci_high")},
    }


@bp.get("/api/lab/noise")
def noise():
    """Laplace scale and Gaussian σ (three ways) for a sensitivity, ε and δ."""
    sensitivity = number_argument("sensitivity", 1, 1e-6, 1e6)
    epsilon = number_argument("epsilon", 1, 1e-3, 50)
    delta = number_argument("delta", 1e-5, 1e-15, 0.5)
    sigmas = rr.gaussian_sigmas(sensitivity, epsilon, delta)
    return {
        "laplace_scale": rr.laplace_scale(sensitivity, epsilon),
        "sigma": sigmas._asdict(),
        "classical_valid": epsilon < 1,
        "classical_delta": (
            classical_delta := rr.gaussian_delta(sigmas.classical, sensitivity, epsilon)
        ),
        "classical_enough": classical_delta <= delta,
    }


def lab_messages() -> dict:
    """The lab script's words, translated on the server."""
    return {
        "averagingAxis": _("waves answered"),
        "averagingShare": _("majority of reports is the truth"),
        "averagingSummary": _(
            "After {waves} waves, the majority of a respondent's reports is their true answer "
            "{fresh} of the time with fresh draws, and {permanent} of the time with a permanent "
            "answer, which never passes {limit}: what ε∞ = {bound} allows over every wave."
        ),
        "averagingInvalid": _("Choose ε per wave below ε∞ over all waves."),
        "yes": _("Yes"),
        "no": _("No"),
        "classSummary": _(
            "True yes: {trueYes} of {n}. Reported yes: {reportedYes}. "
            "Estimate: {estimate}, {level} interval {low} to {high}."
        ),
        "coverage": _(
            "Over {trials} simulated classes the estimates averaged {mean} (true share {truth}); "
            "their spread was {sd} (formula: {theory}). "
            "The {level} interval covered the true share in {coverage} of the classes."
        ),
        "multiTotal": _(
            "A multi-select question with {k} options spins once per option, each at ε = {epsilon}: "
            "the question costs ε = {total} in all."
        ),
        "classSize": _("Enter a class size from 1 to {max}."),
        "laplace": _("Laplace noise with scale b = Δ/ε = {scale}."),
        "classicalInvalid": _(
            "The classical formula is proved only for ε < 1; here it gives too little noise: its true δ is {delta}."
        ),
        "classicalLucky": _(
            "The classical formula is proved only for ε < 1; here it still happens to be enough: its true δ is {delta}."
        ),
        "respondent": _("Respondent"),
        "estimateAxis": _("Estimate"),
        "respondentsAxis": _("Respondents so far"),
        "classesAxis": _("Classes"),
        "noiseAxis": _("Noise added"),
        "truth": _("true share"),
        "error": _("The lab could not compute this: {error}"),
        "choiceShares": _("Enter 2 to 8 shares in %, separated by commas, that add up to 100."),
        "choiceSummary": _(
            "Light share q = {light}; the true option is reported {truth} of the time. "
            "The estimates add up to 100%."
        ),
        "optionAxis": _("Option"),
        "shareAxis": _("Share of the class"),
        "optionWord": _("Option {number}"),
        "numberSummary": _(
            "The class's true mean: {truth} nights. One spin each: {estimate} (95% interval "
            "{low} to {high}); Laplace noise (b = {scale}): {laplace}; Gaussian noise (σ = {sigma}, "
            "δ = 10⁻⁵): {gaussian}. Per respondent the one-bit mean's variance is {ratioLaplace} "
            "of Laplace's and {ratioGaussian} of Gaussian's."
        ),
        "meanAxis": _("Mean (nights)"),
        "trueMean": _("true mean"),
        "sweepAxis": _("Sweep"),
        "burnIn": _("end of burn-in"),
    }
