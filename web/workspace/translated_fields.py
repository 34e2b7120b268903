"""A form's texts typed once per language: the default language's in the plain field (so that a
survey in one language is built as before), each other language's in ``<name>_<tag>``; the form
made with those fields, and the texts read from it and put back into it."""

from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms.validators import Length

from web.core.surveys.texts import Texts, language_name

# The fields typed once per language, in any form that has them.
TRANSLATED = (
    "title", "description", "consent", "thanks", "text", "hint", "options", "innocuous", "unit",
    "rows", "arm_1_innocuous", "arm_2_innocuous", "controls", "sensitive", "controls_b",
)  # fmt: skip


def translated_form(base: type[FlaskForm], languages: list[str], **kwargs) -> FlaskForm:
    """An instance of ``base`` with a field per extra language for each of its texts, each
    labelled with its language when the survey has more than one."""
    extra = {
        f"{name}_{language}": _copy_field(getattr(base, name))
        for name in TRANSLATED
        if hasattr(base, name)
        for language in languages[1:]
    }
    form = type(base.__name__, (base,), extra)(**kwargs)
    if len(languages) > 1:
        for name in TRANSLATED:
            for index, language in enumerate(languages):
                found = form._fields.get(name if index == 0 else f"{name}_{language}")
                if found is not None:
                    found.language = language
                    found.label.text = f"{found.label.text} · {language_name(language)}"
    return form


def _copy_field(unbound):
    """The same kind of field with the same label and length limit, and no description (the
    default language's field carries it)."""
    validators = [v for v in unbound.kwargs.get("validators", []) if isinstance(v, Length)]
    return unbound.field_class(*unbound.args, validators=validators)


def form_texts(form: FlaskForm, name: str, languages: list[str]) -> Texts:
    """One text as typed in each language's field."""
    return Texts(
        (language, form[name if index == 0 else f"{name}_{language}"].data or "")
        for index, language in enumerate(languages)
    )


def texts_data(name: str, texts: Texts, languages: list[str]) -> dict[str, str]:
    """A text's form data by field name, to fill a form from what is stored."""
    return {
        (name if index == 0 else f"{name}_{language}"): texts.get(language, "")
        for index, language in enumerate(languages)
    }
