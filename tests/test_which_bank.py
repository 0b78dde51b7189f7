"""Which bank a command uses when none is named: a folder with questions/ (a bank of your own,
such as `prep init` makes), except a checkout of prep itself, whose questions/ are the bundled
bank's source: there, as the README's first command promises, the bundled bank is drilled, and
neither a drill nor `t` writes to the checkout. The drill says which bank it uses first."""

from __future__ import annotations

import json
import shutil

from .support import installed_bundled_root, run_installed, write_bank

PYPROJECT = '[build-system]\nrequires = ["hatchling"]\n\n[project]\nname = "prep"\nversion = "0.1.0"\n'


def _clone(tmp_path):
    """A folder laid out as a clone of prep's repository: pyproject.toml, questions/, answers/."""
    clone = write_bank(tmp_path / "clone")
    (clone / "pyproject.toml").write_text(PYPROJECT)
    return clone


_prep = run_installed


def _snapshot(root):  # type: ignore[no-untyped-def]
    return {p: p.read_bytes() for p in sorted(root.rglob("*.yaml"))}


def test_in_a_clone_the_drill_drills_the_bundled_bank_and_says_so(tmp_path, isolated_home):
    clone = _clone(tmp_path)
    result = _prep(clone, "drill", input="q\n\n")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[0].startswith(
        "Bank: bundled (this checkout's questions/ are its source"
    )
    assert "Q (dp-vs-mp)" not in result.stdout  # the clone's own test questions are not asked
    validated = json.loads(_prep(clone, "validate", "--json").stdout)
    assert (validated["bank"], validated["origin"]) == (str(installed_bundled_root()), "bundled")


def test_teaching_in_a_clone_writes_neither_the_clone_nor_the_bundled_bank(tmp_path, isolated_home):
    clone = _clone(tmp_path)
    (isolated_home / "config.toml").write_text("[drill]\nfuzz = false\nteach_writes_bank = true\n")
    before = _snapshot(clone), _snapshot(installed_bundled_root())
    answer = "It learns the chat format and when to stop; the facts come from pre-training."
    result = _prep(clone, "drill", "-c", "alignment", "--limit", "1", input=f"{answer}\n\nt 1 2 3\n1\nn\nq\n")
    assert "not taught: the bundled bank" in result.stdout, result.stdout
    assert (_snapshot(clone), _snapshot(installed_bundled_root())) == before
    named = _prep(clone, "--bank", str(clone), "drill", input="q\n\n")  # named, it is that bank
    assert named.stdout.splitlines()[0] == f"Bank: {clone.resolve()}"


def test_a_bank_of_your_own_in_the_folder_is_used_and_named(tmp_path, isolated_home):
    own = write_bank(tmp_path / "own")
    result = _prep(own, "drill", "-c", "parallelism", input="q\n\n")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[0] == f"Bank: {own.resolve()}"
    assert "Q (dp-vs-mp)" in result.stdout


def test_prep_init_in_a_folder_makes_the_bank_it_then_drills(tmp_path, isolated_home):
    folder = tmp_path / "mine"
    folder.mkdir()
    assert _prep(folder, "init").returncode == 0
    result = _prep(folder, "drill", "-c", "alignment", input="q\n\n")
    assert result.stdout.splitlines()[0] == f"Bank: {folder.resolve()}"
    elsewhere = _prep(tmp_path, "drill", "-c", "alignment", input="q\n\n")
    assert elsewhere.stdout.splitlines()[0] == "Bank: bundled"
    shutil.rmtree(folder)
