"""/docs: Swagger UI from files served here (the swagger-ui-bundle package), so the API
documentation works with no internet, behind a firewall or on a plane."""

from fastapi import APIRouter, FastAPI
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.staticfiles import StaticFiles
from swagger_ui_bundle import swagger_ui_path

ASSETS = "/docs-assets"
router = APIRouter(include_in_schema=False)


@router.get("/docs")
def swagger_ui():
    return get_swagger_ui_html(
        openapi_url="/openapi.json",
        title="errata API",
        swagger_js_url=f"{ASSETS}/swagger-ui-bundle.js",
        swagger_css_url=f"{ASSETS}/swagger-ui.css",
        swagger_favicon_url="/favicon.ico",
    )


def install(app: FastAPI) -> None:
    app.mount(ASSETS, StaticFiles(directory=swagger_ui_path), name="docs-assets")
    app.include_router(router)
