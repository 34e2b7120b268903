"""The rules: models, survey files and question types, edits, results, the database. No routes:
nothing here reads a request or answers one."""
