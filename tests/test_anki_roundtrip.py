"""prep -> Anki -> prep: a deck exported by prep, studied and edited in Anki (the real backend),
exported from Anki as "Notes in Plain Text", comes back into the bank field for field, each
note updating the question its Id names."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from prep.bank.load import load_bank
from prep.paths import BankLocation

from .support import ANKI_EXPORTS, snapshot, write


def _load(root: Path):
    return load_bank(BankLocation(root, "option"))


@pytest.mark.parametrize("columns_line", [False, True], ids=["", "columns-line"])
@pytest.mark.parametrize("export", list(ANKI_EXPORTS))
def test_an_unedited_deck_comes_back_unchanged(run, anki, bank_dir, export, columns_line):
    anki.import_deck(run)
    path = anki.export_text(export, columns_line)
    before = snapshot(bank_dir)
    result = run("import", str(path), "-c", "parallelism", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert (report["added"], report["updated"], report["skipped"]) == ([], [], [])
    assert sorted(report["unchanged"]) == ["biggest-failure", "dp-batch-size", "dp-vs-mp", "zero-stages"]
    assert snapshot(bank_dir) == before


@pytest.mark.parametrize("columns_line", [False, True], ids=["", "columns-line"])
@pytest.mark.parametrize("export", [name for name in ANKI_EXPORTS if name.startswith("html")])
def test_notes_edited_in_anki_update_their_questions(run, anki, bank_dir, export, columns_line):
    anki.import_deck(run)
    original = _load(bank_dir)
    kp = anki.note("zero-stages")["KeyPoints"]
    anki.edit(
        "zero-stages",
        KeyPoints=kp.replace("</ul>", "<li>ZeRO-Infinity offloads to NVMe</li></ul>"),
        Answer="Stage 1 optimizer states,<br>stage 2 gradients, stage 3 parameters.",
        Pitfalls="<ul><li>ZeRO shards activations</li></ul>",
    )
    dp = anki.note("dp-vs-mp")
    anki.edit(
        "dp-vs-mp",
        Prompt=dp["Prompt"].replace("What is", "What's"),
        tags=" ".join([*dp.tags, "exam"]),
    )
    path = anki.export_text(export, columns_line)
    result = run("import", str(path), "-c", "parallelism", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert (report["added"], sorted(report["updated"])) == ([], ["dp-vs-mp", "zero-stages"])
    bank = _load(bank_dir)
    assert list(bank.questions) == list(original.questions)  # no question added or moved
    zero, before = bank.questions["zero-stages"], original.questions["zero-stages"]
    assert zero.key_points == (*before.key_points, zero.key_points[-1])
    assert zero.key_points[-1].text == "ZeRO-Infinity offloads to NVMe"
    assert [p.text for p in zero.pitfalls] == ["ZeRO shards activations"]
    assert (
        bank.answer_text("zero-stages") == "Stage 1 optimizer states,\nstage 2 gradients, stage 3 parameters."
    )
    assert bank.answers["zero-stages"].source == "own"
    dp_now, dp_before = bank.questions["dp-vs-mp"], original.questions["dp-vs-mp"]
    assert dp_now.prompt == dp_before.prompt.replace("What is", "What's")
    # The category's tag is not one of them; a file without tags leaves them as they were.
    assert dp_now.tags == ((*dp_before.tags, "exam") if ANKI_EXPORTS[export]["with_tags"] else dp_before.tags)
    # Everything the note does not carry, or that was not edited, is as it was: key points
    # with their aliases, pitfalls, the answer and its source, kind, follow-ups.
    assert dp_now.model_copy(update={"prompt": dp_before.prompt, "tags": dp_before.tags}) == dp_before
    assert bank.answers["dp-vs-mp"] == original.answers["dp-vs-mp"]
    assert bank.questions["dp-batch-size"] == original.questions["dp-batch-size"]


def test_the_deck_comes_back_into_an_empty_bank_field_for_field(run, anki, bank_dir, tmp_path):
    """Prompt, key points with their aliases, pitfalls, answer and tags: what the note carries."""
    anki.import_deck(run)
    path = anki.export_text("html-all-columns")
    fresh = tmp_path / "fresh"
    (fresh / "questions").mkdir(parents=True)
    result = run("import", str(path), "-c", "parallelism", "--json", bank=fresh)
    assert result.exit_code == 0, result.output
    original, imported = _load(bank_dir), _load(fresh)
    parallelism = original.categories["parallelism"].question_ids
    assert sorted(json.loads(result.output)["added"]) == sorted(original.questions)
    for qid, q in original.questions.items():
        again = imported.questions[qid]
        # Anki keeps a note's tags in its own order; the category's tag is dropped when the
        # question comes back into that category.
        tags = q.tags if qid in parallelism else (*q.tags, original.category_of[qid])
        assert (again.prompt, again.key_points, again.pitfalls, sorted(again.tags)) == (
            q.prompt,
            q.key_points,
            q.pitfalls,
            sorted(tags),
        ), qid
        assert imported.answer_text(qid) == original.answer_text(qid)
    assert imported.questions["dp-vs-mp"].key_points[0].aliases  # carried by the note


def test_a_note_whose_question_was_renamed_updates_it(run, anki, bank_dir):
    anki.import_deck(run)
    anki.edit("zero-stages", Answer="Optimizer states, then gradients, then parameters.")
    path = anki.export_text("html-tags-only")
    assert run("mv", "zero-stages", "zero-sharding").exit_code == 0
    result = run("import", str(path), "-c", "parallelism", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["updated"] == ["zero-sharding"]
    bank = _load(bank_dir)
    assert "zero-stages" not in bank.questions
    assert bank.answer_text("zero-sharding") == "Optimizer states, then gradients, then parameters."


def test_a_new_prep_note_made_in_anki_is_added_with_its_id(run, anki, bank_dir):
    anki.import_deck(run)
    note = anki.col.new_note(anki.col.models.by_name("prep question"))
    note["Prompt"], note["Id"] = "What does FSDP shard?", "fsdp-shards"
    note["KeyPoints"] = "<ul><li>parameters, gradients and optimizer states</li><li>all of them</li></ul>"
    note["Answer"] = "Everything, per layer."
    note.tags = ["parallelism", "fsdp"]
    anki.col.add_note(note, anki.col.decks.id("prep::Parallelism"))
    path = anki.export_text("html-tags-only")
    result = run("import", str(path), "-c", "parallelism", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["added"] == ["fsdp-shards"]
    q = _load(bank_dir).questions["fsdp-shards"]
    assert [k.text for k in q.key_points] == ["parameters, gradients and optimizer states", "all of them"]
    assert q.tags == ("fsdp",)


def test_plain_text_export_takes_edited_text_but_refuses_edited_lists(run, anki, bank_dir):
    """Without HTML, Anki runs list items and lines together: an edited prompt or answer is
    taken as it comes, an edited list cannot be split again and is an error at its line."""
    anki.import_deck(run)
    anki.edit("zero-stages", Answer="Optimizer states;<br>then gradients.")
    path = anki.export_text("plain-tags-only")
    result = run("import", str(path), "-c", "parallelism", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["updated"] == ["zero-stages"]
    assert _load(bank_dir).answer_text("zero-stages") == "Optimizer states; then gradients."
    kp = anki.note("dp-batch-size")["KeyPoints"]
    anki.edit("dp-batch-size", KeyPoints=kp.replace("</ul>", "<li>one more</li></ul>"))
    path = anki.export_text("plain-tags-only")
    before = snapshot(bank_dir)
    result = run("import", str(path), "-c", "parallelism")
    assert result.exit_code == 2
    assert "plain-tags-only.txt:" in result.output and "KeyPoints" in result.output
    assert "export with HTML" in result.output
    assert snapshot(bank_dir) == before


def test_a_file_of_other_notes_is_still_read_front_and_back(tmp_path):
    """Five fields whose last is not an id: not a prep note."""
    from prep.exchange.csvio import parse_import

    path = write(
        tmp_path / "notes.txt",
        "#separator:tab\n#html:true\nfront\tback\tc\td\tNot an id\n",
    )
    [row] = parse_import(path).rows
    assert (row.prompt, row.answer, row.id) == ("front", "back", None)


def test_list_fields_as_anki_s_editor_leaves_them():
    from prep.bank.schema import Claim, Question
    from prep.exchange.ankinote import PrepNote, note_values

    question = Question(
        id="q",
        prompt="What?",
        key_points=(Claim(text="first point", aliases=("point one",)), Claim(text="second")),
    )
    fields = {
        "Prompt": "What?",
        # Edited in Anki: a no-break space, bold, a trailing <br>, the aliases list dropped from
        # an item that kept its text, and a new item.
        "KeyPoints": "<ul><li>first&nbsp;point</li><li><b>second</b><br></li><li>third</li></ul>",
        "Pitfalls": "<div>one claim</div><div>another claim</div>",  # lines, not a list
        "Answer": "",
    }
    values = note_values(PrepNote("q", fields, True, None), question, "Prepared.", "c")
    assert values["key_points"] == ({"text": "first point", "aliases": ["point one"]}, "second", "third")
    assert values["pitfalls"] == ("one claim", "another claim")
    assert values["answer"] is None  # an empty Answer field leaves the prepared answer alone
    assert values["prompt"] == "What?" and values["tags"] == ()


def test_five_plain_fields_ending_in_a_word_are_not_taken_for_a_new_prep_note(run, tmp_path, bank_dir):
    """Without HTML and note types, a note shaped like prep's whose Id names no question may be
    any five-field note: it is read as a front and a back."""
    path = write(
        tmp_path / "vocab.txt",
        "#separator:tab\n#html:false\nephemeral\tlasting a very short time\tex\tnotes\tadjective\n",
    )
    result = run("import", str(path), "-c", "vocab", "--json")
    assert result.exit_code == 0, result.output
    [qid] = json.loads(result.output)["added"]
    bank = _load(bank_dir)
    assert bank.questions[qid].prompt == "ephemeral" and qid != "adjective"
    assert bank.answer_text(qid) == "lasting a very short time"
