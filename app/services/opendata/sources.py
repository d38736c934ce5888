"""The sources entries come from, with the licence and credit each requires.

An entry names its source in `provenance.source` (set by the importer); entries without
one were written for this project.
"""

from pydantic import BaseModel

OWN_SOURCE = "errata"


class Source(BaseModel):
    name: str
    description: str
    licence: str
    licence_url: str | None
    attribution: str
    url: str | None


def known_sources(content_licence: str) -> dict[str, Source]:
    """Every source the importer knows; `content_licence` is the licence of errata's own entries."""
    return {
        OWN_SOURCE: Source(
            name=OWN_SOURCE,
            description="Entries written for this project (the data/ folder), AI-drafted until reviewed",
            licence=content_licence,
            licence_url=_licence_url(content_licence),
            attribution="errata contributors",
            url=None,
        ),
        "deadends.dev": Source(
            name="deadends.dev",
            description="Canon files of the public deadends.dev corpus (data/canons/ of its repository)",
            licence="CC BY 4.0",
            licence_url="https://creativecommons.org/licenses/by/4.0/",
            attribution="deadends.dev by YuJin Hong (dbwls99706/deadends.dev), CC BY 4.0",
            url="https://github.com/dbwls99706/deadends.dev",
        ),
    }


def _licence_url(licence: str) -> str | None:
    urls = {
        "CC BY 4.0": "https://creativecommons.org/licenses/by/4.0/",
        "CC BY-SA 4.0": "https://creativecommons.org/licenses/by-sa/4.0/",
        "CC0 1.0": "https://creativecommons.org/publicdomain/zero/1.0/",
    }
    return urls.get(licence)


def source_of(name: str | None, sources: dict[str, Source]) -> Source:
    """The Source of an entry's `provenance.source`; an unknown name is reported as it is."""
    key = name or OWN_SOURCE
    return sources.get(key) or Source(
        name=key,
        description="Imported from a source errata does not describe",
        licence="unknown",
        licence_url=None,
        attribution=key,
        url=None,
    )
