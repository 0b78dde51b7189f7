"""Deterministic judge models for the tests, registered with llm through its plugin hook
(register_models), as any llm plugin is: in-process by the `judges` fixture, and in a `prep`
subprocess through an entry point (``install_judges``). No network: each answers by itself.

  prep-table         answers from a table (a JSON file named by PREP_TEST_JUDGE_TABLE: answer
                     text -> reply, an object or raw text); an answer not in it: nothing said.
                     Has schema support.
  prep-table-prose   the same replies inside prose and a code fence; no schema support.
  prep-malformed     replies with text that is not the JSON asked for.
  prep-slow          sleeps PREP_TEST_JUDGE_SLEEP seconds (default 5) before replying.
  prep-raising       raises, as a model whose service fails does.

Every call is appended to the JSON Lines file PREP_TEST_JUDGE_CALLS, when set: the model, the
prompt, the system prompt and the schema sent.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import llm

TABLE = "PREP_TEST_JUDGE_TABLE"
CALLS = "PREP_TEST_JUDGE_CALLS"
SLEEP = "PREP_TEST_JUDGE_SLEEP"


def answer_of(prompt: str) -> str:
    """The answer inside a judge prompt (between its <<<ANSWER and ANSWER>>> lines)."""
    return prompt.split("<<<ANSWER\n", 1)[1].rsplit("\nANSWER>>>", 1)[0]


def nothing_said(prompt: str) -> dict:
    points = [line for line in prompt.split("Key points", 1)[1].split("\n\n")[0].splitlines()[1:]]
    return {
        "points": [{"point": n, "status": "not_said", "quote": ""} for n in range(1, len(points) + 1)],
        "pitfalls": [],
    }


def table_reply(prompt: str) -> str:
    path = os.environ.get(TABLE)
    table = json.loads(Path(path).read_text(encoding="utf-8")) if path and Path(path).exists() else {}
    reply = table.get(answer_of(prompt), nothing_said(prompt))
    return reply if isinstance(reply, str) else json.dumps(reply)


class ScriptedJudge(llm.Model):
    can_stream = False
    supports_schema = True

    def __init__(self, model_id: str, reply) -> None:  # type: ignore[no-untyped-def]
        self.model_id = model_id
        self.reply = reply

    def execute(self, prompt, stream, response, conversation):  # type: ignore[no-untyped-def]
        calls = os.environ.get(CALLS)
        if calls:
            record = {"model": self.model_id, "prompt": prompt.prompt, "system": prompt.system,
                      "schema": prompt.schema}  # fmt: skip
            with open(calls, "a", encoding="utf-8") as log:
                log.write(json.dumps(record) + "\n")
        yield self.reply(prompt.prompt)


class ProseJudge(ScriptedJudge):
    supports_schema = False


def prose(prompt: str) -> str:
    return f"Here is my assessment.\n\n```json\n{table_reply(prompt)}\n```\nI hope this helps."


def slow(prompt: str) -> str:
    time.sleep(float(os.environ.get(SLEEP, "5")))
    return table_reply(prompt)


def raising(prompt: str) -> str:
    raise llm.ModelError("the service is overloaded, try again later")


MODELS = (
    ScriptedJudge("prep-table", table_reply),
    ProseJudge("prep-table-prose", prose),
    ScriptedJudge("prep-malformed", lambda prompt: "I think this answer is quite good overall."),
    ScriptedJudge("prep-slow", slow),
    ScriptedJudge("prep-raising", raising),
)


@llm.hookimpl
def register_models(register):  # type: ignore[no-untyped-def]
    for model in MODELS:
        register(model)


def install_judges(site: Path, root: Path) -> dict[str, str]:
    """Install this module as an llm plugin for `prep` subprocesses: a distribution in *site*
    whose "llm" entry point it is. Returns the environment that makes them see it (*root*: the
    checkout, where the `tests` package is)."""
    info = site / "prep_test_judges-1.0.dist-info"
    info.mkdir(parents=True, exist_ok=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: prep-test-judges\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[llm]\nprep_test_judges = tests.judge_models\n")
    path = os.pathsep.join([str(site), str(root), os.environ.get("PYTHONPATH", "")])
    return {"PYTHONPATH": path.rstrip(os.pathsep)}
