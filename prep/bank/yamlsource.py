"""Safe YAML reading that remembers where every value came from.

PyYAML's safe constructors drop positions and silently keep the last of two duplicate keys.
We compose the node graph with libyaml's C parser (safe: no Python tags are honoured) and build
plain Python values ourselves, recording the line and column of every mapping key and sequence
item, refusing duplicate keys, unknown tags, alias bombs and absurd nesting.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from prep.errors import Problem, display_path

try:  # libyaml's C parser is ~10x faster; fall back to pure Python where it is missing
    _Loader = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - depends on how PyYAML was built
    _Loader = yaml.SafeLoader  # type: ignore[misc]

MAX_FILE_BYTES = 5 * 1024 * 1024  # documented in the README: larger files are refused
MAX_DEPTH = 64  # a bank is 5 levels deep; anything far deeper is an error or an attack

Location = tuple[int, int]  # 1-based line and column
PathKey = tuple[str | int, ...]

_PLAIN_TAGS = {
    "tag:yaml.org,2002:str",
    "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:null",
    "tag:yaml.org,2002:timestamp",
}
_STR_TAG = "tag:yaml.org,2002:str"
_MAP_TAG = "tag:yaml.org,2002:map"
_SEQ_TAG = "tag:yaml.org,2002:seq"


@dataclass
class Document:
    """One parsed YAML file: its value, where each part of it sits, and what was wrong."""

    file: str  # as displayed in messages
    data: Any = None
    positions: dict[PathKey, Location] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    empty: bool = False  # no YAML content at all: nothing, or only comments and blank lines

    def locate(self, path: PathKey) -> Location:
        """The position of the deepest part of *path* that exists in the file."""
        for end in range(len(path), -1, -1):
            found = self.positions.get(tuple(path[:end]))
            if found:
                return found
        return (1, 1)

    def problem(self, path: PathKey, message: str, dotted: str = "") -> Problem:
        line, column = self.locate(path)
        return Problem(self.file, line, column, message, dotted)


# A command that rewrites one entry of a file reads up to this much, so that a file grown past
# the limit can be shrunk again; what it writes must be within the limit.
OVERSIZED_READ_LIMIT = 16 * MAX_FILE_BYTES


def size_message(size: int) -> str:
    return f"file is {size / 1048576:.1f} MiB; the limit is {MAX_FILE_BYTES // 1048576} MiB"


def oversized(texts: dict[Path, str | None]) -> list[Problem]:
    """A problem for each text that would make a bank file larger than the loader accepts."""
    found = []
    for path, text in texts.items():
        size = len(text.encode("utf-8")) if text is not None else 0
        if size > MAX_FILE_BYTES:
            found.append(Problem(display_path(path), 0, 0, size_message(size)))
    return found


def read_text(
    path: Path, display: str, raw: bytes | None = None, limit: int = MAX_FILE_BYTES
) -> tuple[str | None, list[Problem]]:
    """Read a bank file as text, refusing what is not a regular, reasonably sized UTF-8 file.

    *raw* is the file's bytes when the caller has already read them.
    """
    try:
        if path.is_dir():
            return None, [Problem(display, 0, 0, "is a directory, not a YAML file")]
        size = path.stat().st_size if raw is None else len(raw)
        if size > limit:
            return None, [Problem(display, 0, 0, size_message(size))]
        if raw is None:
            raw = path.read_bytes()
    except OSError as exc:
        return None, [Problem(display, 0, 0, f"cannot read file: {exc.strerror or exc}")]
    return decode_utf8(raw, display)


def decode_utf8(raw: bytes, display: str) -> tuple[str | None, list[Problem]]:
    """An input file's text, or the Problem at the line and column of its first byte that is not
    UTF-8. A leading BOM is harmless: it is accepted."""
    try:
        return raw.decode("utf-8-sig"), []
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        column = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        return None, [Problem(display, line, column, f"not valid UTF-8 (byte 0x{raw[exc.start]:02x})")]


def parse(text: str, display: str) -> Document:
    """Parse YAML text into a Document; syntax errors become Problems, never exceptions."""
    doc = Document(display)
    loader = _Loader(text)
    try:
        node = loader.get_single_node()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        if exc.context_mark and mark and mark.index >= len(text.rstrip()):
            # The file ended inside something ("[unclosed"): point at where it was opened.
            mark = exc.context_mark
        line, column = (mark.line + 1, mark.column + 1) if mark else (0, 0)
        problem = (exc.problem or "").removeprefix("but ")
        reason = ": ".join(part for part in (exc.context, problem) if part) or "invalid YAML"
        doc.problems.append(Problem(display, line, column, f"YAML syntax error: {reason}"))
        return doc
    except yaml.reader.ReaderError as exc:  # control characters and the like
        position = getattr(exc, "position", 0) or 0
        line = text.count("\n", 0, position) + 1
        column = position - (text.rfind("\n", 0, position) + 1) + 1
        character = exc.character if isinstance(exc.character, str) else chr(exc.character or 0)
        doc.problems.append(
            Problem(
                display,
                line,
                column,
                f"YAML error: character U+{ord(character):04X} is not allowed ({exc.reason})",
            )
        )
        return doc
    except yaml.YAMLError as exc:
        doc.problems.append(Problem(display, 0, 0, "YAML error: " + " ".join(str(exc).split())))
        return doc
    if node is None:
        doc.empty = True
        doc.problems.append(Problem(display, 0, 0, "file is empty (nothing but comments or blank lines)"))
        return doc
    builder = _Builder(doc, loader, budget=2 * len(text) + 1000)
    try:
        doc.data = builder.build(node, (), 0)
    except _Abort as stop:
        doc.data = None
        doc.problems.append(stop.problem)
    finally:
        loader.dispose()
    return doc


def load_file(path: Path, display: str, raw: bytes | None = None, limit: int = MAX_FILE_BYTES) -> Document:
    text, problems = read_text(path, display, raw, limit)
    if text is None:
        return Document(display, problems=problems)
    return parse(text, display)


class _Abort(Exception):
    def __init__(self, problem: Problem) -> None:
        self.problem = problem


class _Builder:
    """Turns composed nodes into dicts, lists and scalars, recording positions."""

    def __init__(self, doc: Document, loader: Any, budget: int) -> None:
        self.doc = doc
        self.loader = loader
        self.budget = budget  # nodes we are willing to build: linear in file size

    def _at(self, node: yaml.Node) -> tuple[int, int]:
        return node.start_mark.line + 1, node.start_mark.column + 1

    def _fail(self, node: yaml.Node, message: str) -> _Abort:
        line, column = self._at(node)
        return _Abort(Problem(self.doc.file, line, column, message))

    def _scalar(self, node: yaml.ScalarNode) -> Any:
        if node.tag == _STR_TAG:  # most values: the node already holds the text
            return node.value
        if node.tag not in _PLAIN_TAGS:
            raise self._fail(node, f"tag {node.tag!r} is not allowed (plain YAML only)")
        try:
            return self.loader.construct_object(node)
        except (yaml.YAMLError, ValueError) as exc:
            raise self._fail(node, f"bad value: {exc}") from None

    def build(self, node: yaml.Node, path: PathKey, depth: int) -> Any:
        self.budget -= 1
        if self.budget < 0:
            raise self._fail(node, "too many values after expanding aliases (alias bomb?); refused")
        if depth > MAX_DEPTH:
            raise self._fail(node, f"nested deeper than {MAX_DEPTH} levels; refused")
        self.doc.positions.setdefault(path, self._at(node))
        if isinstance(node, yaml.ScalarNode):
            return self._scalar(node)
        if isinstance(node, yaml.SequenceNode):
            if node.tag != _SEQ_TAG:
                raise self._fail(node, f"tag {node.tag!r} is not allowed (plain YAML only)")
            return [self.build(item, path + (i,), depth + 1) for i, item in enumerate(node.value)]
        if node.tag != _MAP_TAG:
            raise self._fail(node, f"tag {node.tag!r} is not allowed (plain YAML only)")
        result: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                raise self._fail(key_node, "mapping keys must be plain text")
            if key_node.tag == "tag:yaml.org,2002:merge":
                raise self._fail(key_node, "merge keys (<<) are not supported")
            key = self._scalar(key_node)
            if key in result:
                first = self.doc.positions.get(path + (key,), (0, 0))[0]
                line, column = self._at(key_node)
                self.doc.problems.append(
                    Problem(
                        self.doc.file,
                        line,
                        column,
                        f"duplicate key {key!r} (first at line {first}); YAML would silently keep the last",
                    )
                )
                continue
            # Errors about a field point at its key, which is where the user will look.
            self.doc.positions[path + (key,)] = self._at(key_node)
            result[key] = self.build(value_node, path + (key,), depth + 1)
        return result
