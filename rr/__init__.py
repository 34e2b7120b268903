"""rr: randomized response, from the respondent's spin to the researcher's estimate.

A pure Python + NumPy/SciPy core with no web framework in it: the app, the command line and
researchers' own scripts all use these functions. See ``docs/statistics.md`` for the mathematics.
"""

from ._validate import MIN_EPSILON
from .accounting import bound, question_epsilon, survey_epsilon
from .arm_posteriors import (
    CheatingPosterior,
    cheating_posterior,
    extended_crosswise_posterior,
    lie_detector_posterior,
)
from .bayes import ChoicePosterior, Posterior, choice_posterior, posterior
from .cheating import CheatingDetection, CheatingEstimate, cheating_detection
from .choice import (
    ChoiceEstimate,
    ChoiceProbabilities,
    choice_light_fraction,
    choice_margin_of_error,
    choice_probabilities,
    estimate_choice,
    exact_choice_coverage,
    perturb_choice,
    simulate_choice_counts,
    simulate_choice_coverage,
)
from .coverage import Coverage, exact_coverage, simulate_coverage
from .describe import ValueSummary, describe_values
from .design import (
    Design,
    asked_directly,
    crosswise,
    design_epsilon,
    estimate_proportion,
    forced_response,
    kuk,
    spinner,
    spinner_coin,
    unrelated_question,
)
from .design_effect import DesignEffectTest, design_effect_test
from .difference import Difference, difference, simulate_difference_coverage
from .double_list import DoubleList, DoubleListEstimate, double_list
from .equal_epsilon import designs_at_epsilon
from .errors import ParameterError
from .estimate import Estimate
from .experiment import (
    Allocation,
    Contrast,
    ExperimentPlan,
    allocation_check,
    contrast,
    contrast_coverage,
    contrast_of,
    plan_experiment,
    simulate_power,
)
from .extended_crosswise import ExtendedCrosswise, ExtendedCrosswiseEstimate, extended_crosswise
from .joint import JointFit, joint_em, joint_gibbs
from .lie_detector import LieDetector, LieDetectorEstimate, lie_detector
from .linear import LinearResult
from .list_experiment import ListEstimate, ListExperiment, list_experiment
from .list_regression import ListRegression, list_regression
from .longitudinal import AveragingAttack, PermanentResponse, averaging_attack, permanent_response
from .mean import BoundedMean, MeanEstimate, MechanismVariances, bounded_mean, mechanism_variances
from .mechanism import (
    PROCEDURES,
    ReportProbabilities,
    dark_report,
    light_fraction,
    perturb,
    privacy_loss_ratio,
    report_probabilities,
    truth_probability,
)
from .noise import GaussianSigmas, gaussian_delta, gaussian_sigma, gaussian_sigmas, laplace_scale
from .planning import margin_of_error, sample_size
from .power import (
    ChangePower,
    change_power,
    change_sample_size,
    detectable_change,
    simulate_change_power,
)
from .regression import RegressionError, RegressionResult, rr_logistic_regression
from .simulation import LatticeHistogram, lattice_histogram, simulate_estimates
from .split_ballot import SplitBallot, split_ballot
from .synthetic import Pooled, combine, interval_overlap

__all__ = [
    "bound",
    "ValueSummary",
    "describe_values",
    "AveragingAttack",
    "PermanentResponse",
    "averaging_attack",
    "permanent_response",
    "ChangePower",
    "change_power",
    "change_sample_size",
    "detectable_change",
    "simulate_change_power",
    "ParameterError",
    "CheatingPosterior",
    "cheating_posterior",
    "extended_crosswise_posterior",
    "lie_detector_posterior",
    "Pooled",
    "combine",
    "interval_overlap",
    "JointFit",
    "joint_em",
    "joint_gibbs",
    "ChoicePosterior",
    "Posterior",
    "choice_posterior",
    "posterior",
    "BoundedMean",
    "LinearResult",
    "MeanEstimate",
    "MechanismVariances",
    "bounded_mean",
    "mechanism_variances",
    "CheatingDetection",
    "CheatingEstimate",
    "ExtendedCrosswise",
    "ExtendedCrosswiseEstimate",
    "extended_crosswise",
    "ListEstimate",
    "ListExperiment",
    "DoubleList",
    "DoubleListEstimate",
    "list_experiment",
    "double_list",
    "ListRegression",
    "list_regression",
    "LieDetector",
    "LieDetectorEstimate",
    "lie_detector",
    "DesignEffectTest",
    "design_effect_test",
    "Allocation",
    "Contrast",
    "Design",
    "ExperimentPlan",
    "SplitBallot",
    "allocation_check",
    "asked_directly",
    "contrast",
    "contrast_coverage",
    "contrast_of",
    "plan_experiment",
    "simulate_power",
    "split_ballot",
    "cheating_detection",
    "crosswise",
    "design_epsilon",
    "designs_at_epsilon",
    "forced_response",
    "kuk",
    "spinner",
    "spinner_coin",
    "unrelated_question",
    "ChoiceEstimate",
    "ChoiceProbabilities",
    "choice_light_fraction",
    "choice_margin_of_error",
    "choice_probabilities",
    "estimate_choice",
    "exact_choice_coverage",
    "perturb_choice",
    "simulate_choice_counts",
    "simulate_choice_coverage",
    "MIN_EPSILON",
    "PROCEDURES",
    "Coverage",
    "Difference",
    "Estimate",
    "GaussianSigmas",
    "RegressionError",
    "RegressionResult",
    "LatticeHistogram",
    "ReportProbabilities",
    "difference",
    "estimate_proportion",
    "exact_coverage",
    "gaussian_delta",
    "gaussian_sigma",
    "gaussian_sigmas",
    "laplace_scale",
    "lattice_histogram",
    "dark_report",
    "light_fraction",
    "margin_of_error",
    "perturb",
    "privacy_loss_ratio",
    "question_epsilon",
    "report_probabilities",
    "rr_logistic_regression",
    "sample_size",
    "simulate_coverage",
    "simulate_difference_coverage",
    "simulate_estimates",
    "survey_epsilon",
    "truth_probability",
]
