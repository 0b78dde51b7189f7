"""Writing taught phrasings into the bank: one more item under a key point's `taught:` list,
every other byte of the file as it was, the whole bank validated before the atomic write."""

from __future__ import annotations

import yaml

from prep.bank.authoring import Change, read_source, validate_texts
from prep.bank.contents import Bank
from prep.bank.yamlsplice import (
    Edit,
    EditError,
    add_block_list,
    apply,
    items_by,
    line_start,
    mapping_value,
    next_line,
    scalar,
    set_entries,
)
from prep.files import write_files
from prep.paths import BankLocation


def add_taught(
    location: BankLocation, bank: Bank, question_id: str, phrasings: dict[int, str]
) -> tuple[Change, Bank]:
    """Add each phrasing to the `taught` list of key point N (1-based) of the question; the
    change, and the bank as it now is."""
    bank.question(question_id)
    path = bank.question_origin[question_id].file
    text = read_source(path)
    for point, phrasing in sorted(phrasings.items()):  # one edit at a time: each re-reads the text
        node = items_by(text, "questions", "id")[question_id]
        points = mapping_value(node, "key_points")
        if not isinstance(points, yaml.SequenceNode) or not 1 <= point <= len(points.value):
            raise EditError(f"{question_id}: no key point {point} in the file")
        text = apply(text, _taught_edits(text, points, points.value[point - 1], phrasing))
    written = validate_texts(location, {path: text})
    write_files({path: text})
    taught = {str(k): v for k, v in sorted(phrasings.items())}
    return Change(question_id, [path], [], {"taught": taught}), written


def forget_taught(
    location: BankLocation, bank: Bank, question_id: str, points: list[int]
) -> tuple[Change, Bank]:
    """Remove every taught phrasing of key points N (1-based) of the question: the `taught:`
    entry goes, every other byte of the file stays. The change lists what was forgotten."""
    bank.question(question_id)
    path = bank.question_origin[question_id].file
    text = read_source(path)
    forgotten: dict[str, list[str]] = {}
    for point in sorted(set(points)):  # one edit at a time: each re-reads the text
        node = items_by(text, "questions", "id")[question_id]
        listed = mapping_value(node, "key_points")
        if not isinstance(listed, yaml.SequenceNode) or not 1 <= point <= len(listed.value):
            raise EditError(f"{question_id}: no key point {point} in the file")
        claim = listed.value[point - 1]
        taught = mapping_value(claim, "taught") if isinstance(claim, yaml.MappingNode) else None
        forgotten[str(point)] = (
            [n.value for n in taught.value] if isinstance(taught, yaml.SequenceNode) else []
        )
        if taught is not None and isinstance(claim, yaml.MappingNode):
            # A flow mapping keeps an empty list: its entries cannot be removed in place.
            text = apply(text, set_entries(text, claim, {"taught": [] if claim.flow_style else None}))
    written = validate_texts(location, {path: text})
    if any(forgotten.values()):
        write_files({path: text})
    return Change(
        question_id, [path] if any(forgotten.values()) else [], [], {"forgotten": forgotten}
    ), written


def _taught_edits(text: str, points: yaml.SequenceNode, point: yaml.Node, phrasing: str) -> list[Edit]:
    start, end = point.start_mark.index, point.end_mark.index
    if isinstance(point, yaml.ScalarNode) and point.style in (">", "|"):
        # A block scalar's lines would have to move under "text:": it is rewritten on one line.
        pad = " " * point.start_mark.column
        # The node ends where the next line's content starts (or mid-line at the end of the file).
        end = line_start(text, end) if not text[line_start(text, end) : end].strip() else next_line(text, end)
        one_line = scalar(" ".join(point.value.split()))
        return [Edit(start, end, f"text: {one_line}\n{pad}taught:\n{pad}  - {scalar(phrasing)}\n")]
    if isinstance(point, yaml.ScalarNode):  # "- the claim": becomes "- text: the claim" + taught
        written = text[start:end]
        if points.flow_style:
            return [Edit(start, end, f"{{text: {written}, taught: [{scalar(phrasing)}]}}")]
        # A comment after the claim stays on its line; the taught list goes below it.
        pad = " " * point.start_mark.column
        at = next_line(text, end)
        newline = "" if text[at - 1 : at] == "\n" else "\n"  # the file's last line may have none
        lines = f"{newline}{pad}taught:\n{pad}  - {scalar(phrasing)}\n"
        return [Edit(start, start, "text: "), Edit(at, at, lines)]
    if not isinstance(point, yaml.MappingNode):
        raise EditError("a key point is neither a text nor a mapping")
    taught = mapping_value(point, "taught")
    if taught is None:
        if point.flow_style:
            return set_entries(text, point, {"taught": [phrasing]})
        return [add_block_list(text, point, "taught", [phrasing])]
    if not isinstance(taught, yaml.SequenceNode):
        raise EditError("a key point's taught entry is not a list")
    if taught.flow_style or not taught.value:
        end = taught.end_mark.index - 1  # before "]"
        return [Edit(end, end, (", " if taught.value else "") + scalar(phrasing))]
    last = taught.value[-1]
    at = next_line(text, last.end_mark.index)
    prefix = text[line_start(text, last.start_mark.index) : last.start_mark.index]  # "      - "
    return [Edit(at, at, prefix + scalar(phrasing) + "\n")]
