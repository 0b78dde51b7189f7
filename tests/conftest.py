"""Shared fixtures. Every test runs with its own state and config directory (PREP_HOME)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from typer.testing import CliRunner

from prep.cli.app import app


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


PARALLELISM_YAML = """\
# A small bank used across tests.
category: parallelism
title: Parallelism
questions:
  - id: dp-vs-mp
    prompt: What is the difference between data parallelism and model parallelism?
    kind: technical
    difficulty: 2
    tags: [distributed, ddp]
    target_seconds: 60
    key_points:
      - text: in data parallelism every GPU holds a full replica of the model
        aliases: [each device keeps a complete copy of the weights, DP replicates the model on every GPU]
      - text: each GPU processes a different slice of the batch
        aliases: [the batch is split across GPUs, each replica sees different data]
      - text: gradients are averaged across GPUs with all-reduce
        aliases: [all-reduce the gradients, gradients are synchronized after backward]
      - text: model parallelism splits the model itself across GPUs
        aliases: [the weights are partitioned across GPUs, layers are placed on different devices]
      - text: model parallelism is needed when the model does not fit on one GPU
        aliases: [used when the model is too big for one device's memory]
    pitfalls:
      - data parallelism reduces per-GPU parameter memory
      - data parallelism splits the model across GPUs
    follow_ups: [dp-batch-size]
  - id: dp-batch-size
    prompt: What global batch size did you actually use, and where was the communication bottleneck?
    kind: technical
    difficulty: 3
    tags: [distributed]
    target_seconds: 90
    key_points:
      - text: global batch equals micro-batch times data-parallel size times accumulation steps
        aliases: [global batch is micro batch times DP size times gradient accumulation]
      - text: the all-reduce of gradients was the bottleneck between nodes
        aliases: [inter-node gradient all-reduce limited throughput]
  - id: zero-stages
    prompt: What do the three ZeRO stages shard?
    tags: [zero, memory]
    target_seconds: 45
    key_points:
      - text: stage 1 shards the optimizer states
      - text: stage 2 also shards the gradients
      - text: stage 3 also shards the parameters
"""

BEHAVIORAL_YAML = """\
category: behavioral
title: Behavioral
questions:
  - id: biggest-failure
    prompt: Tell me about your most significant failure in a training project.
    kind: behavioral
    difficulty: 2
    target_seconds: 120
"""

ANSWERS_YAML = """\
answers:
  - question: dp-vs-mp
    source: model
    answer: >
      In data parallelism every GPU keeps a full copy of the model and works on its own slice
      of the batch; after the backward pass the gradients are averaged with an all-reduce.
      Model parallelism instead splits the model across GPUs, which is what you need once the
      model no longer fits in one GPU's memory.
  - question: biggest-failure
    answer: >
      An upstream detection model changed its label definitions without warning. Our pipeline
      kept running and fed the model mismatched data. We lost two weeks chasing a regression.
      I added a version check of every data artifact before each training run.
"""


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


@pytest.fixture
def bank_dir(tmp_path) -> Path:
    """A valid bank on disk: two categories and an answers file."""
    root = tmp_path / "bank"
    write(root / "questions" / "parallelism.yaml", PARALLELISM_YAML)
    write(root / "questions" / "behavioral.yaml", BEHAVIORAL_YAML)
    write(root / "answers" / "answers.yaml", ANSWERS_YAML)
    return root


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


def installed_prep() -> str:
    """Path of the installed `prep` console script next to this interpreter."""
    import shutil
    import sys

    candidate = Path(sys.executable).with_name("prep")
    if candidate.exists():
        return str(candidate)
    found = shutil.which("prep")
    if not found:
        pytest.fail("the prep console script is not installed: run the README's install command")
    return found


def spawn_prep(bank_dir: Path, state_file: Path, *args: str, env: dict, **options):  # type: ignore[no-untyped-def]
    """The installed `prep` in a real pseudo-terminal, as a user starts it, on the test bank."""
    import pexpect

    return pexpect.spawn(
        installed_prep(),
        ["--bank", str(bank_dir), "--state", str(state_file), *args],
        env=env,
        encoding="utf-8",
        timeout=20,
        dimensions=(50, 110),
        **options,
    )
