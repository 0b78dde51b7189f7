"""Nothing a command writes can leave a bank that the loader refuses, and a file grown past the
limit can still be shrunk by the command that writes its entry."""

from __future__ import annotations

from prep.bank.yamlsource import MAX_FILE_BYTES

HUGE = "Speculative decoding is fast. " * (MAX_FILE_BYTES // 28)


def test_an_answer_too_large_for_the_loader_is_refused_and_nothing_is_written(run, bank_dir):
    answers = bank_dir / "answers" / "answers.yaml"
    before = answers.read_bytes()
    result = run("answer", "dp-vs-mp", "--text", "-", input=HUGE)
    assert result.exit_code == 1, result.output
    [error] = [line for line in result.output.splitlines() if line.startswith("prep:")]
    assert "answers.yaml would be too large" in error and "the limit is 5 MiB" in error
    assert error.endswith("nothing was written")
    assert answers.read_bytes() == before
    assert run("list").exit_code == 0


def test_an_import_too_large_for_the_loader_is_refused(run, bank_dir, tmp_path):
    source = tmp_path / "big.csv"
    rows = [f"big-{i},What is big question number {i}?,{'word ' * 20_000}" for i in range(60)]  # 6 MB
    source.write_text("id,prompt,answer\n" + "\n".join(rows) + "\n")
    result = run("import", str(source), "-c", "parallelism")
    assert result.exit_code == 1, result.output
    assert "would be too large" in result.output
    assert run("validate").exit_code == 0


def test_a_file_grown_past_the_limit_can_still_be_shrunk_by_answer(run, bank_dir):
    answers = bank_dir / "answers" / "answers.yaml"
    answers.write_text(
        answers.read_text() + "  - question: dp-batch-size\n    answer: >\n      " + HUGE + "\n",
        encoding="utf-8",
    )
    broken = run("list")
    assert broken.exit_code == 2 and "the limit is 5 MiB" in broken.output
    fixed = run("answer", "dp-batch-size", "--text", "Micro-batch times DP times accumulation.")
    assert fixed.exit_code == 0, fixed.output
    assert answers.stat().st_size < MAX_FILE_BYTES
    assert run("list").exit_code == 0
    shown = run("show", "dp-batch-size", "--json")
    assert "Micro-batch times DP times accumulation." in shown.output
