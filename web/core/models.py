"""Database models. A response stores only reported bits; tallies keep results O(1)."""

from __future__ import annotations

import hashlib
import json
import secrets
from datetime import UTC, date, datetime
from functools import lru_cache
from typing import Any, NamedTuple

from flask import current_app
from flask_login import UserMixin
from sqlalchemy import (
    JSON,
    BigInteger,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    Text,
    TypeDecorator,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import Mapped, mapped_column, relationship
from werkzeug.security import check_password_hash, generate_password_hash

import rr
from web.core.infrastructure.driver_sql import first_row, placeholder
from web.core.infrastructure.extensions import Model, db
from web.core.surveys.answers import Shape
from web.core.surveys.conditions import Condition, question_id, row_key
from web.core.surveys.designs import (
    DesignParameters,
    SurveyDesign,
    design_of,
)
from web.core.surveys.designs.base import OwnDraw
from web.core.surveys.fielding import Fielding
from web.core.surveys.limits import DEFAULT_RESULTS_BATCH
from web.core.surveys.questions import ARM, QuestionType, question_type
from web.core.surveys.surveyfile import OptionSpec, QuestionSpec, SurveySpec, survey_problems
from web.core.surveys.texts import Texts, split_languages

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


class User(UserMixin, Model):
    id: Mapped[int] = mapped_column(primary_key=True)
    email: Mapped[str] = mapped_column(String(254), unique=True)
    password_hash: Mapped[str] = mapped_column(String(256))
    # Part of every session's user id (get_id): bumping it ends every session of the account,
    # copied cookies included (web/workspace/auth.py).
    session_generation: Mapped[int] = mapped_column(default=0)
    tokens: Mapped[list[ApiToken]] = relationship(
        back_populates="user", cascade="all, delete-orphan"
    )

    def set_password(self, password: str) -> None:
        """Set the password and end every session of the account."""
        self.password_hash = generate_password_hash(password, method=_password_method())
        self.end_sessions()

    def check_password(self, password: str) -> bool:
        return check_password_hash(self.password_hash, password)

    def end_sessions(self) -> None:
        """Make every session of this account, on any device, invalid from its next request."""
        self.session_generation = (self.session_generation or 0) + 1

    def get_id(self) -> str:
        """What a session keeps: the account and the generation it was opened under."""
        return f"{self.id}:{self.session_generation}"

    @classmethod
    def from_session(cls, session_id: str) -> User | None:
        """The account of a session id, or None once its generation has ended."""
        account, _, generation = session_id.partition(":")
        if not (account.isdigit() and generation.isdigit()):
            return None
        user = db.session.get(cls, int(account))
        if user is None or user.session_generation != int(generation):
            return None
        return user

    @classmethod
    def authenticate(cls, email: str, password: str) -> User | None:
        """The account with this email and password, or None. An unknown email costs the same
        scrypt check as a wrong password, so the time taken does not say which accounts exist."""
        user = db.session.scalar(db.select(cls).filter_by(email=email.strip().lower()))
        stored = user.password_hash if user is not None else _stand_in_hash(_password_method())
        if check_password_hash(stored, password) and user is not None:
            return user
        return None


def _password_method() -> str:
    """Werkzeug's hash method for new passwords: ``scrypt`` (n = 2**15, r = 8, p = 1) unless the
    app's ``PASSWORD_HASH_METHOD`` says otherwise (the test suite's cheaper parameters)."""
    return current_app.config["PASSWORD_HASH_METHOD"]


@lru_cache(maxsize=4)
def _stand_in_hash(method: str) -> str:
    """A hash of a random password, with the same parameters as real ones."""
    return generate_password_hash(secrets.token_hex(16), method=method)


READ, READ_WRITE = "read", "read_write"  # an API token's scopes


class TokenHolder(NamedTuple):
    """Who a live API token speaks for, and whether it may change anything."""

    user_id: int
    may_write: bool


class ApiToken(Model):
    """A bearer token for the API; only the SHA-256 of the token is kept. Its scope is ``read``
    (results and downloads) or ``read_write`` (also importing, opening and closing surveys)."""

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("user.id"), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    label: Mapped[str] = mapped_column(String(100), default="")
    created_on: Mapped[date] = mapped_column(default=date.today)
    revoked: Mapped[bool] = mapped_column(default=False)
    scope: Mapped[str] = mapped_column(String(10), default=READ, server_default=READ)
    user: Mapped[User] = relationship(back_populates="tokens")

    @staticmethod
    def digest(token: str) -> str:
        return hashlib.sha256(token.encode()).hexdigest()

    @classmethod
    def issue(cls, user: User, label: str = "", write: bool = False) -> tuple[str, ApiToken]:
        """A new token for ``user`` (read-only unless ``write``): the plain token (shown once)
        and its stored record."""
        token = "rr_" + secrets.token_urlsafe(32)
        scope = READ_WRITE if write else READ
        record = cls(user=user, token_hash=cls.digest(token), label=label, scope=scope)
        db.session.add(record)
        return token, record

    @classmethod
    def holder_of(cls, token: str) -> TokenHolder | None:
        """Who a live token speaks for, or None: one statement in the driver's own SQL on a
        pooled connection (every results request asks it; through the ORM it took a third of
        the request)."""
        row = _by_token_hash(cls.__tablename__, "user_id", cls.digest(token), "scope")
        return None if row is None or row[1] else TokenHolder(row[0], row[2] == READ_WRITE)


def _by_token_hash(table: str, owner: str, token_hash: str, *more: str):
    """(``owner``, revoked, *``more``) of the row of ``table`` with this token hash, or None."""
    engine = db.engine
    mark = placeholder(engine.dialect.paramstyle)
    columns = ", ".join((owner, "revoked", *more))
    sql = f"SELECT {columns} FROM {table} WHERE token_hash = {mark}"
    return first_row(engine, sql, (token_hash,))


class Tally:
    """Counts of reports for one spin: how many, and how many said yes. ``n`` and ``noisy_yes``
    run with every response; the ``published_`` pair is the snapshot every output shows, moved
    only in batches (see :mod:`web.core.results.publication`)."""

    n: Mapped[int] = mapped_column(default=0)
    noisy_yes: Mapped[int] = mapped_column(default=0)
    published_n: Mapped[int] = mapped_column(default=0)
    published_yes: Mapped[int] = mapped_column(default=0)


def readable_by(owner_id: int | None, user_id: int) -> bool:
    """Whether an account may read a survey with this owner: its owner, or anyone when unowned."""
    return owner_id is None or owner_id == user_id


def surveys_readable_by(user_id: int):
    """The surveys an account may read, as a query (the rule of :func:`readable_by`)."""
    return db.select(Survey).where((Survey.owner_id == user_id) | Survey.owner_id.is_(None))


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
    # An experiment's conditions ([{"id", "share"}], web/core/surveys/conditions.py), drawn per
    # respondent by the page; none (null or empty) for a survey asked one way.
    conditions: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON(none_as_null=True))
    questions: Mapped[list[Question]] = relationship(
        back_populates="survey", cascade="all, delete-orphan", order_by="Question.position"
    )

    @property
    def results_version(self) -> tuple[int, int, int]:
        """The version of its published results as loaded: id, publication and edits (what
        :class:`web.core.results.cache.SurveyStamp` reads in one statement)."""
        return (self.id, self.publication, self.edits)

    @property
    def epsilon_total(self) -> float:
        """The survey's privacy cost: the sum of its questions' costs."""
        return rr.survey_epsilon(
            question.epsilon_total for question in self.questions if question.protected
        )

    @property
    def fresh_epsilon(self) -> float:
        """What one wave costs on the questions drawn afresh every wave (no ε∞): added up over
        the waves a browser answers."""
        return rr.survey_epsilon(
            question.epsilon_total
            for question in self.questions
            if question.protected and question.epsilon_permanent is None
        )

    @property
    def kept_bound(self) -> float:
        """The bound over every wave on the questions with a permanent report, while the
        answers stay the same: ε∞ per spin."""
        return rr.survey_epsilon(
            rr.question_epsilon(question.epsilon_permanent, question.spins)
            for question in self.questions
            if question.epsilon_permanent is not None
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
            )
            for question in self.questions
        ]

    def spins(self) -> list[tuple[Question, Option | None]]:
        """Every spin of a response, in order, with the option whose tally it feeds (None for the
        question's own tally); see :mod:`web.core.surveys.questions`."""
        return [
            (question, option) for question in self.questions for option in question.spun_options
        ]

    @property
    def condition_list(self) -> tuple[Condition, ...]:
        """Its experiment's conditions, in order (none for a survey asked one way)."""
        return tuple(Condition(entry["id"], entry["share"]) for entry in self.conditions or ())

    def visible_to(self, user: User) -> bool:
        """Owned surveys are their owner's; unowned ones (CLI imports, the demo) every account's."""
        return readable_by(self.owner_id, user.id)

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
                    tuple(OptionSpec(option.key, option.texts) for option in question.options),
                    question.design,
                    question.epsilon_permanent,
                    question.condition,
                    question.known_prevalence,
                    question.correct,
                )
                for question in self.questions
            ),
            results_batch=self.results_batch,
            languages=tuple(self.language_list),
            fielding=self.fielding,
            series=self.series,
            wave=self.wave,
            conditions=self.condition_list,
        )

    def missing_texts(self) -> list[tuple[str, str]]:
        """Every text lacking a declared language, as (what, language): what the builder marks,
        and why an incomplete survey cannot open."""
        return [
            (problem.place, problem.language or "")
            for problem in survey_problems(self.to_spec())
            if problem.language is not None
        ]

    owner: Mapped[User | None] = relationship()


class Question(Tally, Model):
    """A question; a yes/no question keeps its own tally, a multi-select one tallies per option."""

    @classmethod
    def from_spec(cls, spec: QuestionSpec, position: int, languages: list[str]) -> Question:
        text, translations = spec.text.to_store(languages)
        options = []
        for index, option in enumerate(spec.options):
            option_text, option_translations = option.text.to_store(languages)
            options.append(
                Option(
                    key=option.key,
                    position=index,
                    text=option_text,
                    translations=option_translations,
                )
            )
        return cls(
            key=row_key(spec.key, spec.condition),
            condition=spec.condition,
            known_prevalence=spec.known_prevalence,
            correct=spec.correct,
            position=position,
            kind=spec.kind,
            text=text,
            translations=translations,
            epsilon=spec.derived_epsilon,
            epsilon_permanent=spec.epsilon_permanent,
            procedure=spec.procedure,
            design_parameters=spec.design.to_store(),
            options=options,
        )

    __table_args__ = (UniqueConstraint("survey_id", "key"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    survey_id: Mapped[int] = mapped_column(ForeignKey("survey.id"), index=True)
    key: Mapped[str] = mapped_column(String(64))
    position: Mapped[int]
    kind: Mapped[str] = mapped_column(String(10))
    text: Mapped[str] = mapped_column(Text)  # in the survey's default language
    translations: Mapped[dict[str, str]] = mapped_column(JSON, default=dict)  # the others, by tag
    epsilon: Mapped[float]
    # ε∞: the bound over every wave of its series, kept by a permanent report on the respondent's
    # device (rr.permanent_response); None where every wave draws afresh at ε.
    epsilon_permanent: Mapped[float | None]
    procedure: Mapped[str] = mapped_column(String(20))
    # A design's parameters (web/core/surveys/designs.py); empty for the spinners.
    design_parameters: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    # Cheating detection's second arm: its respondents and their reports of 1, running and
    # published (the first arm's are the question's own counts less these).
    arm_n: Mapped[int] = mapped_column(default=0, server_default="0")
    arm_yes: Mapped[int] = mapped_column(default=0, server_default="0")
    published_arm_n: Mapped[int] = mapped_column(default=0, server_default="0")
    published_arm_yes: Mapped[int] = mapped_column(default=0, server_default="0")
    # The condition of the survey's experiment this row asks in (its key is then
    # ``<id>@<condition>``), or None where the question is asked the same way in every condition.
    condition: Mapped[str | None] = mapped_column(String(16))
    # The item's true share where the researcher knows it (a zero-prevalence item).
    known_prevalence: Mapped[float | None]
    # A comprehension check's right answer (one of its option ids): a direct question only.
    correct: Mapped[str | None] = mapped_column(String(64))
    survey: Mapped[Survey] = relationship(back_populates="questions")
    options: Mapped[list[Option]] = relationship(
        back_populates="question", cascade="all, delete-orphan", order_by="Option.position"
    )

    @property
    def type(self) -> QuestionType:
        return question_type(self.kind, self.procedure)

    @property
    def question_id(self) -> str:
        """The id a survey file and a submission know it by (its key without the condition)."""
        return question_id(self.key)

    @property
    def texts(self) -> Texts:
        """Its wording in every language of the survey."""
        return Texts.stored(self.text, self.translations, self.survey.language_list)

    def set_texts(self, texts: Texts) -> None:
        self.text, self.translations = texts.to_store(self.survey.language_list)

    @property
    def spun_options(self) -> list[Option | None]:
        """The tallies each response feeds: options, or None for the question's own."""
        return self.type.spun(self.options)

    @property
    def tallies(self) -> list[Tally | ArmTally]:
        return [
            self if option is None else ArmTally(self) if option == ARM else option
            for option in self.spun_options
        ]

    @property
    def items(self) -> list[str]:
        """What a response reports for it, spin by spin (see QuestionType.items)."""
        return self.type.items(self.key, [option.key for option in self.options])

    @property
    def page_items(self) -> list[str]:
        """What the respondent page draws and remembers for it, item by item."""
        return self.type.page_items(self.key, [option.key for option in self.options])

    @property
    def spins(self) -> int:
        """How many times a respondent spins for this question (each spin costs ε)."""
        return self.type.spin_count(len(self.options))

    @property
    def epsilon_total(self) -> float:
        """Its privacy cost: ε per spin; 0 for a question asked directly, which no ε protects."""
        if not self.protected:
            return 0.0
        return rr.question_epsilon(self.epsilon, self.spins)

    @property
    def option_count(self) -> int:
        return len(self.options)

    @property
    def protected(self) -> bool:
        """Whether an ε protects its answer (not a direct question's, nor one asked directly)."""
        return self.type.randomized and self.asked_with.protects

    @property
    def asked_with(self) -> SurveyDesign:
        """Its design (web/core/surveys/designs/), which every design-dependent answer comes from;
        a direct question is asked plainly."""
        return design_of(self)

    @property
    def light_fraction(self) -> float:
        """The spinner's light share (a design's truth share; 0 where nothing tells the truth;
        the first arm's for cheating detection)."""
        return self.asked_with.light_fraction(self)

    @property
    def truth_probability(self) -> float:
        """How often a respondent's true answer is the one reported: e^ε/(1 + e^ε) for one
        yes/no spin, e^ε/(e^ε + k − 1) for one option among k."""
        return self.asked_with.truth_probability(self)

    @property
    def states_chance(self) -> bool:
        """Whether the page tells how often the true answer is sent (not for a design that sends
        no answer at all)."""
        return self.asked_with.states_chance

    @property
    def design(self) -> DesignParameters:
        """Its design's parameters as stated (none for the spinners)."""
        return DesignParameters.stored(self.design_parameters)

    @property
    def own_randomizer(self) -> bool:
        """Whether the respondent draws with their own die or coin, or needs none: the page then
        asks for the report only."""
        return self.asked_with.own_randomizer(self.design)

    @property
    def drawn_under(self) -> str:
        """What a draw for it depends on besides ε, as the page's memo keeps it: the procedure,
        and a design's parameters."""
        if self.epsilon_permanent is not None:
            return f"{self.procedure}:permanent:{json.dumps(self.epsilon_permanent)}"
        if not self.asked_with.derived and self.design.scale is None:
            return self.procedure
        return f"{self.procedure}:{json.dumps(self.design.numbers())}"

    @property
    def sectors(self) -> list[dict]:
        """The page's wheel for a design it draws: each sector's share and what it reports
        (``truth``, ``yes``, ``no`` or ``innocuous``), in order from the top; empty for the
        spinners' two-share wheel and for the respondent's own randomizer."""
        return self.asked_with.sectors(self.design)

    @property
    def arm_sectors(self) -> list[list[dict]]:
        """One wheel per arm (cheating detection's two; empty for every other design)."""
        return self.asked_with.arm_sectors(self.design)

    @property
    def report_words(self) -> tuple[str, str]:
        """A report of 0 and of 1, in the respondent's words."""
        return self.asked_with.report_words(self.design)

    @property
    def procedure_words(self) -> str:
        """Its design with its shares, for the researcher's pages."""
        return self.asked_with.researcher_words(self.design, self.light_fraction)

    @property
    def design_words(self) -> str:
        """What decides the report, in the respondent's words."""
        return self.asked_with.respondent_words(self)

    @property
    def respond_template(self) -> str:
        """The respondent page's part for it: its design's (which may be its type's)."""
        return self.asked_with.respond_template(self)

    @property
    def own_draw(self) -> OwnDraw:
        """How the respondent draws with their own randomizer (own randomizer only)."""
        return self.asked_with.own_draw(self.design)

    @property
    def design_entry(self) -> dict:
        """How its reports were made, for the codebook and the regression's output: the design in
        the literature's words, its parameters and R's matching models."""
        return self.asked_with.codebook(self)

    @property
    def scale_numbers(self) -> dict | None:
        """A number question's min, max and step (None for other types)."""
        scale = self.design.scale
        return None if scale is None else {"min": scale.low, "max": scale.high, "step": scale.step}

    @property
    def item_mean(self) -> rr.BoundedMean | None:
        """A number question's one-bit mean, read through its range; None for other types."""
        scale = self.design.scale
        return None if scale is None else scale.mean(self.epsilon, self.procedure)

    @property
    def item_design(self) -> rr.Design:
        """The binary design each of its tallies reports through (a randomized question's)."""
        return self.type.item_design(self.epsilon, self.procedure, len(self.options), self.design)

    @property
    def noise_line(self) -> tuple[float, float]:
        """Offset and slope of E[reported share] = a + b·π for each of its tallies (cheating
        detection's first arm: its honest respondents' line)."""
        return self.asked_with.noise_line(self)

    @property
    def response_count(self) -> int:
        """Responses that answered this question (later questions have fewer than the survey)."""
        tallies = self.tallies
        return tallies[0].n if tallies else 0

    @property
    def permanent(self) -> rr.PermanentResponse | None:
        """Its permanent randomized response over the series' waves (ε∞ over all of them, ε per
        wave), or None where every wave draws afresh."""
        if self.epsilon_permanent is None:
            return None
        values = self.type.permanent_values(len(self.options))
        return rr.permanent_response(self.epsilon_permanent, self.epsilon, values)

    @property
    def page_light_fraction(self) -> float:
        """The light share the respondent's page spins with: each wave's, on the kept permanent
        report, for a question with one (rr.PermanentResponse.wave_light); else its design's."""
        layers = self.permanent
        if layers is None:
            return self.light_fraction
        return layers.wave_light(self.asked_with.descriptor["dark"])

    @property
    def permanent_numbers(self) -> dict | None:
        """What the page draws the permanent reports with (none without ε∞)."""
        layers = self.permanent
        if layers is None:
            return None
        labels = self.type.permanent_labels([option.key for option in self.options])
        return {"epsilonPermanent": layers.epsilon_permanent, "values": layers.k,
                "labels": labels, "keep": layers.keep}  # fmt: skip

    @property
    def is_frozen(self) -> bool:
        """Whether its privacy parameters (ε, procedure, options) can no longer change."""
        return self.response_count > 0


class ArmTally:
    """Cheating detection's second arm, counted on its question's row, read as a tally."""

    def __init__(self, question: Question):
        self.question = question

    @property
    def n(self) -> int:
        return self.question.arm_n

    @property
    def noisy_yes(self) -> int:
        return self.question.arm_yes

    @property
    def published_n(self) -> int:
        return self.question.published_arm_n

    @property
    def published_yes(self) -> int:
        return self.question.published_arm_yes


class Option(Tally, Model):
    __table_args__ = (UniqueConstraint("question_id", "key"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    question_id: Mapped[int] = mapped_column(ForeignKey("question.id"), index=True)
    key: Mapped[str] = mapped_column(String(64))
    position: Mapped[int]
    text: Mapped[str] = mapped_column(Text)  # in the survey's default language
    translations: Mapped[dict[str, str]] = mapped_column(JSON, default=dict)  # the others, by tag
    question: Mapped[Question] = relationship(back_populates="options")

    @property
    def texts(self) -> Texts:
        """Its wording in every language of the survey."""
        return Texts.stored(self.text, self.translations, self.question.survey.language_list)

    def set_texts(self, texts: Texts) -> None:
        self.text, self.translations = texts.to_store(self.question.survey.language_list)


class GroupTally(Tally, Model):
    """The counts of one randomized tally (a yes/no question, or one option) among the
    respondents of one *cell*: one combination of answers to the survey's direct questions
    (``cell`` is that combination as sorted JSON, null where a respondent preferred not to say).
    Like every tally, ``n`` and ``noisy_yes`` run with every response (the writer adds its group's
    cells, :mod:`web.core.results.cells`) and the ``published_`` pair moves with the snapshot, so
    results by group cost O(cells) whatever the number of responses."""

    __table_args__ = (UniqueConstraint("item_kind", "item_id", "cell"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    survey_id: Mapped[int] = mapped_column(ForeignKey("survey.id"), index=True)
    item_kind: Mapped[str] = mapped_column(String(10))  # "question" or "option": the tally's table
    item_id: Mapped[int]
    cell: Mapped[str] = mapped_column(Text)


class Response(Model):
    """One respondent's reported bits in the published snapshot, as JSON keyed by question and
    option id. Nothing else: no time, no address, no browser.

    A response waits in :class:`PendingResponse` until the publication that takes it moves it
    here with the rest of its batch, in the order of their random keys
    (:mod:`web.core.results.publication`): so neither the key nor the order in which the database
    keeps rows says more about when a response came in than which batch it was published in, which
    the published snapshots say anyway. Each response is written twice, once in each table."""

    __table_args__ = (Index("ix_response_survey_id", "survey_id"),)
    id: Mapped[int] = mapped_column(
        BigInteger().with_variant(Integer, "sqlite"), primary_key=True, autoincrement=False
    )
    survey_id: Mapped[int] = mapped_column(ForeignKey("survey.id"))
    bits: Mapped[str] = mapped_column(Text)


class PendingResponse(Model):
    """A stored response that no publication has taken yet: the same columns as
    :class:`Response`, with the same random key. Only the writer adds rows, and only the
    publication removes them, so the table holds at most a batch or so per survey."""

    __tablename__ = "pending_response"
    __table_args__ = (Index("ix_pending_response_survey_id", "survey_id"),)
    id: Mapped[int] = mapped_column(
        BigInteger().with_variant(Integer, "sqlite"), primary_key=True, autoincrement=False
    )
    survey_id: Mapped[int] = mapped_column(ForeignKey("survey.id"))
    bits: Mapped[str] = mapped_column(Text)


class SubmissionKey(Model):
    """A submission's idempotency key, kept as a keyed hash so that a resent submission is stored
    once (:mod:`web.respondent.writer`). The key is drawn at random on the respondent's device and
    kept there; ``key_hash`` is HMAC-SHA-256 of it under the app's secret, and ``reports_hash``
    the same of the key and the reports it came with, so neither says anything without the key,
    and no row names a response. SQLite keeps the table in key order (no rowid), which is random."""

    __tablename__ = "submission_key"
    __table_args__ = {"sqlite_with_rowid": False}
    # 128 bits of each HMAC: a collision is as likely as guessing a key.
    key_hash: Mapped[bytes] = mapped_column(LargeBinary(16), primary_key=True)
    # No index: every submission writes a row, and only deleting a survey looks rows up by it.
    survey_id: Mapped[int] = mapped_column(ForeignKey("survey.id"))
    reports_hash: Mapped[bytes] = mapped_column(LargeBinary(16))


class FieldDevice(Model):
    """A link that sets up a shared device (an interviewer's tablet) for one survey: a bearer
    secret, kept as its SHA-256, with a label; revoking it stops the device's submissions. No
    response records the device it came from."""

    __tablename__ = "field_device"
    id: Mapped[int] = mapped_column(primary_key=True)
    survey_id: Mapped[int] = mapped_column(ForeignKey("survey.id"), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    label: Mapped[str] = mapped_column(String(100))
    created_on: Mapped[date] = mapped_column(default=date.today)
    revoked: Mapped[bool] = mapped_column(default=False)

    @staticmethod
    def digest(token: str) -> str:
        return hashlib.sha256(token.encode()).hexdigest()

    @classmethod
    def issue(cls, survey: Survey, label: str) -> tuple[str, FieldDevice]:
        """A new device link's secret (shown in the link, never stored) and its record."""
        token = "fd_" + secrets.token_urlsafe(24)
        record = cls(survey_id=survey.id, token_hash=cls.digest(token), label=label)
        db.session.add(record)
        return token, record

    @classmethod
    def state_of(cls, token: str) -> tuple[int, bool] | None:
        """The survey id of a device link and whether it is revoked, or None for no such link:
        one read in the driver's own SQL, as every submission from a device asks it."""
        row = _by_token_hash(cls.__tablename__, "survey_id", cls.digest(token))
        return None if row is None else (row[0], bool(row[1]))
