"""The moderator's cookie: signed, expiring, bound to the admin token; CSRF tokens bound to it."""

from app.web import moderator_session as ms

TOKEN = "s3cret-admin-token"


def test_a_fresh_cookie_is_valid_until_it_expires():
    cookie = ms.issue(TOKEN, now=1000.0)
    sid = ms.session_id(TOKEN, cookie, now=1001.0)
    assert sid
    assert ms.session_id(TOKEN, cookie, now=1000.0 + ms.SESSION_SECONDS + 1) is None


def test_a_tampered_or_foreign_cookie_is_refused():
    cookie = ms.issue(TOKEN, now=1000.0)
    expires, nonce, signature = cookie.split(".")
    assert ms.session_id(TOKEN, f"{int(expires) + 99999}.{nonce}.{signature}", now=1001.0) is None
    assert ms.session_id("another-token", cookie, now=1001.0) is None
    for junk in (None, "", "a.b", "x.y.z", TOKEN):
        assert ms.session_id(TOKEN, junk, now=1001.0) is None


def test_csrf_tokens_belong_to_one_session():
    sid = ms.session_id(TOKEN, ms.issue(TOKEN), now=None)
    other = ms.session_id(TOKEN, ms.issue(TOKEN), now=None)
    token = ms.csrf_token(TOKEN, sid)
    assert ms.csrf_ok(TOKEN, sid, token)
    assert not ms.csrf_ok(TOKEN, other, token)
    assert not ms.csrf_ok(TOKEN, sid, "")
    assert not ms.csrf_ok(TOKEN, sid, None)


def test_the_token_check_ignores_surrounding_spaces_only():
    assert ms.token_ok(TOKEN, f"  {TOKEN}\n")
    assert not ms.token_ok(TOKEN, TOKEN.upper())
