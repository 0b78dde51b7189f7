"""Today's part of the interview plan through the real command line: set as the day begins and
kept while it is answered, questions answered and due again never hidden, and what a drill of
some categories says it did."""

from __future__ import annotations

import json

from .support import GOOD, NOW

LATER = {"PREP_NOW": "2026-03-02T09:30:00+00:00"}  # the same day, past every learning step


def today(run, env) -> dict:  # type: ignore[no-untyped-def]
    return json.loads(run("plan", "--json", env=env).output)["days"][0]


def test_todays_part_stays_as_it_was_shown_while_it_is_answered(run):
    run("plan", "--interview", "+10d", "--minutes", "30", "--save", env=NOW)
    shown = today(run, NOW)
    assert shown["new"] == 4 and shown["reviews"] == 0
    first = run("drill", input=f"{GOOD}\n\n3\nn\nno idea\n\n1\nq\n", env=NOW)  # one Good, one Again, quit
    assert "Today 0 reviews and 4 new" in first.output
    assert "Interview plan: 2 of today's 4 questions answered" in first.output
    assert today(run, NOW) == shown and today(run, LATER) == shown  # not re-planned from the answers
    again = run("drill", input="q\n", env=LATER).output
    assert again.splitlines()[1].startswith(  # after the line naming the bank
        "Following your interview plan: interview Thu 12 Mar, in 10 days. Today 0 reviews and 4 new, "
        "about 7 of 30 minutes, 2 of them answered, +2 due again"  # the Good one's step, the Again
    )
    assert "Interview plan: 2 of today's 4 questions answered" in again
    other_minutes = run("plan", "--minutes", "5", "--json", env=LATER)  # a what-if: its own plan
    assert json.loads(other_minutes.stdout)["days"][0] != shown


def test_the_figures_now_count_what_was_answered_today(run):
    run("plan", "--interview", "+10d", "--minutes", "30", "--save", env=NOW)
    before = json.loads(run("plan", "--json", env=NOW).output)
    run("drill", input=f"{GOOD}\n\n3\nn\nq\n", env=NOW)
    after = json.loads(run("plan", "--json", env=LATER).output)
    assert (before["unseen"], after["unseen"]) == (4, 3)
    assert after["expected_recall_on_day"]["now"] > before["expected_recall_on_day"]["now"] == 0
    assert after["days"] == before["days"]


def test_a_question_answered_today_and_due_again_is_never_hidden(run, state_file):
    run("plan", "--interview", "+10d", "--minutes", "30", "--save", env=NOW)
    # Rated Good on its first answer: FSRS's learning step brings it back in 10 minutes.
    first = json.loads(run("drill", "--json", input=f"{GOOD}\n\n3\nn\nq\n", env=NOW).stdout)
    (answered,) = [result["question"] for result in first["results"] if result["rating"] == "good"]
    nxt = json.loads(run("next", "--json", env=NOW).output)
    assert first["due_left"] == nxt["due"] + nxt["new"] == 3  # what the summary calls due, next shows
    later = json.loads(run("next", "--json", env=LATER).output)
    assert later["due"] == 1 and later["next"]["id"] == answered and later["new"] == 3
    drill = run("drill", "--json", input="q\n", env=LATER)
    assert "[1/4] due" in drill.output and f"Q ({answered})" in drill.output
    assert json.loads(drill.stdout)["due_left"] == 4


def test_when_todays_part_is_done_nothing_is_called_due(run):
    run("plan", "--interview", "+10d", "--minutes", "30", "--save", env=NOW)
    answers = "".join(f"{GOOD}\n\n4\nn\n" for _ in range(4))  # Easy: no learning step to come back for
    done = run("drill", "--json", input=answers, env=NOW)
    summary = json.loads(done.stdout)
    assert summary["due_left"] == 0 and summary["next_due"].startswith("2026-03-03T00:00:00")
    assert "Today's part of the interview plan is done (4 of 4 answered)." in done.output
    assert "Nothing left in today's plan: all 4 answered." in run("drill", input="q\n", env=LATER).output
    assert json.loads(run("next", "--json", env=LATER).output)["next"] is None


def test_a_drill_of_some_categories_says_what_it_did_and_what_the_whole_plan_has_left(run):
    run("plan", "--interview", "+10d", "--minutes", "30", "--save", env=NOW)
    result = run("drill", "-c", "behavioral", input="It failed, I learned.\n\n3\n", env=NOW)
    assert (
        "Today's part of the interview plan for -c behavioral is done (1 of 1 answered). "
        "The whole bank's plan has 3 questions left today (3 of its 4 not yet answered): "
        "`prep drill` without filters asks them. `prep plan` shows the days ahead."
        in result.output.replace("\n", " ")
    )
    whole = run("drill", input="q\n", env=NOW).output
    assert "Today 0 reviews and 4 new, about 7 of 30 minutes, 1 of them answered;" in whole


TARGETS = {"dp-vs-mp": 60, "dp-batch-size": 90, "zero-stages": 45, "biggest-failure": 120}  # the test bank's


def test_plan_next_and_drill_count_the_questions_due_again_alike(run):
    run("plan", "--interview", "+10d", "--minutes", "30", "--save", env=NOW)
    # One Good (its learning step brings it back in 10 minutes) and one Again, then quit.
    first = json.loads(run("drill", "--json", input=f"{GOOD}\n\n3\nn\nno idea\n\n1\nq\n", env=NOW).stdout)
    answered = [result["question"] for result in first["results"]]
    assert len(answered) == 2
    minutes = sum(TARGETS[qid] for qid in answered) / 60

    plan = json.loads(run("plan", "--json", env=LATER).output)
    assert plan["days"][0]["new"] == 4 and plan["days"][0]["reviews"] == 0
    assert plan["due_again"] == {"questions": 2, "minutes": round(minutes, 1)}
    lines = run("plan", env=LATER).output.splitlines()
    (row,) = [i for i, line in enumerate(lines) if line.startswith("  Mon 02 Mar")]
    assert lines[row + 1] == (  # two answers, untimed: a minute each
        f"              2 min done; +2 due again (answered before), about {round(minutes)} minutes more"
    )

    nxt = run("next", env=LATER).output.splitlines()[0]
    assert nxt.startswith(
        "Today 0 reviews and 4 new, 2 of them answered, +2 due again · interview in 10 days."
    )
    data = json.loads(run("next", "--json", env=LATER).output)
    assert data["interview"]["today"] == {"reviews": 0, "new": 4, "answered": 2, "due_again": 2}
    assert (data["due"], data["new"]) == (2, 2)  # what is left: the two due again, the two new

    drill = run("drill", input="q\n", env=LATER).output
    assert (
        "Today 0 reviews and 4 new, about 7 of 30 minutes, 2 of them answered, +2 due again (answered "
        f"before, about {round(minutes)} minutes more: asked first);" in drill
    )
    assert "[1/4] due" in drill  # the two due again first, then the two new: four, as counted


def test_nothing_due_again_adds_no_line_under_today(run):
    run("plan", "--interview", "+10d", "--minutes", "30", "--save", env=NOW)
    run("drill", input=f"{GOOD}\n\n4\nn\nq\n", env=NOW)  # Easy: no learning step to come back for
    plan = json.loads(run("plan", "--json", env=LATER).output)
    assert plan["due_again"] == {"questions": 0, "minutes": 0.0}
    lines = run("plan", env=LATER).output.splitlines()
    (row,) = [i for i, line in enumerate(lines) if line.startswith("  Mon 02 Mar")]
    assert lines[row + 1] == "              1 min done" and lines[row + 2].startswith("  Tue 03 Mar")
    assert "due again" not in run("next", env=LATER).output


def test_half_a_minute_more_is_said_as_a_minute_not_as_none():
    from prep.cli.render_plan import _more

    assert [_more(0.2), _more(0.5), _more(1.4), _more(2.6)] == [
        "under a minute more",
        "about 1 minute more",
        "about 1 minute more",
        "about 3 minutes more",
    ]


def test_the_whole_plans_left_says_which_are_due_again(run):
    run("plan", "--interview", "+10d", "--minutes", "30", "--save", env=NOW)
    run("drill", "-c", "parallelism", input="no idea\n\n1\nq\n", env=NOW)  # Again: due again soon
    result = run("drill", "-c", "behavioral", input="It failed, I learned.\n\n3\n", env=LATER)
    assert (
        "The whole bank's plan has 3 questions left today (2 of its 4 not yet answered and 1 due "
        "again)" in result.output.replace("\n", " ")
    ), result.output
