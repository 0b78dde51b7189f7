"""Shell completion: the installed `prep`, run the way bash, zsh and fish run it on Tab."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from .support import installed_prep, write

IDS = ["dp-vs-mp", "dp-batch-size", "zero-stages", "biggest-failure"]


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("_PREP_COMPLETE", "_TYPER_COMPLETE"))}
    return {**env, **extra}


def bash_complete(bank_dir, *words: str) -> list[str]:
    """What bash gets for `prep --bank BANK WORDS...`, the last word being the one under the cursor."""
    line = ["prep", "--bank", str(bank_dir), *words]
    result = subprocess.run(
        [installed_prep()],
        env=_env(_PREP_COMPLETE="complete_bash", COMP_WORDS=" ".join(line), COMP_CWORD=str(len(line) - 1)),
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert result.returncode == 0 and result.stderr == "", result.stderr
    return result.stdout.split()


def typer_complete(shell: str, bank_dir, line: str, **extra: str) -> subprocess.CompletedProcess:
    """zsh and fish hand prep the command line so far in _TYPER_COMPLETE_ARGS."""
    return subprocess.run(
        [installed_prep()],
        env=_env(
            _PREP_COMPLETE=f"complete_{shell}", _TYPER_COMPLETE_ARGS=f"prep --bank {bank_dir} {line}", **extra
        ),
        capture_output=True,
        text=True,
        timeout=30,
    )


@pytest.mark.parametrize("command", ["show", "answer", "edit", "mv", "rm", "history", "grade"])
def test_bash_completes_question_ids_where_a_command_takes_one(bank_dir, command):
    assert bash_complete(bank_dir, command, "dp-") == ["dp-vs-mp", "dp-batch-size"]
    assert sorted(bash_complete(bank_dir, command, "")) == sorted(IDS)


def test_only_mvs_old_id_is_completed_not_the_new_one(bank_dir):
    assert bash_complete(bank_dir, "mv", "dp-vs-mp", "") == []


@pytest.mark.parametrize(
    "command",
    [
        ["list"],
        ["drill"],
        ["next"],
        ["stats"],
        ["add"],
        ["import", "file.csv"],
        ["export", "cram"],
        ["export", "anki"],
        ["export", "csv"],
    ],
)
def test_bash_completes_categories_after_dash_c_and_category(bank_dir, command):
    assert bash_complete(bank_dir, *command, "-c", "") == ["behavioral", "parallelism"]  # file order
    assert bash_complete(bank_dir, *command, "--category", "par") == ["parallelism"]


def test_bash_completes_follow_up_ids_of_add(bank_dir):
    assert bash_complete(bank_dir, "add", "-c", "parallelism", "--follow-up", "zer") == ["zero-stages"]


def test_bash_completes_command_names_and_options(bank_dir):
    assert bash_complete(bank_dir, "s") == ["show", "search", "stories", "stats", "state"]
    assert "--category" in bash_complete(bank_dir, "list", "--c")


def test_zsh_shows_each_id_with_its_prompt(bank_dir):
    result = typer_complete("zsh", bank_dir, "show dp-")
    assert result.returncode == 0 and result.stderr == ""
    assert result.stdout.startswith("_arguments '*: :((")
    assert '"dp-vs-mp":"What is the difference between data parallelism and model parallelism?"' in (
        result.stdout
    )
    assert '"dp-batch-size":' in result.stdout and "zero-stages" not in result.stdout


def test_fish_shows_each_category_with_its_title(bank_dir):
    result = typer_complete("fish", bank_dir, "list -c ", _TYPER_COMPLETE_FISH_ACTION="get-args")
    assert result.returncode == 0 and result.stderr == ""
    assert result.stdout.splitlines() == ["behavioral\tBehavioral", "parallelism\tParallelism"]


def test_a_bank_that_cannot_be_loaded_completes_nothing_and_says_nothing(bank_dir, tmp_path):
    write(bank_dir / "questions" / "broken.yaml", "category: broken\nquestions: [\n")
    assert bash_complete(bank_dir, "show", "") == []
    assert bash_complete(bank_dir, "list", "-c", "") == []
    assert bash_complete(tmp_path / "no-such-bank", "show", "") == []
    zsh = typer_complete("zsh", bank_dir, "show ")
    assert zsh.returncode == 0 and zsh.stderr == "" and zsh.stdout.strip() == "_files"


def test_completing_from_the_cache_imports_no_heavy_module(bank_dir):
    bash_complete(bank_dir, "show", "")  # the first run builds the parsed-bank cache
    line = f"prep --bank {bank_dir} show dp-"
    result = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "prep"],
        env=_env(_PREP_COMPLETE="complete_zsh", _TYPER_COMPLETE_ARGS=line),
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert '"dp-vs-mp":' in result.stdout
    imported = {m.group(1) for m in re.finditer(r"\|\s+(\S+)\s*$", result.stderr, re.M)}
    # Neither the YAML nor the bank's models are read, and zsh's help texts skip rich. (pydantic
    # itself is typer's: it converts option values with it, for every command.)
    heavy = {"rich", "fsrs", "numpy", "rapidfuzz", "yaml", "prep.bank.load", "prep.bank.schema"}
    assert imported & heavy == set()


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_show_completion_prints_the_script_for_each_shell(shell):
    result = subprocess.run(
        [installed_prep(), "--show-completion", shell],
        env=_env(_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION="1"),
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert result.returncode == 0, result.stderr
    assert f"_PREP_COMPLETE=complete_{shell}" in result.stdout


def test_install_completion_in_bash_and_tab_completes_there(bank_dir, tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    env = _env(HOME=str(home), PATH=f"{os.path.dirname(installed_prep())}:{os.environ['PATH']}")
    # prep finds the shell it is installing for among its parent processes, as when a user types
    # it at a prompt: bash must stay prep's parent. Given a single command, `bash -c` replaces
    # itself with it, and prep would find only whatever ran the tests (no shell at all under some
    # runners: "Shell None is not supported"); a command after it keeps bash there.
    installed = subprocess.run(
        ["bash", "-c", "prep --install-completion; exit $?"],
        env=env,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert installed.returncode == 0, installed.stdout + installed.stderr
    script = home / ".bash_completions" / "prep.sh"
    assert f"source '{script}'" in (home / ".bashrc").read_text()
    # bash runs the function the script registers, with the words typed so far.
    tab = (
        f"source '{script}'; COMP_WORDS=(prep --bank {bank_dir} show dp-); COMP_CWORD=4; "
        '_prep_completion prep; printf "%s\\n" "${COMPREPLY[@]}"'
    )
    result = subprocess.run(["bash", "-c", tab], env=env, capture_output=True, text=True, timeout=30)
    assert result.stdout.split() == ["dp-vs-mp", "dp-batch-size"], result.stderr


def test_help_names_the_completion_options(run):
    result = run("--help")
    assert "--install-completion" in result.output and "--show-completion" in result.output
