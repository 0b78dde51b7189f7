"""Grading: a typed attempt against a question's key points, pitfalls and prepared answer, as a
pure function of its inputs. Imports the bank's schema and the foundations."""
