"""Loading and validating banks: the valid path, and a corpus of broken files."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from prep.bank.load import check_bank, load_bank
from prep.errors import BankInvalid
from prep.paths import BankLocation

from .support import write

BAD = Path(__file__).parent / "data" / "bad"
VALID_QUESTION = """\
category: valid
title: Valid
questions:
  - id: valid-question
    prompt: A valid question?
    key_points: [a point]
"""


def _expectation(path: Path) -> str:
    first = path.read_bytes().split(b"\n", 1)[0].decode()
    match = re.match(r"# expect: (.*)", first)
    assert match, f"{path.name} must start with '# expect: ...'"
    return match.group(1)


def _bank_with(tmp_path: Path, case: Path) -> tuple[Path, Path]:
    """A bank holding the broken file (as a question or an answers file) plus a valid question."""
    root = tmp_path / "bank"
    write(root / "questions" / "valid.yaml", VALID_QUESTION)
    folder = "answers" if case.name.startswith("answers-") else "questions"
    target = root / folder / case.name
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(case, target)
    return root, target


CASES = sorted(BAD.glob("*.yaml"))


def test_corpus_is_large_enough():
    assert len(CASES) >= 30


@pytest.mark.parametrize("case", CASES, ids=[c.stem for c in CASES])
def test_broken_file_is_reported_at_its_line(case, tmp_path, run, monkeypatch):
    root, target = _bank_with(tmp_path, case)
    monkeypatch.chdir(root)
    result = run("validate", bank=root)
    expected = _expectation(case)
    shown = f"{target.parent.name}/{target.name}"
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    lines = [line for line in result.output.splitlines() if line.startswith(shown)]
    assert lines, f"no problem reported for {shown}:\n{result.output}"
    if re.match(r"\d+:\d+: ", expected):
        assert any(line.startswith(f"{shown}:{expected}") for line in lines), (expected, lines)
    else:
        assert any(expected in line for line in lines), (expected, lines)


def test_python_tag_is_never_executed(tmp_path, run):
    marker = Path("/tmp/prep-pwned")
    marker.unlink(missing_ok=True)
    root, _ = _bank_with(tmp_path, BAD / "python-tag.yaml")
    run("validate", bank=root)
    assert not marker.exists()


def test_every_problem_is_listed_not_only_the_first(tmp_path, run, monkeypatch):
    root = tmp_path / "bank"
    write(
        root / "questions" / "many.yaml",
        """\
        category: many
        title: Many problems
        questions:
          - id: q1
            prompt: ""
            difficulty: 9
          - id: q2
            prompt: Fine?
            follow_ups: [nowhere]
          - id: q3
            prompt: Also fine?
            colour: red
        """,
    )
    write(root / "answers" / "a.yaml", "answers:\n  - question: q9\n    answer: hi\n")
    monkeypatch.chdir(root)
    result = run("validate", bank=root)
    assert result.exit_code == 2
    problem_lines = [l for l in result.output.splitlines() if re.match(r"(questions|answers)/", l)]
    assert [l.split(": ")[0] for l in problem_lines] == [
        "answers/a.yaml:2:5",
        "questions/many.yaml:5:5",
        "questions/many.yaml:6:5",
        "questions/many.yaml:9:18",
        "questions/many.yaml:12:5",
    ]


def test_a_question_with_a_problem_is_still_checked_for_duplicates_and_follow_ups(tmp_path, run, monkeypatch):
    root = tmp_path / "bank"
    write(
        root / "questions" / "c.yaml",
        """\
        category: c
        title: C
        questions:
          - id: a1
            prompt: First question here?
          - id: a1
            prompt: Duplicate id here?
            bogus: 1
            follow_ups: [missing-one]
        """,
    )
    monkeypatch.chdir(root)
    result = run("validate", bank=root)
    assert result.exit_code == 2
    lines = result.output.splitlines()
    assert (
        "questions/c.yaml:6:5: questions[1].id: duplicate question id 'a1' (first defined at "
        "questions/c.yaml:4)" in lines
    )
    assert any(
        line.startswith("questions/c.yaml:8:5: questions[1].bogus: unknown field 'bogus'") for line in lines
    )
    assert (
        "questions/c.yaml:9:18: questions[1].follow_ups[0]: follow-up 'missing-one' is not a question id"
        in lines
    )


def test_bom_and_crlf_load_fine(tmp_path):
    root = tmp_path / "bank"
    text = VALID_QUESTION.replace("\n", "\r\n")
    (root / "questions").mkdir(parents=True)
    (root / "questions" / "valid.yaml").write_bytes(b"\xef\xbb\xbf" + text.encode())
    bank = load_bank(BankLocation(root, "option"))
    assert bank.questions["valid-question"].prompt == "A valid question?"


def test_directory_named_like_yaml_is_reported(tmp_path):
    root = tmp_path / "bank"
    write(root / "questions" / "valid.yaml", VALID_QUESTION)
    (root / "questions" / "folder.yaml").mkdir()
    _, problems = check_bank(BankLocation(root, "option"))
    assert any("folder.yaml" in p.file and "is a directory" in p.message for p in problems)


def test_symlink_loop_is_reported(tmp_path):
    root = tmp_path / "bank"
    write(root / "questions" / "valid.yaml", VALID_QUESTION)
    loop = root / "questions" / "loop.yaml"
    loop.symlink_to(loop)
    _, problems = check_bank(BankLocation(root, "option"))
    assert any("loop.yaml" in p.file and "cannot read" in p.message for p in problems)


def test_load_bank_raises_with_all_problems(tmp_path):
    root, _ = _bank_with(tmp_path, BAD / "unknown-field.yaml")
    with pytest.raises(BankInvalid) as caught:
        load_bank(BankLocation(root, "option"))
    assert len(caught.value.problems) == 1
    assert caught.value.exit_code == 2


def test_valid_bank_validates(run):
    result = run("validate")
    assert result.exit_code == 0, result.output
    assert "4 questions in 2 categories, 2 answers" in result.output


def test_validate_json(run):
    result = run("validate", "--json")
    data = json.loads(result.output)
    assert data["ok"] is True
    assert (data["questions"], data["categories"], data["answers"]) == (4, 2, 2)
    assert data["problems"] == []


def test_validate_json_lists_problems(tmp_path, run):
    root, _ = _bank_with(tmp_path, BAD / "bad-kind.yaml")
    result = run("validate", "--json", bank=root)
    assert result.exit_code == 2
    data = json.loads(result.output)
    assert data["ok"] is False
    [problem] = data["problems"]
    assert (problem["line"], problem["column"], problem["path"]) == (7, 5, "questions[0].kind")


def test_near_duplicate_prompts_are_warnings(tmp_path, run):
    root = tmp_path / "bank"
    write(
        root / "questions" / "dups.yaml",
        """\
        category: dups
        title: Dups
        questions:
          - id: a
            prompt: What is the difference between data and model parallelism?
          - id: b
            prompt: What's the difference between data and model parallelism?
          - id: c
            prompt: How does pipeline parallelism schedule micro-batches?
        """,
    )
    result = run("validate", bank=root)
    assert result.exit_code == 0
    assert "warning:" in result.output and "'b'" in result.output and "'a'" in result.output
    assert "'c'" not in result.output


@pytest.mark.parametrize("count", [300, 4500])  # every pair compared; rarest words only
def test_templated_prompts_get_one_warning_per_question_not_per_pair(tmp_path, monkeypatch, count):
    from prep.bank import lint
    from prep.bank.load import load_bank
    from prep.paths import BankLocation

    root = tmp_path / "bank"
    items = "".join(
        f"  - id: term-{i}\n    prompt: What does the term zq{i:05d} mean in machine learning systems?\n"
        for i in range(count)
    )
    (root / "questions").mkdir(parents=True)
    (root / "questions" / "glossary.yaml").write_text(
        f"category: glossary\ntitle: Glossary\nquestions:\n{items}"
    )
    bank = load_bank(BankLocation(root, "option"))
    pairs = lint.near_duplicate_prompts(bank)
    assert len(pairs) == count - 1 and len({second for _, second, _ in pairs}) == count - 1
    assert all(score >= lint.NEAR_DUPLICATE_CUTOFF for _, _, score in pairs)


def test_other_commands_refuse_an_invalid_bank_with_exit_2(tmp_path, run):
    root, _ = _bank_with(tmp_path, BAD / "unknown-field.yaml")
    result = run("list", bank=root)
    assert result.exit_code == 2
    assert "unknown field 'dificulty'" in result.output
    assert "the bank has 1 problem" in result.output
    assert "Traceback" not in result.output


def test_missing_bank_directory_is_a_clear_error(tmp_path, run):
    result = run("list", bank=tmp_path / "nowhere")
    assert result.exit_code == 1
    assert "bank directory not found" in result.output


def test_a_bank_path_that_is_a_file_says_so(run, tmp_path):
    afile = tmp_path / "bank.txt"
    afile.write_text("not a bank")
    result = run("list", bank=afile)
    assert result.exit_code == 1
    assert f"{afile} is a file, not a bank directory (from --bank)" in result.output


def test_validate_warns_about_folders_inside_questions(run, tmp_path):
    root = tmp_path / "bank"
    write(root / "questions" / "c.yaml", "category: c\ntitle: C\nquestions:\n  - id: a\n    prompt: A?\n")
    write(root / "questions" / "more" / "d.yaml", "category: d\ntitle: D\nquestions: []\n")
    result = run("validate", bank=root)
    assert result.exit_code == 0
    assert "is a folder: prep reads only the files directly in questions/" in result.output


def test_an_answers_file_with_only_comments_has_no_answers(tmp_path, run, bank_dir):
    notes = bank_dir / "answers" / "later.yaml"
    notes.write_text("# answers to the behavioural questions go here\n")
    result = run("validate", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["ok"] is True
    (bank_dir / "questions" / "empty.yaml").write_text("# a category to come\n")
    result = run("validate")
    assert (
        result.exit_code == 2
        and "questions/empty.yaml: file is empty (nothing but comments or blank lines)" in result.output
    )


def test_a_folder_named_like_a_yaml_file_is_one_error_not_also_a_warning(run, tmp_path):
    root = tmp_path / "bank"
    write(root / "questions" / "c.yaml", "category: c\ntitle: C\nquestions:\n  - id: a\n    prompt: A?\n")
    (root / "questions" / "dir.yaml").mkdir()
    result = run("validate", bank=root)
    assert result.exit_code == 2
    assert "questions/dir.yaml: is a directory, not a YAML file" in result.output
    assert "is a folder" not in result.output


def test_one_syntax_error_is_one_problem_not_a_cascade(run, bank_dir):
    """Answers and follow-ups naming the questions of a file that does not parse are not errors
    of their own: the syntax error is the one thing to fix."""
    path = bank_dir / "questions" / "parallelism.yaml"
    path.write_text(path.read_text() + "  - id: broken\n    prompt: [unclosed\n")
    result = run("validate", "--json")
    assert result.exit_code == 2
    problems = json.loads(result.output)["problems"]
    assert len(problems) == 1 and "YAML syntax error" in problems[0]["message"], problems


def test_a_duplicate_is_reported_at_the_later_copy_even_when_the_first_is_invalid(run, tmp_path):
    root = tmp_path / "bank"
    write(
        root / "questions" / "c.yaml",
        "category: c\ntitle: C\nquestions:\n"
        "  - id: a\n    promt: A?\n"  # line 4: invalid (a typo), but first
        "  - id: a\n    prompt: A again?\n",
    )  # line 6: valid, and the duplicate
    result = run("validate", bank=root)
    assert result.exit_code == 2
    line = next(x for x in result.output.splitlines() if "duplicate question id 'a'" in x)
    assert "c.yaml:6: " in line and line.endswith("c.yaml:4)"), line


def test_formerly_is_checked(tmp_path, run):
    root = tmp_path / "b"
    write(
        root / "questions" / "c.yaml",
        """\
        category: c
        title: C
        questions:
          - id: q1
            prompt: First?
            formerly: [old-one]
          - id: q2
            prompt: Second?
            formerly: [q1]
          - id: q3
            prompt: Third?
            formerly:
              - old-one
          - id: q4
            prompt: Fourth?
            formerly: [old-two, Not_An_Id]
        """,
    )
    result = run("validate", bank=root)
    assert result.exit_code == 2
    out = result.output
    assert "c.yaml:16:" in out and "formerly[1]: 'Not_An_Id' is not a kebab-case id" in out
    assert "c.yaml:9:" in out and "formerly[0]: 'q1' is the id of another question" in out
    assert "c.yaml:13:" in out and "'old-one' is already a former id of 'q1' (" in out
    assert "3 problems" in out
