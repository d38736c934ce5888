"""The evidence model: posterior rates from curated priors and accepted reports."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.services.evidence.stats import PRIOR_WEIGHT, Evidence, Priors, Report, grown_confidence, posterior

OUTCOMES = st.sampled_from(["worked", "failed", "partial"])
RATES = st.floats(min_value=0.0, max_value=1.0, allow_nan=False)
PRIORS = Priors(
    fix_rate=0.7,
    confidence=0.6,
    workarounds={"w1": 0.8, "w2": 0.4},
    dead_ends={"d1": 0.9},
)
REPORTS = st.lists(
    st.builds(Report, item=st.sampled_from([None, "w1", "w2", "d1"]), outcome=OUTCOMES), max_size=60
)


def figures(reports: list[Report], priors: Priors = PRIORS):
    return Evidence.from_reports(reports, priors).figures(priors)


def test_seed_entry_figures_follow_from_its_prior_and_one_report():
    priors = Priors(
        fix_rate=0.78,
        confidence=0.835,
        workarounds={"lower-utilization-cap-seqs": 0.89, "enable-swap-space": 0.85},
        dead_ends={"raise-max-num-batched-tokens": 0.6, "shrink-max-model-len": 0.4},
    )
    result = figures([Report("lower-utilization-cap-seqs", "worked")], priors)
    assert (result.fix_rate, result.confidence, result.evidence_count) == (0.8, 0.85, 1)
    assert result.workarounds["lower-utilization-cap-seqs"][0] == 0.9
    assert result.workarounds["enable-swap-space"][0] == 0.85
    assert [result.dead_ends[k][0] for k in ("raise-max-num-batched-tokens", "shrink-max-model-len")] == [
        0.6,
        0.4,
    ]


def test_no_reports_means_the_curated_figures():
    result = figures([])
    assert (result.fix_rate, result.confidence, result.evidence_count) == (0.7, 0.6, 0)
    assert result.workarounds["w1"][0] == 0.8 and result.dead_ends["d1"][0] == 0.9


@pytest.mark.parametrize(
    ("reports", "rate"),
    [
        ([Report("w1", "worked")], (0.8 * 10 + 1) / 11),
        ([Report("w1", "failed")], (0.8 * 10) / 11),
        ([Report("w1", "partial")], (0.8 * 10 + 0.5) / 11),
        ([Report("w1", "failed")] * 10, 0.4),
    ],
)
def test_workaround_rate_table(reports, rate):
    assert figures(reports).workarounds["w1"][0] == pytest.approx(rate, abs=1e-6)


def test_one_report_moves_a_rate_a_little_and_many_move_it_a_lot():
    one = figures([Report("w1", "failed")]).workarounds["w1"][0]
    many = figures([Report("w1", "failed")] * 200).workarounds["w1"][0]
    assert 0.8 - one <= 1 / (PRIOR_WEIGHT + 1)
    assert many < 0.05


def test_dead_end_reports_leave_the_fix_rate_alone():
    result = figures([Report("d1", "worked")] * 5)
    assert result.fix_rate == 0.7
    assert result.dead_ends["d1"][0] < 0.9
    assert result.evidence_count == 5 and result.confidence > 0.6


def test_small_samples_never_show_certainty():
    result = figures([Report("w2", "worked")] * 3)
    assert result.workarounds["w2"][0] < 0.6
    assert result.confidence < 0.75


@given(REPORTS)
def test_rates_stay_in_unit_interval(reports):
    result = figures(reports)
    values = [result.fix_rate, result.confidence]
    values += [rate for rate, _ in result.workarounds.values()]
    values += [rate for rate, _ in result.dead_ends.values()]
    assert all(0.0 <= v <= 1.0 for v in values)


@given(REPORTS, st.sampled_from(["w1", "w2"]))
def test_worked_never_lowers_and_failed_never_raises_a_workaround(reports, item):
    before = figures(reports).workarounds[item][0]
    assert figures([*reports, Report(item, "worked")]).workarounds[item][0] >= before
    assert figures([*reports, Report(item, "failed")]).workarounds[item][0] <= before


@given(REPORTS)
def test_failed_never_lowers_a_dead_ends_fail_rate(reports):
    before = figures(reports).dead_ends["d1"][0]
    assert figures([*reports, Report("d1", "failed")]).dead_ends["d1"][0] >= before
    assert figures([*reports, Report("d1", "worked")]).dead_ends["d1"][0] <= before


@given(REPORTS)
def test_incremental_updates_equal_recomputing_from_all_evidence(reports):
    state = Evidence()
    for report in reports:
        state = state.apply(report, PRIORS)
    assert state.figures(PRIORS) == figures(reports)


@given(REPORTS, REPORTS)
def test_confidence_grows_with_evidence(first, more):
    assert figures([*first, *more]).confidence >= figures(first).confidence


@given(RATES, st.integers(min_value=0, max_value=10_000), st.data())
def test_posterior_is_a_weighted_mean(prior, n, data):
    successes = data.draw(st.integers(min_value=0, max_value=n))
    value = posterior(prior, successes, n)
    assert min(prior, successes / n if n else prior) - 1e-6 <= value
    assert value <= max(prior, successes / n if n else prior) + 1e-6
    assert 0.0 <= grown_confidence(prior, n) <= 1.0
