"""`prep export csv` and `prep import`: a lossless round trip, errors at the lines of the input
file, and Anki's "Notes in Plain Text" export read by its header."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from prep.bank import yamlsplice
from prep.bank.load import load_bank
from prep.exchange.csvio import parse_import
from prep.paths import BankLocation

from .support import write

REPO = Path(__file__).resolve().parent.parent  # the bundled bank: questions/ and answers/

TRICKY = """\
category: probability
title: "Probability: Bayes | and friends"
questions:
  - id: bayes-rule
    prompt: "State Bayes' rule; what is P(A|B)?"
    kind: technical
    difficulty: 3
    tags: [probability theory, "a;;b", "[bracketed]"]
    target_seconds: 90
    key_points:
      - text: "P(A|B) = P(B|A)P(A)/P(B)"
        aliases: ["posterior ∝ likelihood × prior", "x ;; y"]
      - "first ;; second stays one key point"
      - "[CLS] starts with a bracket"
    pitfalls:
      - text: "P(A|B) = P(B|A)"
        aliases: ["the two conditionals | are equal"]
    follow_ups: [base-rates]
    notes: |
      Line one, with "quotes", commas, and a | pipe.
      Line two;; and a\ttab.
  - id: base-rates
    prompt: Why do base rates matter?
    kind: strategy
    difficulty: 1
    formerly: [base-rate, why-base-rates]
"""
TRICKY_ANSWERS = """\
answers:
  - question: bayes-rule
    source: model
    answer: |
      Multi-line,
      "quoted", with | and ;; inside.
  - question: base-rates
    answer: Own answer.
"""


def _empty_bank(tmp_path: Path, name: str = "fresh") -> Path:
    (tmp_path / name / "questions").mkdir(parents=True)
    return tmp_path / name


def _load(root: Path):
    return load_bank(BankLocation(root, "option"))


def _export(run, tmp_path: Path, bank: Path, *options: str) -> Path:
    result = run("export", "csv", *options, bank=bank)
    assert result.exit_code == 0, result.output
    path = tmp_path / "export.csv"
    path.write_text(result.output, encoding="utf-8")
    return path


def _snapshot(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*.yaml"))}


def test_the_whole_bundled_bank_round_trips(run, tmp_path):
    path = _export(run, tmp_path, REPO)
    fresh = _empty_bank(tmp_path)
    result = run("import", str(path), "-c", "imported", "--json", bank=fresh)
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["skipped"] == [] and report["renamed"] == []
    original, imported = _load(REPO), _load(fresh)
    assert len(original.questions) > 200
    assert list(imported.questions) == list(original.questions)  # every id, in order
    for qid, question in original.questions.items():
        # Model equality: prompt, kind, difficulty, tags, target_seconds, key points with their
        # aliases, pitfalls, follow-ups and notes.
        assert imported.questions[qid] == question, qid
    # Text and source of every answer; the stories an answer names are the bank's, not a row's.
    assert {q: (a.answer, a.source) for q, a in imported.answers.items()} == {
        q: (a.answer, a.source) for q, a in original.answers.items()
    }
    # The bank exercises what used to be lost.
    assert any(q.follow_ups for q in original.questions.values())
    assert {a.source for a in original.answers.values()} == {"own", "model"}
    assert any(k.aliases for q in original.questions.values() for k in q.key_points)
    # And exporting the imported bank gives the same file, but for the category columns.
    again = _export(run, tmp_path, fresh).read_text(encoding="utf-8")
    first = list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8"))))
    second = list(csv.DictReader(io.StringIO(again)))

    def strip(rows):  # type: ignore[no-untyped-def]
        return [{k: v for k, v in r.items() if not k.startswith("category")} for r in rows]

    assert strip(second) == strip(first)


@pytest.mark.parametrize("options", [(), ("--tsv",)])
def test_separators_inside_text_survive(run, tmp_path, options):
    root = tmp_path / "tricky"
    write(root / "questions" / "probability.yaml", TRICKY)
    write(root / "answers" / "probability.yaml", TRICKY_ANSWERS)
    path = _export(run, tmp_path, root, *options)
    fresh = _empty_bank(tmp_path)
    result = run("import", str(path), "-c", "probability", bank=fresh)
    assert result.exit_code == 0, result.output
    original, imported = _load(root), _load(fresh)
    assert imported.questions == original.questions and imported.answers == original.answers
    bayes = imported.questions["bayes-rule"]
    assert bayes.key_points[0].text == "P(A|B) = P(B|A)P(A)/P(B)"
    assert bayes.key_points[0].aliases == ("posterior ∝ likelihood × prior", "x ;; y")
    assert bayes.key_points[1].text == "first ;; second stays one key point"
    assert bayes.tags == ("probability theory", "a;;b", "[bracketed]")
    assert bayes.notes.startswith('Line one, with "quotes"') and "\t" in bayes.notes
    assert imported.answers["bayes-rule"].source == "model"
    assert imported.questions["base-rates"].formerly == ("base-rate", "why-base-rates")
    # The category keeps its title: the file names it for the category imported into.
    assert imported.categories["probability"].title == "Probability: Bayes | and friends"


def test_title_option_and_default_title(run, tmp_path, bank_dir):
    path = _export(run, tmp_path, bank_dir, "-c", "parallelism")
    other = _empty_bank(tmp_path, "other")
    assert run("import", str(path), "-c", "moved", bank=other).exit_code == 0
    assert _load(other).categories["moved"].title == "Moved"
    titled = _empty_bank(tmp_path, "titled")
    assert (
        run("import", str(path), "-c", "moved", "--title", "Distributed training", bank=titled).exit_code == 0
    )
    assert _load(titled).categories["moved"].title == "Distributed training"
    # An existing category keeps its title; asking for another one is refused.
    refused = run("import", str(path), "-c", "parallelism", "--title", "Other")
    assert refused.exit_code == 1 and "exists, titled 'Parallelism'" in refused.output


def test_hand_written_lists_without_json(run, tmp_path, bank_dir):
    path = write(
        tmp_path / "hand.csv",
        "prompt,key_points,tags,follow_ups\n"
        'What is tensor parallelism?,"splits matrices | shards layers ;; '
        'needs fast links",distributed memory,"zero-stages, dp-vs-mp"\n',
    )
    result = run("import", str(path), "-c", "parallelism")
    assert result.exit_code == 0, result.output
    question = _load(bank_dir).questions["tensor-parallelism"]
    assert [k.phrasings for k in question.key_points] == [
        ("splits matrices", "shards layers"),
        ("needs fast links",),
    ]
    assert question.tags == ("distributed", "memory")
    assert question.follow_ups == ("zero-stages", "dp-vs-mp")


MULTILINE_ERRORS = (
    "id,prompt,answer,kind,difficulty,key_points,follow_ups\n"  # 1
    'ok-one,First question?,"line 1\nline 2\nline 3",technical,2,,\n'  # 2-4
    "bad-kind,Second question?,answer,wizard,2,,\n"  # 5
    'ok-two,"Third\nquestion?",x,technical,7,,\n'  # 6-7
    'Bad_Id,Fourth question?,x,technical,2,"[""a"", {""text"": """"}]",\n'  # 8
    'ok-three,Fifth question?,,,,"[not json",\n'  # 9
    'ok-four,Sixth question?,,,,,"nope, bad-kind"\n'  # 10: bad-kind has its own error
)


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_every_bad_row_reported_at_its_line(run, tmp_path, bank_dir, monkeypatch, newline):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "in.csv").write_bytes(MULTILINE_ERRORS.replace("\n", newline).encode())
    before = _snapshot(bank_dir)
    result = run("import", "in.csv", "-c", "parallelism")
    assert result.exit_code == 2
    assert result.output.splitlines() == [
        "in.csv:5: kind: input should be 'technical', 'behavioral', 'strategy' or 'ask'",
        "in.csv:6: difficulty: input should be less than or equal to 3",
        "in.csv:8: id: 'Bad_Id' is not a kebab-case id (lowercase letters, digits and single hyphens)",
        "in.csv:8: key_points[1].text: must not be empty",
        "in.csv:9: key_points: a cell starting with '[' must be a JSON list: Expecting value: line 1 column "
        "2 (char 1)",
        "prep: in.csv has 5 problems; fix them and try again",
        "  nothing was imported",
    ]
    assert _snapshot(bank_dir) == before


def test_a_category_exported_alone_imports_into_an_empty_bank_without_its_outside_links(run, tmp_path):
    """The bundled alignment questions follow up on questions of other categories: those links
    are left out, each reported, and everything else is imported."""
    from prep.paths import bundled_bank_root

    bundled = bundled_bank_root()
    exported = run("export", "csv", "-c", "alignment", bank=bundled)
    assert exported.exit_code == 0
    (tmp_path / "alignment.csv").write_text(exported.stdout)
    empty = tmp_path / "empty"
    (empty / "questions").mkdir(parents=True)
    result = run("import", str(tmp_path / "alignment.csv"), "-c", "alignment", "--json", bank=empty)
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    source = load_bank(BankLocation(bundled, "option"))
    alignment = [q for q in source.questions.values() if source.category_of[q.id] == "alignment"]
    outside = {(q.id, f) for q in alignment for f in q.follow_ups if source.category_of[f] != "alignment"}
    assert outside, "the test needs links to other categories"
    assert {(d["question"], d["follow_up"]) for d in report["dropped_follow_ups"]} == outside
    imported = load_bank(BankLocation(empty, "option"))
    assert sorted(imported.questions) == sorted(q.id for q in alignment)
    for q in alignment:  # the links inside the category stay
        kept = [f for f in q.follow_ups if (q.id, f) not in outside]
        assert list(imported.questions[q.id].follow_ups) == kept


def test_a_dropped_follow_up_is_reported_at_its_line_with_a_suggestion(run, tmp_path, bank_dir):
    write(tmp_path / "in.csv", "id,prompt,follow_ups\nnew-one,What is sequence parallelism?,dp-vs-mq\n")
    result = run("import", str(tmp_path / "in.csv"), "-c", "parallelism")
    assert result.exit_code == 0, result.output
    assert (
        f"{tmp_path / 'in.csv'}:2: follow-up 'dp-vs-mq' of new-one left out: not a question of the bank or "
        "of this file; did you mean 'dp-vs-mp'?"
    ) in result.stderr
    assert load_bank(BankLocation(bank_dir, "option")).questions["new-one"].follow_ups == ()


def test_skipped_rows_name_their_physical_line(run, tmp_path, bank_dir, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(
        tmp_path / "in.csv",
        "prompt,answer\n"
        '"What is tensor\nparallelism?","Splitting\nthe matrices."\n'  # 2-4
        'What is pipeline parallelism?,"Stages\non GPUs"\n'  # 5-6
        "What do the three ZeRO stages shard?,dup of the bank\n"  # 7
        "what is PIPELINE parallelism,dup of line 5\n",
    )  # 8
    result = run("import", "in.csv", "-c", "parallelism")
    assert result.exit_code == 0, result.output
    assert "in.csv:7: skipped: duplicate prompt (same as 'zero-stages')" in result.output
    assert "in.csv:8: skipped: duplicate prompt (same as 'pipeline-parallelism')" in result.output
    data = json.loads(run("import", "in.csv", "-c", "parallelism", "--json").output)
    assert [s["line"] for s in data["skipped"]] == [2, 5, 7, 8] and data["added"] == []


def test_follow_ups_follow_renamed_and_skipped_questions(run, tmp_path, bank_dir):
    path = write(
        tmp_path / "in.csv",
        "id,prompt,follow_ups\n"
        'dp-vs-mp,What is expert parallelism?,"[""zero-stages""]"\n'
        "old-zero,What do the three ZeRO stages shard?,\n"
        'tp,What is tensor parallelism?,"[""dp-vs-mp"", ""old-zero""]"\n',
    )
    result = run("import", str(path), "-c", "parallelism", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["renamed"] == [{"line": 2, "from": "dp-vs-mp", "to": "expert-parallelism"}]
    bank = _load(bank_dir)
    # 'dp-vs-mp' in the file is its own row (imported as expert-parallelism), 'old-zero' a
    # duplicate of the bank's zero-stages.
    assert bank.questions["tp"].follow_ups == ("expert-parallelism", "zero-stages")
    assert bank.questions["expert-parallelism"].follow_ups == ("zero-stages",)


def test_renamed_ids_are_reported(run, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "in.csv", "id,prompt\nzero-stages,What is sequence parallelism?\n")
    result = run("import", "in.csv", "-c", "parallelism")
    assert result.exit_code == 0
    assert "in.csv:2: id 'zero-stages' is taken; imported as 'sequence-parallelism'" in result.output


def test_a_header_the_import_cannot_use_is_a_problem_of_the_file(run, tmp_path):
    """Exit code 2 (the input has problems), each at the header's line, all of them at once."""
    unknown = write(tmp_path / "bad.csv", "prompt,keypoints,colour\nx,y,z\n")
    result = run("import", str(unknown), "-c", "x")
    assert result.exit_code == 2
    assert "bad.csv:1: unknown column 'keypoints'; did you mean 'key_points'?" in result.output
    assert "bad.csv:1: unknown column 'colour'" in result.output
    no_prompt = write(tmp_path / "none.csv", "question,answer\nx,y\n")
    result = run("import", str(no_prompt), "-c", "x")
    assert (
        result.exit_code == 2
        and "none.csv:1: a header row with a 'prompt' column is required" in result.output
    )
    latin1 = tmp_path / "latin1.csv"
    latin1.write_bytes(b"prompt\ncaf\xe9 question\n")
    result = run("import", str(latin1), "-c", "x")
    assert result.exit_code == 2 and "latin1.csv:2:4: not valid UTF-8 (byte 0xe9)" in result.output
    empty = write(tmp_path / "empty.csv", "")
    result = run("import", str(empty), "-c", "x")
    assert result.exit_code == 2 and "empty.csv:1: the file is empty" in result.output


def test_import_composes_each_file_once(run, tmp_path, bank_dir, monkeypatch):
    """Appending row by row re-parsed the growing file for every row (15 s for 250 rows)."""
    calls = []
    real = yamlsplice.compose
    monkeypatch.setattr(yamlsplice, "compose", lambda text: calls.append(1) or real(text))
    rows = "".join(
        f'Question number {i} about sharding?,"point {i} | alias {i} ;; other {i}",Answer {i}.\n'
        for i in range(300)
    )
    path = write(tmp_path / "many.csv", "prompt,key_points,answer\n" + rows)
    result = run("import", str(path), "-c", "parallelism", "--json")
    assert result.exit_code == 0, result.output
    assert len(json.loads(result.output)["added"]) == 300
    assert len(calls) <= 2  # the questions file and the answers file
    assert len(_load(bank_dir).questions) == 304


# --- Anki ----------------------------------------------------------------------------------


def test_anki_notes_in_plain_text(run, tmp_path, bank_dir):
    """A real export from Anki: GUID, note type and deck columns come first, tags last."""
    from anki.collection import Collection, DeckIdLimit

    col = Collection(str(tmp_path / "collection.anki2"))
    try:
        deck = col.decks.id("Interview::ML")
        notes = [
            ("What is <b>FSDP</b>?", "Shards params, grads<br>and optimizer state", ["distributed", "fsdp"]),
            ("What is\ngradient checkpointing?", "Recompute activations", []),
            ("What is NCCL?", "The collective library", ["comms"]),
        ]
        for front, back, tags in notes:
            note = col.new_note(col.models.by_name("Basic"))
            note["Front"], note["Back"], note.tags = front, back, tags
            col.add_note(note, deck)
        path = tmp_path / "notes.txt"
        col.export_note_csv(
            out_path=str(path),
            limit=DeckIdLimit(deck),
            with_html=True,
            with_tags=True,
            with_deck=True,
            with_notetype=True,
            with_guid=True,
        )
    finally:
        col.close()
    text = path.read_text(encoding="utf-8")
    assert "#guid column:1" in text and "#notetype column:2" in text and "#deck column:3" in text
    rows = parse_import(path).rows
    assert [(r.prompt, r.answer, r.tags) for r in rows] == [
        ("What is FSDP?", "Shards params, grads\nand optimizer state", ("distributed", "fsdp")),
        ("What is\ngradient checkpointing?", "Recompute activations", ()),
        ("What is NCCL?", "The collective library", ("comms",)),
    ]
    assert [r.line for r in rows] == [7, 8, 10]  # six header lines; the second note spans two lines
    result = run("import", str(path), "-c", "anki", "--json")
    assert result.exit_code == 0, result.output
    bank = _load(bank_dir)
    added = json.loads(result.output)["added"]
    assert [bank.questions[q].prompt for q in added] == [r.prompt for r in rows]
    assert bank.answer_text(added[2]) == "The collective library"


def test_anki_header_written_by_hand(tmp_path):
    path = write(
        tmp_path / "notes.txt",
        "#separator:tab\n#html:true\n#tags column:3\n"
        "What is <b>FSDP</b>?\tShards params, grads<br>and optimizer state\t"
        "distributed fsdp\n",
    )
    [row] = parse_import(path).rows
    assert (row.prompt, row.answer, row.tags) == (
        "What is FSDP?",
        "Shards params, grads\nand optimizer state",
        ("distributed", "fsdp"),
    )
    assert row.line == 4


def test_anki_row_without_a_back_field(tmp_path):
    path = write(tmp_path / "notes.txt", "#separator:tab\n#guid column:1\nabc\tonly a front\n")
    parsed = parse_import(path)
    assert parsed.rows == []
    assert [str(p) for p in parsed.problems] == [
        f"{parsed.file}:3: expected at least a front and a back field"
    ]


def test_bank_problems_in_appended_text_point_at_the_import_file(tmp_path):
    """Rows are checked before the bank is; should the bank as it would be still fail, a problem
    inside the appended questions is shown at the line of the row it came from."""
    from prep.errors import BankInvalid, ImportInvalid, Problem, display_path
    from prep.exchange.csvio import ImportRow
    from prep.exchange.importer import _located

    target = tmp_path / "questions" / "x.yaml"
    spans = [(target, [4, 12], [ImportRow(2, "first?"), ImportRow(9, "second?")])]
    inside = Problem(display_path(target), 14, 7, "must not be empty", "questions[1].key_points[0].text")
    error = _located([inside], "in.csv", spans)
    assert isinstance(error, ImportInvalid)
    assert error.details() == ["in.csv:9: key_points[0].text: must not be empty"]
    before = Problem(display_path(target), 2, 1, "bad title", "title")  # not appended text: left where it is
    error = _located([inside, before], "in.csv", spans)
    assert (
        isinstance(error, BankInvalid) and f"{display_path(target)}:2:1: title: bad title" in error.details()
    )


def test_a_quote_never_closed_is_reported_not_swallowing_the_rows_after_it(run, tmp_path):
    bad = write(
        tmp_path / "u.csv",
        'prompt,answer\nFirst?,"starts a quote but never ends\nSecond?,its answer\nThird?,x\n',
    )
    result = run("import", str(bad), "-c", "u")
    assert result.exit_code == 2
    assert "u.csv:2: a quoted cell starts here and is never closed" in result.output


def test_anki_div_lines_become_lines(tmp_path):
    path = write(
        tmp_path / "notes.txt",
        "#separator:tab\n#html:true\n"
        "What does a KV cache hold?\tCaches keys<div>per layer</div><div>per head</div>"
        "\n"
        "Why?\tOne line<br><br>after a blank one\n",
    )
    first, second = parse_import(path).rows
    assert first.answer == "Caches keys\nper layer\nper head"
    assert second.answer == "One line\n\nafter a blank one"
