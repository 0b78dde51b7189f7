"""The README's promises: its two set-up commands, CI running the same test command, the
bundled bank inside the installed package."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from prep.paths import bundled_bank_root

from .support import installed_prep, quick_path

ROOT = Path(__file__).resolve().parent.parent


def _setup_commands() -> list[str]:
    readme = (ROOT / "README.md").read_text()
    section = readme.split("## Set up on a fresh machine", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```sh\n(.+?)\n```", section)


def test_readme_has_exactly_two_setup_commands():
    commands = _setup_commands()
    assert commands == ["pip install . && prep drill", "pip install '.[test]' && pytest"]


def test_ci_runs_exactly_the_readme_test_command():
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    assert _setup_commands()[1] in ci


def test_bundled_bank_ships_and_validates(tmp_path):
    root = bundled_bank_root()
    assert (root / "questions").is_dir() and any((root / "questions").glob("*.yaml"))
    # From a directory with no bank of its own, the installed command uses the bundled one.
    result = subprocess.run(
        [installed_prep(), "validate", "--json"], cwd=tmp_path, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert '"origin": "bundled"' in result.stdout


def test_python_dash_m_works(tmp_path):
    import sys

    result = subprocess.run(
        [sys.executable, "-m", "prep", "--version"], cwd=tmp_path, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0 and result.stdout.startswith("prep ")


def test_no_unsafe_yaml_loader_in_the_code():
    for path in (ROOT / "prep").rglob("*.py"):
        text = path.read_text()
        assert not re.search(r"yaml\.(unsafe_)?load\(|yaml\.(Full|Unsafe)?Loader\b|yaml\.load_all\(", text), (
            path
        )


def test_help_does_not_import_heavy_modules():
    import sys

    code = (
        "import sys; from prep.cli.app import app; "
        "print(sorted(m for m in ('rich','pydantic','fsrs','numpy','rapidfuzz') if m in sys.modules))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert result.stdout.strip() == "[]", result.stdout + result.stderr


def test_readme_examples_name_real_questions_and_commands():
    from prep.bank.load import load_bank
    from prep.cli.app import COMMANDS
    from prep.paths import BankLocation

    readme = (ROOT / "README.md").read_text()
    bank = load_bank(BankLocation(bundled_bank_root(), "bundled"))
    for command, argument in re.findall(r"^prep (\w+) ([a-z0-9]+(?:-[a-z0-9]+)+)\b", readme, re.MULTILINE):
        assert command in COMMANDS, command
        if command in ("show", "grade", "history", "answer", "edit"):
            assert argument in bank.questions, argument
    for command in re.findall(r"^prep (\w+)", readme, re.MULTILINE):
        assert command in COMMANDS, command


def test_command_summaries_match_their_help():
    from prep.cli.app import COMMANDS, _target, help_summary

    for name, (_module, _attribute, summary) in COMMANDS.items():
        assert summary == help_summary(_target(name)), name


def test_next_is_answered_without_typer_or_pydantic_and_says_what_the_command_says(tmp_path, bank_dir, run):
    """A shell prompt runs `prep next` on every line: the console script answers it before typer
    (and the pydantic adapters it builds for every option) is imported, with the same output."""
    import json

    through_typer = run("next", "-c", "parallelism", "--json")  # also fills the parsed-bank cache
    argv = [
        "--bank",
        str(bank_dir),
        "--state",
        str(tmp_path / "state.sqlite3"),
        "next",
        "-c",
        "parallelism",
        "--json",
    ]
    code, loaded, printed = quick_path(argv)
    assert (code, loaded) == (0, False)
    assert json.loads(printed) == json.loads(through_typer.output)


def test_anything_but_a_plain_next_goes_to_the_full_command_line():
    from prep.cli.main import _parse

    assert _parse(["next", "--json", "-c", "a", "--tag=b"]) == (
        {},
        {"categories": ["a"], "tags": ["b"], "kinds": []},
        True,
    )
    for argv in (["next", "--help"], ["next", "--bogus"], ["--debug", "next"], ["list"], ["next", "-c"], []):
        assert _parse(argv) is None, argv
