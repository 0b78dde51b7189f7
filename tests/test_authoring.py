"""add, answer, edit, mv, rm: the bank stays valid, readable and byte-identical where untouched."""

from __future__ import annotations

import itertools
import json
import sqlite3
import sys
from pathlib import Path
from unittest import mock

import pytest
import yaml
from typer.testing import CliRunner

from prep import files
from prep.bank.load import load_bank
from prep.cli.app import app
from prep.paths import BankLocation

from .support import write

ODD_FORMATTING = """\
# Hand-written file: comments, odd spacing, flow lists and quoted strings must survive.
category:   parallelism   # the id
title: "Parallelism"
questions:

    -   id: dp-vs-mp     # indented by four
        prompt: 'What is the difference between data parallelism and model parallelism?'
        tags: [ distributed,ddp ]
        key_points:
            - every GPU holds a full replica of the model   # plain string
        follow_ups: [zero-stages]

    # a comment between items
    -   id: zero-stages
        prompt: >-
            What do the
            three ZeRO stages shard?
        key_points: [stage 3 shards the parameters]
# trailing comment at the end
"""


@pytest.fixture
def odd_bank(tmp_path):
    root = tmp_path / "odd"
    write(root / "questions" / "parallelism.yaml", ODD_FORMATTING)
    write(
        root / "answers" / "parallelism.yaml",
        "# my answers\nanswers:\n  - question: dp-vs-mp\n"
        "    answer: short one   # inline\n  - question: zero-stages\n    source: model\n    answer: >\n"
        "      Stage 1 optimizer states, stage 2 gradients,\n      stage 3 parameters.\n",
    )
    return root


def _load(root):
    return load_bank(BankLocation(root, "option"))


def test_add_appends_a_block_and_keeps_every_other_byte(run, odd_bank):
    path = odd_bank / "questions" / "parallelism.yaml"
    before = path.read_text()
    result = run(
        "add",
        "--category",
        "parallelism",
        "--prompt",
        "What does NCCL's ring all-reduce cost?",
        "--key-point",
        "each GPU sends 2(N-1)/N of the data | bandwidth optimal",
        "--key-point",
        "latency grows with the number of GPUs",
        "--tag",
        "nccl",
        "--json",
        bank=odd_bank,
    )
    assert result.exit_code == 0, result.output
    change = json.loads(result.output)
    assert change["id"] == "nccl-ring-all-reduce-cost"
    after = path.read_text()
    # Nothing moved by a byte: the new block goes before the file's closing comment.
    closing = "# trailing comment at the end\n"
    assert before.endswith(closing) and after.endswith(closing)
    assert after.startswith(before.removesuffix(closing))
    added = yaml.safe_load(after)["questions"][-1]
    assert added["key_points"][0] == {
        "text": "each GPU sends 2(N-1)/N of the data",
        "aliases": ["bandwidth optimal"],
    }
    assert _load(odd_bank).questions[change["id"]].tags == ("nccl",)


def test_files_keep_crlf_line_ends_and_bom(run, odd_bank):
    path = odd_bank / "questions" / "parallelism.yaml"
    original = path.read_text()
    path.write_bytes(b"\xef\xbb\xbf" + original.replace("\n", "\r\n").encode())
    assert run("mv", "zero-stages", "zero-sharding", bank=odd_bank).exit_code == 0
    assert (
        run(
            "add", "-c", "parallelism", "-p", "What is FSDP?", "-K", "shards parameters", bank=odd_bank
        ).exit_code
        == 0
    )
    data = path.read_bytes()
    assert data.startswith(b"\xef\xbb\xbf")
    assert data.count(b"\n") == data.count(b"\r\n")
    text = data.decode("utf-8-sig").replace("\r\n", "\n")
    closing = "# trailing comment at the end\n"
    assert text.startswith(original.replace("zero-stages", "zero-sharding").removesuffix(closing))
    assert "What is FSDP?" in text and text.endswith(closing)


def test_add_creates_a_new_category_file(run, odd_bank):
    result = run(
        "add",
        "-c",
        "inference",
        "-p",
        "What is continuous batching?",
        "-K",
        "requests join a running batch",
        bank=odd_bank,
    )
    assert result.exit_code == 0, result.output
    bank = _load(odd_bank)
    assert bank.categories["inference"].file.name == "inference.yaml"
    assert bank.category_of["continuous-batching"] == "inference"


@pytest.mark.parametrize("name", ["../evil", "a/b", "..", "con", "Upper", "with space", "x.yaml", ""])
def test_unsafe_category_names_are_refused(run, odd_bank, name):
    result = run("add", "--category", name, "--prompt", "Anything?", bank=odd_bank)
    assert result.exit_code == 1
    assert "not a safe name" in result.output or "reserved" in result.output
    assert sorted(p.name for p in (odd_bank / "questions").iterdir()) == ["parallelism.yaml"]
    assert not (odd_bank.parent / "evil.yaml").exists()


def test_add_that_would_break_the_bank_writes_nothing(run, odd_bank):
    path = odd_bank / "questions" / "parallelism.yaml"
    before = path.read_bytes()
    # (A --follow-up naming no question is refused before this check: tests/test_add_options.py.)
    result = run("add", "-c", "parallelism", "-p", "Deeper?", "--target-seconds", "5000", bank=odd_bank)
    assert result.exit_code == 1  # a bad option value, named as the option
    assert "--target-seconds: input should be less than or equal to 3600" in result.output
    assert path.read_bytes() == before


def test_add_duplicate_id_is_refused(run, odd_bank):
    result = run("add", "-c", "parallelism", "-p", "Again?", "--id", "dp-vs-mp", bank=odd_bank)
    assert result.exit_code == 1 and "already used" in result.output


def test_add_interactive_prompts(run, odd_bank, monkeypatch):
    monkeypatch.setattr("prep.cli.plain.interactive", lambda: True)
    # "par" is a prefix of parallelism: confirmed with Enter. After each key point, other ways to
    # say it. Out-of-range and non-numeric values are asked again, not accepted and then refused
    # at the end with everything typed lost.
    script = (
        "par\n\nWhy does pipeline parallelism have bubbles?\nstages wait for micro-batches | idle stages\n"
        "early stages sit waiting for the first micro-batch\n\nfill and drain time\n\n\n"
        "bubbles disappear with one micro-batch\n\npipeline, pp schedule\n"
        "bogus\ntechnical\n5\nabc\n3\n0\n90\n"
    )
    result = run("add", input=script, bank=odd_bank)
    assert result.exit_code == 0, result.output
    question = _load(odd_bank).questions["pipeline-parallelism-have-bubbles"]
    assert question.key_points[0].aliases == (
        "idle stages",
        "early stages sit waiting for the first micro-batch",
    )
    assert [p.text for p in question.key_points] == ["stages wait for micro-batches", "fill and drain time"]
    assert "Other ways to say it" in result.output
    assert question.pitfalls[0].text == "bubbles disappear with one micro-batch"
    tags = ("pipeline", "pp", "schedule")  # commas or spaces between them
    assert (question.tags, question.difficulty, question.target_seconds) == (tags, 3, 90)
    assert "Did you mean parallelism?" in result.output


def test_add_interactive_new_category_with_a_prefix_of_an_existing_one(run, odd_bank, monkeypatch):
    monkeypatch.setattr("prep.cli.plain.interactive", lambda: True)
    script = "par\nn\nWhat is a parameter server?\nworkers push gradients to servers\n\n\n\n\n\n\n\n"
    result = run("add", input=script, bank=odd_bank)
    assert result.exit_code == 0, result.output
    assert (odd_bank / "questions" / "par.yaml").exists()


def test_ctrl_c_at_a_prompt_exits_130_and_writes_nothing(run, odd_bank, monkeypatch):
    monkeypatch.setattr("prep.cli.plain.interactive", lambda: True)
    before = {f: f.read_bytes() for f in odd_bank.rglob("*.yaml")}
    result = run("rm", "zero-stages", bank=odd_bank, input="")  # end of input at the confirmation
    assert result.exit_code == 130 and "cancelled" in result.output
    assert {f: f.read_bytes() for f in odd_bank.rglob("*.yaml")} == before


def test_rm_json_declined_prints_only_json(run, odd_bank, monkeypatch):
    monkeypatch.setattr("prep.cli.plain.interactive", lambda: True)
    runner = CliRunner()
    result = runner.invoke(app, ["--bank", str(odd_bank), "rm", "zero-stages", "--json"], input="n\n")
    assert result.exit_code == 0
    # CliRunner echoes the typed "n" to stdout (a terminal would show it on the tty); the rest is JSON.
    echoed, printed = result.stdout.split("\n", 1)
    assert echoed.strip() == "n"
    assert json.loads(printed) == {"id": "zero-stages", "files": [], "created": [], "removed": False}
    assert "Remove zero-stages" in result.stderr


def test_answer_replaces_only_the_answer(run, odd_bank):
    path = odd_bank / "answers" / "parallelism.yaml"
    result = run("answer", "dp-vs-mp", "--text", "Line one.\nLine two: with a colon.", bank=odd_bank)
    assert result.exit_code == 0, result.output
    text = path.read_text()
    assert text.startswith("# my answers\nanswers:\n  - question: dp-vs-mp\n    answer: |\n")
    assert "  - question: zero-stages\n    source: model\n" in text
    assert _load(odd_bank).answer_text("dp-vs-mp") == "Line one.\nLine two: with a colon."


def test_answer_replacing_a_model_answer_marks_it_own(run, odd_bank):
    run("answer", "zero-stages", "--text", "My own words.", bank=odd_bank)
    answer = _load(odd_bank).answers["zero-stages"]
    assert (answer.answer, answer.source) == ("My own words.", "own")


def test_answer_for_unanswered_question_creates_the_entry(run, bank_dir):
    result = run("answer", "zero-stages", "--text", "Optimizer states, then gradients, then parameters.")
    assert result.exit_code == 0, result.output
    assert _load(bank_dir).answer_text("zero-stages").startswith("Optimizer states")
    assert (bank_dir / "answers" / "parallelism.yaml").exists()


def test_answer_in_editor(run, odd_bank, tmp_path):
    editor = tmp_path / "ed.py"
    editor.write_text("import sys\np = sys.argv[-1]\nopen(p, 'a').write('\\nTyped in the editor.')\n")
    env = {"EDITOR": f"{sys.executable} {editor}"}
    result = run("answer", "zero-stages", bank=odd_bank, env=env)
    assert result.exit_code == 0, result.output
    assert _load(odd_bank).answer_text("zero-stages").endswith("Typed in the editor.")


def test_answer_in_editor_keeps_hash_lines_and_drops_only_the_header(run, odd_bank, tmp_path):
    run("answer", "zero-stages", "--text", "# Stages\nOptimizer states first.", bank=odd_bank)
    seen = tmp_path / "seen.txt"
    editor = _editor(
        tmp_path,
        "append.py",
        f"import shutil\nshutil.copy(path, {str(seen)!r})\n"
        "path.write_text(path.read_text() + '\\n# Then\\nGradients.')\n",
    )
    result = run("answer", "zero-stages", bank=odd_bank, env={"EDITOR": editor})
    assert result.exit_code == 0, result.output
    assert (
        _load(odd_bank).answer_text("zero-stages") == "# Stages\nOptimizer states first.\n# Then\nGradients."
    )
    lines = seen.read_text().splitlines()
    assert lines[0].startswith("# What do the three ZeRO stages shard")
    assert lines[-2:] == ["# Stages", "Optimizer states first."]


def test_answer_in_editor_unchanged_writes_nothing(run, odd_bank):
    path = odd_bank / "answers" / "parallelism.yaml"
    before = path.read_bytes()
    result = run("answer", "zero-stages", "--json", bank=odd_bank, env={"EDITOR": "true"})
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["changed"] is False
    assert path.read_bytes() == before  # still a model answer, not turned into the user's own


def test_answer_editor_header_comments_every_line_of_a_multiline_prompt(run, tmp_path, monkeypatch):
    bank = tmp_path / "multi"
    write(
        bank / "questions" / "q.yaml",
        "category: q\ntitle: Q\nquestions:\n  - id: two-lines\n"
        "    prompt: |\n      Line one of the prompt.\n      Line two of the prompt?\n"
        "    key_points:\n      - text: |\n          a key point\n          over two lines\n",
    )
    calls = []
    from prep.cli import editor

    def fake_editor(argv):  # type: ignore[no-untyped-def]
        path = Path(argv[-1])
        calls.append((argv[-2], path.read_text()))
        path.write_text(path.read_text() + "My answer.")
        return 0

    monkeypatch.setattr(editor.subprocess, "call", fake_editor)
    monkeypatch.setenv("EDITOR", "vi")
    result = run("answer", "two-lines", bank=bank)
    assert result.exit_code == 0, result.output
    assert _load(bank).answer_text("two-lines") == "My answer."
    line, text = calls[0]
    assert all(row.startswith("#") for row in text.splitlines())
    assert line == f"+{len(text.splitlines()) + 1}"  # the cursor starts on the answer's first line


def _editor(tmp_path, name, body):
    script = tmp_path / name
    script.write_text("import sys, pathlib\npath = pathlib.Path(sys.argv[-1])\n" + body)
    return f"{sys.executable} {script}"


def test_edit_valid_change(run, odd_bank, tmp_path):
    env = {
        "EDITOR": _editor(
            tmp_path, "ok.py", "path.write_text(path.read_text().replace('indented by four', 'x'))\n"
        )
    }
    result = run("edit", "dp-vs-mp", bank=odd_bank, env=env)
    assert result.exit_code == 0 and "the bank is valid" in result.output


def test_edit_is_judged_by_its_own_problems_not_by_ones_already_elsewhere(run, odd_bank, tmp_path):
    broken = odd_bank / "questions" / "scratch.yaml"
    broken.write_text(
        "category: scratch\ntitle: Scratch\nquestions:\n  - id: s1\n    prompt: Why?\n    difficulty: 9\n"
    )
    path = odd_bank / "questions" / "parallelism.yaml"
    env = {
        "EDITOR": _editor(
            tmp_path, "ok.py", "path.write_text(path.read_text().replace('indented by four', 'x'))\n"
        )
    }
    result = run("edit", "dp-vs-mp", input="", bank=odd_bank, env=env)  # no one to answer a question
    assert result.exit_code == 0, result.output
    assert "saved; the bank still has 1 problem in other files, as before the edit" in result.output
    assert "reverted" not in result.output and "indented by four" not in path.read_text()
    # A problem the edit itself makes is still caught, and with no one to answer, reverted.
    bad = {
        "EDITOR": _editor(
            tmp_path, "bad.py", "path.write_text(path.read_text().replace('prompt:', 'promt:', 1))\n"
        )
    }
    result = run("edit", "dp-vs-mp", input="", bank=odd_bank, env=bad)
    assert "unknown field 'promt'" in result.output and "difficulty" not in result.output
    assert "reverted" in result.output and "promt" not in path.read_text()


def test_an_old_problem_that_quotes_a_line_the_edit_moves_is_still_old(run, odd_bank, tmp_path):
    """A duplicate id elsewhere names where the first one is defined: adding lines above it in
    the edited file changes that message, not the problem."""
    (odd_bank / "questions" / "zz-other.yaml").write_text(
        "category: zz-other\ntitle: Other\nquestions:\n  - id: zero-stages\n    prompt: A duplicate?\n"
    )
    env = {"EDITOR": _editor(tmp_path, "ok.py", "path.write_text('# one\\n# two\\n' + path.read_text())\n")}
    result = run("edit", "dp-vs-mp", input="", bank=odd_bank, env=env)
    assert result.exit_code == 0, result.output
    assert "saved; the bank still has 1 problem in other files" in result.output
    assert (odd_bank / "questions" / "parallelism.yaml").read_text().startswith("# one\n# two\n"), (
        result.output
    )


def test_edit_invalid_then_revert(run, odd_bank, tmp_path):
    path = odd_bank / "questions" / "parallelism.yaml"
    before = path.read_bytes()
    env = {
        "EDITOR": _editor(
            tmp_path, "bad.py", "path.write_text(path.read_text().replace('prompt:', 'promt:', 1))\n"
        )
    }
    result = run("edit", "dp-vs-mp", input="r\n", bank=odd_bank, env=env)
    assert "unknown field 'promt'; did you mean 'prompt'?" in result.output
    assert "reverted" in result.output
    assert path.read_bytes() == before


def test_edit_invalid_then_fix(run, odd_bank, tmp_path):
    # The fake editor breaks the file on its first run and repairs it on the second.
    body = (
        "marker = path.with_suffix('.once')\n"
        "text = path.read_text()\n"
        "if marker.exists():\n    path.write_text(text.replace('promt:', 'prompt:', 1))\n"
        "else:\n    marker.write_text('x'); path.write_text(text.replace('prompt:', 'promt:', 1))\n"
    )
    env = {"EDITOR": _editor(tmp_path, "fix.py", body)}
    result = run("edit", "dp-vs-mp", input="\n", bank=odd_bank, env=env)  # Enter = edit again
    assert result.exit_code == 0
    assert "the bank is valid" in result.output
    _load(odd_bank)


def test_the_edit_choice_takes_one_key_and_no_other_word(run, odd_bank, tmp_path):
    """ "kill" is not "keep": a word that is not one of the choices is asked again."""
    path = odd_bank / "questions" / "parallelism.yaml"
    before = path.read_bytes()
    env = {
        "EDITOR": _editor(
            tmp_path, "b.py", "path.write_text(path.read_text().replace('prompt:', 'promt:', 1))\n"
        )
    }
    result = run("edit", "dp-vs-mp", input="kill\nr\n", bank=odd_bank, env=env)
    assert result.exit_code == 0, result.output
    assert "press e, r or k (Enter: e)" in result.output
    assert "reverted" in result.output and path.read_bytes() == before


def test_the_edit_choice_in_a_real_terminal_needs_no_enter(odd_bank, tmp_path, isolated_home):
    import pexpect

    from .support import installed_prep, terminal_env

    path = odd_bank / "questions" / "parallelism.yaml"
    before = path.read_bytes()
    breaking = _editor(
        tmp_path, "b.py", "path.write_text(path.read_text().replace('prompt:', 'promt:', 1))\n"
    )
    child = pexpect.spawn(
        installed_prep(),
        ["--bank", str(odd_bank), "--state", str(tmp_path / "s.db"), "edit", "dp-vs-mp"],
        env={**terminal_env(isolated_home), "EDITOR": breaking},
        encoding="utf-8",
        timeout=20,
    )
    try:
        child.expect(r"\[k\]eep anyway\?")
        child.send("x")  # not a choice: asked again
        child.expect("press e, r or k")
        child.send("r")  # no Enter
        child.expect("reverted")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0
    assert path.read_bytes() == before


def test_edit_invalid_then_keep(run, odd_bank, tmp_path):
    env = {
        "EDITOR": _editor(
            tmp_path, "keep.py", "path.write_text(path.read_text().replace('prompt:', 'promt:', 1))\n"
        )
    }
    result = run("edit", "dp-vs-mp", input="k\n", bank=odd_bank, env=env)
    assert result.exit_code == 2
    assert "promt" in (odd_bank / "questions" / "parallelism.yaml").read_text()


def test_edit_can_fix_what_was_kept_broken(run, odd_bank, tmp_path):
    """After "keep anyway", the same question can still be opened, and fixed, with prep edit."""
    path = odd_bank / "questions" / "parallelism.yaml"
    breaking = {
        "EDITOR": _editor(
            tmp_path, "break.py", "path.write_text(path.read_text().replace('prompt:', 'promt:', 1))\n"
        )
    }
    assert run("edit", "dp-vs-mp", input="k\n", bank=odd_bank, env=breaking).exit_code == 2
    fixing = {
        "EDITOR": _editor(
            tmp_path, "fix.py", "path.write_text(path.read_text().replace('promt:', 'prompt:', 1))\n"
        )
    }
    result = run("edit", "dp-vs-mp", bank=odd_bank, env=fixing)
    assert result.exit_code == 0, result.output
    assert "the bank is valid" in result.output
    assert "promt" not in path.read_text()


def test_edit_checks_the_file_when_the_editor_fails_after_saving(run, odd_bank, tmp_path):
    editor = _editor(
        tmp_path,
        "crash.py",
        "path.write_text(path.read_text().replace('prompt:', 'promt:', 1))\nsys.exit(3)\n",
    )
    result = run("edit", "dp-vs-mp", input="r\n", bank=odd_bank, env={"EDITOR": editor})
    assert "unknown field" in result.output or "promt" in result.output
    assert result.output.count("reverted") == 1
    assert "promt" not in (odd_bank / "questions" / "parallelism.yaml").read_text()


def test_edit_passes_the_line_to_editors_that_take_it(tmp_path, monkeypatch):
    from prep.cli import editor

    calls = []
    monkeypatch.setenv("EDITOR", "vim")
    monkeypatch.setattr(editor.subprocess, "call", lambda argv: calls.append(argv) or 0)
    editor.open_editor(tmp_path / "f.yaml", 12)
    assert calls == [["vim", "+12", str(tmp_path / "f.yaml")]]


def test_mv_renames_everywhere_including_history(run, odd_bank, state_file):
    env = {"PREP_NOW": "2026-03-02T09:00:00+00:00"}
    run("drill", "--limit", "1", input="every GPU holds a full replica\n\n3\nn\n", bank=odd_bank, env=env)
    run("drill", "--cram", "--limit", "1", input="a cram answer\n\n2\nn\n", bank=odd_bank, env=env)
    result = run("mv", "dp-vs-mp", "data-vs-model-parallelism", "--json", bank=odd_bank)
    assert result.exit_code == 0, result.output
    assert (json.loads(result.output)["reviews_moved"], json.loads(result.output)["practice_moved"]) == (1, 1)
    bank = _load(odd_bank)
    assert "data-vs-model-parallelism" in bank.questions and "dp-vs-mp" not in bank.questions
    assert bank.answer_text("data-vs-model-parallelism") == "short one"
    db = sqlite3.connect(state_file)
    assert db.execute("SELECT DISTINCT question_id FROM reviews").fetchall() == [
        ("data-vs-model-parallelism",)
    ]
    assert db.execute("SELECT question_id FROM cards").fetchall() == [("data-vs-model-parallelism",)]
    text = (odd_bank / "questions" / "parallelism.yaml").read_text()
    assert "id: data-vs-model-parallelism     # indented by four" in text


def test_history_by_a_former_id_follows_the_rename(run, odd_bank):
    env = {"PREP_NOW": "2026-03-02T09:00:00+00:00"}
    run("drill", "--limit", "1", input="every GPU holds a full replica\n\n3\nn\n", bank=odd_bank, env=env)
    assert run("mv", "dp-vs-mp", "data-vs-model", bank=odd_bank).exit_code == 0
    result = run("history", "dp-vs-mp", "--json", bank=odd_bank)
    assert result.exit_code == 0, result.output
    assert [h["answer"] for h in json.loads(result.stdout)] == ["every GPU holds a full replica"]
    assert "dp-vs-mp was renamed data-vs-model" in result.stderr
    shown = run("history", "dp-vs-mp", bank=odd_bank)
    assert "every GPU holds a full replica" in shown.stdout


def _refuse_to_replace(monkeypatch, target: Path) -> None:
    """Make writing one file fail as a read-only file or a full disk would."""
    real = files.os.replace

    def replace(src, dst):  # type: ignore[no-untyped-def]
        if Path(dst) == target:
            raise PermissionError(1, "Operation not permitted")
        return real(src, dst)

    monkeypatch.setattr(files.os, "replace", replace)


@pytest.mark.parametrize("command", [("mv", "dp-vs-mp", "data-vs-model"), ("rm", "dp-vs-mp", "--yes")])
def test_a_file_that_cannot_be_written_changes_nothing(run, odd_bank, state_file, monkeypatch, command):
    """mv and rm change the question file and the answers file: both or neither."""
    env = {"PREP_NOW": "2026-03-02T09:00:00+00:00"}
    run("drill", "--limit", "1", input="every GPU holds a full replica\n\n3\nn\n", bank=odd_bank, env=env)
    files = sorted(odd_bank.rglob("*.yaml"))
    before = {f: f.read_bytes() for f in files}
    # The question file is written first: the answers file failing means it must be rolled back.
    _refuse_to_replace(monkeypatch, odd_bank / "answers" / "parallelism.yaml")
    result = run(*command, bank=odd_bank)
    assert result.exit_code == 1
    assert "cannot write" in result.output and "Operation not permitted" in result.output
    assert "Traceback" not in result.output
    assert {f: f.read_bytes() for f in sorted(odd_bank.rglob("*.yaml"))} == before
    db = sqlite3.connect(state_file)
    assert db.execute("SELECT DISTINCT question_id FROM reviews").fetchall() == [("dp-vs-mp",)]


def test_write_files_restores_what_it_wrote(tmp_path, monkeypatch):
    from prep.errors import WriteFailed
    from prep.files import write_files

    first, second, third = tmp_path / "a.yaml", tmp_path / "b.yaml", tmp_path / "c.yaml"
    first.write_text("old a\n")
    third.write_text("old c\n")
    _refuse_to_replace(monkeypatch, second)
    with pytest.raises(WriteFailed) as caught:
        write_files({first: "new a\n", third: None, second: "b\n"})
    assert first.read_text() == "old a\n" and third.read_text() == "old c\n"
    assert caught.value.hint == "nothing was changed"
    assert "b.yaml" in caught.value.message
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.yaml", "c.yaml"]  # no temp files left


def test_mv_updates_follow_up_references(run, odd_bank):
    result = run("mv", "zero-stages", "zero-sharding", bank=odd_bank)
    assert result.exit_code == 0, result.output
    assert _load(odd_bank).questions["dp-vs-mp"].follow_ups == ("zero-sharding",)


def test_mv_to_a_taken_id_is_refused(run, odd_bank):
    result = run("mv", "zero-stages", "dp-vs-mp", bank=odd_bank)
    assert result.exit_code == 1 and "a question with id 'dp-vs-mp' already exists" in result.output


def test_rm_removes_question_answer_and_follow_ups(run, odd_bank, state_file):
    env = {"PREP_NOW": "2026-03-02T09:00:00+00:00"}
    run("drill", "--cram", "--limit", "1", input="x\n\nq\n", bank=odd_bank, env=env)
    result = run("rm", "zero-stages", "--yes", bank=odd_bank)
    assert result.exit_code == 0, result.output
    bank = _load(odd_bank)
    assert "zero-stages" not in bank.questions and "zero-stages" not in bank.answers
    assert bank.questions["dp-vs-mp"].follow_ups == ()
    text = (odd_bank / "questions" / "parallelism.yaml").read_text()
    assert "# trailing comment at the end" in text and "# a comment between items" in text


def test_rm_of_the_only_follow_up_in_a_block_list(run, tmp_path):
    bank = tmp_path / "follow"
    write(
        bank / "questions" / "c.yaml",
        "category: c\ntitle: C\nquestions:\n"
        "  - id: f1\n    prompt: First question here?\n    follow_ups:   # deeper\n      - f2\n    notes: x\n"
        "  - id: f2\n    prompt: Second question here?\n"
        "  - id: f3\n    prompt: Third question here?\n    follow_ups:\n      - f2\n",
    )
    result = run("rm", "f2", "--yes", bank=bank)
    assert result.exit_code == 0, result.output
    assert (bank / "questions" / "c.yaml").read_text() == (
        "category: c\ntitle: C\nquestions:\n"
        "  - id: f1\n    prompt: First question here?\n    follow_ups: []   # deeper\n    notes: x\n"
        "  - id: f3\n    prompt: Third question here?\n    follow_ups: []\n"
    )
    assert set(_load(bank).questions) == {"f1", "f3"}


def test_rm_needs_confirmation(run, odd_bank):
    assert run("rm", "zero-stages", bank=odd_bank).exit_code == 1
    assert "zero-stages" in _load(odd_bank).questions


def test_interrupted_write_leaves_the_original(tmp_path, monkeypatch):
    path = tmp_path / "f.yaml"
    path.write_text("original\n")
    monkeypatch.setattr(files.os, "replace", mock.Mock(side_effect=KeyboardInterrupt))
    with pytest.raises(KeyboardInterrupt):
        files.atomic_write(path, "new text\n")
    assert path.read_text() == "original\n"
    assert [p.name for p in tmp_path.iterdir()] == ["f.yaml"]  # no temp file left behind


def test_exception_during_add_leaves_the_bank_unchanged(run, odd_bank, monkeypatch):
    path = odd_bank / "questions" / "parallelism.yaml"
    before = path.read_bytes()

    def crash(handle_fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(files.os, "fsync", crash)
    result = run("add", "-c", "parallelism", "-p", "Crash?", bank=odd_bank)
    assert result.exit_code != 0
    assert path.read_bytes() == before


def test_add_title_for_an_existing_category_is_refused(run, odd_bank):
    result = run("add", "-c", "parallelism", "-p", "What is FSDP?", "--title", "Another title", bank=odd_bank)
    assert result.exit_code == 1
    assert "already exists, titled" in result.output
    assert "What is FSDP?" not in (odd_bank / "questions" / "parallelism.yaml").read_text()


def test_mv_to_the_same_id_says_so(run, odd_bank):
    result = run("mv", "dp-vs-mp", "dp-vs-mp", bank=odd_bank)
    assert result.exit_code == 1 and "already has that id" in result.output


def test_add_goes_before_a_comment_about_the_whole_file(run, tmp_path):
    bank = tmp_path / "commented"
    write(
        bank / "questions" / "c.yaml",
        "category: c\ntitle: C\nquestions:\n  - id: a1\n    prompt: First question?\n"
        "    # about a1\n\n# notes about this file\n",
    )
    assert run("add", "-c", "c", "-p", "Second question?", "--id", "a2", bank=bank).exit_code == 0
    text = (bank / "questions" / "c.yaml").read_text()
    assert text.startswith(
        "category: c\ntitle: C\nquestions:\n  - id: a1\n    prompt: First question?\n"
        "    # about a1\n  - id: a2\n"
    )
    assert text.endswith("\n\n# notes about this file\n")


@pytest.fixture
def installed_bundle(tmp_path, monkeypatch):
    """The bundled bank as a wheel installs it (prep/_bundled), with no ./questions here."""
    from prep import paths

    root = tmp_path / "site-packages" / "prep" / "_bundled"
    write(
        root / "questions" / "c.yaml",
        "category: c\ntitle: C\nquestions:\n  - id: q1\n    prompt: What is it?\n",
    )
    write(root / "answers" / "c.yaml", "answers:\n  - question: q1\n    source: model\n    answer: This.\n")
    monkeypatch.setattr(paths, "installed_bundle_dir", lambda: root)
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    return root


def test_the_installed_bundled_bank_is_never_written(installed_bundle, state_file):
    from typer.testing import CliRunner

    before = {f: f.read_bytes() for f in installed_bundle.rglob("*.yaml")}
    runner = CliRunner()
    named = [[], ["--bank", str(installed_bundle)], ["--bank", str(installed_bundle / "questions" / "..")]]
    for bank, command in itertools.product(
        named,
        (
            ["answer", "q1", "--text", "Mine."],
            ["add", "-c", "c", "-p", "Another?"],
            ["rm", "q1", "--yes"],
            ["mv", "q1", "q2"],
            ["edit", "q1"],
        ),
    ):
        result = runner.invoke(app, [*bank, "--state", str(state_file), *command])
        assert result.exit_code == 1, (command, result.output)
        assert "the bundled bank is part of the installed package" in result.output
        assert "prep init" in result.output
    assert {f: f.read_bytes() for f in installed_bundle.rglob("*.yaml")} == before


def test_init_copies_the_bundled_bank_to_edit_here(installed_bundle, state_file):
    from typer.testing import CliRunner

    runner = CliRunner()
    result = runner.invoke(app, ["init"])
    assert result.exit_code == 0, result.output
    assert Path("questions/c.yaml").read_text() == (installed_bundle / "questions" / "c.yaml").read_text()
    result = runner.invoke(app, ["--state", str(state_file), "answer", "q1", "--text", "Mine."])
    assert result.exit_code == 0, result.output
    assert "Mine." in Path("answers/c.yaml").read_text()
    assert "Mine." not in (installed_bundle / "answers" / "c.yaml").read_text()
    again = runner.invoke(app, ["init"])
    assert again.exit_code == 1 and "already exists" in again.output


def test_rm_keeps_the_comments_above_the_next_item(run, tmp_path):
    bank = tmp_path / "sections"
    write(
        bank / "questions" / "c.yaml",
        "category: c\ntitle: C\nquestions:\n  - id: q0\n    prompt: Zero?\n\n"
        "  - id: alpha\n    prompt: Alpha?\n    # inside alpha\n\n  # === Section B ===\n  # beta is kept\n"
        "  - id: beta\n    prompt: Beta?\n",
    )
    write(
        bank / "answers" / "c.yaml",
        "answers:\n  - question: alpha\n    answer: >\n      A.\n\n"
        "  # before beta\n  - question: beta\n    answer: B.\n",
    )
    assert run("rm", "alpha", "--yes", bank=bank).exit_code == 0
    assert (bank / "questions" / "c.yaml").read_text() == (
        "category: c\ntitle: C\nquestions:\n  - id: q0\n    prompt: Zero?\n\n"
        "  # === Section B ===\n  # beta is kept\n  - id: beta\n    prompt: Beta?\n"
    )
    assert (
        bank / "answers" / "c.yaml"
    ).read_text() == "answers:\n  # before beta\n  - question: beta\n    answer: B.\n"


def test_answer_keeps_the_blank_line_and_comment_after_a_block_answer(run, tmp_path):
    bank = tmp_path / "blocks"
    write(
        bank / "questions" / "c.yaml",
        "category: c\ntitle: C\nquestions:\n  - id: alpha\n    prompt: Alpha?\n"
        "  - id: beta\n    prompt: Beta?\n",
    )
    write(
        bank / "answers" / "c.yaml",
        "answers:\n  - question: alpha\n    answer: >\n      A long\n      answer.\n\n"
        "  # keep: notes on beta\n  - question: beta\n    answer: B.\n",
    )
    assert run("answer", "alpha", "--text", "New.", bank=bank).exit_code == 0
    assert (bank / "answers" / "c.yaml").read_text() == (
        "answers:\n  - question: alpha\n    answer: |\n      New.\n\n"
        "  # keep: notes on beta\n  - question: beta\n    answer: B.\n"
    )


def test_answer_in_a_flow_style_entry(run, tmp_path):
    bank = tmp_path / "flow"
    write(bank / "questions" / "c.yaml", "category: c\ntitle: C\nquestions:\n  - id: q-a\n    prompt: A?\n")
    write(bank / "answers" / "c.yaml", "answers:\n  - {question: q-a, answer: flow answer}  # terse\n")
    result = run("answer", "q-a", "--text", "New: two\nlines.", bank=bank)
    assert result.exit_code == 0, result.output
    assert (bank / "answers" / "c.yaml").read_text() == (
        'answers:\n  - {question: q-a, answer: "New: two\\nlines."}  # terse\n'
    )
    assert _load(bank).answer_text("q-a") == "New: two\nlines."


def test_edit_without_changes_says_so(run, odd_bank):
    result = run("edit", "dp-vs-mp", bank=odd_bank, env={"EDITOR": "true"})
    assert result.exit_code == 0 and "no changes; the bank is valid" in result.output


def test_a_symlinked_category_file_is_written_where_it_points(run, bank_dir, tmp_path):
    shared = tmp_path / "shared" / "parallelism.yaml"
    shared.parent.mkdir()
    link = bank_dir / "questions" / "parallelism.yaml"
    link.replace(shared)
    link.symlink_to(shared)
    assert (
        run("add", "-c", "parallelism", "-p", "What is a symlinked question?", "-K", "it is one").exit_code
        == 0
    )
    assert run("mv", "dp-vs-mp", "data-vs-model").exit_code == 0
    assert link.is_symlink() and link.resolve() == shared.resolve()
    text = shared.read_text()
    assert "What is a symlinked question?" in text and "id: data-vs-model" in text


def test_new_files_get_the_mode_the_umask_gives(run, bank_dir, tmp_path):
    import os

    old = os.umask(0o022)
    try:
        assert run("add", "-c", "brand-new", "-p", "What is new here?", "-K", "new things").exit_code == 0
        assert run("export", "csv", "-o", str(tmp_path / "all.csv")).exit_code == 0
    finally:
        os.umask(old)
    assert (bank_dir / "questions" / "brand-new.yaml").stat().st_mode & 0o777 == 0o644
    assert (tmp_path / "all.csv").stat().st_mode & 0o777 == 0o644


def test_a_removed_questions_id_is_not_given_to_a_new_question(run, tmp_path):
    now = {"PREP_NOW": "2026-03-02T09:00:00+00:00"}
    run("drill", "--category", "parallelism", "--limit", "1", input="x\n\n3\nn\n", env=now)
    assert run("rm", "dp-vs-mp", "--yes").exit_code == 0  # its history stays until `prep state prune`
    result = run("add", "-c", "parallelism", "-p", "Something else entirely?", "-K", "k", "--id", "dp-vs-mp")
    assert result.exit_code == 1 and "the review history already has entries for 'dp-vs-mp'" in result.output
    rows = tmp_path / "rows.csv"
    rows.write_text("id,prompt,key_points\ndp-vs-mp,Another unrelated question?,k\n")
    result = run("import", str(rows), "-c", "parallelism", "--json")
    assert result.exit_code == 0
    [added] = json.loads(result.output[result.output.index("{") :])["added"]
    assert added != "dp-vs-mp"
    assert json.loads(run("history", added, "--json").output) == []
    # A prompt like the removed question's gets a fresh id too.
    result = run("add", "-c", "parallelism", "-p", "DP vs MP?", "-K", "k", "--json")
    assert json.loads(result.output)["id"] == "dp-vs-mp-2"


def test_replacing_a_model_answer_says_so(run, bank_dir):
    first = run("answer", "dp-vs-mp", "--text", "My own words on DP and MP.")
    assert first.exit_code == 0 and "it replaces the model answer that was there" in first.output
    second = run("answer", "dp-vs-mp", "--text", "My own words, revised.")
    assert second.exit_code == 0 and "replaces the model answer" not in second.output


def test_add_refuses_a_prompt_already_asked_and_warns_about_a_near_one(run, bank_dir):
    same = run(
        "add",
        "-c",
        "parallelism",
        "-p",
        "what is the difference between data parallelism and model parallelism??",
        "-K",
        "x",
    )
    assert same.exit_code == 1 and "question 'dp-vs-mp' already asks this" in same.output
    near = run(
        "add",
        "-c",
        "parallelism",
        "-p",
        "What is the difference between data parallel and model parallel training?",
        "-K",
        "x",
    )
    assert near.exit_code == 0, near.output
    assert "warning: its prompt is" in near.output and "like that of 'dp-vs-mp'" in near.output
    data = json.loads(
        run(
            "add",
            "-c",
            "parallelism",
            "-p",
            "What's the difference between data parallel and model parallel training, really?",
            "-K",
            "x",
            "--json",
        ).output
    )
    assert data["id"] == "difference-data-parallel-model-parallel-training-2"  # no stray "s" from "what's"
    assert data["similar_to"]["id"] == "difference-data-parallel-model-parallel-training"


def test_add_to_a_mistyped_category_suggests_the_real_one(run, bank_dir):
    result = run("add", "-c", "paralelism", "-p", "What is tensor parallelism?", "-K", "x")
    assert result.exit_code == 1
    assert "there is no category 'paralelism'; did you mean 'parallelism'?" in result.output
    assert not (bank_dir / "questions" / "paralelism.yaml").exists()
    made = run(
        "add",
        "-c",
        "paralelism",
        "--title",
        "Deliberately new",
        "-p",
        "What is tensor parallelism?",
        "-K",
        "x",
    )
    assert made.exit_code == 0 and (bank_dir / "questions" / "paralelism.yaml").exists()


def test_mv_records_the_old_id_in_formerly_and_keeps_every_other_byte(run, odd_bank):
    path = odd_bank / "questions" / "parallelism.yaml"
    before = path.read_text()
    assert run("mv", "dp-vs-mp", "data-vs-model", bank=odd_bank).exit_code == 0
    after = path.read_text()
    # The id is renamed where it is written, and the old one added after the question's last
    # entry, at its keys' column; nothing else moves.
    expected = before.replace("id: dp-vs-mp ", "id: data-vs-model ").replace(
        "        follow_ups: [zero-stages]\n",
        "        follow_ups: [zero-stages]\n        formerly: [dp-vs-mp]\n",
    )
    assert after == expected
    # Renamed again: appended, oldest first (the flow list keeps its style).
    assert run("mv", "data-vs-model", "dp-or-mp", bank=odd_bank).exit_code == 0
    assert "        formerly: [dp-vs-mp, data-vs-model]\n" in path.read_text()
    assert _load(odd_bank).questions["dp-or-mp"].formerly == ("dp-vs-mp", "data-vs-model")
    # Back to an id it had in between: that id leaves the list, the first id stays first.
    assert run("mv", "dp-or-mp", "data-vs-model", bank=odd_bank).exit_code == 0
    assert _load(odd_bank).questions["data-vs-model"].formerly == ("dp-vs-mp", "dp-or-mp")
    # Back to the id it was created with: it is that question again, never its own former id.
    assert run("mv", "data-vs-model", "dp-vs-mp", bank=odd_bank).exit_code == 0
    assert _load(odd_bank).questions["dp-vs-mp"].formerly == ()
    assert "formerly" not in path.read_text().split("id: dp-vs-mp")[1].split("- id:")[0]


def test_mv_there_and_back_leaves_the_question_as_it_was(run, odd_bank):
    path = odd_bank / "questions" / "parallelism.yaml"
    before = path.read_text()
    assert run("mv", "dp-vs-mp", "data-vs-model", bank=odd_bank).exit_code == 0
    assert run("mv", "data-vs-model", "dp-vs-mp", bank=odd_bank).exit_code == 0
    assert path.read_text() == before


def test_mv_of_the_last_question_and_of_a_flow_mapping(run, tmp_path):
    bank = tmp_path / "flow"
    path = write(
        bank / "questions" / "c.yaml",
        "category: c\ntitle: C\nquestions:\n  - {id: a1, prompt: First?}\n  - id: a2\n"
        "    prompt: |\n      Second,\n      on two lines\n\n# the end\n",
    )
    assert run("mv", "a1", "b1", bank=bank).exit_code == 0
    assert run("mv", "a2", "b2", bank=bank).exit_code == 0
    assert path.read_text() == (
        "category: c\ntitle: C\nquestions:\n  - {id: b1, prompt: First?, formerly: [a1]}\n  - id: b2\n"
        "    prompt: |\n      Second,\n      on two lines\n    formerly: [a2]\n\n# the end\n"
    )


def test_a_former_id_is_not_taken_by_another_question(run, odd_bank):
    assert run("mv", "dp-vs-mp", "data-vs-model", bank=odd_bank).exit_code == 0
    result = run("mv", "zero-stages", "dp-vs-mp", bank=odd_bank)
    assert result.exit_code == 1
    assert "'dp-vs-mp' was the id of 'data-vs-model'" in result.output
    result = run("add", "-c", "parallelism", "-p", "What is FSDP?", "--id", "dp-vs-mp", bank=odd_bank)
    assert result.exit_code == 1 and "was the id of 'data-vs-model'" in result.output
    # An id made from the prompt steps around it too.
    result = run("add", "-c", "parallelism", "-p", "DP vs MP?", "--json", bank=odd_bank)
    assert result.exit_code == 0 and json.loads(result.output)["id"] == "dp-vs-mp-2"
