"""Names in the bank: the kinds of question and the id pattern the schema allows, ids made from
prompts, category names that are safe file names, and the key that tells two prompts ask the
same thing. Light on purpose (no pydantic): `prep next` filters cached index rows by kind, and
the state layer checks ids, with these."""

from __future__ import annotations

import hashlib
import re
import unicodedata

from prep.errors import UsageError

ID_PATTERN = r"^[a-z0-9]+(?:-[a-z0-9]+)*$"

KINDS: tuple[str, ...] = ("technical", "behavioral", "strategy", "ask")

# Names Windows refuses for files, whatever the extension; refused everywhere for portability.
RESERVED_NAMES = frozenset("con prn aux nul".split()) | {
    f"{port}{i}" for port in ("com", "lpt") for i in range(1, 10)
}
_ID_STOPWORDS = frozenset(
    "a an the of to in on for and or is are do does you your how what why which when would can with between "
    "it be".split()
)


def check_category_name(name: str) -> str:
    """A category becomes a file name: allow only safe kebab-case ids."""
    if not re.fullmatch(ID_PATTERN, name or "") or len(name) > 64:
        raise UsageError(
            f"category {name!r} is not a safe name: use lowercase letters, digits and single hyphens "
            "(no slashes, dots or spaces)"
        )
    if name in RESERVED_NAMES:
        raise UsageError(f"category {name!r} is a reserved file name on some systems; choose another")
    return name


def make_id(
    prompt: str, taken: set[str], wanted: str | None = None, retired: frozenset[str] = frozenset()
) -> str:
    """A unique kebab-case id: the given one, or a few meaningful words of the prompt. *retired*
    ids (a removed question's, still in the review history) are not reused: the new question
    would inherit that history."""
    if wanted is not None:
        if not re.fullmatch(ID_PATTERN, wanted):
            raise UsageError(f"id {wanted!r} is not kebab-case (lowercase letters, digits, single hyphens)")
        if wanted in taken:
            raise UsageError(f"id {wanted!r} is already used")
        if wanted in retired:
            raise UsageError(
                f"the review history already has entries for {wanted!r} (a removed question); "
                "choose another id",
                hint="`prep state prune` deletes the history of removed questions",
            )
        return wanted
    taken = taken | retired
    # Accents off first ("rétropropagation" is "retropropagation"); "what's" is "what".
    plain = unicodedata.normalize("NFKD", prompt.lower()).encode("ascii", "ignore").decode()
    words = re.findall(r"[a-z0-9]+", re.sub(r"['’]s?\b", "", plain))
    meaningful = [w for w in words if w not in _ID_STOPWORDS] or words
    if meaningful:
        base = "-".join(meaningful[:6])[:60].strip("-")
    else:  # a prompt in another script (Chinese, Cyrillic): named by a short hash of its words
        base = "q-" + hashlib.sha1(prompt_key(prompt).encode()).hexdigest()[:8]
    candidate, n = base, 2
    while candidate in taken:
        candidate, n = f"{base}-{n}", n + 1
    return candidate


def prompt_key(prompt: str) -> str:
    """A prompt's words, casefolded: two prompts with the same key ask the same thing."""
    return " ".join(re.findall(r"\w+", prompt.casefold()))
