"""`prep plan` and the interview date through the real command line: the date and the budget,
the plan it shows and its JSON, drill following the plan and plain FSRS after the day, and what
stats, next and the cram sheet say about it."""

from __future__ import annotations

import json
import re
import sqlite3

import pytest

from .support import GOOD, NOW, no_state_yet, quick_path

KEYS = [
    "interview",
    "days_left",
    "minutes_per_day",
    "questions",
    "unseen",
    "expected_recall_on_day",
    "days",
    "at_risk",
    "due_again",
]
BAD_DATE, BAD_MINUTES = "invalid value for --interview: ", "invalid value for --minutes: "


def config(home) -> str:  # type: ignore[no-untyped-def]
    return (home / "config.toml").read_text()


def review_count(state_file) -> int:  # type: ignore[no-untyped-def]
    return sqlite3.connect(state_file).execute("SELECT COUNT(*) FROM reviews").fetchone()[0]


# --- the date and the budget -------------------------------------------------------------------


def test_a_date_and_a_budget_are_saved_in_the_config_and_shown(run, isolated_home):
    result = run("plan", "--interview", "2026-03-16", "--minutes", "30", "--save", env=NOW)
    assert result.exit_code == 0, result.output
    assert "[interview]\ndate = 2026-03-16\nminutes_per_day = 30\n" in config(isolated_home)
    assert "[drill]\nfuzz = false" in config(isolated_home)  # the rest of the file is kept
    assert "Interview Mon 16 Mar, in 14 days · 30 minutes a day" in result.output
    assert "Expected recall on the day: 0% now" in result.output
    shown = run("plan", env=NOW)
    assert shown.exit_code == 0 and "in 14 days" in shown.output and "Days ahead" in shown.output


def test_the_plan_says_how_many_questions_never_seen_it_cannot_reach(run):
    run("plan", "--interview", "+1d", "--minutes", "5", "--save", env=NOW)
    text = run("plan", env=NOW).output
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("At 5 minutes a day"))
    said = lines[start : lines.index("", start)]  # broken between words to the width, then a blank line
    assert len(said) > 2 and all(len(line) <= 120 for line in said)
    assert all(line.startswith(("  ", "Its minutes")) for line in said[1:])
    sentences = " ".join(line.strip() for line in said).replace(" Its minutes", "\nIts minutes")
    line, following = sentences.splitlines()
    reached, unseen = (
        int(word) for word in line.split("reaches ")[1].split(" questions")[0].split(" of the ")
    )
    data = json.loads(run("plan", "--json", env=NOW).output)
    assert reached == sum(day["new"] for day in data["days"]) < unseen == data["unseen"]
    reviews = sum(day["reviews"] for day in data["days"])
    assert following == (
        f"Its minutes go to first answers, with {f'{reviews} reviews in all' if reviews else 'no review'}: "
        "a first answer raises recall on the day more than a review does"
    )
    run("plan", "--interview", "+10d", "--minutes", "120", "--save", env=NOW)
    assert "stay unseen" not in run("plan", env=NOW).output  # time enough for all of them


def test_other_minutes_or_another_date_are_a_what_if_saved_only_when_asked(run, isolated_home, state_file):
    run("plan", "--interview", "+14d", "--minutes", "45", "--save", env=NOW)
    saved = config(isolated_home)
    what_if = run("plan", "--minutes", "120", env=NOW)
    assert what_if.exit_code == 0 and config(isolated_home) == saved
    assert "Interview Mon 16 Mar, in 14 days · 120 minutes a day" in what_if.stdout
    assert what_if.stderr == no_state_yet(state_file) + (
        "Not saved: drill follows the saved one (interview 2026-03-16, 45 minutes a day). "
        "`prep plan --interview 2026-03-16 --minutes 120 --save` makes drill follow this one.\n"
    )
    assert "45 minutes a day" in run("plan", env=NOW).output  # the saved plan, as it was
    assert "of 45 minutes" in run("drill", input="q\n", env=NOW).output
    other_day = run("plan", "--interview", "+7d", "--json", env=NOW)
    assert json.loads(other_day.stdout)["days_left"] == 7 and config(isolated_home) == saved


def test_saving_says_what_was_saved_and_how_to_go_back(run, isolated_home, state_file):
    first = run("plan", "--interview", "+14d", "--save", env=NOW)
    assert first.stderr.endswith(
        "interview 2026-03-16, 45 minutes a day (`prep plan --clear` forgets it)\n" + no_state_yet(state_file)
    )
    saved = config(isolated_home)
    changed = run("plan", "--minutes", "120", "--save", env=NOW)
    assert "date = 2026-03-16\nminutes_per_day = 120\n" in config(isolated_home)
    undo = "prep plan --interview 2026-03-16 --minutes 45 --save"
    assert changed.stderr.endswith(
        f"interview 2026-03-16, 120 minutes a day (before: interview 2026-03-16, 45 minutes a day; "
        f"`{undo}` goes back)\n" + no_state_yet(state_file)
    )
    assert run(*undo.split()[1:], env=NOW).exit_code == 0 and config(isolated_home) == saved
    cleared = run("plan", "--clear", env=NOW)
    assert cleared.output == f"Interview date cleared: drill is plain FSRS again (`{undo}` sets it again).\n"
    assert run(*undo.split()[1:], env=NOW).exit_code == 0 and config(isolated_home) == saved


def test_save_needs_something_to_keep(run, isolated_home):
    before = config(isolated_home)
    result = run("plan", "--save", env=NOW)
    assert result.exit_code == 2 and result.output.startswith(
        "prep: plan: --save keeps --interview or --minutes: give one of them\n"
    )
    assert config(isolated_home) == before


def test_a_date_not_saved_leaves_drill_on_plain_fsrs(run, isolated_home):
    result = run("plan", "--interview", "+14d", env=NOW)
    assert result.exit_code == 0 and "Interview Mon 16 Mar, in 14 days · 45 minutes a day" in result.stdout
    assert "Not saved: drill follows no plan." in result.stderr
    assert "[interview]" not in config(isolated_home)
    assert "interview" not in json.loads(run("next", "--json", env=NOW).output)


def test_plus_days_counts_from_today_and_the_budget_defaults_to_45(run, isolated_home):
    assert run("plan", "--interview", "+14d", "--save", env=NOW).exit_code == 0
    assert "date = 2026-03-16\nminutes_per_day = 45\n" in config(isolated_home)
    assert run("plan", "--minutes", "90", "--save", env=NOW).exit_code == 0  # keeps the date
    assert "date = 2026-03-16\nminutes_per_day = 90\n" in config(isolated_home)
    assert run("plan", "--interview", "+2w", "--save", env=NOW).exit_code == 0  # keeps the budget
    assert "date = 2026-03-16\nminutes_per_day = 90\n" in config(isolated_home)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--interview", "2026-03-01"], BAD_DATE + "2026-03-01 is in the past"),
        (["--interview", "2027-03-03"], BAD_DATE + "2027-03-03 is more than a year away"),
        (["--interview", "+400d"], BAD_DATE + "2027-04-06 is more than a year away"),
        (["--interview", "next week"], BAD_DATE + "'next week' is not a date"),
        (
            ["--interview", "+14d", "--minutes", "4"],
            BAD_MINUTES + "4 minutes a day is outside 5-600",
        ),
        (
            ["--interview", "+14d", "--minutes", "601"],
            BAD_MINUTES + "601 minutes a day is outside 5-600",
        ),
        (
            ["--interview", "+14d", "--minutes", "lots"],
            BAD_MINUTES + "'lots' is not a whole number",
        ),
    ],
)
def test_a_bad_date_or_budget_is_a_one_line_error_and_saves_nothing(run, isolated_home, args, message):
    before = config(isolated_home)
    result = run("plan", *args, env=NOW)
    assert result.exit_code == 2
    assert result.output.startswith(f"prep: plan: {message}")
    assert result.output.count("\n") == 2  # the error and where to look: `prep plan --help`
    assert config(isolated_home) == before


def test_today_is_a_date_a_year_ahead_is_too(run):
    assert run("plan", "--interview", "2026-03-02", "--save", env=NOW).exit_code == 0
    assert run("plan", "--interview", "2027-03-02", "--save", env=NOW).exit_code == 0


def test_minutes_alone_need_a_date_and_clear_forgets_it(run, isolated_home):
    result = run("plan", "--minutes", "30", "--save", env=NOW)
    assert result.exit_code == 1 and "no interview date is set" in result.output
    run("plan", "--interview", "+10d", "--save", env=NOW)
    cleared = run("plan", "--clear", env=NOW)
    assert cleared.exit_code == 0 and "cleared" in cleared.output
    assert "[interview]" not in config(isolated_home) and "fuzz = false" in config(isolated_home)
    assert "No interview date set" in run("plan", env=NOW).output
    assert json.loads(run("plan", "--json", env=NOW).output) == {"interview": None}
    run("plan", "--interview", "+10d", "--save", env=NOW)
    assert json.loads(run("plan", "--clear", "--json", env=NOW).stdout) == {"interview": None}
    assert run("plan", "--clear", "--minutes", "30", env=NOW).exit_code == 2


def test_a_bad_interview_section_in_the_config_names_its_line(run, isolated_home):
    (isolated_home / "config.toml").write_text(
        "[drill]\nfuzz = false\n\n[interview]\ndate = 2026-03-16\nminutes_per_day = 3\n"
    )
    result = run("plan", env=NOW)
    assert result.exit_code == 1
    assert "config.toml:6: minutes_per_day must be a whole number from 5 to 600, not 3" in result.output
    (isolated_home / "config.toml").write_text('[interview]\ndate = "soon"\n')
    assert "config.toml:2: [interview] date must be a date" in run("plan", env=NOW).output
    (isolated_home / "config.toml").write_text("[interview]\ndate = 2030-01-01\n")
    result = run("plan", env=NOW)
    assert (
        result.exit_code == 1
        and "config.toml:2: the interview date 2030-01-01 is more than a year away" in result.output
    )


def test_a_bad_interview_section_is_mended_by_clear_or_a_new_date(run, isolated_home):
    (isolated_home / "config.toml").write_text('[drill]\nfuzz = false\n\n[interview]\ndate = "soon"\n')
    cleared = run("plan", "--clear", env=NOW)
    assert cleared.exit_code == 0 and "cleared" in cleared.output
    assert "[interview]" not in config(isolated_home) and "fuzz = false" in config(isolated_home)
    (isolated_home / "config.toml").write_text("[interview]\nminutes_per_day = 30\n")
    assert run("next", env=NOW).exit_code == 1  # refused, with the line and the way out
    mended = run("plan", "--interview", "+10d", "--save", env=NOW)
    assert mended.exit_code == 0 and "date = 2026-03-12" in config(isolated_home)
    assert run("next", env=NOW).exit_code == 0


def test_clear_with_a_date_is_refused_as_every_bad_command_line_is(run, isolated_home):
    run("plan", "--interview", "+10d", "--save", env=NOW)
    before = config(isolated_home)
    for extra in (["--interview", "+3d"], ["--minutes", "30"]):
        result = run("plan", "--clear", *extra, env=NOW)
        assert result.exit_code == 2
        assert result.output == (
            "prep: plan: --clear cannot go with --interview, --minutes or --save\n  see `prep plan --help`\n"
        )
    assert config(isolated_home) == before


def test_the_hint_for_a_missing_date_gives_a_date_ahead(run):
    example = run("plan", env=NOW).output.split("--interview ", 1)[1].split()[0]
    assert example == "2026-03-16"  # two weeks from today, never a past date


# --- the plan ------------------------------------------------------------------------------------


def test_plan_json_has_exactly_the_shape_of_the_spec(run):
    run("plan", "--interview", "+5d", "--minutes", "20", "--save", env=NOW)
    data = json.loads(run("plan", "--json", env=NOW).output)
    assert list(data) == KEYS
    assert data["interview"] == "2026-03-07" and data["days_left"] == 5 and data["minutes_per_day"] == 20
    assert data["questions"] == 4 and data["unseen"] == 4
    assert data["expected_recall_on_day"]["now"] == 0 and 0 < data["expected_recall_on_day"]["with_plan"] <= 1
    assert [d["date"] for d in data["days"]] == [
        "2026-03-02",
        "2026-03-03",
        "2026-03-04",
        "2026-03-05",
        "2026-03-06",
    ]
    assert sum(d["new"] for d in data["days"]) == 4 and all(d["minutes"] <= 20 for d in data["days"])
    filtered = json.loads(run("plan", "-c", "behavioral", "--json", env=NOW).output)
    assert filtered["questions"] == 1


def test_the_categories_stand_under_a_title_with_their_columns_apart(run, tmp_path):
    bank = tmp_path / "short"
    (bank / "questions").mkdir(parents=True)
    (bank / "questions" / "rl.yaml").write_text(
        "category: rl\ntitle: RL\nquestions:\n  - id: ppo-clip\n    prompt: Why does PPO clip?\n"
        "    key_points: [it keeps the new policy near the old one]\n"
    )
    run("plan", "--interview", "+10d", "--save", bank=bank, env=NOW)
    lines = run("plan", "-c", "rl", bank=bank, env=NOW).output.splitlines()
    title = lines.index("By category, weakest first")
    header, row = lines[title + 1], lines[title + 2]
    # Every column apart from the next by two spaces at least, its name above it.
    assert re.split(r"\s{2,}", header.strip()) == ["category", "questions", "unseen", "now", "with plan"]
    assert re.split(r"\s{2,}", row.strip())[:3] == ["RL", "1", "1"]
    assert header.index("questions") + len("questions") == row.index("1") + 1


def test_the_quick_path_answers_plan_without_typer_with_the_same_json(
    run, bank_dir, state_file, isolated_home
):
    run("plan", "--interview", "+9d", "--save", env=NOW)
    through_typer = run("plan", "--json", env=NOW)
    argv = ["--bank", str(bank_dir), "--state", str(state_file), "plan", "--json"]
    code, loaded, printed = quick_path(argv, {"PREP_HOME": str(isolated_home), **NOW, "PATH": ""})
    assert (code, loaded) == (0, False)
    assert json.loads(printed) == json.loads(through_typer.output)


# --- drill follows the plan, and plain FSRS after the day ---------------------------------------


def test_drill_follows_the_plan_while_the_interview_is_ahead(run, isolated_home, state_file):
    (isolated_home / "config.toml").write_text("[drill]\nfuzz = false\nnew_per_day = 1\n")
    plain = json.loads(run("next", "--json", env=NOW).output)
    assert plain["new"] == 1 and "interview" not in plain  # FSRS: one new card a day
    run("plan", "--interview", "+10d", "--minutes", "30", "--save", env=NOW)
    planned = json.loads(run("plan", "--json", env=NOW).output)
    today = planned["days"][0]
    assert today["new"] == 4  # new questions follow from what is left, not from new_per_day
    result = run("drill", input="q\n", env=NOW)
    assert result.exit_code == 0
    assert result.output.splitlines()[0].startswith("Bank: ")  # the bank it drills, then the plan
    assert result.output.splitlines()[1].startswith(
        "Following your interview plan: interview Thu 12 Mar, in 10 days. Today 0 reviews and 4 new"
    )
    assert "[1/4] new" in result.output
    assert "Interview plan: 0 of today's 4 questions answered" in result.output
    nxt = json.loads(run("next", "--json", env=NOW).output)
    today = {"reviews": 0, "new": 4, "answered": 0, "due_again": 0}
    assert nxt["new"] == 4 and nxt["interview"] == {"date": "2026-03-12", "days_left": 10, "today": today}


def test_drill_goes_back_to_plain_fsrs_after_the_day_keeping_every_review(run, isolated_home, state_file):
    run("plan", "--interview", "+3d", "--minutes", "30", "--save", env=NOW)
    script = (GOOD + "\n\n3\nn\n") + ("x\n\n3\n" * 6)
    first = run("drill", input=script, env=NOW)
    assert "Following your interview plan" in first.output
    kept = review_count(state_file)
    assert kept >= 4
    done = run("drill", input="q\n", env=NOW)
    assert "Nothing left in today's plan" in done.output and "[1/" not in done.output
    after = {"PREP_NOW": "2026-03-06T09:00:00+00:00"}  # the day after the interview
    again = run("drill", "--json", input="q\n", env=after)
    assert "interview plan" not in again.output
    assert review_count(state_file) == kept  # nothing was lost or rewritten
    nxt = json.loads(run("next", "--json", env=after).output)
    assert "interview" not in nxt
    due = (
        sqlite3.connect(state_file)
        .execute("SELECT COUNT(*) FROM cards WHERE due <= '2026-03-06T09:00:00.000000Z'")
        .fetchone()[0]
    )
    assert nxt["due"] == due  # plain FSRS: the cards due by their own schedule
    shown = run("plan", env=after)
    assert "was 1 day ago: drill is back to plain FSRS" in shown.output
    assert "Expected recall today:" in shown.output and "Days ahead" not in shown.output


def test_a_question_failed_in_a_session_quit_early_comes_back_in_the_next_one(run, state_file):
    run("plan", "--interview", "+10d", "--minutes", "30", "--save", env=NOW)
    assert json.loads(run("plan", "--json", env=NOW).output)["days"][0]["reviews"] == 0
    run("drill", input="no idea\n\n1\nq\n", env=NOW)  # rated Again, then quit
    (failed,) = (
        sqlite3.connect(state_file).execute("SELECT question_id FROM reviews WHERE rating = 1").fetchone()
    )
    later = {"PREP_NOW": "2026-03-02T09:05:00+00:00"}  # past its one-minute learning step
    nxt = json.loads(run("next", "--json", env=later).output)
    assert nxt["due"] == 1 and nxt["next"]["id"] == failed and nxt["next"]["reason"] == "due", nxt
    again = run("drill", "--json", input="q\n", env=later)
    assert (
        "Today 0 reviews and 4 new, about 7 of 30 minutes, 1 of them answered, +1 due again (answered "
        "before, about 2 minutes more: asked first);" in again.output  # biggest-failure: 120 s
    )
    assert "[1/4] due" in again.output


def test_the_opening_line_says_how_much_of_the_plan_a_capped_session_asks(run):
    run("plan", "--interview", "+10d", "--minutes", "30", "--save", env=NOW)
    capped = run("drill", "--new", "1", input="q\n", env=NOW).output
    assert "Today 0 reviews and 4 new" in capped and "This session asks 1 of them." in capped
    none = run("drill", "--new", "0", input="q\n", env=NOW).output
    assert "Nothing to ask: --new or --limit leaves none of today's 4 planned questions." in none


def test_a_drill_on_the_day_itself_is_plain_fsrs(run):
    run("plan", "--interview", "+1d", "--save", env=NOW)
    on_the_day = {"PREP_NOW": "2026-03-03T09:00:00+00:00"}
    assert "Following your interview plan" not in run("drill", input="q\n", env=on_the_day).output
    assert "Interview today" in run("plan", env=on_the_day).output


# --- readiness in stats and next, and the cram sheet -------------------------------------------


def test_stats_shows_readiness_and_its_json_carries_the_plan(run):
    plain = json.loads(run("stats", "--json", env=NOW).output)
    assert "interview" not in plain
    run("plan", "--interview", "+6d", "--minutes", "15", "--save", env=NOW)
    data = json.loads(run("stats", "--json", env=NOW).output)
    assert data["interview"] == json.loads(run("plan", "--json", env=NOW).output)
    text = run("stats", env=NOW).output
    assert "Interview Sun 08 Mar, in 6 days · 15 minutes a day" in text
    assert "Expected recall on the day: 0% now" in text and "Days ahead" in text and "Parallelism" in text


def test_next_says_how_many_days_are_left(run):
    run("plan", "--interview", "+12d", "--save", env=NOW)
    result = run("next", env=NOW)
    assert "interview in 12 days" in result.stdout.splitlines()[0]
    run("plan", "--interview", "+1d", "--save", env=NOW)
    assert "interview in 1 day." in run("next", env=NOW).output


def test_the_cram_sheet_for_the_interview_puts_the_least_likely_recalled_first(run):
    assert run("export", "cram", "--for-interview", env=NOW).exit_code == 1  # no date yet
    # Review dp-vs-mp well, zero-stages badly, a week before the interview: unseen ones first,
    # then zero-stages, and dp-vs-mp last.
    run("drill", "-c", "parallelism", input=GOOD + "\n\n4\nn\nno idea\n\n1\nno idea\n\n1\nq\n", env=NOW)
    run("plan", "--interview", "+7d", "--save", env=NOW)
    sheet = run("export", "cram", "--for-interview", env=NOW).output
    assert sheet.startswith("# Interview cram sheet for Monday 09 March 2026")
    order = [
        qid for qid in ("biggest-failure", "zero-stages", "dp-batch-size", "dp-vs-mp") if f"`{qid}`" in sheet
    ]
    positions = {qid: sheet.index(f"`{qid}`") for qid in order}
    assert positions["dp-vs-mp"] == max(positions.values())
    assert positions["zero-stages"] > positions["biggest-failure"]  # an unseen question: nothing to recall
    weakest = run("export", "cram", "--for-interview", "--weakest", "1", env=NOW).output
    assert "`biggest-failure`" in weakest and "`dp-vs-mp`" not in weakest


def test_the_cram_sheet_for_the_interview_puts_the_category_least_likely_recalled_first(run, tmp_path):
    bank = tmp_path / "two"
    (bank / "questions").mkdir(parents=True)
    for category, ids in (("alpha", ("a-one", "a-two")), ("beta", ("b-one",))):
        items = "".join(
            f"  - id: {qid}\n    prompt: What does {qid} do?\n    key_points: [it does {qid}]\n"
            for qid in ids
        )
        (bank / "questions" / f"{category}.yaml").write_text(
            f"category: {category}\ntitle: {category.title()}\nquestions:\n{items}"
        )
    run("drill", "-c", "alpha", input="it does a-one\n\n4\nn\nq\n", bank=bank, env=NOW)
    run("plan", "--interview", "+7d", "--save", bank=bank, env=NOW)
    sheet = run("export", "cram", "--for-interview", bank=bank, env=NOW).output
    # Both categories have a question never seen; Alpha has one it will recall, Beta none.
    assert sheet.index("\n## Beta") < sheet.index("\n## Alpha")
    assert sheet.index("`a-one`") > sheet.index("`a-two`")  # within it, lowest first
