"""Hostile and random input: only prep's own error reporting may come out, never an exception."""

from __future__ import annotations

import os
import signal
import subprocess
import textwrap
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from prep.bank.load import check_bank
from prep.bank.yamlsource import MAX_FILE_BYTES, parse
from prep.errors import PrepError
from prep.paths import BankLocation

from .support import installed_prep, write

yaml_like = st.text(
    alphabet=st.sampled_from(
        list("abc:- \n\t[]{}'\"#&*!|>%@`,?0129.") + ["\u00e9", "\x00", "\x07", "\ufeff"]
    ),
    max_size=300,
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(yaml_like)
def test_parser_never_raises(text):
    doc = parse(text, "fuzz.yaml")
    for problem in doc.problems:
        assert "\n" not in str(problem)  # one line each
        assert str(problem).startswith("fuzz.yaml")


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(st.one_of(yaml_like, st.builds(lambda body: "category: c\ntitle: t\nquestions:\n" + body, yaml_like)))
def test_bank_check_never_raises(tmp_path, text):
    root = tmp_path / "fuzz-bank"
    (root / "questions").mkdir(parents=True, exist_ok=True)
    (root / "questions" / "c.yaml").write_text(text, encoding="utf-8", errors="surrogatepass")
    try:
        _, problems = check_bank(BankLocation(root, "option"))
    except PrepError:
        return
    assert all("\n" not in str(p) for p in problems)


def test_oversized_file_is_refused_quickly(tmp_path, run):
    root = tmp_path / "big"
    path = root / "questions" / "huge.yaml"
    path.parent.mkdir(parents=True)
    with path.open("w") as handle:  # 50 MB of valid-looking YAML
        handle.write("category: huge\ntitle: Huge\nquestions:\n")
        line = "  - {id: q, prompt: " + "x" * 200 + "}\n"
        for _ in range(50 * 1024 * 1024 // len(line)):
            handle.write(line)
    result = run("validate", bank=root)
    assert result.exit_code == 2
    assert f"the limit is {MAX_FILE_BYTES // 1048576} MiB" in result.output
    assert "Traceback" not in result.output


def test_alias_bomb_is_refused_with_bounded_memory():
    import tracemalloc

    bomb = (Path(__file__).parent / "data" / "bad" / "alias-bomb.yaml").read_text()
    tracemalloc.start()
    try:
        doc = parse(bomb, "bomb.yaml")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert any("alias" in p.message for p in doc.problems)
    assert peak < 20 * 1024 * 1024  # a billion laughs would need gigabytes


def _kill_during_write(tmp_path, bank_dir, argv, target):
    """Run prep with os.replace stalled, SIGKILL it mid-write, and return the target's bytes."""
    hook = tmp_path / "hook"
    hook.mkdir()
    marker = tmp_path / "writing"
    (hook / "sitecustomize.py").write_text(
        textwrap.dedent(f"""
        import os, time
        _real = os.replace
        def _stalled(src, dst, *a, **k):
            open({str(marker)!r}, "w").write(str(dst))
            time.sleep(30)
            return _real(src, dst, *a, **k)
        os.replace = _stalled
    """)
    )
    env = {**os.environ, "PYTHONPATH": str(hook)}
    before = target.read_bytes()
    proc = subprocess.Popen(
        [installed_prep(), "--bank", str(bank_dir), *argv],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    for _ in range(400):
        if marker.exists():
            break
        if proc.poll() is not None:
            break
        import time

        time.sleep(0.05)
    assert marker.exists(), "the write never started"
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert target.read_bytes() == before
    check = check_bank(BankLocation(bank_dir, "option"))
    assert check[1] == []


def test_sigkill_during_add_leaves_the_file_intact(tmp_path, bank_dir):
    _kill_during_write(
        tmp_path,
        bank_dir,
        ["add", "-c", "parallelism", "-p", "Killed mid-write?"],
        bank_dir / "questions" / "parallelism.yaml",
    )


def test_sigkill_during_mv_leaves_the_files_intact(tmp_path, bank_dir, isolated_home):
    _kill_during_write(
        tmp_path,
        bank_dir,
        ["mv", "dp-vs-mp", "renamed-question"],
        bank_dir / "questions" / "parallelism.yaml",
    )


def test_no_input_file_can_write_outside_the_bank(run, tmp_path):
    outside = tmp_path / "outside.yaml"
    for name in ("../outside", "..", "/tmp/x", "a/../../outside"):
        run("add", "-c", name, "-p", "Escape?")
    assert not outside.exists()
    assert not any(p.name.endswith(".yaml") for p in tmp_path.iterdir() if p.is_file())


BRACKETS_YAML = """\
category: bert
title: BERT [encoders]
questions:
  - id: mask-token
    prompt: What does the [mask] token do in pre-training?
    key_points:
      - text: "[mask] replaces 15% of the input tokens"
      - text: the model predicts the original token at each masked position
    pitfalls:
      - "[mask] is used at inference time"
"""


def test_square_brackets_are_shown_as_written(tmp_path, state_file):
    """Bank text and typed answers are text, not rich markup: "[mask]" stays, "[/]" cannot crash."""
    from typer.testing import CliRunner

    from prep.cli.app import app

    root = tmp_path / "brackets"
    write(root / "questions" / "bert.yaml", BRACKETS_YAML)
    runner = CliRunner()

    def prep(*args: str, input: str | None = None):  # type: ignore[no-untyped-def]
        result = runner.invoke(app, ["--bank", str(root), "--state", str(state_file), *args], input=input)
        assert result.exit_code == 0, result.output
        return result.output

    drill = prep("drill", input="It [/] hides [mask] 15% of tokens\n\n3\n")
    assert "What does the [mask] token do in pre-training?" in drill
    assert "[mask] replaces 15% of the input tokens" in drill
    history = prep("history", "mask-token")
    assert "What does the [mask] token do" in history
    assert "It [/] hides [mask]" in history
    assert "[mask] is used at inference time" in prep("show", "mask-token")
    assert "the [mask] token" in prep("list")
    reveal = prep("drill", "--cram", input="\n3\n")  # an empty answer reveals the key points
    assert "[mask] replaces 15%" in reveal and "[mask] is used at inference time" in reveal
    assert "[mask] replaces" in prep("grade", "mask-token", "--answer", "[/] [mask] hides tokens")


def test_text_that_is_not_utf8_is_refused_before_anything_is_written(run, bank_dir):
    before = {p: p.read_bytes() for p in bank_dir.rglob("*.yaml")}
    # Python hands bytes that are not UTF-8 in argv to prep as lone surrogates ("caf\xe9").
    for args in (
        ("answer", "dp-vs-mp", "--text", "caf\udce9"),
        ("mv", "dp-vs-mp", "mk\udcff"),
        ("add", "-c", "parallelism", "-p", "caf\udce9 question", "-K", "k"),
    ):
        result = run(*args)
        assert result.exit_code == 1, (args, result.output)
        assert "is not valid UTF-8 text" in result.output and "internal error" not in result.output
    for args in (("answer", "dp-vs-mp", "--text", "-"), ("grade", "dp-vs-mp")):
        result = run(*args, input=b"\xff\xfe bad\n")
        assert result.exit_code == 1 and "standard input is not valid UTF-8 text (byte 0xff" in result.output
    assert {p: p.read_bytes() for p in bank_dir.rglob("*.yaml")} == before
    assert run("answer", "dp-vs-mp", "--text", "-", input="café ✓\n".encode()).exit_code == 0


def test_a_piped_drill_answer_that_is_not_utf8_is_kept_with_replacement_characters(tmp_path, bank_dir):
    """Run as a user pipes it: Python reads the stray byte as a surrogate, which no database stores."""
    env = {**os.environ, "PREP_HOME": str(tmp_path / "home"), "PREP_NOW": "2026-03-02T09:00:00+00:00"}
    state = tmp_path / "state.sqlite3"
    done = subprocess.run(
        [
            installed_prep(),
            "--bank",
            str(bank_dir),
            "--state",
            str(state),
            "drill",
            "-c",
            "parallelism",
            "-l",
            "1",
        ],
        input=b"caf\xe9 data parallelism copies\n\n3\nn\n",
        capture_output=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr.decode()
    import sqlite3

    with sqlite3.connect(state) as db:
        assert db.execute("SELECT answer FROM reviews").fetchall() == [("caf\ufffd data parallelism copies",)]


def test_a_folder_where_a_file_is_wanted_and_a_file_where_a_folder_is_are_named_so(run, tmp_path):
    assert "is a directory, not a file" in run("import", str(tmp_path), "-c", "imp").stderr
    assert "is a directory, not a file" in run("state", "import", str(tmp_path)).stderr
    a_file = tmp_path / "notes.txt"
    a_file.write_text("x")
    result = run("init", str(a_file))
    assert result.exit_code == 1 and "is a file, not a folder" in result.stderr
