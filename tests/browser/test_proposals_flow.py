"""A reader proposes, a moderator accepts and undoes it: a real Chromium against `errata serve`."""

import re

import pytest

from tests.browser.test_pages import AXE, browser, serious_violations, site  # noqa: F401  (shared fixtures)
from tests.conftest import ADMIN_TOKEN, SEED_ID

pytestmark = [pytest.mark.browser, pytest.mark.slow]
TITLE = "Restart the engine with <b>--enforce-eager</b>"


@pytest.fixture
def reader(browser):  # noqa: F811
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    yield context.new_page()
    context.close()


@pytest.fixture
def moderator(browser):  # noqa: F811
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    yield context.new_page()
    context.close()


def test_propose_review_accept_see_history_and_undo(site, reader, moderator):  # noqa: F811
    # A reader proposes a workaround from the Chinese entry page.
    reader.goto(f"{site}/zh/errors/{SEED_ID}")
    reader.click("#improve-link")
    reader.wait_for_url(f"{site}/zh/errors/{SEED_ID}/propose")
    reader.click("#p-workaround summary")
    form = reader.locator("#p-workaround form")
    form.locator("textarea[name=title_en]").fill(TITLE)
    form.locator("textarea[name=title_zh]").fill("用 --enforce-eager 重启引擎")
    form.locator("input[name=display_name]").fill("Ada")
    form.locator("button[type=submit]").click()
    reader.wait_for_url(re.compile(r".*/zh/proposals/\d+\?sent=1$"))
    number = reader.url.split("/proposals/")[1].split("?")[0]
    assert reader.locator("#proposal-confirmation").is_visible()
    assert reader.locator("#proposal-status").inner_text() == "待审核"
    assert TITLE in reader.locator("table.diff").inner_text()
    assert reader.locator("table.diff b").count() == 0
    reader.goto(f"{site}/errors/{SEED_ID}")
    assert "--enforce-eager" not in reader.locator("#workarounds").inner_text()

    # The moderator signs in once, finds it in the queue, reads the diff and accepts it.
    moderator.goto(f"{site}/moderation")
    moderator.fill("input[name=token]", ADMIN_TOKEN)
    moderator.click("form button[type=submit]")
    moderator.wait_for_url(f"{site}/moderation")
    cookie = next(c for c in moderator.context.cookies() if c["name"] == "errata_moderator")
    assert cookie["httpOnly"] and cookie["secure"] and cookie["sameSite"] == "Strict"
    assert moderator.evaluate("document.cookie") == ""
    moderator.click(f"#proposals a[href='/moderation/proposals/{number}']")
    assert (
        "workarounds[restart-the-engine-with-b-enforce-eager-b].title.zh"
        in moderator.locator("table.diff").inner_text()
    )
    moderator.click("#accept button")
    moderator.wait_for_url(f"{site}/moderation/proposals/{number}?done=accepted")
    assert moderator.locator("#proposal-status").inner_text() == "accepted"

    # The entry shows it at once, credits the reader and says how it last changed.
    reader.goto(f"{site}/errors/{SEED_ID}")
    # Entry text is sanitised Markdown (bold stays bold); in diffs every tag is plain text.
    assert "Restart the engine with --enforce-eager" in reader.locator("#workarounds").inner_text()
    assert reader.locator("#credits .credit-name").inner_text() == "Ada"
    assert f"reader proposal #{number}" in reader.locator("#last-change").inner_text()
    reader.click("#history-link")
    reader.wait_for_url(f"{site}/errors/{SEED_ID}/history")
    first = reader.locator("#revisions tbody tr").first
    assert f"reader proposal #{number}" in first.inner_text() and "workarounds" in first.inner_text()
    assert "用 --enforce-eager 重启引擎" in reader.locator("#diff ins").all_inner_texts()

    # Undo: the moderator accepts the previous revision back, as a new revision.
    moderator.click("#undo button")
    moderator.wait_for_url(f"{site}/moderation/proposals/{number}?done=reverted")
    reader.goto(f"{site}/errors/{SEED_ID}")
    assert "--enforce-eager" not in reader.locator("#workarounds").inner_text()
    assert "a moderator" in reader.locator("#last-change").inner_text()
    reader.goto(f"{site}/errors/{SEED_ID}/history")
    rows = reader.locator("#revisions tbody tr")
    assert rows.count() == 3
    assert "restored revision 1" in rows.first.inner_text()
    reader.check("#revisions input[name=from][value='1']")
    reader.check("#revisions input[name=to][value='3']")
    reader.click("form.compare button")
    reader.wait_for_url(lambda url: "from=1" in url and "to=3" in url)
    assert reader.locator("#diff").inner_text().strip().endswith("No differences.")


def _pages_of_a_moderated_site(site, browser):  # noqa: F811
    """Sign in, make one proposal, and give the paths of every page this feature adds."""
    context = browser.new_context(viewport={"width": 1280, "height": 900}, bypass_csp=True)
    page = context.new_page()
    page.goto(f"{site}/moderation")
    page.fill("input[name=token]", ADMIN_TOKEN)
    page.click("form button[type=submit]")
    page.wait_for_url(f"{site}/moderation")
    response = page.request.post(
        f"{site}/api/v1/errors/{SEED_ID}/proposals",
        data={
            "change": {"kind": "doc", "title": "A page of the docs", "url": "https://docs.vllm.ai/en/stable/"}
        },
    )
    number = response.json()["id"]
    paths = [
        f"/errors/{SEED_ID}/propose",
        f"/zh/errors/{SEED_ID}/propose",
        "/propose?q=QuuxError%3A+failed+at+%2Fhome%2Fzed%2Fq.conf",
        f"/proposals/{number}",
        f"/zh/proposals/{number}",
        f"/errors/{SEED_ID}/history",
        f"/zh/errors/{SEED_ID}/history",
        "/moderation",
        f"/zh/moderation/proposals/{number}",
    ]
    return context, page, paths


def test_new_pages_fit_the_screen(site, browser):  # noqa: F811
    context, page, paths = _pages_of_a_moderated_site(site, browser)
    too_wide = []
    for width in (320, 1280):
        page.set_viewport_size({"width": width, "height": 800})
        for path in paths:
            page.goto(site + path)
            scroll_width = page.evaluate("document.documentElement.scrollWidth")
            if scroll_width > width:
                too_wide.append((width, path, scroll_width))
    context.close()
    assert not too_wide


def test_new_pages_have_no_serious_accessibility_violations(site, browser):  # noqa: F811
    if not AXE.exists():
        pytest.fail(f"axe-core is not installed: npm ci --prefix {AXE.parents[2]}")
    context, page, paths = _pages_of_a_moderated_site(site, browser)
    found = serious_violations(page, site, paths)
    context.close()
    assert not found
