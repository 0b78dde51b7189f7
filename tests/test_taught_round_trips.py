"""Taught phrasings (a key point's `taught:` list, the user's own words) survive every way a
question leaves the bank and comes back: Anki's "Notes in Plain Text" export of prep's deck
(the real Anki backend), an .apkg exported again and re-imported into Anki, CSV out and in,
`prep mv`, `prep edit`, and `prep rm` undone by importing an export made before it. They
travel as taught phrasings, never as aliases, and content that comes back unchanged leaves
every YAML file byte for byte as it was."""

from __future__ import annotations

import csv
import json
import re
import sys
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from prep.bank.load import load_bank
from prep.bank.yamlsplice import apply
from prep.paths import BankLocation

from .support import ANKI_EXPORTS, snapshot, write

INFERENCE_YAML = """\
# Key points taught in the user's own words, written the ways a bank writes them.
category: inference
title: Inference
questions:
  - id: kv-cache
    prompt: What does the KV cache save, and what does it cost?
    tags: [serving]
    key_points:
      - text: past keys and values are stored for every layer
        aliases: [keys and values are cached]
        taught:
          - we save each layer's past keys and values
          - "the K & V tensors <per layer> stay around"
      - {text: the cost is memory that grows with context, taught: [it eats memory as context grows]}
      - text: decoding becomes limited by memory bandwidth  # the usual bottleneck
        taught: [reading the cache is the bottleneck]
      - each new token attends to the cached prefix
    pitfalls:
      - text: the cache stores queries
        taught: [queries are kept too]
  - id: batching
    prompt: How does continuous batching differ from static batching?
    key_points:
      - text: requests join and leave the batch between decode steps
        aliases: [sequences enter the batch at any step]
        taught: ["new requests slot in: whenever one finishes"]
      - static batching waits for the whole batch to finish
"""

ANSWERS_YAML = """\
answers:
  - question: kv-cache
    answer: >
      Keys and values of past tokens, per layer; the price is memory.
"""

TAUGHT = {
    "kv-cache": [
        ("we save each layer's past keys and values", "the K & V tensors <per layer> stay around"),
        ("it eats memory as context grows",),
        ("reading the cache is the bottleneck",),
        (),
    ],
    "batching": [("new requests slot in: whenever one finishes",), ()],
}


@pytest.fixture
def taught_bank(tmp_path) -> Path:
    root = tmp_path / "taught"
    write(root / "questions" / "inference.yaml", INFERENCE_YAML)
    write(root / "answers" / "inference.yaml", ANSWERS_YAML)
    return root


def _load(root: Path):
    return load_bank(BankLocation(root, "option"))


def _taught(root: Path) -> dict[str, list[tuple[str, ...]]]:
    bank = _load(root)
    return {qid: [k.taught for k in q.key_points] for qid, q in bank.questions.items()}


def _imported(run, path: Path, bank: Path, category: str = "inference") -> dict:
    result = run("import", str(path), "-c", category, "--json", bank=bank)
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


# --- Anki: the deck, exported from Anki as notes in plain text ----------------------------------


@pytest.mark.parametrize("columns_line", [False, True], ids=["", "columns-line"])
@pytest.mark.parametrize("export", list(ANKI_EXPORTS))
def test_an_unedited_deck_leaves_every_taught_list_byte_for_byte(
    run, anki, taught_bank, export, columns_line
):
    anki.import_deck(run, taught_bank)
    path = anki.export_text(export, columns_line)
    before = snapshot(taught_bank)
    report = _imported(run, path, taught_bank)
    assert (report["added"], report["updated"], report["skipped"]) == ([], [], [])
    assert sorted(report["unchanged"]) == ["batching", "kv-cache"]
    assert snapshot(taught_bank) == before


def test_the_deck_carries_taught_phrasings_apart_from_aliases(run, anki, taught_bank, tmp_path):
    anki.import_deck(run, taught_bank)
    field = anki.note("kv-cache")["KeyPoints"]
    first = field[: field.index("</li></ul></li>") + len("</li></ul></li>")]
    assert "<ul class=aliases><li>keys and values are cached</li></ul>" in first
    assert "<ul class=taught><li>we save each layer&#x27;s past keys and values</li>" in first
    assert "the K &amp; V tensors &lt;per layer&gt; stay around" in first
    assert ".taught{display:none}" in anki.col.models.by_name("prep question")["css"]  # hidden on cards
    # Into an empty bank, the notes give the same key points and pitfalls, field for field.
    fresh = tmp_path / "fresh"
    (fresh / "questions").mkdir(parents=True)
    report = _imported(run, anki.export_text("html-all-columns"), fresh)
    assert sorted(report["added"]) == ["batching", "kv-cache"]
    original, imported = _load(taught_bank), _load(fresh)
    for qid, q in original.questions.items():
        again = imported.questions[qid]
        assert (again.key_points, again.pitfalls) == (q.key_points, q.pitfalls), qid
    assert imported.questions["kv-cache"].pitfalls[0].taught == ("queries are kept too",)
    assert "aliases: []" not in (fresh / "questions" / "inference.yaml").read_text()


def test_a_package_exported_again_after_teaching_updates_the_note(run, anki, taught_bank):
    anki.import_deck(run, taught_bank)
    # The deck was imported a while ago; since then the user taught key point 4 a phrasing.
    anki.col.db.execute("UPDATE notes SET mod = mod - 3600")
    path = taught_bank / "questions" / "inference.yaml"
    text = path.read_text()
    path.write_text(
        text.replace(
            "      - each new token attends to the cached prefix\n",
            "      - text: each new token attends to the cached prefix\n"
            "        taught: [the new token looks back at the stored prefix]\n",
        )
    )
    anki.import_deck(run, taught_bank)  # Anki updates notes from a newer package
    assert "the new token looks back at the stored prefix" in anki.note("kv-cache")["KeyPoints"]
    before = snapshot(taught_bank)
    for export in ("html-tags-only", "plain-tags-only"):
        report = _imported(run, anki.export_text(export), taught_bank)
        assert (report["updated"], sorted(report["unchanged"])) == ([], ["batching", "kv-cache"])
        assert snapshot(taught_bank) == before


@pytest.mark.parametrize("export", [name for name in ANKI_EXPORTS if name.startswith("html")])
def test_lists_edited_in_anki_keep_the_taught_phrasings(run, anki, taught_bank, export):
    """A key point's text corrected in Anki keeps its taught list (it travels with the item);
    the items before the first change keep their text in the file, taught lists as written."""
    anki.import_deck(run, taught_bank)
    field = anki.note("kv-cache")["KeyPoints"].replace("decoding becomes limited", "decoding is limited")
    anki.edit("kv-cache", KeyPoints=field[: -len("</ul>")] + "<li>the cache grows with batch size</li></ul>")
    report = _imported(run, anki.export_text(export), taught_bank)
    assert report["updated"] == ["kv-cache"]
    points = _load(taught_bank).questions["kv-cache"].key_points
    assert [k.text for k in points][2:] == [
        "decoding is limited by memory bandwidth",
        "each new token attends to the cached prefix",
        "the cache grows with batch size",
    ]
    assert [k.taught for k in points] == [*TAUGHT["kv-cache"], ()]
    assert [k.aliases for k in points] == [("keys and values are cached",), (), (), (), ()]
    # From the first changed item to the last, the list is written afresh; every other byte stays.
    assert (taught_bank / "questions" / "inference.yaml").read_text() == INFERENCE_YAML.replace(
        "      - text: decoding becomes limited by memory bandwidth  # the usual bottleneck\n",
        "      - text: decoding is limited by memory bandwidth\n",
    ).replace(
        "      - each new token attends to the cached prefix\n",
        "      - each new token attends to the cached prefix\n      - the cache grows with batch size\n",
    )


def test_a_taught_phrasing_deleted_in_anki_is_deleted(run, anki, taught_bank):
    anki.import_deck(run, taught_bank)
    field = anki.note("kv-cache")["KeyPoints"]
    anki.edit(
        "kv-cache",
        KeyPoints=field.replace("<li>the K &amp; V tensors &lt;per layer&gt; stay around</li>", ""),
    )
    assert _imported(run, anki.export_text("html-tags-only"), taught_bank)["updated"] == ["kv-cache"]
    assert _taught(taught_bank)["kv-cache"] == [(TAUGHT["kv-cache"][0][0],), *TAUGHT["kv-cache"][1:]]
    # The edited item is written afresh; every other byte stays.
    assert (taught_bank / "questions" / "inference.yaml").read_text() == INFERENCE_YAML.replace(
        "        taught:\n"
        "          - we save each layer's past keys and values\n"
        '          - "the K & V tensors <per layer> stay around"\n',
        "        taught: [we save each layer's past keys and values]\n",
    )


# An export made before notes carried taught phrasings: the key points with their aliases only.
OLD_KEY_POINTS = (
    "<ul><li>past keys and values are stored for every layer<ul class=aliases><li>keys and values are "
    "cached</li></ul></li><li>the cost is memory that grows with context</li><li>decoding "
    "becomes limited by memory bandwidth</li><li>each new token attends to the cached prefix</li></ul>"
)
OLD_NOTES = {
    "html": "#separator:tab\n#html:true\n#tags column:6\n"
    "What does the KV cache save, and what does it cost?\t{points}\t"
    "Keys and values of past tokens, per layer; the price is memory.\t"
    "<ul><li>the cache stores queries</li></ul>\tkv-cache\tinference serving\n",
    "plain": "#separator:tab\n#html:false\n#tags column:6\n"
    "What does the KV cache save, and what does it cost?\t{points}\t"
    "Keys and values of past tokens, per layer; the price is memory.\t"
    "the cache stores queries\tkv-cache\tinference serving\n",
}


@pytest.mark.parametrize("form", list(OLD_NOTES))
def test_an_export_without_taught_phrasings_still_imports_and_keeps_them(run, taught_bank, tmp_path, form):
    points = OLD_KEY_POINTS if form == "html" else re.sub(r"<[^>]+>", "", OLD_KEY_POINTS)
    path = write(tmp_path / f"old-{form}.txt", OLD_NOTES[form].format(points=points))
    before = snapshot(taught_bank)
    report = _imported(run, path, taught_bank)
    assert (report["updated"], report["unchanged"]) == ([], ["kv-cache"])
    assert snapshot(taught_bank) == before
    if form == "html":  # a point added in Anki: the others keep what the bank taught them
        added = OLD_KEY_POINTS[: -len("</ul>")] + "<li>the cache grows with batch size</li></ul>"
        path = write(tmp_path / "old-edited.txt", OLD_NOTES[form].format(points=added))
        assert _imported(run, path, taught_bank)["updated"] == ["kv-cache"]
        assert _taught(taught_bank)["kv-cache"] == [*TAUGHT["kv-cache"], ()]


# --- mv, edit, rm --------------------------------------------------------------------------------


def test_a_deck_exported_before_mv_leaves_the_renamed_question_as_it_is(run, anki, taught_bank):
    anki.import_deck(run, taught_bank)
    path = anki.export_text("html-tags-only")
    assert run("mv", "kv-cache", "kv-cache-cost", bank=taught_bank).exit_code == 0
    after_mv = snapshot(taught_bank)
    assert _taught(taught_bank)["kv-cache-cost"] == TAUGHT["kv-cache"]
    report = _imported(run, path, taught_bank)
    assert (report["updated"], sorted(report["unchanged"])) == ([], ["batching", "kv-cache-cost"])
    assert snapshot(taught_bank) == after_mv


def test_edit_in_the_editor_leaves_the_taught_lists_as_written(run, taught_bank, tmp_path):
    editor = tmp_path / "ed.py"
    editor.write_text(
        "import sys\np = sys.argv[-1]\nt = open(p).read()\n"
        "open(p, 'w').write(t.replace('and what does it cost?', 'and at what cost?'))\n"
    )
    before = (taught_bank / "questions" / "inference.yaml").read_text()
    result = run("edit", "kv-cache", bank=taught_bank, env={"EDITOR": f"{sys.executable} {editor}"})
    assert result.exit_code == 0, result.output
    after = (taught_bank / "questions" / "inference.yaml").read_text()
    assert after == before.replace("and what does it cost?", "and at what cost?")
    assert _taught(taught_bank) == TAUGHT


@pytest.mark.parametrize("via", ["csv", "anki"])
def test_rm_undone_by_importing_an_earlier_export_brings_the_taught_phrasings_back(
    run, anki, taught_bank, tmp_path, via
):
    original = _load(taught_bank).questions["kv-cache"]
    if via == "csv":
        path = tmp_path / "bank.csv"
        assert run("export", "csv", "-o", str(path), bank=taught_bank).exit_code == 0
    else:
        anki.import_deck(run, taught_bank)
        path = anki.export_text("html-all-columns")
    assert run("rm", "kv-cache", "--yes", bank=taught_bank).exit_code == 0
    report = _imported(run, path, taught_bank)
    assert report["added"] == ["kv-cache"]
    again = _load(taught_bank).questions["kv-cache"]
    assert (again.key_points, again.pitfalls) == (original.key_points, original.pitfalls)
    assert "aliases: []" not in (taught_bank / "questions" / "inference.yaml").read_text()


# --- CSV -----------------------------------------------------------------------------------------


def test_csv_carries_taught_phrasings_as_their_own_field(run, taught_bank, tmp_path):
    path = tmp_path / "bank.csv"
    assert run("export", "csv", "-o", str(path), bank=taught_bank).exit_code == 0
    rows = {row["id"]: row for row in csv.DictReader(path.open(encoding="utf-8"))}
    points = json.loads(rows["kv-cache"]["key_points"])
    assert points[0] == {
        "text": "past keys and values are stored for every layer",
        "aliases": ["keys and values are cached"],
        "taught": list(TAUGHT["kv-cache"][0]),
    }
    assert points[1] == {  # no empty aliases list
        "text": "the cost is memory that grows with context",
        "taught": ["it eats memory as context grows"],
    }
    fresh = tmp_path / "fresh"
    (fresh / "questions").mkdir(parents=True)
    assert sorted(_imported(run, path, fresh)["added"]) == ["batching", "kv-cache"]
    original, imported = _load(taught_bank), _load(fresh)
    for qid, q in original.questions.items():
        assert imported.questions[qid] == q, qid


# --- a list changed item by item ----------------------------------------------------------------

_words = st.builds(
    lambda first, middle, last: first + middle + last,
    st.sampled_from("abc"),
    st.text(alphabet="ab ,:'&<>#-", max_size=12),
    st.sampled_from("xyz"),
)
_claims = st.lists(
    st.one_of(
        _words,
        st.fixed_dictionaries(
            {"text": _words},
            optional={
                "aliases": st.lists(_words, min_size=1, max_size=2),
                "taught": st.lists(_words, min_size=1, max_size=3),
            },
        ),
    ),
    min_size=1,
    max_size=5,
)


@settings(max_examples=150, deadline=None)
@given(_claims, st.data())
def test_replacing_items_keeps_every_other_item_as_written(old, data):
    """Items [start, end) of a block list replaced by others: the list then holds the new items
    in their place, and the items around them, each under its own comment, are as written."""
    from prep.bank.yamlsplice import compose, mapping_value, render_items, replace_items, scalar

    def item_text(item):  # type: ignore[no-untyped-def]
        return f"      - {scalar(item)}\n" if isinstance(item, str) else render_items([item], 6)[0]

    written = [f"      # item {i}\n" + item_text(item) for i, item in enumerate(old)]
    text = "key_points:\n" + "".join(written) + "notes: end\n"
    start = data.draw(st.integers(0, len(old)))
    end = data.draw(st.integers(start, len(old)))
    items = data.draw(
        st.lists(_claims.flatmap(st.sampled_from), min_size=int(end - start == len(old)), max_size=3)
    )
    seq = mapping_value(compose(text), "key_points")
    new = apply(text, [replace_items(text, seq, start, end, items)])
    assert yaml.safe_load(new) == {"key_points": [*old[:start], *items, *old[end:]], "notes": "end"}
    assert new.startswith("key_points:\n" + "".join(written[:start]))
    assert new.endswith("".join(written[end:]) + "notes: end\n")
