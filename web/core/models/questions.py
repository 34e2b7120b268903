"""A question's row and its options': their texts, tallies and the design they were asked with."""

from __future__ import annotations

from typing import Any, Protocol

from sqlalchemy import (
    JSON,
    ForeignKey,
    String,
    Text,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import Mapped, mapped_column, relationship

from web.core.infrastructure.extensions import Model
from web.core.models.tallies import Tally
from web.core.surveys.designs import (
    DesignParameters,
    SurveyDesign,
    design_of,
)
from web.core.surveys.flow.conditions import question_id, row_key
from web.core.surveys.questions import ARM, QuestionType, question_type
from web.core.surveys.specs import QuestionSpec
from web.core.surveys.texts import Texts


class OwningSurvey(Protocol):
    """What a question's row reads of the survey it belongs to (a
    :class:`web.core.models.surveys.Survey`): named here rather than imported, since the survey's
    module imports this one. Code that needs the whole survey is handed it."""

    wave: int | None

    @property
    def language_list(self) -> list[str]: ...


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
                    fixed=option.fixed,
                )
            )
        return cls(
            key=row_key(spec.key, spec.condition),
            condition=spec.condition,
            known_prevalence=spec.known_prevalence,
            correct=spec.correct,
            required=spec.required,
            display_rule=None if spec.show_if is None else spec.show_if.to_dict(),
            shuffle_options=spec.shuffle_options,
            hint=spec.hint.filled(),
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
    procedure: Mapped[str] = mapped_column(String(40))
    # A design's parameters (web/core/surveys/designs/); empty for the spinners.
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
    # Whether a submission must answer it: every other question may be skipped (stored as null).
    required: Mapped[bool] = mapped_column(default=False, server_default=false())
    # Its display rule as the file writes it (web/core/surveys/flow/display.py), or None: shown to all.
    display_rule: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True))
    # Whether its options' order is drawn per respondent.
    shuffle_options: Mapped[bool] = mapped_column(default=False, server_default=false())
    # Help shown under its text (XLSForm's hint), by language tag; None: no help.
    hint: Mapped[dict[str, str] | None] = mapped_column(JSON(none_as_null=True))
    survey: Mapped[OwningSurvey] = relationship("Survey", back_populates="questions")
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
    def tallies(self) -> list[Tally | ArmTally]:
        """The tallies each response feeds (see QuestionType.spun): options, or its own."""
        return [
            self if option is None else ArmTally(self) if option == ARM else option
            for option in self.type.spun(self.options)
        ]

    @property
    def asked_with(self) -> SurveyDesign:
        """Its design (web/core/surveys/designs/), which every design-dependent answer comes from;
        a direct question is asked plainly."""
        return design_of(self)

    @property
    def design(self) -> DesignParameters:
        """Its design's parameters as stated (none for the spinners)."""
        return DesignParameters.stored(self.design_parameters)

    @property
    def response_count(self) -> int:
        """Responses that answered this question (later questions have fewer than the survey)."""
        tallies = self.tallies
        return tallies[0].n if tallies else 0

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
    # Keeps its place when its question's options are shuffled.
    fixed: Mapped[bool] = mapped_column(default=False, server_default=false())
    question: Mapped[Question] = relationship(back_populates="options")

    @property
    def texts(self) -> Texts:
        """Its wording in every language of the survey."""
        return Texts.stored(self.text, self.translations, self.question.survey.language_list)

    def set_texts(self, texts: Texts) -> None:
        self.text, self.translations = texts.to_store(self.question.survey.language_list)
