"""Static files: hashed names are immutable for a year; plain names revalidate."""

from fastapi import APIRouter
from fastapi.responses import Response

from app.services.errors import PageNotFound
from app.web.assets import Asset, assets, by_hashed_name

router = APIRouter(include_in_schema=False)
IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "public, max-age=300"


def _serve(asset: Asset | None, name: str, cache_control: str) -> Response:
    if asset is None:
        raise PageNotFound(f"/static/{name}")
    headers = {"Cache-Control": cache_control}
    return Response(asset.body, media_type=asset.media_type, headers=headers)


@router.get("/static/{name}")
def static_file(name: str) -> Response:
    hashed = by_hashed_name().get(name)
    if hashed is not None:
        return _serve(hashed, name, IMMUTABLE)
    return _serve(assets().get(name), name, REVALIDATE)


@router.get("/favicon.ico")
def favicon() -> Response:
    return _serve(assets().get("favicon.ico"), "favicon.ico", REVALIDATE)
