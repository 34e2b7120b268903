"""What every area stands on: the database and its migrations, the Flask extensions, the SQLite
one-writer guard, languages and number formats, and password rules."""
