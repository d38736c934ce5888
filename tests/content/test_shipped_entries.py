"""Every shipped entry holds up: its wordings are proven, its patterns recognise what the
tool really prints and nothing else, and it is complete in both languages.

The reproductions run for real (`errata verify` does the same), with the tools `.ci/run`
installs; a missing tool fails its entry by name.
"""

from collections import Counter

import pytest

from app.config import PROJECT_ROOT
from app.services.interchange.importer import discover, parse_file
from app.services.verification.shipped import verify

DATA = PROJECT_ROOT / "data"
FILES = discover([DATA])
MIN_ENTRIES, MIN_DOMAINS = 200, 12


@pytest.fixture(scope="module")
def results():
    return {r.path: r for r in verify(DATA, jobs=2)}


@pytest.mark.slow
@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(DATA)))
def test_shipped_entry_holds_up(results, path):
    result = results[path]
    assert result.ok, "\n".join(result.problems)


def test_the_base_covers_the_errors_developers_meet():
    docs = [parse_file(path) for path in FILES]
    domains = Counter(doc.domain for doc in docs)
    assert len(docs) >= MIN_ENTRIES, f"{len(docs)} entries"
    assert len(domains) >= MIN_DOMAINS, dict(domains)
    incomplete = [
        doc.id
        for doc in docs
        if not (doc.root_cause and doc.workarounds and doc.docs and doc.versions and doc.verification)
    ]
    assert not incomplete, f"missing root cause, workarounds, docs, versions or verification: {incomplete}"


def test_shipped_entries_are_marked_as_drafted_until_people_review_them():
    unmarked = [
        doc.id for doc in map(parse_file, FILES) if doc.review_status == "unreviewed" and not doc.ai_generated
    ]
    assert not unmarked


def test_no_shipped_report_is_invented():
    """Shipped reports carry no details a source did not give; new entries carry none."""
    reports = {doc.id: doc.evidence for doc in map(parse_file, FILES) if doc.evidence}
    assert set(reports) <= {"llm/vllm-block-manager-out-of-memory"}
    for report in reports.get("llm/vllm-block-manager-out-of-memory", []):
        assert report.versions == {} and report.note is None and report.submitted_at is None
