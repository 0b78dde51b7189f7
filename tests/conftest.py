"""Shared fixtures. Every test runs with its own state and config directory (PREP_HOME). What tests
share besides fixtures (the test bank's files, fakes, helpers) is in support.py."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from prep.cli.app import app

from .support import Anki, write_bank


@pytest.fixture(autouse=True)
def isolated_home(tmp_path_factory, monkeypatch):
    """No test reads or writes the real user's data: state and config live in a temp dir."""
    home = tmp_path_factory.mktemp("prep-home")
    monkeypatch.setenv("PREP_HOME", str(home))
    for name in ("PREP_BANK", "PREP_STATE", "PREP_CONFIG", "PREP_NOW", "VISUAL", "EDITOR"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("COLUMNS", "120")
    # Deterministic scheduling: no FSRS fuzzing.
    (home / "config.toml").write_text("[drill]\nfuzz = false\n")
    return home


@pytest.fixture
def bank_dir(tmp_path) -> Path:
    """A valid bank on disk: two categories and an answers file."""
    return write_bank(tmp_path / "bank")


@pytest.fixture
def state_file(tmp_path) -> Path:
    return tmp_path / "state.sqlite3"


@pytest.fixture
def run(bank_dir, state_file):
    """Invoke `prep` in-process against the test bank and state, as CliRunner does."""
    runner = CliRunner()

    def invoke(*args: str, input: str | None = None, bank: Path | None = None, env: dict | None = None):
        argv = ["--bank", str(bank or bank_dir), "--state", str(state_file), *args]
        return runner.invoke(app, argv, input=input, env=env, catch_exceptions=False)

    return invoke


@pytest.fixture
def anki(tmp_path):
    """A real Anki collection in the test's directory (see support.Anki)."""
    collection = Anki(tmp_path)
    yield collection
    collection.close()


@pytest.fixture
def judges(tmp_path, monkeypatch):
    """The deterministic judge models of tests/judge_models.py, registered with llm through its
    plugin hook for this test; their table and call log in tmp_path (see ``JudgeDoubles``)."""
    from llm.plugins import pm

    from . import judge_models
    from .support import JudgeDoubles

    doubles = JudgeDoubles(tmp_path / "judge-table.json", tmp_path / "judge-calls.jsonl")
    monkeypatch.setenv(judge_models.TABLE, str(doubles.table))
    monkeypatch.setenv(judge_models.CALLS, str(doubles.log))
    monkeypatch.setenv("LLM_USER_PATH", str(tmp_path / "llm"))  # never the user's llm keys or aliases
    pm.register(judge_models, name="prep-test-judges")
    yield doubles
    pm.unregister(judge_models)
