"""Exchange with other tools: the markdown cram sheet, Anki packages, CSV in and out."""
