"""Request dependencies."""

from typing import Annotated

from fastapi import Depends, Request

from app.config import Settings
from app.i18n import lang_of_path


def get_lang(request: Request) -> str:
    """The URL prefix decides the language: /zh/... is Chinese, everything else English."""
    return lang_of_path(request.url.path)


def get_settings(request: Request) -> Settings:
    return request.app.state.settings


LangDep = Annotated[str, Depends(get_lang)]
SettingsDep = Annotated[Settings, Depends(get_settings)]
