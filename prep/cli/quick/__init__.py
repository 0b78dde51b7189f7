"""The paths answered before typer and pydantic are imported, because a shell runs them often:
`prep next` and `prep plan` (from the prompt, see ``prep.cli.main``) and Tab completion. They
share their opening (``opening``) and import only what their answer needs."""
