"""The grader's thresholds: one frozen object, passed to the matcher and to ``grade``."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Settings:
    """Thresholds of the grader. Defaults are principled, not tuned per question (see docs)."""

    word_similarity: float = 80.0  # rapidfuzz ratio for two words to count as one (a typo apart)
    exact_below: int = 4  # words shorter than this must match exactly ("tp" is not "dp")
    min_root: int = 4  # a word that starts with another word this long shares its root
    root_similarity: float = 0.9  # credit for such a derived form ("reuse" ~ "reusability")
    point_full: float = 0.65  # share of a claim's words in one sentence for full credit (two in three)
    point_none: float = 0.40  # ... below which the claim gets no credit
    point_matched: float = 0.60  # ... from which the claim is shown as matched
    pitfall_hit: float = 0.80  # a wrong claim must be said almost in full to count
    contradiction_hit: float = 0.75  # ... and a key point said the other way round, nearly so
    # A taught phrasing found this fully is the user's own words, said again: met whatever the
    # sentence's subject seems to be.
    taught_verbatim: float = 0.95
    # A taught phrasing is one answer's wording: it counts when said again nearly in full (its
    # words in part are weak evidence, and short ones are met by chance).
    taught_match: float = 0.90
    taught_order: float = 80.0  # ... and in its order (rapidfuzz partial ratio of the word keys)
    window_factor: float = 2.0  # a claim is looked for in stretches this many times its length
    window_min: int = 12  # ... and at least this many words (short claims get room for a subject)
    pitfall_window_factor: float = 4.0  # a wrong claim is hit even when said with an aside in it
    pass_score: float = 70.0
    # A pass needs this share of the key points found (rounded up): never one of four.
    pass_cover: float = 0.6
    # A key point written this many ways is one a correct answer is found saying (recognised(3) is
    # 0.86): not finding it means it was not said. With fewer, its absence proves little.
    telling_phrasings: int = 3
    # An attempt sharing fewer content words than this with the prompt and key points speaks of
    # something else: not finding the key points in it is telling, whatever their phrasings.
    on_topic_words: int = 1
    partial_score: float = 35.0
    easy_score: float = 85.0  # and within target time, for the rating "easy"
    list_claim_words: int = 3  # an item of this many words says something ("GIL serializes threads")
    list_max_claim_share: float = 0.34  # a keyword list: under a third of its items say anything
    list_max_function_share: float = 0.12  # share of small words below which text is not prose
    list_sentence_words: int = 5  # two items this long are clauses: notes that list, not a bare list
    # How much of a correct answer's key point the grader can find, by how many phrasings the key
    # point has: recognised(k) = 1 - (1 - unphrased_credit) * (1 - phrasing_recall) ** k. Each
    # phrasing is another chance (phrasing_recall) that a correct wording meets one of them; with
    # none, overlap of words alone earns unphrased_credit. A score is divided by recognised(k)
    # over recognised(full_phrasings), so a correct answer to a question the user wrote with one
    # phrasing per key point can pass as one to the bundled bank does (docs/grading.md).
    phrasing_recall: float = 0.42
    unphrased_credit: float = 0.28
    full_phrasings: int = 8  # the bundled bank's phrasings per key point: no adjustment from here
    fallback_none: float = 0.0  # fallback mode: any overlap with a reference sentence earns some credit
    fallback_full: float = 0.50  # ... and half its content words, anywhere, cover it (paraphrase loses words)


DEFAULT_SETTINGS = Settings()
