"""XLSForm, the survey's other file: what its columns mean (``columns``), reading a workbook
(``read``: its sheets, one question's row in ``questions``, a mistake named by row and column in
``places``), writing one (``write``), and the parts of a survey only some forms have: display
rules, pages and quotas as ``relevant`` expressions (``flow``), grids as table-list groups
(``grid``) and a split ballot's rows (``conditions``). It uses the survey file's checks
(:mod:`web.core.surveys.surveyfile`) and the workbook reader (:mod:`web.core.surveys.workbook`);
nothing here touches the database or a request."""
