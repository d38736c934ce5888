"""A real headless Chromium against a real `errata serve`: what a visitor does, click by click."""

import os
import shutil
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright

from tests.conftest import FIXTURES, SEED_ID
from tests.server import serving

pytestmark = [pytest.mark.browser, pytest.mark.slow]
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARTIFACTS = Path(os.environ.get("ERRATA_TEST_ARTIFACTS", "/tmp/errata-screenshots"))


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    db = tmp_path_factory.mktemp("browser") / "errata.db"
    with serving(db, workers=1) as (base, _):
        yield base


@pytest.fixture
def untouched_site(tmp_path):
    """A site of its own: other tests here report outcomes on the seed entry, which moves its figures."""
    with serving(tmp_path / "errata.db", workers=1) as (base, _):
        yield base


@pytest.fixture(scope="module")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.fail(f"Chromium is not installed at {CHROMIUM}: apt-get install chromium")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=[
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
            ],
        )
        yield browser
        browser.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    page = context.new_page()
    yield page
    context.close()


def test_paste_an_error_and_land_on_the_entry(untouched_site, page):
    page.goto(f"{untouched_site}/")
    page.fill(
        "form.lookup textarea",
        (FIXTURES / "pastes" / "llm__vllm-block-manager-out-of-memory.txt").read_text(),
    )
    page.click("form.lookup button")
    first = page.locator("#matches ol.hits li a").first
    assert first.get_attribute("href") == f"/errors/{SEED_ID}"
    first.click()
    page.wait_for_url(f"{untouched_site}/errors/{SEED_ID}")
    assert page.locator("#fix-rate").inner_text() == "80%"
    assert page.locator("#confidence").inner_text() == "85%"
    assert page.locator("#versions tbody tr").count() == 3
    assert "--max-num-seqs" in page.locator("#workarounds pre").first.inner_text()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "entry-en.png"), full_page=True)


def test_switch_language_and_back(site, page):
    page.goto(f"{site}/errors/{SEED_ID}")
    page.click("a.lang-switch")
    page.wait_for_url(f"{site}/zh/errors/{SEED_ID}")
    assert page.locator("html").get_attribute("lang") == "zh-Hans"
    assert page.locator("#root-cause h2").inner_text() == "根本原因"
    assert "交换空间" in page.locator("#workarounds").inner_text()
    page.screenshot(path=str(ARTIFACTS / "entry-zh.png"), full_page=True)
    page.click(".formats a[hreflang=en]")
    page.wait_for_url(f"{site}/errors/{SEED_ID}")
    assert page.locator("h1").inner_text().startswith("vLLM block manager")


def test_report_an_outcome_through_the_form(site, page):
    page.goto(f"{site}/zh/errors/{SEED_ID}")
    before = int(page.locator("#evidence-count").inner_text())
    page.select_option("form.evidence select[name=item]", "enable-swap-space")
    page.check("form.evidence input[value=worked]")
    page.fill("form.evidence input[name=versions]", "vllm 0.4.2, cuda 12.1")
    page.fill("form.evidence textarea[name=note]", "<img src=x onerror=alert(1)> worked for me")
    page.click("form.evidence button")
    page.wait_for_url(f"{site}/zh/errors/{SEED_ID}?reported=*")
    assert page.locator("#report-confirmation").is_visible()
    assert int(page.locator("#evidence-count").inner_text()) == before + 1
    assert page.locator(".recent-reports .note").first.inner_text().startswith("<img src=x")
    assert page.locator(".recent-reports img").count() == 0
    assert "在 vLLM 0.4.2 上" in page.locator(".version-reports").inner_text()


def test_search_from_the_header(site, page):
    page.goto(f"{site}/")
    page.fill("header form.search input", "缓存块")
    page.press("header form.search input", "Enter")
    page.wait_for_url(f"{site}/search?q=*")
    assert page.locator("ol.hits li").count() >= 1
    assert page.locator("ol.hits .snippet mark").first.inner_text() == "缓存块"
    page.goto(f"{site}/search?q=NEAR(%22")
    assert page.locator("#result-count").is_visible()


WIDTHS = (320, 390, 768, 1280, 1920)


def _longest_entry() -> str:
    from app.config import PROJECT_ROOT
    from app.services.interchange.importer import discover, parse_file

    path = max(discover([PROJECT_ROOT / "data"]), key=lambda p: p.stat().st_size)
    return parse_file(path).id


def test_no_page_is_wider_than_the_screen(site, browser):
    long_id = _longest_entry()
    paths = [
        "/",
        "/zh/",
        f"/errors/{SEED_ID}",
        f"/zh/errors/{SEED_ID}",
        f"/errors/{long_id}",
        f"/zh/errors/{long_id}",
        "/domains/git",
        "/zh/domains/python",
        "/search?q=permission+denied",
        "/zh/search?q=缓存",
        "/lookup?q=" + (FIXTURES / "pastes" / "llm__vllm-block-manager-out-of-memory.txt").read_text()[:1200],
        "/lookup?q=widget+spline+reticulation+failed",
        "/errors/no/such-entry",
        "/zh/domains/nope",
        "/about",
        "/zh/about",
    ]
    too_wide = []
    for width in WIDTHS:
        context = browser.new_context(viewport={"width": width, "height": 800})
        page = context.new_page()
        for path in paths:
            page.goto(site + path)
            scroll_width = page.evaluate("document.documentElement.scrollWidth")
            if scroll_width > width:
                too_wide.append((width, path, scroll_width))
        context.close()
    assert not too_wide


@pytest.mark.parametrize(("width", "height", "screens"), [(1280, 800, 1.0), (390, 844, 1.5)])
def test_the_best_fix_is_on_the_first_screen(site, browser, width, height, screens):
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for lang, prefix in (("en", ""), ("zh", "/zh")):
        for entry_id in (SEED_ID, "git/refusing-unrelated-histories"):
            page.goto(f"{site}{prefix}/errors/{entry_id}")
            command = page.locator("#answer pre.command")
            box = command.bounding_box()
            assert box is not None and box["y"] + min(box["height"], 60) <= height * screens, (lang, entry_id)
            assert page.locator("#answer .rate.good").first.is_visible()
        page.screenshot(path=str(ARTIFACTS / f"entry-{lang}-{width}.png"))
    lookup = "/lookup?q=fatal%3A+not+a+git+repository"
    shots = {"home": "/", "home-zh": "/zh/", "search": "/search?q=git", "lookup": lookup}
    shots["lookup-zh"] = "/zh" + lookup
    for name, path in shots.items():
        page.goto(site + path)
        page.screenshot(path=str(ARTIFACTS / f"{name}-{width}.png"), full_page=True)
    context.close()


def test_copy_the_best_command(site, browser):
    context = browser.new_context(viewport={"width": 390, "height": 844})
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=site)
    page = context.new_page()
    page.goto(f"{site}/errors/{SEED_ID}")
    page.locator("#answer .code-tool").first.click()
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied == page.locator("#answer pre.command code").inner_text()
    assert page.locator("#answer .code-tool").first.inner_text() == "Copied"
    wrap = page.locator("#answer .wrap-toggle")
    assert wrap.is_visible()  # narrow screens only
    wrap.click()
    assert "wrapped" in page.locator("#answer pre.command").get_attribute("class")
    context.close()


def test_language_switch_keeps_the_query(site, page):
    page.goto(f"{site}/search?q=permission+denied&page=1")
    page.click("a.lang-switch")
    page.wait_for_url(f"{site}/zh/search?q=permission+denied&page=1")
    assert page.locator("input[name=q]").first.input_value() == "permission denied"


AXE = Path(__file__).parent / "axe" / "node_modules" / "axe-core" / "axe.min.js"


def test_pages_have_no_serious_accessibility_violations(site, browser):
    if not AXE.exists():
        pytest.fail(f"axe-core is not installed: npm ci --prefix {AXE.parents[2]}")
    # axe runs as an injected script, which the pages' own policy (script-src 'self') forbids.
    context = browser.new_context(viewport={"width": 1280, "height": 900}, bypass_csp=True)
    page = context.new_page()
    paths = [
        "/",
        f"/errors/{SEED_ID}",
        f"/zh/errors/{SEED_ID}",
        "/search?q=git",
        "/zh/search?q=缓存",
        "/lookup?q=fatal%3A+not+a+git+repository",
        "/domains/git",
        "/zh/domains/git",
        "/about",
        "/zh/about",
    ]
    found = serious_violations(page, site, paths)
    context.close()
    assert not found


def serious_violations(page, site: str, paths: list[str]) -> dict[str, list[str]]:
    """axe-core's serious and critical findings on each page, by path."""
    found = {}
    for path in paths:
        page.goto(site + path)
        page.add_script_tag(path=str(AXE))
        result = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
        bad = [
            f"{v['id']} ({v['impact']}): {v['nodes'][0]['target']}"
            for v in result["violations"]
            if v["impact"] in ("serious", "critical")
        ]
        if bad:
            found[path] = bad
    return found
