"""A command line prep cannot parse: one line in prep's form naming the command, one line saying
where to look, exit 2."""

from __future__ import annotations

import subprocess

import pytest

from .support import installed_prep

CASES = [
    (["list", "--bogus"], "prep: list: no such option: --bogus", "prep list --help"),
    (["--bogus"], "prep: no such option: --bogus", "prep --help"),
    (["lis"], "prep: no such command 'lis'; did you mean 'list'?", "prep --help"),
    (["serch", "x"], "prep: no such command 'serch'; did you mean 'search' or 'teach'?", "prep --help"),
    (
        ["list", "--categry", "x"],
        "prep: list: no such option: --categry; did you mean --category?",
        "prep list --help",
    ),
    (["stats", "--jsn"], "prep: stats: no such option: --jsn; did you mean --json?", "prep stats --help"),
    (["export", "csb"], "prep: export: no such command 'csb'; did you mean 'csv'?", "prep export --help"),
    (["export", "csv", "--bogus"], "prep: export csv: no such option: --bogus", "prep export csv --help"),
    (["state", "chek"], "prep: state: no such command 'chek'; did you mean 'check'?", "prep state --help"),
    (["show"], "prep: show: missing argument ID", "prep show --help"),
    (["show", "dp-vs-mp", "extra"], "prep: show: unexpected extra argument: extra", "prep show --help"),
    (["list", "-t"], "prep: list: option -t needs a value", "prep list --help"),
    (
        ["export", "csv", "--tsv=yes"],
        "prep: export csv: option --tsv takes no value",
        "prep export csv --help",
    ),
    (
        ["drill", "--mode", "nope"],
        "prep: drill: invalid value for --mode: 'nope' is not a mode; choose type, flip or mock",
        "prep drill --help",
    ),
    (["import", "x.csv"], "prep: import: missing option --category", "prep import --help"),
]


@pytest.mark.parametrize(("argv", "message", "help_command"), CASES)
def test_a_usage_error_is_one_line_and_a_hint_and_exits_2(run, argv, message, help_command):
    result = run(*argv)
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    assert result.stderr.splitlines() == [message, f"  see `{help_command}`"]


@pytest.mark.parametrize(
    "argv",
    [
        ["drill", "-n", "abc"],
        ["drill", "--retention", "2"],
        ["search", "x", "--limit", "0"],
        ["add", "--difficulty", "7"],
        ["grade", "--elapsed", "soon"],
    ],
)
def test_a_bad_option_value_names_the_option_and_exits_2(run, argv):
    result = run(*argv)
    assert result.exit_code == 2, result.output
    first, hint = result.stderr.splitlines()
    option = next(a for a in argv if a.startswith("-"))
    long_name = {"-n": "--new"}.get(option, option)
    assert first.startswith(f"prep: {argv[0]}: invalid value for {long_name}: "), first
    assert hint == f"  see `prep {argv[0]} --help`"


def test_debug_does_not_change_a_usage_error(run):
    result = run("--debug", "list", "--bogus")
    assert result.exit_code == 2
    assert result.stderr.splitlines() == ["prep: list: no such option: --bogus", "  see `prep list --help`"]


def test_no_command_at_all_shows_the_help_and_exits_2(run):
    from typer.testing import CliRunner

    from prep.cli.app import app

    result = CliRunner().invoke(app, [])
    assert result.exit_code == 2
    assert "Usage: prep" in result.stderr and "Commands:" in result.stderr
    result = run()  # global options, but no command
    assert result.exit_code == 2
    assert result.stderr.splitlines() == ["prep: missing command", "  see `prep --help`"]
    result = run("export")
    assert result.exit_code == 2 and "Usage: prep export" in result.stderr and "csv" in result.stderr


def test_several_extra_arguments_are_named_together(run):
    result = run("show", "dp-vs-mp", "one", "two")
    assert result.stderr.splitlines()[0] == "prep: show: unexpected extra arguments: one two"


def test_the_installed_command_prints_usage_errors_on_stderr_only(tmp_path):
    result = subprocess.run(
        [installed_prep(), "lis"], cwd=tmp_path, capture_output=True, text=True, check=False, timeout=30
    )
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == "prep: no such command 'lis'; did you mean 'list'?\n  see `prep --help`\n"
