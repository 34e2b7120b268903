"""The survey's flow: which pages and questions a respondent meets and in what order. Its pages
(``pages``), display rules (``display``), a split ballot's conditions (``conditions``), the
respondent's walk through them with the orders drawn (``walk``: ``Flow``, ``survey_flow``),
screen-outs (a page's rule, in ``pages``) and quotas (``quotas``), each read and checked. It uses
the questions' types and designs and the shared checks (``problems``, ``field_checks``,
``limits``, ``texts``); the builder's edits of the flow sit beside the edits of questions
(``page_breaks``, ``quota_edit``, ``experiment_edit`` in :mod:`web.core.surveys`), and nothing
here handles a request or writes a row."""
