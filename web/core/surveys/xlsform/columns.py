"""XLSForm: the subset of the format that this app's questions map to, and its columns.

Read by :mod:`web.core.surveys.xlsform.read`, written by :mod:`web.core.surveys.xlsform.write`.

A workbook has a ``survey`` sheet (one row per question), a ``choices`` sheet (the options of each
list) and a ``settings`` sheet, as KoboToolbox and ODK read them. Texts are in ``label::English
(en)`` and ``label::Korean (ko)`` columns (or one ``label`` column in a one-language survey).

=========================  =================================================================
survey sheet column        meaning
=========================  =================================================================
``type``                   ``select_one yes_no`` (a yes/no question: list ``yes_no`` with
                           choices ``1`` and ``0``), ``select_one LIST`` (single choice, or a
                           direct question), ``select_multiple LIST`` (multi-select)
``name``                   the question's id
``label::<Language> (tag)``  its wording per language
``rr_procedure``           a registered design's name (web/core/surveys/designs/; all but the
                           spinners yes/no only), or ``direct`` (asked plainly). Required:
                           nothing is left unprotected by a missing cell.
``rr_epsilon``             ε per spin (not for ``direct``; for a design, derived from its
                           parameters and optional: a stated one must match)
``rr_epsilon_permanent``   ε∞, the bound over every wave of the series (a yes/no, multi-select
                           or single-choice question with a spinner, in a wave of a series)
``rr_<share>``             a design's shares, one column for each share any registered design
                           states (``rr_p_truth``, ``rr_p_forced_yes``, ``rr_p_forced_no``,
                           ``rr_theta_yes``, ``rr_theta_no``); each design reads its own
``rr_innocuous::<L> (t)``  the innocuous question's wording per language (a design that asks
                           an innocuous question; the extended crosswise model's first arm's)
``rr_innocuous_2::<L> (t)`` the extended crosswise model's second arm's innocuous question
``rr_prevalence``          its known share of yes
``rr_randomizer``          ``page`` (default) or ``own``: the respondent's own die or coin
``rr_arms``                a design's two arms: cheating detection's ``t,f_yes,f_no;t,f_yes,f_no``,
                           the lie detector's ``p_no;p_no``, the extended crosswise model's
                           innocuous prevalences ``q;q``
``parameters``             a number question's range: its type is ``range`` (as in ODK) with
                           ``start=0 end=30 step=1``
``rr_unit::<L> (t)``       a number question's unit per language
``relevant``               a question's (or a group's) display rule, ``show_if``
                           (:mod:`web.core.surveys.xlsform.flow`: ``${q} = 'x'``,
                           ``selected(${q}, 'x')``, ``${q} >= 18``, ``and``, ``or``)
``parameters``             on a select, ``randomize=true``: its options' order is drawn
``begin group``            a page (appearance ``field-list``; ``randomize=true`` in its
                           parameters draws its questions' order), up to ``end group``
``rr_condition``           an experiment's condition the row asks in, with ``rr_question``
                           (the question's id), ``rr_known_prevalence`` and ``rr_correct``
                           (:mod:`web.core.surveys.xlsform.conditions`; ``rr_conditions`` in
                           the settings sheet)
=========================  =================================================================

The ``choices`` sheet has ``list_name`` (or ``list name``), ``name``, a label per language and
``rr_fixed`` (``yes``: the option keeps its place when its question's options are shuffled).
The ``settings`` sheet has ``form_id`` (the slug), ``form_title`` (one plain cell, the default
language's, as XLSForm has it; the other languages' in ``rr_title::Korean (ko)``; a
``form_title::…`` column is read too), ``default_language`` and this app's own
``rr_description``, ``rr_consent``, ``rr_thanks`` (per language like the title),
``rr_results_batch``, ``rr_completion_code``, ``rr_completion_url``, ``rr_opens_at``,
``rr_closes_at``, ``rr_target_n``, ``rr_series`` with ``rr_wave`` (the series this survey
is a wave of), an online panel's ``rr_panel_parameters`` (names separated by spaces) with
``rr_panel_complete_url``, ``rr_panel_screen_out_url`` and ``rr_panel_quota_full_url``, and the
quotas in ``rr_quotas`` (:mod:`web.core.surveys.xlsform.flow`). Without a settings sheet (or a
``form_id``), the slug and title come from the file's name. The ``rr_`` columns are ignored by
XLSForm's converters, so the export converts with pyxform as it is.

Reading builds a survey file's dictionary and hands it to :func:`web.core.surveys.surveyfile.parse_survey`,
the one validator; its mistakes are named by sheet and row. Select types are read in every
spelling the specification gives (``select_one LIST``, ``select one LIST``, ``select one from
LIST``, likewise multiple, ``select all that apply from LIST``). What the app cannot honour is
refused, never dropped: every other question type (date, note, calculate, metadata such as
``start``), repeats, nested and ``table-list`` groups by row, a ``relevant`` or a
``constraint`` it cannot read by row, and every filled cell of a column it does not read
(``choice_filter``, ``hint``, media, …) by row and column. A ``text`` row is an open question
(``constraint`` ``string-length(.) <= N``), an ``integer`` or ``decimal`` row with
``rr_procedure`` ``direct`` a number asked directly (``constraint`` ``. >= A and . <= B``; a
decimal's step in ``parameters``, ``step=0.5``). Workbooks are read within fixed
bounds (:mod:`web.core.surveys.workbook`), and every text is written inert
(:mod:`web.core.infrastructure.formula_guard`).
"""

from __future__ import annotations

import re

from flask_babel import lazy_gettext

from web.core.surveys.designs import (
    SHARE_NAMES,
    find_design,
)
from web.core.surveys.xlsform.conditions import (
    CONDITION_COLUMNS,
)

YES_NO_LIST = "yes_no"
RANGE = "range"  # ODK's type for a number in a range: a number question
# The constraints read: an open answer's longest length, and a typed number's bounds.
LENGTH_CONSTRAINT = re.compile(r"\A\s*string-length\(\s*\.\s*\)\s*<=\s*(\d+)\s*\Z")
_NUMBER = r"(-?\d+(?:\.\d+)?)"
BOUNDS_CONSTRAINT = re.compile(rf"\A\s*\.\s*>=\s*{_NUMBER}\s+and\s+\.\s*<=\s*{_NUMBER}\s*\Z")
# XLSForm's typed numbers: read as numbers asked directly (a whole one steps by 1).
TYPED_NUMBERS = {"integer": 1, "decimal": None}


def length_constraint(length: int) -> str:
    """An open answer's ``max_length`` as XLSForm's ``constraint`` (read back by
    :data:`LENGTH_CONSTRAINT`)."""
    return f"string-length(.) <= {length}"


def row_type(cells: dict) -> str:
    """A survey row's ``type`` as one spelling: lower case, single spaces for underscores and
    runs of blanks (``begin_group`` and ``Begin  group`` are ``begin group``)."""
    return " ".join(str(cells.get("type", "")).lower().replace("_", " ").split())


YES_NO_LABELS = {"en": ("Yes", "No"), "ko": ("예", "아니요")}
LANGUAGE_HEADER = re.compile(
    r"\A(?P<name>[^:]+)::\s*(?:(?P<label>[^(]*?)\s*\((?P<tag>[^)]+)\)|(?P<bare>\S+))\s*\Z"
)
SURVEY_SETTINGS = (
    "results_batch",
    "completion_code",
    "completion_url",
    "opens_at",
    "closes_at",
    "target_n",
    "series",
    "wave",
)
WHOLE_SETTINGS = ("results_batch", "target_n", "wave")
SETTINGS_TEXTS = ("description", "consent", "thanks")
# A design's columns in the survey sheet (the innocuous wording's, per language, after the third).
SHARE_COLUMNS = tuple(f"rr_{name}" for name in SHARE_NAMES if name != "prevalence")
DESIGN_COLUMNS = (*SHARE_COLUMNS, "rr_prevalence", "rr_randomizer", "rr_arms")
QUESTION_PLACE = re.compile(r"\Aquestions\[(\d+)\](?:\.options\[(\d+)\])?")
PAGE_PLACE = re.compile(r"\Apages\[(\d+)\]")
# The spellings of a select type the XLSForm documentation and pyxform accept.
SELECT_TYPE = re.compile(
    r"\A(?:select[ _](?P<kind>one|multiple)(?:[ _]from)?|select all that apply(?: from)?)"
    r"\s+(?P<list>\S+)\Z"
)
HEADER_ALIASES = {"list name": "list_name"}
# The columns read (a column's base name, before ``::language``); any other with a value in a
# row is refused by row and column, never dropped.
SURVEY_COLUMNS = frozenset(
    ("type", "name", "label", "parameters", "rr_procedure", "rr_epsilon", "rr_epsilon_permanent",
     "rr_innocuous", "rr_innocuous_2", "rr_unit", "required", "relevant", "constraint",
     "rr_controls", "rr_controls_b", "rr_sensitive",
     "rr_screen_out_if", "hint",
     *DESIGN_COLUMNS,
     *CONDITION_COLUMNS)
)  # fmt: skip
CHOICE_COLUMNS = frozenset(("list_name", "name", "label", "rr_fixed"))
# An online panel (web/core/surveys/panel.py) in the settings sheet: its parameters' names,
# separated by spaces, and its addresses (completion, screen-out, full quota).
PANEL_SETTINGS = ("rr_panel_parameters", "rr_panel_complete_url", "rr_panel_screen_out_url",
                  "rr_panel_quota_full_url")  # fmt: skip
SETTINGS_COLUMNS = frozenset(
    ("form_id", "form_title", "default_language", "version", "rr_title", "rr_conditions",
     "rr_quotas", *PANEL_SETTINGS,
     *(f"rr_{name}" for name in (*SETTINGS_TEXTS, *SURVEY_SETTINGS)))
)  # fmt: skip
# What the columns that XLSForm has and this app cannot honour would ask for.
UNSUPPORTED = {
    "choice_filter": lazy_gettext("cascading selects (choice_filter) are not supported"),
    "constraint_message": lazy_gettext("constraint messages are not supported"),
    "calculation": lazy_gettext("calculations are not supported"),
    "default": lazy_gettext("default answers are not supported"),
    "read_only": lazy_gettext("read-only questions are not supported"),
    "repeat_count": lazy_gettext("repeats are not supported"),
    "guidance_hint": lazy_gettext(
        "guidance hints are not shown by this app: a question's hint is shown under it"
    ),
    "appearance": lazy_gettext("appearances are not supported"),
    "required_message": lazy_gettext(
        "a required question's own message is not supported: the page says what is missing"
    ),
    "image": lazy_gettext("media are not supported"),
    "audio": lazy_gettext("media are not supported"),
    "video": lazy_gettext("media are not supported"),
    "big-image": lazy_gettext("media are not supported"),
    "media": lazy_gettext("media are not supported"),
    "trigger": lazy_gettext("triggers are not supported"),
}


def derived(procedure: str) -> bool:
    """Whether a design named in a file derives its ε from its shares (no ``rr_epsilon``)."""
    design = find_design(procedure)
    return design is not None and design.derived
