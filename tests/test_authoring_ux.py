"""What `prep rm` asks, what an interactive `prep add` asks again at once, and how each editor is
told the line to open at."""

from __future__ import annotations

import os
import stat

import pytest

from prep.bank.load import load_bank
from prep.paths import BankLocation


def test_rm_asks_plainly_showing_the_prompt_on_its_own_line(run, bank_dir, monkeypatch):
    monkeypatch.setattr("prep.cli.plain.interactive", lambda: True)
    result = run("rm", "zero-stages", input="n\n")
    assert result.exit_code == 0 and "nothing removed" in result.stdout
    assert result.stderr == "zero-stages: What do the three ZeRO stages shard?\nRemove zero-stages? [y/N]:"
    answered = run("rm", "dp-vs-mp", input="y\n")
    assert answered.exit_code == 0, answered.output
    assert answered.stderr.endswith("\nRemove dp-vs-mp and its answer? [y/N]:")
    assert "dp-vs-mp" not in load_bank(BankLocation(bank_dir, "option")).questions


def _fake_editor(folder, name: str, record) -> None:
    """An executable named like the real editor, which writes down the arguments it was given."""
    script = folder / name
    script.write_text(f'#!/bin/sh\nprintf "%s\\n" "$@" > "{record}"\n')
    script.chmod(script.stat().st_mode | stat.S_IXUSR)


@pytest.mark.parametrize(
    ("editor", "expected"),
    [
        ("code --wait", ["--wait", "-g", "{file}:{line}"]),
        ("codium --wait", ["--wait", "-g", "{file}:{line}"]),
        ("subl -w", ["-w", "{file}:{line}"]),
        ("nano", ["+{line}", "{file}"]),
        ("vim", ["+{line}", "{file}"]),
        ("vim.basic", ["+{line}", "{file}"]),
        ("emacs -nw", ["-nw", "+{line}", "{file}"]),
        ("mousepad", ["{file}"]),  # not known to take a line: just the file
    ],
)
def test_each_editor_is_told_the_line_the_way_it_expects(run, bank_dir, tmp_path, editor, expected):
    folder = tmp_path / "bin"
    folder.mkdir()
    record = tmp_path / "argv.txt"
    _fake_editor(folder, editor.split()[0], record)
    origin = load_bank(BankLocation(bank_dir, "option")).question_origin["zero-stages"]
    env = {"PATH": f"{folder}{os.pathsep}{os.environ['PATH']}", "EDITOR": editor}
    result = run("edit", "zero-stages", env=env)
    assert result.exit_code == 0, result.output
    assert origin.line > 1
    wanted = [part.format(file=origin.file, line=origin.line) for part in expected]
    assert record.read_text().splitlines() == wanted


def test_visual_wins_over_editor_and_a_full_path_is_recognised(run, bank_dir, tmp_path):
    folder = tmp_path / "bin"
    folder.mkdir()
    record = tmp_path / "argv.txt"
    _fake_editor(folder, "code", record)
    origin = load_bank(BankLocation(bank_dir, "option")).question_origin["dp-vs-mp"]
    result = run("edit", "dp-vs-mp", env={"VISUAL": f"{folder / 'code'} --wait", "EDITOR": "nano"})
    assert result.exit_code == 0, result.output
    assert record.read_text().splitlines() == ["--wait", "-g", f"{origin.file}:{origin.line}"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--target-seconds", "5000"], "prep: --target-seconds: input should be less than or equal to 3600;"),
        (["-t", " "], "prep: --tag: must not be empty;"),
    ],
)
def test_add_names_the_option_whose_value_the_bank_would_refuse(run, bank_dir, args, message):
    before = {f: f.read_bytes() for f in bank_dir.rglob("*.yaml")}
    result = run("add", "-c", "parallelism", "-p", "What is a ring all-reduce?", "-K", "two phases", *args)
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [message + " nothing was written"]
    assert {f: f.read_bytes() for f in bank_dir.rglob("*.yaml")} == before


def test_interactive_add_asks_again_at_once_for_a_bad_category_or_a_prompt_already_asked(
    run, bank_dir, monkeypatch
):
    monkeypatch.setattr("prep.cli.plain.interactive", lambda: True)
    script = (
        "Inference Stuff\ninference\n"  # not a safe name: asked again, nothing typed after it lost
        "What is the difference between data parallelism and model parallelism?\n"  # dp-vs-mp asks it
        "What is paged attention?\nthe KV cache is split into fixed-size blocks\n\n\n\n\n\n\n\n"
    )
    result = run("add", input=script)
    assert result.exit_code == 0, result.output
    assert "category 'Inference Stuff' is not a safe name" in result.stderr
    assert "question 'dp-vs-mp' already asks this; try again" in result.stderr
    question = load_bank(BankLocation(bank_dir, "option")).questions["paged-attention"]
    assert question.key_points[0].text == "the KV cache is split into fixed-size blocks"
