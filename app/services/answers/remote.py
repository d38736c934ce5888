"""The same Answer from a remote errata, through its public HTTP API (no database here)."""

from urllib.parse import quote

import httpx

from app.schemas.views import EntryView
from app.services.answers.build import Answer, answer

TIMEOUT = 20.0


class RemoteError(RuntimeError):
    """The remote errata could not be reached or answered with an error."""


def _call(client: httpx.Client, method: str, path: str, **kwargs) -> dict:
    try:
        response = client.request(method, path, **kwargs)
    except httpx.HTTPError as exc:
        raise RemoteError(f"{client.base_url} did not answer: {exc}") from None
    if response.status_code >= 400:
        try:
            detail = response.json().get("detail")
        except ValueError:
            detail = response.text[:200]
        raise RemoteError(f"{client.base_url}{path} answered {response.status_code}: {detail}")
    return response.json()


def remote_answer(
    base_url: str, text: str, *, lang: str, limit: int = 3, versions: dict[str, str] | None = None
) -> Answer:
    base = base_url.rstrip("/")
    with httpx.Client(base_url=base, timeout=TIMEOUT, headers={"User-Agent": "errata-cli"}) as client:
        body = {"text": text, "limit": limit, **({"versions": versions} if versions else {})}
        found = _call(client, "POST", "/api/v1/lookup", json=body)["matches"]
        scored = [
            (m["score"], EntryView.model_validate(_call(client, "GET", f"/api/v1/errors/{quote(m['id'])}")))
            for m in found
        ]
    return answer(scored, lang, base)
