"""Corpora as downloaded: a .tar.gz, .tgz, .tar or .zip, unpacked safely for the importer.

An archive comes from elsewhere, so nothing in it is trusted: a member whose name leaves the
target folder (absolute, `..`, a drive letter) makes the whole archive refused; links,
devices and files the importer would not read are skipped; sizes are capped while the bytes
are written, not as the archive declares them. A repository archive (the deadends.dev one,
say) is narrowed to its `data/canons` folder, so its code and package files are not read.
"""

import shutil
import tarfile
import tempfile
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path, PurePosixPath
from typing import BinaryIO

from app.services.interchange.importer import SUFFIXES

ARCHIVE_SUFFIXES = (".tar.gz", ".tgz", ".tar", ".zip")
MAX_MEMBER_BYTES = 16 * 1024 * 1024
MAX_TOTAL_BYTES = 2 * 1024 * 1024 * 1024
MAX_MEMBERS = 200_000
CORPUS_FOLDER = ("data", "canons")


class ArchiveError(ValueError):
    def __init__(self, archive: Path, message: str):
        super().__init__(f"{archive}: {message}")


def is_archive(path: Path) -> bool:
    return path.is_file() and path.name.lower().endswith(ARCHIVE_SUFFIXES)


def _safe_name(archive: Path, name: str) -> PurePosixPath:
    path = PurePosixPath(name.replace("\\", "/"))
    if path.is_absolute() or ".." in path.parts or (path.parts and ":" in path.parts[0]):
        raise ArchiveError(archive, f"member {name[:200]!r} would be written outside the folder")
    return path


class _Budget:
    def __init__(self, archive: Path):
        self.archive = archive
        self.total = 0
        self.members = 0

    def copy(self, source: BinaryIO, target: Path, name: str) -> None:
        self.members += 1
        if self.members > MAX_MEMBERS:
            raise ArchiveError(self.archive, f"more than {MAX_MEMBERS} entry files")
        target.parent.mkdir(parents=True, exist_ok=True)
        written = 0
        with target.open("wb") as out:
            while chunk := source.read(1 << 16):
                written += len(chunk)
                self.total += len(chunk)
                if written > MAX_MEMBER_BYTES:
                    raise ArchiveError(self.archive, f"{name[:200]} is larger than {MAX_MEMBER_BYTES} bytes")
                if self.total > MAX_TOTAL_BYTES:
                    raise ArchiveError(self.archive, f"unpacks to more than {MAX_TOTAL_BYTES} bytes")
                out.write(chunk)


def _wanted(path: PurePosixPath) -> bool:
    return path.suffix.lower() in SUFFIXES and not any(part.startswith(".") for part in path.parts)


def _extract(archive: Path, root: Path) -> None:
    budget = _Budget(archive)
    try:
        if archive.name.lower().endswith(".zip"):
            with zipfile.ZipFile(archive) as bundle:
                for info in bundle.infolist():
                    path = _safe_name(archive, info.filename)
                    # Unix mode bits in the high word: skip symbolic links.
                    is_link = (info.external_attr >> 16) & 0o170000 == 0o120000
                    if info.is_dir() or is_link or not _wanted(path):
                        continue
                    with bundle.open(info) as source:
                        budget.copy(source, root.joinpath(*path.parts), info.filename)
        else:
            with tarfile.open(archive, mode="r:*") as bundle:
                for member in bundle:
                    path = _safe_name(archive, member.name)
                    if not member.isfile() or not _wanted(path):
                        continue
                    source = bundle.extractfile(member)
                    if source is not None:
                        budget.copy(source, root.joinpath(*path.parts), member.name)
    except (tarfile.TarError, zipfile.BadZipFile, EOFError, OSError) as exc:
        raise ArchiveError(archive, f"not a readable archive: {exc}") from None


def corpus_root(root: Path) -> Path:
    """The `data/canons` folder of an unpacked repository, if there is one, else everything."""
    for depth in range(3):
        for candidate in sorted(root.glob("/".join(["*"] * depth + list(CORPUS_FOLDER)))):
            if candidate.is_dir():
                return candidate
    return root


@contextmanager
def unpacked(archive: Path) -> Iterator[Path]:
    """The archive's entry files in a temporary folder, removed afterwards."""
    folder = Path(tempfile.mkdtemp(prefix="errata-import-"))
    try:
        _extract(archive, folder)
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)
