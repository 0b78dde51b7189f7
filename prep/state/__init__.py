"""The review state: one SQLite file with ordered migrations; the store owns every SQL statement
on it. Imports the bank's names and the foundations, never the review or CLI layers."""
