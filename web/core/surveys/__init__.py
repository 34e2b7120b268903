"""What a survey is and how it changes: question types, the survey file and its one validator,
texts per language, fielding (consent, completion, schedule), edits, limits, XLSForm, submitted
answers, join codes, looking a survey up, and the demo survey."""
