"""The evidence model: curated priors updated by accepted reports. Pure maths, no I/O.

Every rate is the mean of a Beta posterior whose prior is the curated value worth
PRIOR_WEIGHT pseudo-observations:

    rate = (prior * K + successes) / (K + n)

where a `worked` report counts 1, `partial` 0.5 and `failed` 0 towards a workaround's
successes (and the reverse towards a dead end's failures). `fix_rate` uses the reports
about workarounds and the reports that name no item; reports about dead ends say how a
dead end went, not whether the error got fixed, so they leave it alone. Confidence is the
curated confidence with its remaining doubt shrunk by the same weight:

    confidence = 1 - (1 - prior_confidence) * K / (K + N)

with N all accepted reports on the entry. One report moves a rate by at most 1/(K+1).
"""

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace

PRIOR_WEIGHT = 10.0
_DIGITS = 6


@dataclass(frozen=True)
class Tally:
    worked: int = 0
    failed: int = 0
    partial: int = 0

    @property
    def n(self) -> int:
        return self.worked + self.failed + self.partial

    @property
    def successes(self) -> float:
        return self.worked + 0.5 * self.partial

    def add(self, outcome: str) -> "Tally":
        return replace(self, **{outcome: getattr(self, outcome) + 1})


def posterior(prior: float, successes: float, n: int, weight: float = PRIOR_WEIGHT) -> float:
    return round((prior * weight + successes) / (weight + n), _DIGITS)


def grown_confidence(prior: float, n: int, weight: float = PRIOR_WEIGHT) -> float:
    return round(1.0 - (1.0 - prior) * weight / (weight + n), _DIGITS)


@dataclass(frozen=True)
class Report:
    item: str | None
    outcome: str


@dataclass(frozen=True)
class Priors:
    fix_rate: float
    confidence: float
    workarounds: Mapping[str, float] = field(default_factory=dict)
    dead_ends: Mapping[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class Figures:
    fix_rate: float
    confidence: float
    evidence_count: int
    workarounds: dict[str, tuple[float, Tally]]
    dead_ends: dict[str, tuple[float, Tally]]


@dataclass(frozen=True)
class Evidence:
    """The sufficient statistics of an entry's accepted reports."""

    total: int = 0
    fix: Tally = Tally()
    items: Mapping[str, Tally] = field(default_factory=dict)

    def apply(self, report: Report, priors: Priors) -> "Evidence":
        """The statistics after one more report (the incremental path)."""
        items = dict(self.items)
        if report.item is not None:
            items[report.item] = items.get(report.item, Tally()).add(report.outcome)
        counts_for_fix = report.item is None or report.item in priors.workarounds
        fix = self.fix.add(report.outcome) if counts_for_fix else self.fix
        return Evidence(total=self.total + 1, fix=fix, items=items)

    @classmethod
    def from_reports(cls, reports: Iterable[Report], priors: Priors) -> "Evidence":
        """The statistics of all reports at once (the recompute path)."""
        counted = Counter((r.item, r.outcome) for r in reports)
        items: dict[str, Tally] = {}
        fix = Counter()
        for (item, outcome), count in counted.items():
            if item is not None:
                tally = items.get(item, Tally())
                items[item] = replace(tally, **{outcome: getattr(tally, outcome) + count})
            if item is None or item in priors.workarounds:
                fix[outcome] += count
        return cls(total=sum(counted.values()), fix=Tally(**fix), items=items)

    def figures(self, priors: Priors) -> Figures:
        def rate(prior: float, tally: Tally, *, failures: bool) -> float:
            hits = tally.n - tally.successes if failures else tally.successes
            return posterior(prior, hits, tally.n)

        workarounds = {
            key: (rate(p, self.items.get(key, Tally()), failures=False), self.items.get(key, Tally()))
            for key, p in priors.workarounds.items()
        }
        dead_ends = {
            key: (rate(p, self.items.get(key, Tally()), failures=True), self.items.get(key, Tally()))
            for key, p in priors.dead_ends.items()
        }
        return Figures(
            fix_rate=posterior(priors.fix_rate, self.fix.successes, self.fix.n),
            confidence=grown_confidence(priors.confidence, self.total),
            evidence_count=self.total,
            workarounds=workarounds,
            dead_ends=dead_ends,
        )
