"""`prep add`'s options: a follow-up naming no question, and -k, which means --kind everywhere
else (for add it still means --key-point, deprecated, for one release)."""

from __future__ import annotations

from prep.bank.load import load_bank
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
