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


def test_paste_an_error_and_land_on_the_entry(site, page):
    page.goto(f"{site}/")
    page.fill(
        "form.lookup textarea",
        (FIXTURES / "pastes" / "llm__vllm-block-manager-out-of-memory.txt").read_text(),
    )
    page.click("form.lookup button")
    first = page.locator("#matches ol.hits li a").first
    assert first.get_attribute("href") == f"/errors/{SEED_ID}"
    first.click()
    page.wait_for_url(f"{site}/errors/{SEED_ID}")
    assert page.locator("#fix-rate").inner_text() == "80%"
    assert page.locator("#confidence").inner_text() == "85%"
    assert page.locator("#versions tbody tr").count() == 5
    assert "--max-num-seqs 64" in page.locator("#workarounds pre").first.inner_text()
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
