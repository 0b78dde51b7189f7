"""The judge model: asked about the answers the words cannot decide (or about every answer),
through the `llm` library, within a timeout, its replies cached in the state database.

Failure is never fatal: an error, a refusal, a malformed reply or a timeout keeps the
word-level grade and says why in ``JudgeOutcome.error``. Only a judge that cannot be used at
all (the llm library missing, a model name it does not know) is an error (JudgeUnavailable).
Nothing here prints: the privacy notice goes to the *on_notice* callback the caller passes.
`llm` is imported only when a model is first needed (it takes a third of a second).
"""

from __future__ import annotations

import importlib.util
import threading
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime
from typing import TYPE_CHECKING, Any

from prep.config import JudgeConfig
from prep.errors import JudgeUnavailable, PrepError
from prep.grading.grade import grade
from prep.grading.judge_exchange import (
    SCHEMA,
    SYSTEM,
    JudgeRequest,
    MalformedReply,
    judge_request,
    parse_reply,
)
from prep.grading.judge_verdict import judged_grade

if TYPE_CHECKING:
    from prep.bank.contents import Bank
    from prep.bank.schema import Question
    from prep.grading.grade import Grade
    from prep.state.store import Store

INSTALL = "pip install 'prep[judge]'"


@dataclass(frozen=True)
class JudgeOutcome:
    """What became of asking the judge about one answer."""

    model: str
    used: bool  # the grade is the judge's
    error: str | None = None  # why the judge could not decide (the word-level grade stands)
    cached: bool = False  # the reply came from the cache: nothing was sent

    def to_dict(self) -> dict:
        return {"model": self.model, "used": self.used, "error": self.error}


@dataclass(frozen=True)
class Judged:
    """One answer graded: the grade that stands (the judge's when it was used) and the words'."""

    question: str
    answer: str
    grade: Grade
    words: Grade
    judge: JudgeOutcome | None = None  # None: no judge configured

    def to_dict(self) -> dict:
        return {
            "question": self.question,
            **self.grade.to_dict(),
            "judge": self.judge.to_dict() if self.judge else None,
        }


class JudgeFailed(Exception):
    """The model gave no usable reply this time (error, refusal, malformed reply, timeout)."""


def llm_installed() -> bool:
    """Whether the optional `llm` library can be imported (without importing it)."""
    try:
        return importlib.util.find_spec("llm") is not None
    except (ImportError, ValueError):
        return False


def require_llm(settings: JudgeConfig) -> None:
    """Raise JudgeUnavailable, saying how to install it, when a judge is set but llm is missing."""
    if settings.model and not llm_installed():
        raise JudgeUnavailable(f"the judge needs the llm library, which is not installed: {INSTALL}")


def resolve_model(settings: JudgeConfig) -> Any:
    """The llm model the settings name (an id or an alias)."""
    assert settings.model is not None
    require_llm(settings)
    import llm

    try:
        return llm.get_model(settings.model)
    except llm.UnknownModelError:
        raise JudgeUnavailable(
            f"{settings.origin}llm knows no model {settings.model!r} (`llm models` lists those it has; "
            "plugins such as llm-ollama add more)"
        ) from None


class Judge:
    """Asks one model about answers, as the [judge] settings say. *cache*: the state store
    whose judge_replies table keeps replies (None: none kept); *on_notice*: told, the first time
    an answer is sent to a model, which model gets it; *remember*: keeps the list of models the
    user has been told about (the config's [judge] notified)."""

    def __init__(
        self,
        settings: JudgeConfig,
        *,
        cache: Store | None,
        clock: Callable[[], datetime],
        on_notice: Callable[[str], None] = lambda message: None,
        remember: Callable[[list[str]], None] = lambda models: None,
    ) -> None:
        assert settings.model is not None, "a Judge needs a model"
        self.settings = settings
        self.name: str = settings.model
        self.cache = cache
        self.clock = clock
        self.on_notice = on_notice
        self.remember = remember
        self._model: Any = None

    def model(self) -> Any:
        """The llm model, resolved once (JudgeUnavailable when llm has no such model)."""
        if self._model is None:
            self._model = resolve_model(self.settings)
        return self._model

    def wanted(self, words: Grade) -> bool:
        """Whether this word-level grade goes to the judge: unsure ones, or all with "always"."""
        return words.mode != "none" and (self.settings.when == "always" or words.verdict == "unsure")

    def review(self, question: Question, prepared: str | None, answer: str, words: Grade) -> Judged:
        """The answer's grade: the judge's when it is wanted and replies usably, else the words'."""
        request = judge_request(question, prepared, answer) if self.wanted(words) else None
        if request is None:
            return Judged(question.id, answer, words, words, JudgeOutcome(self.name, used=False))
        try:
            reply, cached = self._reply(request)
        except JudgeFailed as failure:
            return Judged(question.id, answer, words, words, JudgeOutcome(self.name, False, str(failure)))
        fast = words.elapsed_seconds is not None and words.elapsed_seconds <= question.target_seconds
        graded = judged_grade(request, reply, words, fast)
        return Judged(question.id, answer, graded, words, JudgeOutcome(self.name, True, cached=cached))

    def _reply(self, request: JudgeRequest):  # type: ignore[no-untyped-def]
        """The parsed reply, and whether it came from the cache. Raises JudgeFailed."""
        key = (self.name, request.question_hash, request.answer)
        stored = self.cache.judge_reply(*key) if self.cache is not None else None
        if stored is not None:
            try:
                return parse_reply(stored), True
            except MalformedReply:
                pass  # kept by another version of prep: ask again
        self.model()  # a name llm does not know stops here, before anything is said or sent
        self._notify_once()
        text = self.ask(request)
        try:
            reply = parse_reply(text)
        except MalformedReply as wrong:
            raise JudgeFailed(str(wrong)) from None
        if self.cache is not None:
            try:
                self.cache.save_judge_reply(*key, text, replied_at=self.clock())
            except PrepError:
                pass  # a cache that cannot be written costs a call next time, nothing more
        return reply, False

    def ask(self, request: JudgeRequest) -> str:
        """The model's reply to *request*, within the timeout. Raises JudgeFailed."""
        model = self.model()
        timeout = self.settings.timeout_seconds
        result: dict[str, Any] = {}

        def work() -> None:
            try:
                result["text"] = prompt_model(model, request)
            except Exception as error:  # whatever a plugin raises is a failed reply, never a crash
                result["error"] = error

        # A thread, so that a model that hangs can be left behind: llm has no timeout of its own.
        worker = threading.Thread(target=work, name="prep-judge", daemon=True)
        worker.start()
        worker.join(timeout)
        if worker.is_alive():
            raise JudgeFailed(f"no reply within {timeout:g} s")
        if "error" in result:
            raise JudgeFailed(one_line(result["error"]))
        return str(result["text"])

    def _notify_once(self) -> None:
        """Before the first answer goes to a model, say which model gets it; remembered."""
        if self.name in self.settings.notified:
            return
        self.on_notice(
            f"the judge {self.name} now gets the question, its key points and pitfalls, and your answer "
            "for each answer it judges (said once; [judge] in the config sets it)"
        )
        told = [*self.settings.notified, self.name]
        self.settings = replace(self.settings, notified=tuple(told))
        try:
            self.remember(told)
        except PrepError:
            pass  # the config cannot be written: said again next time, nothing worse


def prompt_model(model: Any, request: JudgeRequest) -> str:
    """Send the request; the schema through llm's schema support where the model has it."""
    schema = SCHEMA if getattr(model, "supports_schema", False) else None
    return model.prompt(request.prompt, system=SYSTEM, schema=schema, stream=False).text()


def one_line(error: BaseException) -> str:
    """An exception as one short line: its type where its message says nothing."""
    text = " ".join(str(error).split()) or type(error).__name__
    return text if len(text) <= 200 else text[:199] + "…"


def grade_answers(
    bank: Bank, attempts: list[tuple[str, str, float | None]], judge: Judge | None
) -> list[Judged]:
    """Grade each (question id, answer, seconds taken): by the words, then by the judge where
    it is wanted (None: no judge)."""
    graded = []
    for question_id, answer, elapsed in attempts:
        question, prepared = bank.question(question_id), bank.answer_text(question_id)
        words = grade(question, prepared, answer, elapsed)
        if judge is None:
            graded.append(Judged(question.id, answer, words, words))
        else:
            graded.append(judge.review(question, prepared, answer, words))
    return graded
