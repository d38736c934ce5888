"""Corpus archives as downloaded, and hostile ones: nothing is written outside the import."""

import io
import shutil
import stat
import tarfile
import zipfile
from pathlib import Path

import pytest

from app.services.interchange import archives
from app.services.interchange.archives import ArchiveError, corpus_root, unpacked
from tests.conftest import CANON_VALID, load


def _repository(tmp_path: Path) -> Path:
    """A repository laid out like the deadends.dev one: code, package files, data/canons."""
    repo = tmp_path / "deadends.dev-main"
    shutil.copytree(CANON_VALID, repo / "data" / "canons")
    (repo / "package.json").write_text('{"name": "site"}')
    (repo / "generator").mkdir()
    (repo / "generator" / "build.py").write_text("print('code')\n")
    return repo


def _tar(path: Path, members: dict[str, bytes], links: dict[str, str] | None = None) -> Path:
    with tarfile.open(path, "w:gz") as bundle:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            bundle.addfile(info, io.BytesIO(data))
        for name, target in (links or {}).items():
            info = tarfile.TarInfo(name)
            info.type = tarfile.SYMTYPE
            info.linkname = target
            bundle.addfile(info)
    return path


@pytest.mark.parametrize("kind", ["gztar", "zip"])
def test_a_downloaded_repository_imports_from_its_canons(tmp_path, settings, kind):
    repo = _repository(tmp_path)
    archive = Path(shutil.make_archive(str(tmp_path / "download"), kind, tmp_path, repo.name))
    assert archives.is_archive(archive)
    with unpacked(archive) as folder:
        root = corpus_root(folder)
        assert root == folder / repo.name / "data" / "canons"
        assert not (folder / repo.name / "generator").exists()  # code is never unpacked
        report = load(settings, root)
    assert not folder.exists()
    expected = load(settings, CANON_VALID)
    assert report.failed == 0 and report.created == expected.unchanged > 0


@pytest.mark.parametrize("name", ["../escape.json", "/etc/escape.json", "a/../../escape.json", "C:/x.json"])
def test_a_member_leaving_the_folder_refuses_the_whole_archive(tmp_path, name):
    archive = _tar(tmp_path / "evil.tar.gz", {"ok.json": b"{}", name: b"{}"})
    with pytest.raises(ArchiveError, match="outside the folder"), unpacked(archive):
        pass
    assert not (tmp_path / "escape.json").exists()
    zipped = tmp_path / "evil.zip"
    with zipfile.ZipFile(zipped, "w") as bundle:
        bundle.writestr(name, b"{}")
    with pytest.raises(ArchiveError, match="outside the folder"), unpacked(zipped):
        pass


def test_links_inside_a_zip_are_skipped(tmp_path):
    secret = tmp_path / "secret.json"
    secret.write_text('{"secret": true}')
    archive = tmp_path / "links.zip"
    with zipfile.ZipFile(archive, "w") as bundle:
        bundle.writestr("a.json", "{}")
        link = zipfile.ZipInfo("b.json")
        link.external_attr = (stat.S_IFLNK | 0o777) << 16  # how zip -y stores a symbolic link
        bundle.writestr(link, str(secret))
    with unpacked(archive) as folder:
        assert sorted(p.name for p in folder.rglob("*") if p.is_file()) == ["a.json"]


def test_links_are_skipped_and_sizes_are_capped_as_written(tmp_path, monkeypatch):
    secret = tmp_path / "secret.json"
    secret.write_text('{"secret": true}')
    archive = _tar(tmp_path / "links.tar.gz", {"a.json": b"{}"}, links={"b.json": str(secret)})
    with unpacked(archive) as folder:
        assert sorted(p.name for p in folder.rglob("*") if p.is_file()) == ["a.json"]

    monkeypatch.setattr(archives, "MAX_MEMBER_BYTES", 1000)
    big = _tar(tmp_path / "big.tar.gz", {"big.json": b" " * 5000})
    with pytest.raises(ArchiveError, match="larger than 1000 bytes"), unpacked(big):
        pass
    monkeypatch.setattr(archives, "MAX_MEMBER_BYTES", 10_000)
    monkeypatch.setattr(archives, "MAX_TOTAL_BYTES", 3000)
    many = _tar(tmp_path / "many.tar.gz", {f"{n}.json": b" " * 1000 for n in range(5)})
    with pytest.raises(ArchiveError, match="more than 3000 bytes"), unpacked(many):
        pass


def test_a_file_of_16_mib_unpacks_and_one_byte_more_is_refused(tmp_path):
    limit = 16 * 1024 * 1024  # what the README promises for a file inside an archive
    fits = _tar(tmp_path / "fits.tar.gz", {"big.json": b" " * limit})
    with unpacked(fits) as folder:
        assert (folder / "big.json").stat().st_size == limit
    over = _tar(tmp_path / "over.tar.gz", {"big.json": b" " * (limit + 1)})
    with pytest.raises(ArchiveError, match=f"big.json is larger than {limit} bytes"), unpacked(over):
        pass


def test_a_broken_archive_is_an_error_not_a_crash(tmp_path):
    broken = tmp_path / "broken.zip"
    broken.write_bytes(b"PK\x03\x04 not really")
    with pytest.raises(ArchiveError, match="not a readable archive"), unpacked(broken):
        pass


def test_errata_import_takes_an_archive_and_names_bad_files_inside_it(tmp_path):
    import os
    import subprocess
    import sys

    repo = _repository(tmp_path)
    (repo / "data" / "canons" / "broken.json").write_text('{"id": 1}')
    archive = Path(shutil.make_archive(str(tmp_path / "download"), "gztar", tmp_path, repo.name))
    env = {**os.environ, "ERRATA_DATABASE_URL": f"sqlite:///{tmp_path / 'errata.db'}"}
    errata = str(Path(sys.executable).with_name("errata"))
    done = subprocess.run([errata, "import", str(archive)], env=env, capture_output=True, text=True)
    assert done.returncode == 1
    assert f"error: {archive}!deadends.dev-main/data/canons/broken.json: id: " in done.stderr
    assert done.stdout.strip().endswith("1 created, 0 updated, 0 unchanged, 1 failed")
    evil = _tar(tmp_path / "evil.tar.gz", {"../x.json": b"{}"})
    refused = subprocess.run([errata, "import", str(evil)], env=env, capture_output=True, text=True)
    assert refused.returncode == 1 and "outside the folder" in refused.stderr
