"""The moderator's browser session: the admin token, entered once, becomes a signed cookie.

The cookie holds an expiry and a random session id, signed with a key derived from
ERRATA_ADMIN_TOKEN (changing the token ends every session). It is HttpOnly, Secure and
SameSite=Strict. Each form carries a CSRF token derived from the session id, so a page
of another site cannot post a moderator's form even where the cookie would be sent.
"""

import hashlib
import hmac
import secrets
import time

COOKIE = "errata_moderator"
SESSION_SECONDS = 8 * 3600


def _key(admin_token: str) -> bytes:
    return hmac.new(admin_token.encode(), b"errata moderator session", hashlib.sha256).digest()


def _sign(admin_token: str, message: str) -> str:
    return hmac.new(_key(admin_token), message.encode(), hashlib.sha256).hexdigest()


def issue(admin_token: str, now: float | None = None) -> str:
    expires = int((now or time.time()) + SESSION_SECONDS)
    payload = f"{expires}.{secrets.token_urlsafe(16)}"
    return f"{payload}.{_sign(admin_token, payload)}"


def session_id(admin_token: str, cookie: str | None, now: float | None = None) -> str | None:
    """The session id of a valid, unexpired cookie; None otherwise."""
    parts = (cookie or "").split(".")
    if len(parts) != 3 or not parts[0].isdigit():
        return None
    expires, nonce, signature = parts
    if not hmac.compare_digest(signature, _sign(admin_token, f"{expires}.{nonce}")):
        return None
    return nonce if int(expires) > (now or time.time()) else None


def csrf_token(admin_token: str, sid: str) -> str:
    return _sign(admin_token, f"csrf:{sid}")


def csrf_ok(admin_token: str, sid: str, given: str | None) -> bool:
    return bool(given) and hmac.compare_digest(given, csrf_token(admin_token, sid))


def token_ok(admin_token: str, given: str) -> bool:
    return hmac.compare_digest(given.strip().encode(), admin_token.encode())
