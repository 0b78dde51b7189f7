"""list, show and search as a user runs them."""

from __future__ import annotations

import json


def test_help_lists_every_command(run):
    result = run("--help")
    assert result.exit_code == 0
    for command in (
        "validate",
        "list",
        "show",
        "search",
        "grade",
        "drill",
        "next",
        "add",
        "stats",
        "export",
        "state",
        "import",
        "optimize",
        "history",
        "mv",
        "rm",
        "edit",
        "answer",
    ):
        assert f"\n  {command} " in result.output


def test_every_command_and_option_has_help_text():
    import typer

    from prep.cli.app import app

    group = typer.main.get_command(app)
    assert group.help
    for param in group.params:
        assert param.help, param.name
    commands = [(name, group.get_command(None, name)) for name in group.list_commands(None)]
    assert len(commands) >= 18
    while commands:
        name, command = commands.pop()
        assert command.help, name
        if hasattr(command, "list_commands"):  # a group such as export or state
            commands += [
                (f"{name} {sub}", command.get_command(None, sub)) for sub in command.list_commands(None)
            ]
        for param in command.params:
            if param.param_type_name == "option":
                assert param.help, f"{name} --{param.name} has no help"
            else:
                assert getattr(param, "help", None), f"{name} {param.name} has no help"


def test_list_shows_all_questions(run):
    result = run("list")
    assert result.exit_code == 0
    for qid in ("dp-vs-mp", "dp-batch-size", "zero-stages", "biggest-failure"):
        assert qid in result.output
    assert "4 questions" in result.output


def test_list_filters_by_category_tag_and_kind(run):
    assert "biggest-failure" not in run("list", "--category", "parallelism").output
    tagged = json.loads(run("list", "--tag", "zero", "--json").output)
    assert [q["id"] for q in tagged] == ["zero-stages"]
    behavioral = json.loads(run("list", "--kind", "behavioral", "--json").output)
    assert [q["id"] for q in behavioral] == ["biggest-failure"]


def test_list_unknown_category_suggests(run):
    result = run("list", "--category", "paralelism")
    assert result.exit_code == 1
    assert "no category 'paralelism'" in result.output
    assert "did you mean 'parallelism'?" in result.output


def test_list_search_is_fuzzy(run):
    data = json.loads(run("list", "--search", "zero stagse", "--json").output)
    assert data[0]["id"] == "zero-stages"


def test_list_json_carries_the_schema_fields(run):
    data = json.loads(run("list", "--json").output)
    first = next(q for q in data if q["id"] == "dp-vs-mp")
    assert first["id"] == "dp-vs-mp"
    assert first["category"] == "parallelism"
    assert first["key_points"][0]["aliases"]
    assert first["answer"].startswith("In data parallelism")
    assert first["answer_source"] == "model"


def test_show_renders_question_answer_and_follow_ups(run):
    result = run("show", "dp-vs-mp")
    assert result.exit_code == 0
    out = result.output
    assert "What is the difference between data parallelism" in out
    assert "Key points" in out and "all-reduce" in out
    assert "Don't say" in out
    assert "Model answer" in out
    assert "dp-batch-size" in out and "What global batch size" in out


def test_show_no_answer_hides_it(run):
    assert "Model answer" not in run("show", "dp-vs-mp", "--no-answer").output


def test_show_unknown_id_is_one_line_error(run):
    result = run("show", "dp-vs-np")
    assert result.exit_code == 1
    assert "no question with id 'dp-vs-np'" in result.output
    assert "did you mean 'dp-vs-mp'?" in result.output
    assert "Traceback" not in result.output


def test_search_ranks_and_names_the_field(run):
    data = json.loads(run("search", "label definitions changed", "--json").output)
    assert data[0]["id"] == "biggest-failure"
    assert data[0]["field"] == "answer"


def test_search_empty_text_is_an_error(run):
    result = run("search", "  ")
    assert result.exit_code == 1
    assert "empty" in result.output


def test_version(run):
    result = run("--version")
    assert result.exit_code == 0
    assert result.output.startswith("prep ")


def test_usage_errors_exit_2_in_prep_words(run):
    # A command line prep cannot parse exits 2, as README's "Exit codes" says, in prep's one-line
    # form (tests/test_usage_errors.py has the wording of each kind).
    for argv in (["--bogus"], ["list", "--bogus"], ["drill", "--mode", "nope"], ["show"]):
        result = run(*argv)
        assert result.exit_code == 2, argv
        assert "Traceback" not in result.output
        assert result.stderr.startswith("prep: ") and len(result.stderr.splitlines()) == 2, argv


def test_debug_shows_the_traceback(run):
    import pytest

    from prep.errors import NotFound

    with pytest.raises(NotFound):
        run("--debug", "show", "nope")


def test_show_keeps_the_target_time_in_a_narrow_terminal(run):
    for columns in ("80", "50"):
        result = run("show", "dp-vs-mp", env={"COLUMNS": columns})
        assert result.exit_code == 0
        assert "target 60s" in result.output
        assert max(len(line) for line in result.output.splitlines()) <= int(columns)


def test_help_names_values_in_words_not_python_types(run):
    """Every option's value is named for the user (TEXT, N, FILE), not by its Python type.
    (Arguments keep typer's own "ID <str>" form: it has no setting for them.)"""
    from prep.cli.app import COMMANDS

    commands = [[name] for name in COMMANDS if name not in ("export", "state")]
    commands += [["export", sub] for sub in ("cram", "anki", "csv")]
    commands += [["state", sub] for sub in ("export", "import", "check", "prune")]
    for command in commands:
        result = run(*command, "--help", env={"COLUMNS": "200"})
        assert result.exit_code == 0, command
        options = [line for line in result.output.splitlines() if line.lstrip().startswith("-")]
        for python_type in ("<str>", "<list[", "range>", "<int>", "<float>"):
            assert not [line for line in options if python_type in line], (command, python_type)


def test_notes_are_shown_and_in_the_cram_sheet(run, tmp_path):
    from .support import write

    bank = tmp_path / "noted"
    write(
        bank / "questions" / "c.yaml",
        "category: c\ntitle: C\nquestions:\n  - id: noted\n"
        "    prompt: What is a KV cache?\n    notes: asked twice at the onsite\n",
    )
    assert "asked twice at the onsite" in run("show", "noted", bank=bank).output
    assert "**Notes:** asked twice at the onsite" in run("export", "cram", bank=bank).output


def test_list_and_search_never_crop_words_in_a_narrow_terminal(run, tmp_path):
    from .support import write

    prompts = {
        "mixture-of-experts-routing-basics": (
            "How does token routing work in a mixture-of-experts layer, and what keeps the experts "
            "balanced when some of them are far more popular than others?"
        ),
        "dpo-implicit-reward-and-reference": (
            "Explain the implicit reward in DPO and what goes wrong when the reference model drifts."
        ),
    }
    bank = tmp_path / "narrow"
    write(
        bank / "questions" / "transformers.yaml",
        "category: transformers\ntitle: T\nquestions:\n"
        + "".join(f"  - id: {qid}\n    prompt: {prompt}\n" for qid, prompt in prompts.items()),
    )
    write(
        bank / "questions" / "ab.yaml",
        "category: ab\ntitle: AB\nquestions:\n  - id: other\n    prompt: Why?\n",
    )
    allowed = {w for text in [*prompts.values(), "Why?"] for w in text.split()}
    allowed |= {
        *prompts,
        "other",
        "transformers",
        "ab",
        "id",
        "category",
        "prompt",
        "match",
        "kind",
        "diff",
        "questions",
        "question",
        "matches",
    }
    for columns in ("80", "60"):
        for command in (["list"], ["search", "token routing"]):
            result = run(*command, bank=bank, env={"COLUMNS": columns})
            assert result.exit_code == 0
            words = {
                w for line in result.output.splitlines() for w in line.split() if not set(w) <= set("─━")
            }
            words = {w for w in words if not w.isdigit() and not any(w in qid for qid in prompts)}
            assert words - allowed <= {"prompt", "id", "key", "point", "tag", "answer"}, (
                columns,
                command,
                words - allowed,
            )


def test_list_and_search_keep_long_ids_whole_in_an_80_column_terminal(run, bank_dir):
    long_id = "zero-stages-memory-and-communication-cost"
    path = bank_dir / "questions" / "parallelism.yaml"
    path.write_text(path.read_text().replace("id: zero-stages", f"id: {long_id}"))
    for args in (("list",), ("search", "zero stages shard")):
        result = run(*args, env={"COLUMNS": "80"})
        assert result.exit_code == 0, result.output
        assert long_id in result.output.split(), (args, result.output)


def test_show_lists_key_points_plainly_and_their_other_phrasings_on_request(run):
    plain = run("show", "dp-vs-mp")
    assert plain.exit_code == 0
    assert "each device keeps a complete copy of the weights" not in plain.output  # an alias of a key point
    assert "prep show --aliases" in plain.output
    full = run("show", "dp-vs-mp", "--aliases")
    assert "= each device keeps a complete copy of the weights" in full.output


def test_search_needs_every_word_of_the_query_not_just_one(run, bank_dir):
    """'zero stages' finds the ZeRO question; a field that only shares 'stages' does not come up."""
    path = bank_dir / "questions" / "parallelism.yaml"
    path.write_text(
        path.read_text().replace("tags: [distributed]", "tags: [distributed, pipeline-stages]", 1)
    )
    hits = json.loads(run("search", "zero stages", "--json").output)
    assert [h["id"] for h in hits] == ["zero-stages"]
    typo = json.loads(run("search", "zero stagse", "--json").output)  # a typo in a word still finds it
    assert typo and typo[0]["id"] == "zero-stages"


def test_search_counts_the_words_of_the_query_anywhere_in_the_question(run, bank_dir):
    """'zero optimizer memory': the ZeRO question says 'zero' in its prompt, 'optimizer' in a
    key point and 'memory' in a tag; no field has all three words, and it is still the best match."""
    hits = json.loads(run("search", "zero optimizer memory", "--json").output)
    assert hits and hits[0]["id"] == "zero-stages"


def test_search_finds_other_forms_of_a_word_and_symbols_like_cpp(run, bank_dir):
    assert json.loads(run("search", "zero sharding", "--json").output)[0]["id"] == "zero-stages"  # shards
    path = bank_dir / "questions" / "parallelism.yaml"
    path.write_text(
        path.read_text().replace(
            "What do the three ZeRO stages shard?", "What do the three ZeRO stages shard, in C++ terms?"
        )
    )
    hits = json.loads(run("search", "C++", "--json").output)
    assert [h["id"] for h in hits] == ["zero-stages"]


def test_the_category_column_keeps_a_category_id_whole(run, bank_dir):
    write_path = bank_dir / "questions" / "gpu.yaml"
    write_path.write_text(
        "category: gpu-performance\ntitle: GPU performance\nquestions:\n"
        "  - id: occupancy\n    prompt: What limits occupancy on a GPU?\n"
        "    key_points: [registers and shared memory]\n"
    )
    output = run("list", env={"COLUMNS": "120"}).output
    assert "gpu-performance" in output  # not "gpu-performanc" with "e" on the next line
