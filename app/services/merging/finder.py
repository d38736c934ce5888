"""Candidate duplicates: pairs of entries that may be one error, each with a score and reasons.

Evidence, strongest first:
- the same normalised wording (what varies between occurrences blanked);
- each entry's patterns match a wording (signature or variant) of the other;
- one entry's patterns match the other's wording;
- the wordings share most of their words, and so do the titles.

Pairs are gathered through rarer words of the wordings (bounded work per word), so the
finder does not compare every entry with every other. Entries are compared as errors: an
alias speaks for its canonical entry, and environment variants of one `domain/slug` are
grouped by rule (app.services.merging.rules), not listed here.
"""

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property
from itertools import combinations

from app.schemas.common import compile_pattern
from app.services.entries.aliases import group_key
from app.services.lookup.text import tokens

SAME_WORDING = "same normalised wording"
PATTERNS_BOTH = "each one's patterns match the other's wording"
PATTERN_ONE = "%s's patterns match %s's wording"
SIMILAR_WORDING = "wordings share %d%% of their words"
SIMILAR_TITLE = "titles share %d%% of their words"

CANDIDATE_SCORE = 0.6  # listed for a moderator from here
# Merged without a moderator from here. Set from the review of bench/duplicates.py: the pairs
# a reader calls two errors score below it (a wording of two or three common words, patterns
# that match in one direction only, or loosely similar text).
AUTO_MERGE_SCORE = 0.95
CROSS_DOMAIN_CAP = 0.85
MIN_SAME_WORDS = 4  # a normalised wording this short ("permission denied") names no one error
GATHER_CAP = 40  # words in more entries than this gather no pairs


@dataclass
class Profile:
    """What the finder knows of one error: its own entry's and its aliases' wordings and patterns."""

    id: str
    title_words: frozenset[str]
    wordings: list[str] = field(default_factory=list)
    patterns: list[str] = field(default_factory=list)

    @cached_property
    def normal_forms(self) -> set[str]:
        return {form for w in self.wordings if len((form := normal_form(w)).split()) >= MIN_SAME_WORDS}

    @cached_property
    def word_sets(self) -> list[frozenset[str]]:
        return [frozenset(normal_form(w).split()) for w in self.wordings]

    @cached_property
    def regexes(self) -> list:
        """The patterns compiled once (a pair search tests them against many wordings);
        a pattern RE2 refuses matches nothing."""
        compiled = []
        for pattern in self.patterns:
            try:
                compiled.append(compile_pattern(pattern))
            except ValueError:
                continue
        return compiled


@dataclass(frozen=True)
class Candidate:
    a: str
    b: str
    score: float
    reasons: tuple[str, ...]

    @property
    def conclusive(self) -> bool:
        return self.score >= AUTO_MERGE_SCORE


def normal_form(text: str) -> str:
    """A wording with what varies between occurrences blanked (paths, numbers, versions,
    addresses), case and punctuation dropped. Quoted names stay: `Can't resolve 'react/jsx-runtime'`
    and `Can't resolve 'fs'` are two errors."""
    return " ".join(tokens(text))


def profile(entry_id: str, title: str, wordings: Iterable[str], patterns: Iterable[str]) -> Profile:
    slug = entry_id.split("/")[1].replace("-", " ")
    return Profile(
        id=entry_id,
        title_words=frozenset(normal_form(f"{title} {slug}").split()),
        wordings=list(dict.fromkeys(wordings)),
        patterns=list(dict.fromkeys(patterns)),
    )


def _matches(a: Profile, b: Profile) -> bool:
    """Whether one of `a`'s patterns matches one of `b`'s wordings."""
    return any(regex.search(w) for regex in a.regexes for w in b.wordings)


def _jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    return len(a & b) / len(a | b) if a and b else 0.0


def compare(a: Profile, b: Profile) -> Candidate | None:
    """The evidence that `a` and `b` are one error, scored 0..1; None below CANDIDATE_SCORE."""
    reasons: list[str] = []
    score = 0.0
    same = bool(a.normal_forms & b.normal_forms)
    if same:
        score = 1.0
        reasons.append(SAME_WORDING)
    a_hits, b_hits = _matches(a, b), _matches(b, a)
    similar = max((_jaccard(x, y) for x in a.word_sets for y in b.word_sets), default=0.0)
    titles = _jaccard(a.title_words, b.title_words)
    if a_hits and b_hits:
        score = max(score, 0.75 + 0.15 * similar + 0.1 * titles)
        reasons.append(PATTERNS_BOTH)
    elif a_hits or b_hits:
        score = max(score, 0.5 + 0.25 * similar + 0.1 * titles)
        reasons.append(PATTERN_ONE % ((a.id, b.id) if a_hits else (b.id, a.id)))
    else:
        score = max(score, 0.7 * similar + 0.2 * titles)
    if not same and a.id.split("/")[0] != b.id.split("/")[0]:
        # Tools of two domains often print alike ("context deadline exceeded", "Segmentation
        # fault") for errors with other causes and fixes: that alone is never conclusive.
        score = min(score, CROSS_DOMAIN_CAP)
    if similar >= 0.5:
        reasons.append(SIMILAR_WORDING % round(100 * similar))
    if titles >= 0.5:
        reasons.append(SIMILAR_TITLE % round(100 * titles))
    if score < CANDIDATE_SCORE:
        return None
    return Candidate(a.id, b.id, round(min(score, 1.0), 4), tuple(reasons))


def _pairs(profiles: dict[str, Profile], focus: set[str] | None) -> set[tuple[str, str]]:
    """Pairs worth comparing: those sharing a normalised wording, or a word few entries use."""
    by_form: dict[str, set[str]] = defaultdict(set)
    by_word: dict[str, set[str]] = defaultdict(set)
    for p in profiles.values():
        for form in p.normal_forms:
            by_form[form].add(p.id)
        for words in p.word_sets:
            for word in words:
                by_word[word].add(p.id)
    groups = [ids for ids in by_form.values() if len(ids) > 1]
    groups += [ids for ids in by_word.values() if 1 < len(ids) <= GATHER_CAP]
    pairs: set[tuple[str, str]] = set()
    for ids in groups:
        for a, b in combinations(sorted(ids), 2):
            if focus is None or a in focus or b in focus:
                pairs.add((a, b))
    return pairs


def find_candidates(profiles: Iterable[Profile], focus: Iterable[str] | None = None) -> list[Candidate]:
    """Candidate pairs, best first; with `focus`, only pairs that involve one of those ids.
    Pairs of environment variants of one `domain/slug` are left to their own rule."""
    by_id = {p.id: p for p in profiles}
    found = []
    for a, b in _pairs(by_id, set(focus) if focus is not None else None):
        if group_key(a) == group_key(b):
            continue
        candidate = compare(by_id[a], by_id[b])
        if candidate is not None:
            found.append(candidate)
    return sorted(found, key=lambda c: (-c.score, c.a, c.b))
