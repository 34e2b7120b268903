"""A survey's row: its texts and languages, schedule, conditions and fielding, and who may read it."""

from __future__ import annotations

import math
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import (
    JSON,
    BigInteger,
    ForeignKey,
    String,
    Text,
    TypeDecorator,
    false,
)
from sqlalchemy.orm import Mapped, mapped_column, relationship

import rr
from web.core.infrastructure.extensions import Model, db
from web.core.models.questions import Option, Question
from web.core.models.team import SurveyMember, survey_role
from web.core.surveys.answers import Shape
from web.core.surveys.fielding import Fielding
from web.core.surveys.flow.conditions import Condition
from web.core.surveys.flow.display import stored_rule
from web.core.surveys.flow.pages import stored_pages
from web.core.surveys.flow.quotas import stored_quotas
from web.core.surveys.limits import DEFAULT_RESULTS_BATCH
from web.core.surveys.panel import Panel
from web.core.surveys.specs import OptionSpec, QuestionSpec, SurveySpec
from web.core.surveys.texts import Texts, split_languages

if TYPE_CHECKING:
    from web.core.models.accounts import User

# The texts a survey has besides its questions' (title and description, consent, thank-you).
SURVEY_TEXTS = ("title", "description", "consent", "thanks")


class UTCSeconds(TypeDecorator):
    """An instant kept as whole seconds since 1970 (UTC): compared as a plain number by the
    submission path's SQL on every database, read back as an aware datetime."""

    impl = BigInteger
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect) -> int | None:
        return None if value is None else int(value.timestamp())

    def process_result_value(self, value: int | None, dialect) -> datetime | None:
        return None if value is None else datetime.fromtimestamp(value, UTC)


def readable_by(survey_id: int, owner_id: int | None, user_id: int) -> str | None:
    """The account's role on a survey with this owner (its owner's, anyone's when unowned, or
    the one it was shared with), or None where it has none (web/core/models/team.py)."""
    return survey_role(survey_id, owner_id, user_id)


def owns_a_survey(user_id: int) -> bool:
    """Whether an account has made or imported a survey of its own (archived ones count)."""
    return db.session.scalar(db.select(Survey.id).filter_by(owner_id=user_id).limit(1)) is not None


def surveys_readable_by(user_id: int):
    """The surveys an account may read, as a query (the rule of :func:`readable_by`)."""
    shared = db.select(SurveyMember.survey_id).where(SurveyMember.user_id == user_id)
    return db.select(Survey).where(
        (Survey.owner_id == user_id) | Survey.owner_id.is_(None) | Survey.id.in_(shared)
    )


class Survey(Model):
    id: Mapped[int] = mapped_column(primary_key=True)
    slug: Mapped[str] = mapped_column(String(64), unique=True)
    title: Mapped[str] = mapped_column(String(200))
    description: Mapped[str] = mapped_column(Text, default="")
    status: Mapped[str] = mapped_column(String(10), default="open")
    # Bumped whenever what a respondent spins changes, so a page loaded before the change cannot
    # submit bits collected under other parameters.
    revision: Mapped[int] = mapped_column(default=1)
    owner_id: Mapped[int | None] = mapped_column(ForeignKey("user.id"), index=True)
    response_count: Mapped[int] = mapped_column(default=0)
    # The published snapshot: how many responses it holds, how many times it has moved, and the
    # least number of new responses that moves it.
    published_count: Mapped[int] = mapped_column(default=0)
    publication: Mapped[int] = mapped_column(default=0)
    results_batch: Mapped[int] = mapped_column(default=DEFAULT_RESULTS_BATCH)
    # Bumped by every change to what the results document says besides its figures (wording,
    # status, questions): with ``publication`` it names one version of the published results.
    edits: Mapped[int] = mapped_column(default=0)
    join_code: Mapped[str | None] = mapped_column(String(8), unique=True)
    # Hidden from the researcher's list, not closed by it: only a draft or closed survey is put away.
    archived: Mapped[bool] = mapped_column(default=False, server_default=false())
    # Its languages, the default first ("en,ko"); title, description, consent and thanks hold
    # the default's texts, ``translations`` the others' ({"title": {"ko": …}, …}).
    languages: Mapped[str] = mapped_column(String(40), default="en", server_default="en")
    consent: Mapped[str] = mapped_column(Text, default="", server_default="")
    thanks: Mapped[str] = mapped_column(Text, default="", server_default="")
    translations: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    completion_code: Mapped[str | None] = mapped_column(String(64))
    completion_url: Mapped[str | None] = mapped_column(String(2000))
    opens_at: Mapped[datetime | None] = mapped_column(UTCSeconds)
    closes_at: Mapped[datetime | None] = mapped_column(UTCSeconds)
    target_n: Mapped[int | None]
    # The series it is a wave of ("campus-climate", wave 2), or None for a survey on its own:
    # a question keeps its id, design and ε from wave to wave, and trends read the waves in order.
    series: Mapped[str | None] = mapped_column(String(64), index=True)
    wave: Mapped[int | None]
    # An experiment's conditions ([{"id", "share"}], web/core/surveys/flow/conditions.py), drawn per
    # respondent by the page; none (null or empty) for a survey asked one way.
    conditions: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON(none_as_null=True))
    # Its pages ([{"id", "title": {lang: text}, "questions", "randomize", "show_if"}],
    # web/core/surveys/flow/pages.py); none (null) for a survey of one page.
    pages: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON(none_as_null=True))
    # An online panel's parameters and completion address (web/core/surveys/panel.py): what the
    # page reads from its address and keeps on the device; none for a survey not on a panel.
    panel: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True))
    # Its quotas ([{"id", <condition>, "limit"}], web/core/surveys/flow/quotas.py); none (null) for a
    # survey that takes anyone. Their counts are in fieldwork_count.
    quotas: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON(none_as_null=True))
    questions: Mapped[list[Question]] = relationship(
        back_populates="survey", cascade="all, delete-orphan", order_by="Question.position"
    )

    @property
    def epsilon_total(self) -> float:
        """The survey's privacy cost: the sum of its questions' costs, but for those with no ε
        bound (:func:`unbounded_questions`), which a sum cannot hold."""
        return rr.survey_epsilon(
            question.type.cost(question)
            for question in self.questions
            if question.asked_with.protects and math.isfinite(question.epsilon)
        )

    @property
    def shapes(self) -> list[Shape]:
        """What a submission must contain, question by question."""
        return [
            Shape(
                question.key,
                question.kind,
                tuple(option.key for option in question.options),
                question.procedure,
                question.condition,
                question.required,
                not question.asked_with.protects,
                question.design,
            )
            for question in self.questions
        ]

    def spins(self) -> list[tuple[Question, Option | None]]:
        """Every spin of a response, in order, with the option whose tally it feeds (None for the
        question's own tally); see :mod:`web.core.surveys.questions`."""
        return [
            (question, option)
            for question in self.questions
            for option in question.type.spun(question.options)
        ]

    @property
    def condition_list(self) -> tuple[Condition, ...]:
        """Its experiment's conditions, in order (none for a survey asked one way)."""
        return tuple(Condition(entry["id"], entry["share"]) for entry in self.conditions or ())

    def role_of(self, user_id: int) -> str | None:
        """The account's role on this survey (web/core/models/team.py), or None: owned surveys
        are their owner's and their team's; unowned ones (CLI imports, the demo) every account's."""
        return survey_role(self.id, self.owner_id, user_id)

    @property
    def language_list(self) -> list[str]:
        """Its languages, the default first."""
        return split_languages(self.languages)

    def texts(self, name: str) -> Texts:
        """One of its own texts (``title``, ``description``, ``consent``, ``thanks``) in every
        language."""
        return Texts.stored(
            getattr(self, name) or "", (self.translations or {}).get(name), self.language_list
        )

    def set_texts(self, name: str, texts: Texts) -> None:
        default, others = texts.to_store(self.language_list)
        setattr(self, name, default)
        self.translations = {**(self.translations or {}), name: others}

    @property
    def fielding(self) -> Fielding:
        return Fielding(
            consent=self.texts("consent"),
            thanks=self.texts("thanks"),
            completion_code=self.completion_code,
            completion_url=self.completion_url,
            opens_at=self.opens_at,
            closes_at=self.closes_at,
            target_n=self.target_n,
        )

    def set_fielding(self, fielding: Fielding) -> None:
        """Its consent, thank-you, completion, schedule and target (checked by the caller)."""
        self.set_texts("consent", fielding.consent)
        self.set_texts("thanks", fielding.thanks)
        self.completion_code = fielding.completion_code or None
        self.completion_url = fielding.completion_url or None
        self.opens_at, self.closes_at = fielding.opens_at, fielding.closes_at
        self.target_n = fielding.target_n

    @classmethod
    def from_spec(cls, spec: SurveySpec, owner: User | None = None) -> Survey:
        languages = list(spec.languages)
        questions = [
            Question.from_spec(item, position, languages)
            for position, item in enumerate(spec.questions)
        ]
        survey = cls(
            slug=spec.slug,
            languages=",".join(languages),
            results_batch=spec.results_batch,
            owner=owner,
            questions=questions,
            translations={},
            series=spec.series,
            wave=spec.wave,
            conditions=[condition.to_dict() for condition in spec.conditions] or None,
            pages=[page.to_store() for page in spec.pages] or None,
            panel=spec.panel.to_dict() if spec.panel is not None else None,
            quotas=[quota.to_dict() for quota in spec.quotas] or None,
        )
        survey.set_texts("title", spec.title)
        survey.set_texts("description", spec.description)
        survey.set_fielding(spec.fielding)
        return survey

    def to_spec(self) -> SurveySpec:
        return SurveySpec(
            self.slug,
            self.texts("title"),
            self.texts("description"),
            questions=tuple(
                QuestionSpec(
                    question.question_id,
                    question.kind,
                    question.texts,
                    question.epsilon,
                    question.procedure,
                    tuple(
                        OptionSpec(option.key, option.texts, option.fixed)
                        for option in question.options
                    ),
                    question.design,
                    question.epsilon_permanent,
                    question.condition,
                    question.known_prevalence,
                    question.correct,
                    question.required,
                    stored_rule(question.display_rule),
                    question.shuffle_options,
                    Texts(question.hint or {}),
                )
                for question in self.questions
            ),
            results_batch=self.results_batch,
            languages=tuple(self.language_list),
            fielding=self.fielding,
            series=self.series,
            wave=self.wave,
            conditions=self.condition_list,
            pages=stored_pages(self.pages),
            panel=Panel.stored(self.panel),
            quotas=stored_quotas(self.quotas),
        )

    owner: Mapped[User | None] = relationship()


def unbounded_questions(survey: Survey) -> list[Question]:
    """``survey``'s randomized questions whose design has no ε bound (the stochastic lie
    detector): left out of its ``epsilon_total``, and named wherever that is shown."""
    return [
        question
        for question in survey.questions
        if question.asked_with.protects and math.isinf(question.epsilon)
    ]
