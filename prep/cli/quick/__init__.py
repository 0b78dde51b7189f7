"""The paths answered before typer and pydantic are imported, because a shell runs them often:
`prep next` and `prep plan` (from the prompt, see ``prep.cli.main``), `prep stats` (which sums
the whole review log: typer would cost as much again) and Tab completion. They share their
opening (``opening``) and import only what their answer needs."""
