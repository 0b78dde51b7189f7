"""prep: an interview-prep question bank and spaced-repetition drill for the command line."""

__version__ = "0.1.0"
