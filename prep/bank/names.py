"""The names the bank's schema allows: kinds of question and the id pattern. Kept apart from the
pydantic schema so that light paths (`prep next` filtering cached index rows, the state layer)
can use them without importing pydantic."""

ID_PATTERN = r"^[a-z0-9]+(?:-[a-z0-9]+)*$"

KINDS: tuple[str, ...] = ("technical", "behavioral", "strategy", "ask")
