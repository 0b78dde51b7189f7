"""Exports checked against real parsers: markdown-it for the cram sheet, Anki's own backend for .apkg.

CSV export and import are tested in test_csv.py."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from markdown_it import MarkdownIt

from prep.bank.load import load_bank
from prep.exchange.cram import cram_sheet, md_inline
from prep.paths import BankLocation

from .support import GOOD, write

NOW = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)

NASTY = """\
category: nasty
title: "Nasty | titles # and <b>tags</b>"
questions:
  - id: nasty-one
    prompt: "# Not a heading | not a cell <script>alert(1)</script> `code` *stars* [link](http://x)"
    key_points:
      - "---"
      - "1. not a list item"
      - "> not a quote"
    pitfalls: ["<img src=x onerror=alert(1)>"]
    follow_ups: [nasty-two]
  - id: nasty-two
    prompt: Plain follow-up?
    kind: ask
"""
NASTY_ANSWERS = """\
answers:
  - question: nasty-one
    answer: |
      First line.
      ---
      # still not a heading
      <script>evil()</script>
"""


@pytest.fixture
def nasty_bank(tmp_path):
    root = tmp_path / "nasty"
    write(root / "questions" / "nasty.yaml", NASTY)
    write(root / "answers" / "nasty.yaml", NASTY_ANSWERS)
    return load_bank(BankLocation(root, "option"))


def _tokens(markdown: str):
    return MarkdownIt("commonmark").parse(markdown)


def _inline_texts(tokens, tag):
    texts, inside = [], False
    for t in tokens:
        if t.type == f"{tag}_open" if tag != "h" else t.type == "heading_open":
            inside = t.tag if tag == "h" else True
        elif t.type == "inline" and inside:
            texts.append((inside, t.content))
            inside = False
    return texts


def test_cram_sheet_structure(bank_dir):
    bank = load_bank(BankLocation(bank_dir, "option"))
    md = cram_sheet(bank, list(bank.questions.values()), NOW)
    tokens = _tokens(md)
    headings = [(t.tag, tokens[i + 1].content) for i, t in enumerate(tokens) if t.type == "heading_open"]
    assert headings[0] == ("h1", "Interview cram sheet")
    assert ("h2", "Contents") in headings
    assert ("h2", "Parallelism") in headings and ("h2", "Behavioral") in headings
    assert ("h3", "What do the three ZeRO stages shard?") in headings
    # Every link in the contents points at an anchor that exists in the document.
    html = MarkdownIt("commonmark").render(md)
    links = [
        c.attrs["href"]
        for t in tokens
        if t.type == "inline"
        for c in (t.children or [])
        if c.type == "link_open"
    ]
    assert len(links) >= 6
    for href in links:
        assert href.startswith("#") and f'id="{href[1:]}"' in html, href
    # Key points are a real bullet list, the answer a real blockquote, pitfalls under "Don't say".
    assert any(t.type == "bullet_list_open" for t in tokens)
    assert any(t.type == "blockquote_open" for t in tokens)
    assert "**Don't say:**" in md


def test_yaml_text_cannot_break_the_document(nasty_bank):
    md = cram_sheet(nasty_bank, list(nasty_bank.questions.values()), NOW)
    tokens = _tokens(md)
    html = MarkdownIt("commonmark").render(md)
    assert "<script>" not in html and "<img" not in html
    headings = [tokens[i + 1].content for i, t in enumerate(tokens) if t.type == "heading_open"]
    assert sum(h.startswith("\\# Not a heading") for h in headings) == 1  # one h3, escaped, not split
    assert not any(t.type == "hr" for t in tokens)
    assert not any(t.type == "ordered_list_open" for t in tokens)
    inline_children = [c for t in tokens if t.type == "inline" for c in (t.children or [])]
    assert not any(
        c.type in ("code_inline", "em_open", "strong_open") and "stars" in str(c.content)
        for c in inline_children
    )
    rendered_h3 = next(line for line in html.splitlines() if line.startswith("<h3>"))
    assert "&lt;script&gt;" in rendered_h3 and "*stars*" in rendered_h3 and "`code`" in rendered_h3


def test_md_inline_escapes():
    assert md_inline("a | b") == "a \\| b"
    assert md_inline("<b>") == "&lt;b&gt;"


def test_questions_only_and_ask_section(nasty_bank):
    md = cram_sheet(
        nasty_bank,
        list(nasty_bank.questions.values()),
        NOW,
        __import__("prep.exchange.cram", fromlist=["CramOptions"]).CramOptions(
            questions_only=True, ask_section=True
        ),
    )
    assert "First line" not in md and "Don't say" not in md
    assert "## Questions to ask" in md and "Plain follow-up?" in md.split("## Questions to ask")[1]


def test_export_cram_command_to_file(run, tmp_path):
    out = tmp_path / "sheet.md"
    result = run("export", "cram", "-o", str(out), "--category", "parallelism")
    assert result.exit_code == 0, result.output
    text = out.read_text()
    assert "What do the three ZeRO stages shard?" in text and "biggest-failure" not in text


def test_export_cram_weakest_first(run, tmp_path):
    env = {"PREP_NOW": "2026-03-02T09:00:00+00:00"}
    # dp-vs-mp Again (its follow-up declined), zero-stages Easy, dp-batch-size Again
    run("drill", "--category", "parallelism", input="nothing\n\n1\nno\nstage 1\n\n4\n\n1\n", env=env)
    result = run("export", "cram", "--weakest", "2", env={"PREP_NOW": "2026-03-20T09:00:00+00:00"})
    assert result.exit_code == 0, result.output
    assert result.output.count("### ") == 2
    assert "What do the three ZeRO stages shard?" not in result.output  # rated Easy: not weak


def test_export_cram_weakest_puts_never_seen_questions_before_one_just_rated_easy(run, bank_dir):
    """Nothing is weaker than a question never seen: the sheet of the weakest does not keep a
    question just rated Easy while unseen ones are left out."""
    env = {"PREP_NOW": "2026-03-02T09:00:00+00:00"}
    run("drill", "--category", "parallelism", "--limit", "1", input=f"{GOOD}\n\n4\nn\nq\n", env=env)
    result = run("export", "cram", "--weakest", "3", env=env)
    assert result.exit_code == 0, result.output
    assert result.output.count("### ") == 3
    assert "What is the difference between data parallelism and model parallelism?" not in result.output


def test_export_cram_due(run):
    env = {"PREP_NOW": "2026-03-02T09:00:00+00:00"}
    run("drill", "--category", "parallelism", "--limit", "1", input="nothing\n\n1\nn\n", env=env)
    result = run("export", "cram", "--due", env={"PREP_NOW": "2026-03-02T10:00:00+00:00"})
    assert result.output.count("### ") == 1 and "dp-vs-mp" in result.output


def test_anki_package_imports_into_real_anki_without_duplicates(run, tmp_path, bank_dir):
    from anki.collection import Collection, ImportAnkiPackageRequest

    apkg = tmp_path / "deck.apkg"
    assert run("export", "anki", "-o", str(apkg)).exit_code == 0
    col = Collection(str(tmp_path / "collection.anki2"))
    try:
        col.import_anki_package(ImportAnkiPackageRequest(package_path=str(apkg)))
        assert col.note_count() == 4
        deck_names = {d.name for d in col.decks.all_names_and_ids()}
        assert {"prep", "prep::Parallelism", "prep::Behavioral"} <= deck_names
        [nid] = col.find_notes("Id:dp-vs-mp")
        note = col.get_note(nid)
        assert "data parallelism" in note["Prompt"]
        assert "all-reduce" in note["KeyPoints"]
        assert set(note.tags) >= {"parallelism", "distributed", "ddp"}
        # Edit the question, export again, import again: updated in place, not duplicated.
        path = bank_dir / "questions" / "parallelism.yaml"
        path.write_text(path.read_text().replace("What is the difference between", "Contrast"))
        import time

        time.sleep(1.1)  # Anki updates notes whose modification time is newer
        assert run("export", "anki", "-o", str(apkg)).exit_code == 0
        col.import_anki_package(ImportAnkiPackageRequest(package_path=str(apkg)))
        assert col.note_count() == 4
        assert col.get_note(nid)["Prompt"].startswith("Contrast")
    finally:
        col.close()


def test_anki_export_keeps_line_breaks_and_leaves_no_scratch_files(run, tmp_path, monkeypatch):
    import sqlite3
    import tempfile
    import zipfile

    from .support import write

    bank = tmp_path / "lines"
    write(bank / "questions" / "c.yaml", "category: c\ntitle: C\nquestions:\n  - id: q1\n    prompt: What?\n")
    write(
        bank / "answers" / "c.yaml",
        "answers:\n  - question: q1\n    answer: |\n      First line.\n      Second line.\n",
    )
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    apkg = tmp_path / "deck.apkg"
    assert run("export", "anki", "-o", str(apkg), bank=bank).exit_code == 0
    assert list(scratch.iterdir()) == []  # the scratch collection is gone
    with zipfile.ZipFile(apkg) as archive:
        (tmp_path / "collection.anki2").write_bytes(archive.read("collection.anki2"))
    db = sqlite3.connect(tmp_path / "collection.anki2")
    [fields] = [row[0] for row in db.execute("SELECT flds FROM notes")]
    db.close()
    assert "First line.<br>Second line." in fields


def test_plain_technical_text_stays_as_written_in_the_raw_sheet():
    from prep.exchange.cram import md_text

    for text in (
        "NCCL_DEBUG=INFO",
        "C++ templates",
        "512 / (1 × 4) = 128",
        "snake_case_names {a, b}",
        "wow!",
    ):
        assert md_text(text) == text
        rendered = MarkdownIt("commonmark").renderInline(md_text(text))
        assert rendered.replace("&gt;", ">").replace("&lt;", "<") == text
    for text in ("_emph_", "*stars*", "`code`", "[link](x)", "a | b", "~~gone~~"):
        rendered = (
            MarkdownIt("commonmark").enable("strikethrough").enable("table").renderInline(md_text(text))
        )
        assert "<" not in rendered, (text, rendered)  # no em, code, link or del element


def test_numbered_and_indented_lines_stay_text_without_stray_backslashes():
    from prep.exchange.cram import md_text

    for text, shown in (
        ("1. not a list", "1. not a list"),
        ("2) paren", "2) paren"),
        ("    four spaces of indent", "four spaces of indent"),
    ):
        html = MarkdownIt("commonmark").render("> " + md_text(text))
        assert html == f"<blockquote>\n<p>{shown}</p>\n</blockquote>\n", html


def _import_apkg(col, apkg):  # type: ignore[no-untyped-def]
    from anki.collection import ImportAnkiPackageRequest

    return col.import_anki_package(ImportAnkiPackageRequest(package_path=str(apkg))).log


def test_a_renamed_question_updates_its_anki_note(run, tmp_path, bank_dir):
    """export, import, `prep mv`, export, import: the same note, now showing the new id."""
    import time

    from anki.collection import Collection

    apkg = tmp_path / "deck.apkg"
    col = Collection(str(tmp_path / "collection.anki2"))
    try:
        assert run("export", "anki", "-o", str(apkg)).exit_code == 0
        _import_apkg(col, apkg)
        assert col.note_count() == 4
        [nid] = col.find_notes("Id:dp-vs-mp")
        for old, new in (("dp-vs-mp", "data-vs-model"), ("data-vs-model", "dp-or-mp")):
            result = run("mv", old, new)
            assert result.exit_code == 0, result.output
            time.sleep(1.1)  # Anki updates notes whose modification time is newer
            assert run("export", "anki", "-o", str(apkg)).exit_code == 0
            log = _import_apkg(col, apkg)
            assert (len(log.new), col.note_count()) == (0, 4)
            assert col.find_notes(f"Id:{new}") == [nid] and col.find_notes(f"Id:{old}") == []
            assert col.get_note(nid)["Id"] == new
    finally:
        col.close()
    bank = load_bank(BankLocation(bank_dir, "option"))
    assert bank.questions["dp-or-mp"].formerly == ("dp-vs-mp", "data-vs-model")


ASK_YAML = """\
category: ask
title: Questions to ask
questions:
  - id: ask-team
    prompt: What does the team own end to end?
    kind: ask
  - id: ask-success
    prompt: What would success look like in six months?
    kind: ask
  - id: ask-stack
    prompt: What does the training stack look like?
    kind: ask
"""


def _cram_parts(markdown: str) -> tuple[list[str], list[str]]:
    """The question headings of a cram sheet, and the items of its 'Questions to ask' section."""
    tokens = _tokens(markdown)
    headings = [
        tokens[i + 1].content for i, t in enumerate(tokens) if t.type == "heading_open" and t.tag == "h3"
    ]
    main, _, asks = markdown.partition("## Questions to ask")
    ask_items = [t.content for t in _tokens(asks) if t.type == "inline"] if asks else []
    return headings, ask_items


def test_weakest_with_ask_counts_only_the_questions_to_answer_without_history(run, bank_dir):
    """No history: the N questions are questions to answer, and every question to ask of the
    selection is in the final section (the bank's ask.yaml comes first in bank order)."""
    write(bank_dir / "questions" / "ask.yaml", ASK_YAML)
    result = run("export", "cram", "--weakest", "3", "--ask")
    assert result.exit_code == 0, result.output
    headings, asks = _cram_parts(result.output)
    ask_prompts = {
        "What does the team own end to end?",
        "What would success look like in six months?",
        "What does the training stack look like?",
    }
    assert len(headings) == 3 and not set(headings) & ask_prompts
    assert sorted(asks) == sorted(ask_prompts)


def test_weakest_with_ask_keeps_the_ask_section_with_history(run, bank_dir):
    write(bank_dir / "questions" / "ask.yaml", ASK_YAML)
    env = {"PREP_NOW": "2026-03-02T09:00:00+00:00"}
    # dp-vs-mp Again (its follow-up declined), zero-stages Easy, dp-batch-size Again
    run("drill", "--category", "parallelism", input="nothing\n\n1\nno\nstage 1\n\n4\n\n1\n", env=env)
    result = run("export", "cram", "--weakest", "2", "--ask", env={"PREP_NOW": "2026-03-20T09:00:00+00:00"})
    assert result.exit_code == 0, result.output
    headings, asks = _cram_parts(result.output)
    assert len(headings) == 2 and "What do the three ZeRO stages shard?" not in headings  # rated Easy
    assert len(asks) == 3
    # --due with --ask: only due questions to answer, and still every question to ask.
    result = run("export", "cram", "--due", "--ask", env={"PREP_NOW": "2026-03-20T09:00:00+00:00"})
    headings, asks = _cram_parts(result.output)
    assert len(headings) == 3 and len(asks) == 3


def _internal_links_and_anchors(markdown: str) -> tuple[list[str], set[str]]:
    """Every link of the sheet, and the ids its HTML anchors define, as markdown-it reads them."""
    import re

    tokens = _tokens(markdown)
    links = [
        c.attrs["href"]
        for t in tokens
        if t.type == "inline"
        for c in (t.children or [])
        if c.type == "link_open"
    ]
    html = MarkdownIt("commonmark").render(markdown)
    return links, set(re.findall(r'<a id="([^"]+)"></a>', html))


@pytest.mark.parametrize(
    "options",
    [("--tag", "ddp"), ("--kind", "technical", "--weakest", "1"), ("--category", "parallelism")],
    ids=["tag", "weakest", "category"],
)
def test_a_filtered_sheet_links_only_follow_ups_that_are_in_it(run, options):
    result = run("export", "cram", *options)
    assert result.exit_code == 0, result.output
    links, anchors = _internal_links_and_anchors(result.output)
    assert links and all(href.startswith("#") and href[1:] in anchors for href in links), (links, anchors)
    follow_up = "What global batch size did you actually use, and where was the communication bottleneck?"
    line = next(line for line in result.output.splitlines() if line.startswith("Follow-ups:"))
    if "### " + follow_up in result.output:  # on the sheet: a link to it
        assert f"[{follow_up}](#q-dp-batch-size)" in line
    else:  # not on the sheet: named, with its id, as text
        assert line == f"Follow-ups: {follow_up} (`dp-batch-size`, not on this sheet)"
