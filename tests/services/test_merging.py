"""The merge service on real SQLite files built by the migrations: aliases, figures, history, undo."""

from datetime import UTC, datetime

import pytest
import yaml
from sqlmodel import Session, select

from app.db import make_engine, write_session
from app.i18n import translations
from app.models import Entry, EntryRevision, ModerationAction
from app.render.export_md import render_entry_markdown
from app.schemas.api import EvidenceIn
from app.services.entries.aliases import environment_of
from app.services.entries.read import current_stamp, get_entry, load_entry, locate
from app.services.errors import EntryNotFound, MergeRefused
from app.services.evidence.reports import record_evidence, reject_evidence
from app.services.merging.merge import merge, unmerge
from app.services.search.query import search_entries
from tests.conftest import CANON_VALID, DEMO_ENTRIES, FIXTURES, load

NOW = datetime(2026, 12, 1, tzinfo=UTC)
FULL, MISSING, CJK = "demo/full-bilingual", "demo/zh-missing", "demo/cjk-only"
WIDGET = "tooling/widget-crash/widget2-linux"
MACOS = "tooling/widget-crash/widget2-macos"


@pytest.fixture
def base(settings):
    load(settings, DEMO_ENTRIES, CANON_VALID)
    engine = make_engine(settings)
    yield engine
    engine.dispose()


def _report(engine, entry_id: str, outcome: str = "worked", item: str | None = None):
    return record_evidence(engine, entry_id=entry_id, report=EvidenceIn(outcome=outcome, item=item))


def _merge(engine, source: str, target: str):
    with write_session(engine) as session:
        return merge(session, source, target, now=NOW, reason="test")


def _unmerge(engine, source: str):
    with write_session(engine) as session:
        return unmerge(session, source, now=NOW)


def test_only_an_environment_variant_of_the_same_error_names_an_environment():
    assert environment_of(WIDGET, "tooling/widget-crash/widget2-macos") == "widget2-linux"
    assert environment_of("tooling/widget-crash", WIDGET) is None  # the error's bare id
    assert environment_of(MISSING, FULL) is None  # another error


def test_merge_gathers_evidence_and_recomputes_figures_and_unmerge_gives_them_back(base):
    _report(base, FULL, "failed")
    _report(base, MISSING, "worked")
    _report(base, MISSING, "worked")
    with Session(base) as session:
        alone = {i: get_entry(session, i) for i in (FULL, MISSING)}
    _merge(base, MISSING, FULL)
    with Session(base) as session:
        view = get_entry(session, FULL)
        own = get_entry(session, MISSING, merged=False)
    assert view.aliases == [MISSING]
    assert view.evidence_count == 3 == alone[FULL].evidence_count + alone[MISSING].evidence_count
    # One failed and two worked reports, from the canonical entry's prior: more than alone.
    assert view.fix_rate > alone[FULL].fix_rate
    assert {e.uid for e in view.recent_evidence} == {
        e.uid for i in (FULL, MISSING) for e in alone[i].recent_evidence
    }
    assert set(alone[MISSING].patterns) <= set(view.patterns)
    assert own.signature in [v.text for v in view.variants]
    [part] = view.merged
    assert (part.id, part.evidence_count, part.fix_rate) == (MISSING, 2, alone[MISSING].fix_rate)

    _unmerge(base, MISSING)
    with Session(base) as session:
        back = {i: get_entry(session, i) for i in (FULL, MISSING)}
    for entry_id in (FULL, MISSING):
        assert back[entry_id].aliases == [] and back[entry_id].merged == []
        figures = ("fix_rate", "confidence", "evidence_count", "patterns", "variants")
        assert {f: getattr(back[entry_id], f) for f in figures} == {
            f: getattr(alone[entry_id], f) for f in figures
        }


def test_the_markdown_of_a_merged_entry_lists_each_parts_dead_ends_with_their_rates(base):
    _merge(base, MISSING, FULL)
    with Session(base) as session:
        view = get_entry(session, FULL)
    [part] = view.merged
    assert part.dead_ends
    markdown = render_entry_markdown(view, "en")
    for dead in part.dead_ends:
        assert f"- Dead ends: {dead.action.en} ({round(dead.fail_rate * 100)}% fail)" in markdown


def test_the_markdown_of_an_entry_names_each_merged_environment_in_both_languages(base, settings):
    report = load(settings, FIXTURES / "merging" / "tooling")  # merged on import: the same crash on macOS
    assert [m[:2] for m in report.merged] == [(MACOS, WIDGET)]
    with Session(base) as session:
        view = get_entry(session, WIDGET)
    for lang, heading in (("en", "### Environment widget2-macos"), ("zh", "### 运行环境 widget2-macos")):
        markdown = render_entry_markdown(view, lang)
        [line] = [line for line in markdown.splitlines() if f"(`{MACOS}`, " in line]
        assert line.startswith(f"{heading} (`{MACOS}`, "), line


def test_every_entry_touched_gets_a_revision_a_change_and_a_log_line(base):
    with Session(base) as session:
        before = {e.id: (e.revision, e.changed) for e in session.exec(select(Entry))}
    _merge(base, MISSING, FULL)
    _unmerge(base, MISSING)
    with Session(base) as session:
        after = {e.id: (e.revision, e.changed) for e in session.exec(select(Entry))}
        history = session.exec(select(EntryRevision).order_by(EntryRevision.id)).all()
        log = session.exec(select(ModerationAction).order_by(ModerationAction.id)).all()
    for entry_id in (FULL, MISSING):
        assert after[entry_id][0] == before[entry_id][0] + 2
        assert after[entry_id][1] > before[entry_id][1]
    assert after[CJK] == before[CJK]
    # History keeps what each entry was before: the canonical without, then with its alias.
    kept = [(r.entry_id, r.content.get("aliases"), r.content.get("merged_into")) for r in history]
    assert kept == [
        (FULL, [], None),
        (MISSING, [], None),
        (FULL, [MISSING], None),
        (MISSING, [], FULL),
    ]
    assert [(a.action, a.entry_id, a.target_id) for a in log] == [
        ("merge", MISSING, FULL),
        ("unmerge", MISSING, FULL),
    ]


def test_merges_never_chain_nor_loop(base):
    _merge(base, MISSING, FULL)
    # Into an alias: the merge goes to its canonical entry.
    result = _merge(base, CJK, MISSING)
    assert result.into == FULL
    # A canonical entry that has aliases takes them along.
    result = _merge(base, FULL, WIDGET)
    assert sorted(result.repointed) == [CJK, MISSING]
    with Session(base) as session:
        pointers = {e.id: e.canonical_id for e in session.exec(select(Entry))}
        assert locate(session, MISSING).id == WIDGET
    assert pointers == {FULL: WIDGET, MISSING: WIDGET, CJK: WIDGET, WIDGET: None}
    # The last step of a loop is refused, naming the field.
    with pytest.raises(MergeRefused) as refused:
        _merge(base, WIDGET, MISSING)
    assert refused.value.field == "into"
    with pytest.raises(MergeRefused) as refused:
        _merge(base, MISSING, FULL)
    assert refused.value.field == "from"
    # The refusal says, in the reader's language, where the entry is merged already.
    for lang, said in (
        ("en", f"{MISSING} is already merged into {WIDGET}"),
        ("zh", f"{MISSING} 已合并到 {WIDGET}"),
    ):
        assert refused.value.message(translations(lang).gettext) == [
            {"loc": ["body", "from"], "field": "from", "msg": said}
        ]


def _pointers(engine) -> dict[str, str | None]:
    with Session(engine) as session:
        return {e.id: e.canonical_id for e in session.exec(select(Entry))}


def test_unmerging_an_entry_takes_back_the_aliases_that_were_merged_into_it(base):
    _merge(base, MISSING, FULL)  # judged a duplicate of FULL
    _merge(base, CJK, WIDGET)  # judged a duplicate of WIDGET
    assert sorted(_merge(base, FULL, WIDGET).repointed) == [MISSING]  # moved along
    _report(base, MISSING, "worked")
    result = _unmerge(base, FULL)
    assert result.repointed == [MISSING] and MISSING in result.touched
    assert _pointers(base) == {FULL: None, MISSING: FULL, CJK: WIDGET, WIDGET: None}
    with Session(base) as session:
        assert locate(session, MISSING).id == FULL
        assert get_entry(session, FULL).evidence_count == 1  # its alias's report came back with it
    # An alias merged again of its own, into the entry it is under, stays there.
    _merge(base, FULL, WIDGET)
    _unmerge(base, MISSING)
    _merge(base, MISSING, WIDGET)
    assert _unmerge(base, FULL).repointed == []
    assert _pointers(base) == {FULL: None, MISSING: WIDGET, CJK: WIDGET, WIDGET: None}


def test_an_unmerge_that_names_the_wrong_entry_is_refused_and_changes_nothing(base):
    _merge(base, MISSING, FULL)
    with write_session(base) as session, pytest.raises(MergeRefused) as refused:
        unmerge(session, MISSING, WIDGET, now=NOW)
    assert refused.value.field == "into"
    assert refused.value.message(translations("en").gettext)[0]["msg"] == (
        f"{MISSING} is merged into {FULL}, not {WIDGET}"
    )
    assert _pointers(base)[MISSING] == FULL
    with write_session(base) as session:
        assert unmerge(session, MISSING, FULL, now=NOW).into == FULL  # the right one is undone


def test_bad_ids_and_undoing_what_was_not_done_are_refused(base):
    with pytest.raises(EntryNotFound):
        _merge(base, "demo/nothing", FULL)
    with pytest.raises(EntryNotFound):
        _merge(base, FULL, "demo/nothing")
    with pytest.raises(MergeRefused) as refused:
        _unmerge(base, FULL)
    assert refused.value.field == "from"
    with Session(base) as session:
        assert session.exec(select(ModerationAction)).all() == []


def test_a_report_on_an_alias_item_counts_for_its_canonical_entry(base):
    _merge(base, WIDGET, FULL)
    created = _report(base, FULL, "worked", item="w1")  # the widget entry's first workaround
    with Session(base) as session:
        view = get_entry(session, FULL)
        widget = get_entry(session, WIDGET, merged=False)
    assert created.entry.evidence_count == view.evidence_count == 1
    assert (
        created.entry.item.rate
        == widget.workarounds[0].success_rate
        > widget.workarounds[0].prior_success_rate
    )
    assert view.merged[0].workarounds[0].reports.worked == 1


@pytest.mark.parametrize("reported_on", [FULL, WIDGET])
def test_a_repeated_report_on_an_alias_item_answers_its_figures_and_writes_nothing(base, reported_on):
    """A retry is answered with the figures a write would give (the canonical entry's, with
    the alias's item rate), and moves neither entry's change counter."""
    _merge(base, WIDGET, FULL)
    report = EvidenceIn(outcome="worked", item="w1", note="retried")
    first = record_evidence(base, entry_id=reported_on, report=report, client="c1")
    with Session(base) as session:
        counters = {i: session.get(Entry, i).changed for i in (FULL, WIDGET)}
    again = record_evidence(base, entry_id=reported_on, report=report, client="c1")
    assert (first.repeated, again.repeated) == (False, True)
    assert again.model_dump() == first.model_dump() and again.entry.item.rate > 0
    with Session(base) as session:
        assert {i: session.get(Entry, i).changed for i in (FULL, WIDGET)} == counters
        assert get_entry(session, FULL).evidence_count == again.entry.evidence_count == 1


def test_a_rejected_report_on_an_alias_is_not_shown_on_the_merged_entry(base):
    kept = _report(base, FULL, "worked")
    spam = _report(base, MISSING, "failed")
    reject_evidence(base, spam.evidence.uid, "spam")
    _merge(base, MISSING, FULL)
    with Session(base) as session:
        view = get_entry(session, FULL)
    assert [e.uid for e in view.recent_evidence] == [kept.evidence.uid]
    assert view.evidence_count == 1


def test_a_merged_entry_is_kept_under_the_stamp_later_checks_read_and_an_aliass_change_moves_it(base):
    # The cache serves a kept entry while current_stamp of its ids reads what the load took:
    # for a merged entry those ids are its aliases too (here one it does not link to), and a
    # write to one shows.
    report = _report(base, CJK, "failed")
    _merge(base, CJK, FULL)
    with Session(base) as session:
        loaded = load_entry(session, FULL)
        assert CJK in loaded.ids
        assert current_stamp(session.connection(), loaded.ids) == loaded.stamp
    reject_evidence(base, report.evidence.uid, "spam")  # a write to the alias's reports only
    with Session(base) as session:
        assert current_stamp(session.connection(), loaded.ids) != loaded.stamp
        again = load_entry(session, FULL)
        assert current_stamp(session.connection(), again.ids) == again.stamp
    assert again.view.evidence_count == loaded.view.evidence_count - 1


def test_a_new_wording_imported_for_an_alias_is_searchable_at_its_canonical_entry(base, settings, tmp_path):
    _merge(base, MISSING, FULL)
    document = yaml.safe_load((DEMO_ENTRIES / "demo" / "zh-missing.yaml").read_text())
    document.setdefault("variants", []).append({"text": "QuuxPanic: zorblaxian flux capacitor underrun"})
    source = tmp_path / "zh-missing.yaml"
    source.write_text(yaml.safe_dump(document, allow_unicode=True))
    assert load(settings, source).updated == 1
    with Session(base) as session:
        hits, total = search_entries(session, "zorblaxian")
    assert [hit.id for hit in hits] == [FULL] and total == 1
