"""New cards in plain FSRS mode (no interview plan) come mixed across categories, as the plan
introduces them: the next one from the category with the smallest share of its questions seen,
so a few days of ten new a day touch every category rather than finishing one after another.
And a follow-up the user declined is not the very next card."""

from __future__ import annotations

import json

from prep.review.interleave import interleave

from .support import NOW, reviews, write

DAY_TWO = {"PREP_NOW": "2026-03-03T09:00:00+00:00"}


def category(name: str, size: int) -> str:
    questions = "".join(
        f"  - id: {name}{i}\n    prompt: Question {i} of {name}?\n    key_points: [point {i} of {name}]\n"
        for i in range(1, size + 1)
    )
    return f"category: {name}\ntitle: Category {name.upper()}\nquestions:\n{questions}"


def mixed_bank(root):  # type: ignore[no-untyped-def]
    """Three categories in this order: a and b of four questions, c of two."""
    for name, size in (("a", 4), ("b", 4), ("c", 2)):
        write(root / "questions" / f"{name}.yaml", category(name, size))
    return root


def drill_all(run, bank, env, count):  # type: ignore[no-untyped-def]
    """Answer *count* cards, each rated Easy (no learning step brings it back today)."""
    result = run("drill", input="x\n\n4\n" * count, bank=bank, env=env)
    assert result.exit_code == 0, result.output


def test_new_cards_take_turns_across_categories_in_proportion_to_their_size(
    run, tmp_path, isolated_home, state_file
):
    (isolated_home / "config.toml").write_text("[drill]\nfuzz = false\nnew_per_day = 4\n")
    bank = mixed_bank(tmp_path / "mixed")
    first = json.loads(run("next", "--json", bank=bank, env=NOW).output)
    assert (first["new"], first["next"]["id"]) == (4, "a1")
    drill_all(run, bank, NOW, 4)
    assert [r[0] for r in reviews(state_file)] == ["a1", "b1", "c1", "a2"]
    # Day two: b has the smallest share seen (1 of 4), then a, b and c at half each take turns.
    nxt = json.loads(run("next", "--json", bank=bank, env=DAY_TWO).output)
    assert (nxt["due"], nxt["new"], nxt["next"]["id"]) == (0, 4, "b2")
    drill_all(run, bank, DAY_TWO, 4)
    assert [r[0] for r in reviews(state_file)][4:] == ["b2", "a3", "b3", "c2"]


def test_a_category_drill_keeps_its_own_bank_order(run, tmp_path, isolated_home, state_file):
    (isolated_home / "config.toml").write_text("[drill]\nfuzz = false\nnew_per_day = 3\n")
    bank = mixed_bank(tmp_path / "mixed")
    result = run("drill", "-c", "b", input="x\n\n4\n" * 3, bank=bank, env=NOW)
    assert result.exit_code == 0, result.output
    assert [r[0] for r in reviews(state_file)] == ["b1", "b2", "b3"]


def test_interleave_leaves_out_the_last_items_of_every_group_alike():
    order = interleave(
        {"x": "x1 x2 x3 x4".split(), "y": ["y1", "y2"]}, {"x": 0, "y": 0}, {"x": 0.25, "y": 0.5}
    )
    assert order == ["x1", "y1", "x2", "x3", "y2", "x4"]
    ahead = interleave({"x": ["x1", "x2"], "y": ["y1", "y2"]}, {"x": 0.5, "y": 0.0}, {"x": 0.5, "y": 0.5})
    assert ahead == ["y1", "x1", "y2", "x2"]  # y catches up with x first, then they take turns


def test_a_declined_follow_up_is_not_the_next_card(run, state_file):
    # In bank order dp-batch-size, dp-vs-mp's follow-up, would come next.
    script = "x\n\n3\nn\nx\n\n3\nx\n\n3\n"
    result = run("drill", "-c", "parallelism", input=script, env=NOW)
    assert result.exit_code == 0, result.output
    assert "Drill this follow-up now?" in result.output
    assert [r[0] for r in reviews(state_file)] == ["dp-vs-mp", "zero-stages", "dp-batch-size"]
    shown = [line for line in result.output.splitlines() if line.startswith("Q (")]
    assert [line.split(")")[0] for line in shown] == ["Q (dp-vs-mp", "Q (zero-stages", "Q (dp-batch-size"]
