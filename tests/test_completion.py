"""Shell completion: the installed `prep`, run the way bash, zsh and fish run it on Tab."""

from __future__ import annotations

import os
import re
import shlex
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


# --- answered before typer loads -----------------------------------------------------------


def test_an_id_or_a_category_is_completed_from_the_cache_without_loading_typer(bank_dir):
    bash_complete(bank_dir, "show", "")  # the first run builds the parsed-bank cache
    for line in (f"prep --bank {bank_dir} show dp-", f"prep --bank {bank_dir} list -c pa"):
        result = subprocess.run(
            [sys.executable, "-X", "importtime", "-m", "prep"],
            env=_env(_PREP_COMPLETE="complete_zsh", _TYPER_COMPLETE_ARGS=line),
            capture_output=True,
            text=True,
            timeout=30,
        )
        assert result.stdout.startswith("_arguments '*: :((")
        imported = {m.group(1) for m in re.finditer(r"\|\s+(\S+)\s*$", result.stderr, re.M)}
        # Neither the YAML nor the bank's models are read, nor typer and the commands.
        heavy = {"rich", "fsrs", "numpy", "rapidfuzz", "yaml", "prep.bank.load", "prep.bank.schema"}
        assert imported & (heavy | {"typer", "click", "pydantic", "prep.cli.app"}) == set()


def _typer_answer(environ: dict[str, str]) -> tuple[str, int]:
    """What the typer app itself answers: the answer the quick path must give."""
    from typer.testing import CliRunner

    from prep.cli.app import app
    from prep.cli.quick.completion import use_plain_help_text

    use_plain_help_text()  # as the console script does before a completion
    result = CliRunner().invoke(app, [], env=environ, prog_name="prep")
    return result.stdout, result.exit_code


LINES = [
    "show ",
    "show dp-",
    "history z",
    "grade -a 'in data parallelism' dp",
    "grade --elapsed 30 ",
    "teach --point 2 dp-",
    "list -c ",
    "list -t zero -c p",
    "drill -n 3 --category b",
    "export cram -c ",
    "import file.csv -c ",
    "add -c parallelism --follow-up zer",
    "add --for ",
    "--debug --state x.db stats -c ",
    "plan --minutes 30 -c beh",
]


@pytest.mark.parametrize("line", LINES)
@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_the_quick_answer_is_the_one_typer_gives(bank_dir, capsys, line, shell):
    from prep.cli.quick.tab import complete

    full = f"prep --bank {bank_dir} {line}"
    if shell == "bash":  # the word under the cursor is the last, empty after a space
        words = len(shlex.split(full)) + full.endswith(" ")
        environ = {"_PREP_COMPLETE": "complete_bash", "COMP_WORDS": full, "COMP_CWORD": str(words - 1)}
    else:
        environ = {"_PREP_COMPLETE": f"complete_{shell}", "_TYPER_COMPLETE_ARGS": full}
        if shell == "fish":
            environ["_TYPER_COMPLETE_FISH_ACTION"] = "get-args"
    code = complete(environ)
    assert code == 0
    assert (capsys.readouterr().out, code) == _typer_answer(environ)


def test_what_tab_knows_of_each_command_is_what_the_command_has(bank_dir):
    """TABS (what the quick path reads command lines with) against the commands' own options:
    the options that take a value, and which options and arguments complete ids or categories."""
    import typer

    from prep.cli.app import COMMANDS, app
    from prep.cli.quick.tab import TABS, Tab

    group = typer.main.get_command(app)
    ctx = group.make_context("prep", ["--bank", str(bank_dir), "list"], resilient_parsing=True)

    def commands(command, path):  # type: ignore[no-untyped-def]
        if getattr(command, "commands", None) is not None and not command.params:
            for name in command.list_commands(ctx):
                yield from commands(command.get_command(ctx, name), (*path, name))
        else:
            yield path, command

    def completes(param) -> str:  # type: ignore[no-untyped-def]
        """What the parameter's own completion offers: "id", "category" or ""."""
        offered = {item.value for item in param.shell_complete(ctx, "")}
        return {frozenset(IDS): "id", frozenset({"parallelism", "behavioral"}): "category"}.get(
            frozenset(offered), ""
        )

    found = {}
    for name in COMMANDS:
        for path, command in commands(group.get_command(ctx, name), (name,)):
            options = [p for p in command.params if p.param_type_name == "option"]
            arguments = [p for p in command.params if p.param_type_name == "argument"]
            ids = next((i for i, p in enumerate(arguments) if completes(p) != "id"), len(arguments))
            tab = Tab(
                ids,
                frozenset(o for p in options if completes(p) == "id" for o in p.opts),
                frozenset(o for p in options if completes(p) == "category" for o in p.opts),
                frozenset(o for p in options if not p.is_flag for o in p.opts),
            )
            if tab.ids or tab.id_options or tab.category_options:
                found[path] = tab
    assert found == TABS
