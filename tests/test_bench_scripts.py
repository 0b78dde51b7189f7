"""The benchmark scripts run end to end on small data (their figures are reported, not tested)."""

from __future__ import annotations

import csv
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_grading_benchmark_reports_every_figure(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    (data / "attempts-small.yaml").write_text(
        textwrap.dedent("""\
        - question: dp-vs-mp
          kind: concise-correct
          label: pass
          answer: >-
            Data parallelism gives every GPU a full copy of the model and a different slice of the
            batch, then all-reduces the gradients; model parallelism splits the model across GPUs
            when it does not fit on one.
        - question: dp-vs-mp
          kind: dont-know
          label: fail
          answer: I don't know.
        - question: dp-vs-mp
          kind: partial
          label: partial
          answer: Each GPU has a full copy of the model.
        """),
        encoding="utf-8",
    )
    mohler = tmp_path / "short-answers.csv"
    with mohler.open("w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(["question_id", "question", "reference_answer", "student_answer", "score"])
        writer.writerow(
            [
                "1",
                "What does a stack do?",
                "A stack stores items last in, first out.",
                "It keeps items so the last one pushed is the first popped.",
                "4.5",
            ]
        )
        writer.writerow(
            [
                "1",
                "What does a stack do?",
                "A stack stores items last in, first out.",
                "It sorts numbers.",
                "1",
            ]
        )
        writer.writerow(
            [
                "2",
                "What is a queue?",
                "A queue serves items first in, first out.",
                "Items leave a queue in the order they arrived, first in first out.",
                "5",
            ]
        )
    result = subprocess.run(
        [
            sys.executable,
            str(ROOT / "bench" / "grading.py"),
            "--data",
            str(data),
            "--mohler",
            str(mohler),
            "--no-timing",
            "--sensitivity",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Labelled attempts: 3 over 1 questions" in out
    for figure in (
        "binary pass accuracy",
        "3-class accuracy",
        "false passes on fail-labelled",
        "missed passes on pass-labelled",
        "Pearson r with the human grade",
        "Spearman rho",
    ):
        assert figure in out
    assert "dont-know            n=  1" in out
    # The default row agrees with the headline figures: the same grader, the same attempts.
    headline = next(line for line in out.splitlines() if line.startswith("binary pass accuracy")).split()[3]
    default_row = next(line for line in out.splitlines() if line.strip().startswith("defaults")).split()
    assert default_row[1] == headline
    assert "point_full = 0.6" in out and "pass_score = 75" in out


def test_grading_benchmark_timing_only(tmp_path):
    """bench/speed.py prints the grading time through this flag; it must keep working."""
    data = tmp_path / "data"
    data.mkdir()
    result = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "grading.py"), "--data", str(data), "--timing-only"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "Grading time, floor: one token_set_ratio call" in result.stdout
    assert "5 key points, 1-2 aliases each" in result.stdout
    assert "Labelled attempts" not in result.stdout


def test_teaching_benchmark_reports_before_and_after(tmp_path):
    data = tmp_path / "data"
    (data / "heldout-teach").mkdir(parents=True)
    (data / "heldout-teach" / "attempts-small.yaml").write_text(
        textwrap.dedent("""\
        - question: dp-vs-mp
          kind: concise-correct
          label: pass
          answer: >-
            Every GPU keeps the whole network and chews on its own shard of the batch; grads get
            all-reduced. Splitting the network itself over devices is for nets too big for one card.
        - question: dp-vs-mp
          kind: paraphrase
          label: pass
          answer: >-
            Each accelerator holds the whole network and works on its own shard of the batch, then
            the grads are summed across them. Splitting layers over devices is for nets too big for one.
        - question: dp-vs-mp
          kind: long-wrong
          label: fail
          answer: Data parallelism splits the model across GPUs to save memory on each one.
        """),
        encoding="utf-8",
    )
    result = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "teach.py"), "--data", str(data)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Held-out set, key points cut to their text" in out
    # No clause of this answer clearly says a point it missed: nothing is guessed, all refused.
    assert "questions taught 1: key points taught 0, refused 3" in out
    assert "the taught answer passes after teaching (all its points taught): —" in out
    assert "other correct answers missed: " in out and " before -> " in out
    assert "false passes on wrong answers: 0/1 (0.0%) before -> 0/1 (0.0%) after ✓" in out


def test_interview_benchmark_prints_its_table_and_the_targets(tmp_path):
    """bench/interview.py on one small scenario: every policy's recall, reviews and minutes, and the
    targets with their figures."""
    markdown = tmp_path / "interview.md"
    result = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "interview.py"), "--scenario", "bundled:7:30",
         "--scenario", "bundled:14:60", "--markdown", str(markdown)],
        capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    rows = [line for line in result.stdout.splitlines() if line.startswith("| bundled (283 q) |")]
    assert len(rows) == 4  # each as it is done, then in the table
    for row in rows:
        assert row.count(" rev · ") == 3  # (a), (b) and (c) side by side
    assert "(a) FSRS, 10 new a day | (b) FSRS, new spread evenly | (c) plan" in result.stdout
    assert "bundled, 14 days, 60 min: at least 0.15 above (a)" in result.stdout
    assert "no day over its budget by more than 10%" in markdown.read_text()


def test_star_benchmark_reports_every_figure_for_the_analyser_and_the_baseline(tmp_path):
    labelled = tmp_path / "star-small.yaml"
    labelled.write_text(
        textwrap.dedent("""\
        questions:
          - id: cost
            prompt: Give an example of when you reduced the cost of a model in production.
        answers:
          - question: cost
            voice: strong
            sentences:
              - {text: "Last year our reranker was costing 40 thousand dollars a month.", part: situation}
              - {text: "My goal was to cut that cost in half.", part: task}
              - {text: "I distilled it into a smaller model.", part: action}
              - {text: "The monthly cost dropped to 14 thousand dollars.", part: result}
            flags: []
            verdict: strong
          - question: cost
            voice: hypothetical
            sentences:
              - {text: "I would profile the model first.", part: action}
              - {text: "Then I'd quantize it.", part: action}
            flags: [hypothetical, no-result]
            verdict: weak
        """),
        encoding="utf-8",
    )
    result = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "star.py"), str(labelled)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "star-small.yaml: 2 answers, 6 sentences" in out
    rows = {line[2:38].strip(): line for line in out.splitlines() if line.startswith("  ")}
    for figure in (
        "presence situation",
        "presence result",
        "F1 no-result",
        "F1 result-not-quantified",
        "F1 we-not-i",
        "F1 hypothetical",
        "F1 long-setup",
        "sentence accuracy",
        "verdict accuracy",
        "time per answer, median / p90 (ms)",
    ):
        assert figure in rows, figure
    # The analyser against the baseline (every sentence an action, every answer adequate).
    assert rows["sentence accuracy"].split()[2:4] == ["1.000", "0.500"]
    assert rows["verdict accuracy"].split()[2:4] == ["1.000", "0.000"]


def test_judge_benchmark_runs_every_labelled_set_with_a_test_model(tmp_path):
    """bench/judge.py against the deterministic table judge (tests/judge_models.py), installed as
    an llm plugin: every figure, for the words, the judge and the cascade."""
    import json
    import os

    from .judge_models import TABLE, install_judges
    from .support import GOOD

    data = tmp_path / "data"
    data.mkdir()
    rows = [
        {"question": "dp-vs-mp", "kind": "concise-correct", "label": "pass", "answer": GOOD},
        {"question": "dp-vs-mp", "kind": "dont-know", "label": "fail", "answer": "I don't know."},
    ]
    (data / "attempts-small.yaml").write_text(json.dumps(rows), encoding="utf-8")
    table = tmp_path / "table.json"
    quotes = ["each GPU holds a full copy of the model", "different part of the batch", "all-reduced",
              "Model parallelism splits the model", "does not fit on one GPU"]  # fmt: skip
    reply = {
        "points": [{"point": n, "status": "said", "quote": q} for n, q in enumerate(quotes, 1)],
        "pitfalls": [],
    }
    table.write_text(json.dumps({GOOD: reply}), encoding="utf-8")
    env = {
        **os.environ,
        **install_judges(tmp_path / "site", ROOT),
        TABLE: str(table),
        "LLM_USER_PATH": str(tmp_path),
    }
    result = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "judge.py"), "--model", "prep-table", "--data", str(data)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env=env,
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "bundled bank (bench/data): 2 attempts" in out and "All sets: 2 attempts" in out
    header = next(line for line in out.splitlines() if line.strip().startswith("figure"))
    assert header.split()[1:] == ["words", "alone", "judge", "alone", "cascade"]
    for figure in ("binary pass accuracy", "false passes on fail-labelled", "missed passes on pass-labelled",
                   "confident errors", "share unsure", "judge failures", "seconds per answer"):  # fmt: skip
        assert figure in out
    judge_alone = next(line for line in out.splitlines() if line.strip().startswith("binary pass")).split()
    assert judge_alone[4] == "1.000"  # the table's judge passes the good answer and fails the other
    missing = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "judge.py"), "--model", "no-such-model", "--data", str(data)],
        capture_output=True, text=True, timeout=300, check=False, env=env,
    )  # fmt: skip
    assert missing.returncode == 1 and "llm knows no model 'no-such-model'" in missing.stderr
