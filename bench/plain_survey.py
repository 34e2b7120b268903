"""The plain survey of the issue that set the page's and the submissions' budgets: three yes/no
questions and one multi-select, spinner and coin; no series, no field device, no die, no direct
question. ``bench/lighthouse.py`` loads its page, ``bench/load.py --survey plain`` submits to it."""

from __future__ import annotations

import json

PLAIN_SURVEY = {
    "slug": "plain",
    "title": {"en": "Campus life", "ko": "캠퍼스 생활"},
    "description": {
        "en": "Four questions about your term. Your answers are scrambled before they leave.",
        "ko": "이번 학기에 관한 네 가지 질문입니다. 답은 기기를 떠나기 전에 뒤섞입니다.",
    },
    "languages": ["en", "ko"],
    "questions": [
        *(
            {
                "id": item,
                "type": "yesno",
                "text": {"en": text, "ko": korean},
                "epsilon": 1.0,
                "procedure": "spinner_coin",
            }
            for item, text, korean in (
                (
                    "cheated",
                    "Have you cheated on an exam this term?",
                    "이번 학기 시험에서 부정행위를 했습니까?",
                ),
                (
                    "skipped",
                    "Have you skipped a class you had to attend?",
                    "꼭 들어야 할 수업을 빠진 적이 있습니까?",
                ),
                (
                    "copied",
                    "Have you copied someone else's homework?",
                    "다른 사람의 과제를 베낀 적이 있습니까?",
                ),
            )
        ),
        {
            "id": "substances",
            "type": "multi",
            "text": {
                "en": "Which have you used this term?",
                "ko": "이번 학기에 무엇을 써 보았습니까?",
            },
            "epsilon": 1.0,
            "procedure": "spinner_coin",
            "options": [
                {"id": "alcohol", "text": {"en": "Alcohol", "ko": "술"}},
                {"id": "tobacco", "text": {"en": "Tobacco", "ko": "담배"}},
                {"id": "pills", "text": {"en": "Sleeping pills", "ko": "수면제"}},
            ],
        },
    ],
}

# One respondent's reports, as the page sends them.
PLAIN_BODY = json.dumps(
    {
        "answers": {
            "cheated": 1,
            "skipped": 0,
            "copied": 1,
            "substances": {"alcohol": 0, "tobacco": 1, "pills": 0},
        }
    }
)
