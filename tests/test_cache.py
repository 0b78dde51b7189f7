"""The parsed-bank cache: correct first, fast second."""

from __future__ import annotations

import os
import time

import pytest

from prep.bank import yamlsource
from prep.bank.cache import BankCache
from prep.bank.index import question_index
from prep.bank.load import check_bank, load_bank
from prep.errors import BankInvalid
from prep.paths import BankLocation


@pytest.fixture
def location(bank_dir):
    return BankLocation(bank_dir, "option")


def _count_parses(monkeypatch):
    parsed = []
    real = yamlsource.load_file

    def spy(path, display, raw=None, *rest):
        parsed.append(path.name)
        return real(path, display, raw, *rest)

    monkeypatch.setattr("prep.bank.load.load_file", spy)
    return parsed


def _bump(path, text=None):
    """Change a file so its size or mtime differs (mtime granularity can be coarse)."""
    if text is not None:
        path.write_text(text)
    stamp = time.time() + 5
    os.utime(path, (stamp, stamp))


def test_second_load_parses_nothing(location, monkeypatch):
    first = load_bank(location)
    parsed = _count_parses(monkeypatch)
    second = load_bank(location)
    assert parsed == []
    assert second.questions == first.questions and second.answers == first.answers
    assert second.question_origin == first.question_origin


def test_only_the_changed_file_is_parsed_again(location, bank_dir, monkeypatch):
    load_bank(location)
    parsed = _count_parses(monkeypatch)
    path = bank_dir / "questions" / "parallelism.yaml"
    _bump(
        path,
        path.read_text().replace("What do the three ZeRO stages shard?", "Which ZeRO stage shards what?"),
    )
    bank = load_bank(location)
    assert parsed == ["parallelism.yaml"]
    assert bank.questions["zero-stages"].prompt == "Which ZeRO stage shards what?"


def test_touched_but_unchanged_file_is_not_parsed(location, bank_dir, monkeypatch):
    load_bank(location)
    parsed = _count_parses(monkeypatch)
    _bump(bank_dir / "questions" / "behavioral.yaml")
    load_bank(location)
    assert parsed == []


def test_deleted_file_disappears(location, bank_dir):
    load_bank(location)
    (bank_dir / "questions" / "behavioral.yaml").unlink()
    (bank_dir / "answers" / "answers.yaml").write_text(
        (bank_dir / "answers" / "answers.yaml").read_text().split("  - question: biggest-failure")[0]
    )
    bank = load_bank(location)
    assert "biggest-failure" not in bank.questions
    assert "biggest-failure" not in [r.id for r in question_index(location)]


def test_corrupt_cache_is_rebuilt(location):
    load_bank(location)
    cache = BankCache(location)
    path = cache.path
    cache.close()
    path.write_bytes(b"garbage" * 1000)
    for suffix in ("-wal", "-shm"):
        (path.parent / (path.name + suffix)).unlink(missing_ok=True)
    bank = load_bank(location)
    assert len(bank.questions) == 4
    assert len(question_index(location)) == 4


def test_cross_file_problems_are_found_even_when_every_file_is_cached(location, bank_dir):
    load_bank(location)
    answers = bank_dir / "answers" / "answers.yaml"
    text = answers.read_text()
    # Remove a question the answers refer to: only the question file changes.
    path = bank_dir / "questions" / "behavioral.yaml"
    path.unlink()
    with pytest.raises(BankInvalid):
        load_bank(location)
    with pytest.raises(BankInvalid):
        question_index(location)  # the fast path must not serve an invalid bank
    answers.write_text(text)


def test_index_matches_the_bank(location):
    bank = load_bank(location)
    rows = question_index(location)
    assert [r.id for r in rows] == list(bank.questions)
    assert {r.id: r.category for r in rows} == bank.category_of


def test_problems_are_identical_with_and_without_cache(location, bank_dir, monkeypatch):
    path = bank_dir / "questions" / "parallelism.yaml"
    path.write_text(path.read_text().replace("follow_ups: [dp-batch-size]", "follow_ups: [dp-batch-sise]"))
    _, with_cache = check_bank(location)
    _, again = check_bank(location)
    monkeypatch.setenv("PREP_NO_CACHE", "1")
    _, without = check_bank(location)
    assert with_cache == again == without and len(without) == 1
