"""Surgical edits of YAML text that keep every other byte (comments, formatting) as it was.

We never re-dump a user's file: we find the exact span of a node with libyaml's marks and
replace, insert or delete just that text. Then the caller re-validates the whole bank before
anything is written, and writes atomically.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import yaml

from prep.errors import PrepError

try:
    _Loader = yaml.CSafeLoader
except AttributeError:  # pragma: no cover
    _Loader = yaml.SafeLoader  # type: ignore[misc]


class EditError(PrepError):
    """A file cannot be edited safely (its layout is not one prep can change without rewriting)."""


@dataclass(frozen=True)
class Edit:
    start: int  # character offsets into the text
    end: int
    replacement: str


def compose(text: str) -> yaml.Node | None:
    loader = _Loader(text)
    try:
        return loader.get_single_node()
    finally:
        loader.dispose()


def apply(text: str, edits: list[Edit]) -> str:
    """Apply non-overlapping edits (in any order) to *text*."""
    for edit in sorted(edits, key=lambda e: e.start, reverse=True):
        text = text[: edit.start] + edit.replacement + text[edit.end :]
    return text


def mapping_value(node: yaml.Node, key: str) -> yaml.Node | None:
    if isinstance(node, yaml.MappingNode):
        for k, v in node.value:
            if isinstance(k, yaml.ScalarNode) and k.value == key:
                return v
    return None


def line_start(text: str, index: int) -> int:
    return text.rfind("\n", 0, index) + 1


def next_line(text: str, index: int) -> int:
    """Index of the start of the line after *index* (or the end of the text)."""
    found = text.find("\n", index)
    return len(text) if found == -1 else found + 1


def scalar(value: str) -> str:
    """A one-line YAML scalar for *value*: plain when safe, quoted otherwise."""
    dumped = yaml.safe_dump(value, default_flow_style=True, width=10_000, allow_unicode=True)
    return dumped.removesuffix("\n...\n").removesuffix("\n")


def block_text(value: str, indent: int, parent: int) -> str:
    """A literal block scalar (|) for multi-line text, indented for its position under a key at
    column *parent*. Text whose first line is indented (code) states its indentation ("|2"),
    since YAML would otherwise take the first line's indentation for the block's."""
    pad = " " * indent
    lines = value.strip("\n").splitlines()
    body = "\n".join(pad + line if line.strip() else "" for line in lines)
    first = next((line for line in lines if line.strip()), "")
    indicator = str(indent - parent) if first[:1].isspace() else ""
    return f"|{indicator}\n" + body


class _BankDumper(yaml.SafeDumper):
    """Dumps in the bank's hand-written style: nested lists indented, multi-line text as | blocks."""

    def increase_indent(self, flow: bool = False, indentless: bool = False) -> None:
        return super().increase_indent(flow, False)


def _represent_text(dumper: yaml.SafeDumper, value: str) -> yaml.Node:
    style = "|" if "\n" in value.strip("\n") else None
    return dumper.represent_scalar(
        "tag:yaml.org,2002:str", value.strip("\n") + ("\n" if style else ""), style=style
    )


FLOW_LIST_WIDTH = 60  # a list of plain values longer than this is written one item a line


def _represent_list(dumper: yaml.SafeDumper, value: list) -> yaml.Node:
    # Short lists of plain values read best inline ([a, b]); long ones and lists of mappings as
    # blocks, as a person would write them (a wrapped [flow, list] is hard to edit).
    flow = (
        all(isinstance(v, (str, int, float)) and "\n" not in str(v) for v in value)
        and sum(len(str(v)) + 2 for v in value) <= FLOW_LIST_WIDTH
    )
    return dumper.represent_sequence("tag:yaml.org,2002:seq", value, flow_style=flow)


def _represent_dict(dumper: yaml.SafeDumper, value: dict) -> yaml.Node:
    return dumper.represent_mapping("tag:yaml.org,2002:map", value.items(), flow_style=False)


_BankDumper.add_representer(str, _represent_text)
_BankDumper.add_representer(list, _represent_list)
_BankDumper.add_representer(dict, _represent_dict)


def dump(data: Any) -> str:
    return yaml.dump(
        data,
        Dumper=_BankDumper,
        sort_keys=False,
        allow_unicode=True,
        width=100,
        default_flow_style=None,
        indent=2,
    )


def render_item(data: dict[str, Any], indent: int) -> str:
    """One sequence item ('- key: value' lines) indented at *indent* columns, ending in a newline."""
    return render_items([data], indent)[0]


def render_items(items: list[dict[str, Any]], indent: int) -> tuple[str, list[int]]:
    """Sequence items indented at *indent* columns, dumped in one go, and the 0-based line (within
    the returned text) where each item starts."""
    pad = " " * indent
    lines = dump(list(items)).rstrip("\n").split("\n")
    # Nested lists are indented and block text is indented under its key, so a "-" in column 0
    # of the dump can only start one of the items.
    starts = [n for n, line in enumerate(lines) if line == "-" or line.startswith("- ")]
    return "".join((pad + line if line.strip() else "") + "\n" for line in lines), starts


def append_to_sequence(text: str, key: str, item: dict[str, Any]) -> str:
    """Append *item* to the top-level block sequence *key* without touching other bytes."""
    return append_items(text, key, [item])[0]


def append_items(text: str, key: str, items: list[dict[str, Any]]) -> tuple[str, list[int]]:
    """Append *items* to the top-level block sequence *key* without touching other bytes.

    The text is composed once, whatever the number of items (appending one at a time is
    quadratic in the size of the file). Returns the new text and the 1-based line where each
    item starts in it.
    """
    if not items:
        return text, []
    head, indent, tail = _append_point(text, key)
    rendered, starts = render_items(items, indent)
    first = head.count("\n") + 1
    return head + rendered + tail, [first + n for n in starts]


def _append_point(text: str, key: str) -> tuple[str, int, str]:
    """Where items appended to *key* go: the text before them, their indent, the text after."""
    root = compose(text)
    if root is None:  # a new or empty file
        return _with_newline(text) + f"{key}:\n", 2, ""
    if not isinstance(root, yaml.MappingNode):
        raise EditError("the file's top level is not a mapping")
    seq = mapping_value(root, key)
    if seq is None:
        return _with_newline(text) + f"{key}:\n", 2, ""
    empty_scalar = isinstance(seq, yaml.ScalarNode) and seq.value == "" and seq.tag.endswith(":null")
    if not (isinstance(seq, yaml.SequenceNode) or empty_scalar):
        raise EditError(f"'{key}' is not a list")
    if empty_scalar or not seq.value:
        # `key: []` or `key:` alone: the items become the first entries of a block list.
        before = text[: seq.start_mark.index].rstrip(" ")
        after = text[seq.end_mark.index :]
        newline = after.find("\n")
        same_line, rest = (after, "") if newline == -1 else (after[:newline], after[newline + 1 :])
        return before + same_line.rstrip() + "\n", 2, rest
    if seq.flow_style:
        raise EditError(f"'{key}' is written as a [flow, list]; prep only appends to block lists")
    indent = _dash_column(text, seq.value[0].start_mark.index)
    insert_at = seq.value[-1].end_mark.index
    if insert_at and text[insert_at - 1] != "\n":
        insert_at = next_line(text, insert_at)
    # The last item's node runs over the blank and comment lines after it; comments left of the
    # list's dashes are about the file, not the item, and stay after the new item.
    first_line = line_start(text, seq.value[-1].start_mark.index)
    while insert_at > first_line:
        previous = line_start(text, insert_at - 1)
        line = text[previous:insert_at]
        if line.strip() and not (line.lstrip().startswith("#") and len(line) - len(line.lstrip()) < indent):
            break
        insert_at = previous
    head = _with_newline(text[:insert_at]) if insert_at == len(text) else text[:insert_at]
    return head, indent, text[insert_at:]


def _dash_column(text: str, item_start: int) -> int:
    """The column of the "-" that introduces the sequence item starting at *item_start*."""
    dash = text.rfind("-", line_start(text, item_start), item_start)
    return dash - line_start(text, item_start) if dash >= 0 else 0


def _with_newline(text: str) -> str:
    return text if not text or text.endswith("\n") else text + "\n"


def sequence_item_span(text: str, seq: yaml.SequenceNode, index: int) -> tuple[int, int]:
    """The whole lines that hold item *index* of a block sequence (comments inside included)."""
    item = seq.value[index]
    start = line_start(text, item.start_mark.index)
    if index + 1 < len(seq.value):
        end = line_start(text, seq.value[index + 1].start_mark.index)
        # Blank lines, and comments no deeper than the dashes, just above the next item belong
        # to it ("# --- Section ---"); a comment indented into the removed item goes with it.
        dash = _dash_column(text, item.start_mark.index)
        while end > start:
            previous = line_start(text, end - 1)
            line = text[previous:end]
            stripped = line.strip()
            if stripped and not (stripped.startswith("#") and len(line) - len(line.lstrip()) <= dash):
                break
            end = previous
        # A blank line kept there replaces one above the removed item rather than doubling it,
        # and a first item leaves none under the list's key.
        if text[end : end + 1] == "\n":
            if index == 0:
                while text[end : end + 1] == "\n":
                    end += 1
            while start > 0 and not text[line_start(text, start - 1) : start].strip():
                start = line_start(text, start - 1)
    else:
        end = item.end_mark.index
        if end and text[end - 1] != "\n":
            end = next_line(text, end)
        # The last item's node runs over trailing blank and comment lines: leave those be.
        while end > start:
            previous = line_start(text, end - 1)
            stripped = text[previous:end].strip()
            if stripped and not stripped.startswith("#"):
                break
            end = previous
    return start, end


def set_entries(text: str, mapping: yaml.MappingNode, values: dict[str, Any]) -> list[Edit]:
    """The edits that give each key of *values* its value in *mapping* (None: removes the entry),
    in the file's style: a block mapping gets ``key: value`` lines at its keys' column (new keys
    after the last one), a flow mapping (``{id: a, ...}``) flow values. Other entries, and the
    comments around them, stay as written."""
    entries = {k.value: (k, v) for k, v in mapping.value if isinstance(k, yaml.ScalarNode)}
    if mapping.flow_style:
        return [_set_flow_entry(text, mapping, key, value, entries.get(key)) for key, value in values.items()]
    column = mapping.value[0][0].start_mark.column if mapping.value else 0
    edits, added = [], ""
    for key, value in values.items():
        if key not in entries:
            added += _entry_lines(key, value, column) if value is not None else ""
            continue
        k, v = entries[key]
        end = _trimmed_end(text, k.start_mark.index, v.end_mark.index, column)
        if value is None:
            start = line_start(text, k.start_mark.index)
            if text[start : k.start_mark.index].strip():  # `- key: ...`: the entry that starts the item
                raise EditError(f"'{key}' starts its list item; edit the file by hand")
            edits.append(Edit(start, end, ""))
            continue
        rendered = _entry_lines(key, value, column)[column:]  # the key's own line is already indented
        if _ends_inside_line(text, v.end_mark.index):
            # A value ending inside its line: what follows it there (a comment) and the newline stay.
            edits.append(Edit(k.start_mark.index, v.end_mark.index, rendered.removesuffix("\n")))
        else:
            edits.append(Edit(k.start_mark.index, end, rendered))
    if added:
        last_key, last = mapping.value[-1]
        at = _trimmed_end(text, last_key.start_mark.index, last.end_mark.index, column)
        edits.append(Edit(at, at, ("" if text[at - 1 : at] in ("", "\n") else "\n") + added))
    return edits


def replace_items(text: str, seq: yaml.SequenceNode, start: int, end: int, items: list[Any]) -> Edit:
    """The edit that puts *items* in place of items [start, end) of a block sequence (start ==
    end: before item *start*), rendered in the bank's style at the sequence's indent. The other
    items, and the comments above them, stay as written; a replaced item's comment stays above
    what replaces it, a removed item's goes with it. The list keeps at least one item."""
    if seq.flow_style or not seq.value or (start == 0 and end == len(seq.value) and not items):
        raise EditError("not a block list that keeps an item")
    column = _dash_column(text, seq.value[0].start_mark.index)

    def item_end(node: yaml.Node) -> int:  # the end of its last line, comments indented into it kept
        return _trimmed_end(text, node.start_mark.index, node.end_mark.index, column)

    if start < end and items:
        begin = line_start(text, seq.value[start].start_mark.index)
    elif start > 0:  # inserted or removed after an item: from right after it
        begin = item_end(seq.value[start - 1])
    else:
        begin = _comments_above(text, line_start(text, seq.value[0].start_mark.index))
    finish = item_end(seq.value[end - 1]) if start < end else begin
    head = "" if text[begin - 1 : begin] in ("", "\n") else "\n"  # the file's last line may have none
    return Edit(begin, finish, head + "".join(_render_item(item, column) for item in items))


def _comments_above(text: str, index: int) -> int:
    """The start of the comment and blank lines right above the line starting at *index*."""
    while index > 0:
        previous = line_start(text, index - 1)
        line = text[previous:index].strip()
        if line and not line.startswith("#"):
            return index
        index = previous
    return index


def _render_item(item: Any, indent: int) -> str:
    if isinstance(item, str) and "\n" not in item:  # one line: a list of it alone would dump as [flow]
        return f"{' ' * indent}- {scalar(item)}\n"
    return render_items([item], indent)[0]


def add_block_list(text: str, mapping: yaml.MappingNode, key: str, items: list[str]) -> Edit:
    """A new ``key:`` entry after the last entry of a block mapping, holding a block list: one item
    a line, so that each later item is a one-line change."""
    column = mapping.value[0][0].start_mark.column
    pad = " " * column
    lines = f"{pad}{key}:\n" + "".join(f"{pad}  - {scalar(item)}\n" for item in items)
    last_key, last = mapping.value[-1]
    at = _trimmed_end(text, last_key.start_mark.index, last.end_mark.index, column)
    return Edit(at, at, ("" if text[at - 1 : at] in ("", "\n") else "\n") + lines)


def _set_flow_entry(
    text: str, mapping: yaml.MappingNode, key: str, value: Any, found: tuple[yaml.Node, yaml.Node] | None
) -> Edit:
    flow = _flow(value) if value is not None else ""
    if found is not None and value is not None:
        return Edit(found[1].start_mark.index, found[1].end_mark.index, flow)
    if found is not None or value is None:
        if found is None:
            return Edit(0, 0, "")
        raise EditError(f"cannot remove '{key}' from a {{flow, mapping}}; edit the file by hand")
    close = text.rindex("}", 0, mapping.end_mark.index)
    separator = ", " if mapping.value else ""
    return Edit(close, close, f"{separator}{key}: {flow}")


def _flow(value: Any) -> str:
    dumped = yaml.safe_dump(value, default_flow_style=True, width=10_000, allow_unicode=True)
    return dumped.removesuffix("\n...\n").removesuffix("\n")


def _entry_lines(key: str, value: Any, column: int) -> str:
    """``key: value`` as the bank writes it, every line indented by *column*, ending in a newline."""
    pad = " " * column
    return "".join((pad + line if line.strip() else "") + "\n" for line in dump({key: value}).splitlines())


def _ends_inside_line(text: str, index: int) -> bool:
    """Whether a node ending at *index* ends after text on its line (a block node ends at the
    start of a line, or at the indentation of the next item)."""
    return bool(text[line_start(text, index) : index].strip())


def _trimmed_end(text: str, start: int, end: int, column: int) -> int:
    """The end of an entry at *column* whose node runs from *start* to *end*: at the end of its
    last line, without the blank lines and the comments no deeper than its key that a block
    node's span runs over."""
    if _ends_inside_line(text, end):
        return next_line(text, end)  # a value ending mid-line: the line's end
    end = line_start(text, end)
    floor = next_line(text, start)
    while end > floor:
        previous = line_start(text, end - 1)
        line = text[previous:end]
        if line.strip() and not (line.lstrip().startswith("#") and len(line) - len(line.lstrip()) <= column):
            break
        end = previous
    return end


def items_by(text: str, list_key: str, id_key: str) -> dict[str, yaml.MappingNode]:
    """The mappings of the top-level list *list_key* by the plain value of their *id_key*
    (questions by ``id``, answers by ``question``)."""
    root = compose(text)
    found: dict[str, yaml.MappingNode] = {}
    for item in getattr(mapping_value(root, list_key), "value", []) if root is not None else []:
        node = mapping_value(item, id_key)
        if isinstance(node, yaml.ScalarNode):
            found.setdefault(node.value, item)
    return found
