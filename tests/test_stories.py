"""The story bank: stories in the answers files, named by the behavioral answers they fit, checked
by the loader, listed by `prep stories`, added by `prep add --story`, edited by `prep edit --story`
and printed on the cram sheet."""

from __future__ import annotations

import json
import sys

import pexpect

from .support import installed_prep, spawn_prep, terminal_env, write

STORIES = """\
stories:
  - id: label-mismatch
    title: The silent label mismatch
    situation: An upstream detection model changed its labels and our VLM quietly got worse.
    task: I had to find out why visual reasoning regressed.
    action: I audited the inputs and built a content-versioned compatibility check.
    result: Two weeks lost once; the check has stopped every mismatch since.
    metrics: [two weeks, every run checked]
"""


def with_story(bank_dir, named: str = "[label-mismatch]"):
    """The test bank with a story, named by the behavioral answer."""
    write(bank_dir / "answers" / "stories.yaml", STORIES)
    answers = bank_dir / "answers" / "answers.yaml"
    text = answers.read_text().replace(
        "  - question: biggest-failure\n", f"  - question: biggest-failure\n    stories: {named}\n"
    )
    answers.write_text(text)
    return bank_dir


def test_stories_list_what_each_covers_and_what_no_story_covers(run, bank_dir):
    empty = json.loads(run("stories", "--json").output)
    assert empty == {
        "stories": [],
        "uncovered": [{"id": "biggest-failure", "prompt": empty["uncovered"][0]["prompt"]}],
    }
    with_story(bank_dir)
    data = json.loads(run("stories", "--json").output)
    (story,) = data["stories"]
    assert story["id"] == "label-mismatch" and story["questions"] == ["biggest-failure"]
    assert story["metrics"] == ["two weeks", "every run checked"]
    assert story["file"].endswith("stories.yaml") and story["line"] == 2
    assert data["uncovered"] == []
    table = run("stories").output
    assert "label-mismatch" in table and "biggest-failure" in table
    assert "Every behavioral question has a story." in table


def test_stories_survive_the_parsed_bank_cache(run, bank_dir):
    with_story(bank_dir)
    first = run("stories", "--json").output
    assert run("stories", "--json").output == first  # the second run reads the cache


def test_an_answer_naming_no_story_is_located_with_a_suggestion(run, bank_dir):
    with_story(bank_dir, "[label-mismatch, label-mismach]")
    result = run("validate")
    assert result.exit_code == 2
    assert "answers.yaml:10:" in result.output
    assert "no story with id 'label-mismach'; did you mean 'label-mismatch'?" in result.output
    for command in (("stories",), ("validate",)):  # and again from the cache of the other files
        assert "label-mismach" in run(*command).output


def test_a_story_is_checked_field_by_field(run, bank_dir):
    with_story(bank_dir)
    path = bank_dir / "answers" / "stories.yaml"
    path.write_text(path.read_text().replace("    task:", "    tsk:"))
    result = run("validate")
    assert "stories.yaml:5:5: stories[0].tsk: unknown field 'tsk'; did you mean 'task'?" in result.output
    assert "missing required field 'task'" in result.output
    # The answer naming the broken story is not an error of its own.
    assert "no story with id" not in result.output


def test_a_story_id_is_defined_once(run, bank_dir):
    with_story(bank_dir)
    write(bank_dir / "answers" / "zz-more.yaml", STORIES)  # read after stories.yaml
    result = run("validate")
    assert result.exit_code == 2
    assert "zz-more.yaml:2:" in result.output
    assert "duplicate story id 'label-mismatch' (first defined at" in result.output


def test_stories_named_by_a_technical_answer_are_a_warning(run, bank_dir):
    with_story(bank_dir)
    answers = bank_dir / "answers" / "answers.yaml"
    answers.write_text(
        answers.read_text().replace(
            "    source: model\n", "    source: model\n    stories: [label-mismatch]\n"
        )
    )
    result = run("validate", "--json")
    report = json.loads(result.output)
    assert report["ok"] and report["stories"] == 1
    assert any("dp-vs-mp: the answer names stories" in w["message"] for w in report["warnings"])


def test_add_story_appends_it_and_names_it_in_the_answers_it_fits(run, bank_dir):
    with_story(bank_dir, "[]")
    stories, answers = bank_dir / "answers" / "stories.yaml", bank_dir / "answers" / "answers.yaml"
    before_stories, before_answers = stories.read_text(), answers.read_text()
    result = run(
        "add", "--story", "--title", "Cheaper GPUs, slower run", "--situation", "A 13B run had two options.",
        "--task", "I had to choose the hardware.", "--action", "I modeled the total cost of each.",
        "--result", "The A10 run was 40% cheaper.", "--metric", "40% cheaper", "--for", "biggest-failure",
        "--json",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    change = json.loads(result.output)
    assert change["id"] == "cheaper-gpus-slower-run" and change["covers"] == ["biggest-failure"]
    assert stories.read_text().startswith(before_stories)  # appended: every byte before it kept
    added = stories.read_text()[len(before_stories) :]
    assert "  - id: cheaper-gpus-slower-run\n    title: Cheaper GPUs, slower run\n" in added
    assert "    metrics: [40% cheaper]\n" in added
    assert answers.read_text() == before_answers.replace("stories: []", "stories: [cheaper-gpus-slower-run]")
    listed = json.loads(run("stories", "--json").output)["stories"]
    assert listed[1]["questions"] == ["biggest-failure"]


def test_the_first_story_of_a_bank_goes_to_its_own_file(run, bank_dir):
    answers = bank_dir / "answers" / "answers.yaml"
    before = answers.read_text()
    parts = ["--situation", "s.", "--task", "t.", "--action", "I did a.", "--result", "r, 2x."]
    result = run("add", "--story", "--title", "First", *parts, "--for", "biggest-failure")
    assert result.exit_code == 0, result.output
    assert "added story first to " in result.output and "answers/stories.yaml; named in" in result.output
    assert (bank_dir / "answers" / "stories.yaml").read_text().startswith("stories:\n  - id: first\n")
    # The answer gains a stories entry; the rest of its file stays as it was.
    assert answers.read_text().replace("    stories: [first]\n", "") == before


def test_add_story_refuses_what_the_bank_would_refuse_and_writes_nothing(run, bank_dir):
    with_story(bank_dir)
    files = {p: p.read_text() for p in (bank_dir / "answers").iterdir()}
    parts = ["--situation", "s", "--task", "t", "--action", "a", "--result", "r"]
    refusals = {
        ("--title", "x", "--situation", "s"): "--task is required with --story",
        ("--title", "x", *parts, "--for", "dp-vs-mp"): "'dp-vs-mp' is a technical question",
        ("--title", "x", *parts, "--for", "biggest-fail"): "did you mean 'biggest-failure'?",
        ("--title", "x", *parts, "--id", "label-mismatch"): "id 'label-mismatch' is already used",
        ("--title", "x", *parts, "--id", "Not An Id"): "not kebab-case",
        ("--title", " ", *parts): "--title: the title is empty; nothing was written",
        ("-p", "A question?", "--title", "x"): "--story adds a story",
    }
    for options, message in refusals.items():
        result = run("add", "--story", *options)
        assert result.exit_code != 0 and message in result.output, (options, result.output)
    assert "go with --story" in run("add", "--situation", "s").output
    assert {p: p.read_text() for p in (bank_dir / "answers").iterdir()} == files


def test_edit_story_opens_the_editor_at_the_story_and_validates_after(run, bank_dir, tmp_path):
    with_story(bank_dir)
    script = tmp_path / "editor.py"
    log = tmp_path / "editor.log"
    script.write_text(
        "import sys, pathlib\n"
        f"pathlib.Path({str(log)!r}).write_text(' '.join(sys.argv[1:]))\n"
        "path = pathlib.Path(sys.argv[-1])\n"
        "path.write_text(path.read_text().replace('title: The silent', 'titel: The silent'))\n"
    )
    result = run(
        "edit", "--story", "label-mismatch", input="r\n", env={"EDITOR": f"{sys.executable} {script}"}
    )
    assert log.read_text().endswith("stories.yaml")
    assert "unknown field 'titel'" in result.output and "reverted" in result.output
    assert "title: The silent" in (bank_dir / "answers" / "stories.yaml").read_text()
    missing = run("edit", "--story", "label-mismach", env={"EDITOR": "true"})
    assert "no story with id 'label-mismach'" in missing.output and "did you mean" in missing.output


def test_the_cram_sheet_tells_each_story_in_four_lines(run, bank_dir):
    with_story(bank_dir)
    sheet = run("export", "cram").output
    assert "- [Your stories](#your-stories)" in sheet
    assert "Stories: [The silent label mismatch](#story-label-mismatch)" in sheet
    section = sheet[sheet.index("## Your stories") :]
    block = section[section.index("### The silent label mismatch") :].split("\n\n")[1].splitlines()
    assert [line.split(":**")[0] for line in block] == [
        "- **Situation",
        "- **Task",
        "- **Action",
        "- **Result",
    ]
    assert block[3].endswith("has stopped every mismatch since. (two weeks; every run checked)")
    # A sheet without a behavioral question has no story section.
    assert "Your stories" not in run("export", "cram", "-c", "parallelism").output


def test_add_story_in_a_terminal_asks_part_by_part(bank_dir, state_file, isolated_home):
    """On a terminal, `prep add --story` asks for what the options leave out, and asks again for
    a question the story cannot be named in, so nothing typed is lost to a typo."""
    child = spawn_prep(
        bank_dir, state_file, "add", "--story", "--title", "Label mismatch", env=terminal_env(isolated_home)
    )
    try:
        for label, text in (
            ("Situation", "An upstream model changed its labels."),
            ("Task", "I had to find the regression."),
            ("Action", "I audited the inputs."),
            ("Result", "Two weeks lost, then a check on every run."),
        ):
            child.expect(label)
            child.sendline(text)
        child.expect("Numbers it can quote")
        child.sendline("two weeks")
        child.sendline("")
        child.expect("Questions this story fits")
        child.sendline("dp-vs-mp")
        child.expect("is a technical question: stories are for behavioral ones; try another")
        child.sendline("biggest-failure")
        child.sendline("")
        child.expect("added story label-mismatch")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0
    data = json.loads(run_json(bank_dir, state_file, isolated_home))
    (story,) = data["stories"]
    assert story["task"] == "I had to find the regression." and story["metrics"] == ["two weeks"]
    assert story["questions"] == ["biggest-failure"]


def run_json(bank_dir, state_file, home) -> str:
    import subprocess

    command = [installed_prep(), "--bank", str(bank_dir), "--state", str(state_file), "stories", "--json"]
    return subprocess.run(command, capture_output=True, text=True, env=terminal_env(home), check=True).stdout
