"""`prep add`'s options: a follow-up naming no question, and -k, which means --kind everywhere
else (for add it still means --key-point, deprecated, for one release)."""

from __future__ import annotations

import json
import re

import pytest

from prep.bank.load import load_bank
from prep.bank.naming import make_id
from prep.paths import BankLocation


def _files(bank_dir):
    return {p: p.read_bytes() for p in bank_dir.rglob("*.yaml")}


def _bank(bank_dir):
    return load_bank(BankLocation(bank_dir, "option"))


def test_a_follow_up_naming_no_question_is_an_option_error(run, bank_dir):
    before = _files(bank_dir)
    result = run("add", "-c", "parallelism", "-p", "What is FSDP?", "--key-point", "x", "--follow-up", "nope")
    assert result.exit_code == 1, result.output
    assert result.stderr.splitlines() == ["prep: --follow-up nope: no such question id", "  see `prep list`"]
    assert _files(bank_dir) == before


def test_a_mistyped_follow_up_names_the_close_ids(run, bank_dir):
    before = _files(bank_dir)
    result = run(
        "add", "-c", "parallelism", "-p", "What is FSDP?", "--key-point", "x",
        "--follow-up", "zero-stages", "--follow-up", "dp-vs-m",
    )  # fmt: skip
    assert result.exit_code == 1, result.output
    assert result.stderr.splitlines()[0] == (
        "prep: --follow-up dp-vs-m: no such question id; did you mean 'dp-vs-mp'?"
    )
    assert _files(bank_dir) == before


def test_a_follow_up_naming_a_question_is_written(run, bank_dir):
    result = run(
        "add", "-c", "parallelism", "-p", "What is FSDP?", "--key-point", "x", "--follow-up", "zero-stages",
        "--id", "fsdp",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert list(_bank(bank_dir).questions["fsdp"].follow_ups) == ["zero-stages"]


DEPRECATION = (
    "prep: -k for --key-point is deprecated; use --key-point or -K (-k will mean --kind, as elsewhere)"
)


def test_dash_capital_k_gives_a_key_point_without_a_note(run, bank_dir):
    result = run("add", "-c", "parallelism", "-p", "What is FSDP?", "-K", "shards parameters", "--id", "fsdp")
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    assert [p.text for p in _bank(bank_dir).questions["fsdp"].key_points] == ["shards parameters"]


def test_dash_k_still_means_key_point_in_add_with_one_deprecation_note(run, bank_dir):
    result = run(
        "add", "-c", "parallelism", "-p", "What is FSDP?", "-k", "shards parameters", "-k", "behavioral",
        "--id", "fsdp", "--json",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines() == [DEPRECATION]
    assert '"id": "fsdp"' in result.stdout  # stdout holds only the JSON
    question = _bank(bank_dir).questions["fsdp"]
    assert [p.text for p in question.key_points] == ["shards parameters", "behavioral"]
    assert question.kind == "technical"  # -k behavioral was a key point, as it always was in add


def test_kind_and_key_points_together(run, bank_dir):
    result = run(
        "add", "-c", "behavioral", "-p", "Tell me about a conflict?", "--kind", "behavioral",
        "--key-point", "what you did", "-K", "what changed", "--id", "conflict",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    question = _bank(bank_dir).questions["conflict"]
    assert question.kind == "behavioral"
    assert [p.text for p in question.key_points] == ["what you did", "what changed"]


def test_add_help_shows_dash_capital_k_and_not_the_deprecated_dash_k(run):
    help_text = run("add", "--help").stdout
    assert "-K, --key-point TEXT" in help_text
    assert not re.search(r"(^|[\s,])-k[\s,]", help_text, re.M)  # hidden: one release, then --kind


def _short_options() -> dict[str, set[tuple[str, str]]]:
    """Every visible short option of every command: -x -> {(long name, command)}."""
    import typer

    from prep.cli.app import app

    group = typer.main.get_command(app)
    found: dict[str, set[tuple[str, str]]] = {}
    commands = [(name, group.get_command(None, name)) for name in group.list_commands(None)]
    while commands:
        name, command = commands.pop()
        if hasattr(command, "list_commands"):
            commands += [(f"{name} {s}", command.get_command(None, s)) for s in command.list_commands(None)]
        for param in command.params:
            if param.param_type_name != "option" or param.hidden:
                continue
            longs = [o for o in param.opts if o.startswith("--")]
            for short in (o for o in param.opts if not o.startswith("--")):
                found.setdefault(short, set()).add((longs[0] if longs else short, name))
    return found


def test_each_short_option_means_one_thing_in_every_command():
    meanings = {short: {long for long, _command in uses} for short, uses in _short_options().items()}
    assert {short: longs for short, longs in meanings.items() if len(longs) > 1} == {}
    assert meanings["-k"] == {"--kind"} and meanings["-K"] == {"--key-point"}
    assert meanings["-c"] == {"--category"} and meanings["-t"] == {"--tag"}


@pytest.mark.parametrize("command", [["list"], ["drill", "--cram"], ["export", "csv"], ["export", "cram"]])
def test_dash_k_is_kind_elsewhere(run, command):
    result = run(*command, "-k", "behavioral", "--json" if command == ["list"] else "--help")
    assert result.exit_code == 0, result.output
    if command == ["list"]:
        assert '"id": "biggest-failure"' in result.stdout and "dp-vs-mp" not in result.stdout
    else:
        assert "-k, --kind KIND" in result.stdout


def test_prompts_in_another_script_get_ids_of_their_own_not_question_and_question_2(run, bank_dir):
    """A prompt with no Latin letters is named by a short hash of its words; accents are dropped."""
    ids = []
    for prompt in ("什么是张量并行？", "什么是流水线并行？", "Qu'est-ce que la rétropropagation ?"):
        result = run("add", "-c", "parallelism", "-p", prompt, "--json")
        assert result.exit_code == 0, result.output
        ids.append(json.loads(result.output)["id"])
    assert ids[0] != ids[1] and all(re.fullmatch(r"q-[0-9a-f]{8}", i) for i in ids[:2]), ids
    assert "retropropagation" in ids[2].split("-"), ids
    again = make_id("什么是张量并行？", set())
    assert again == ids[0]  # the same prompt, the same id: nothing random in it
