"""Does a compatibility row cover a version? Rows hold a version or a PEP 440 specifier."""

from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.version import InvalidVersion, Version


def covers(row_version: str, version: str) -> bool:
    """True when `version` falls under `row_version` ('12.1', '>=0.6,<0.8', '12.x', '')."""
    row_version, version = row_version.strip(), version.strip()
    if not row_version:
        return True  # the row names the component without narrowing the version
    try:
        wanted = Version(version)
    except InvalidVersion:
        return row_version.lower() == version.lower()
    if row_version[0] in "<>=!~":
        try:
            return SpecifierSet(row_version).contains(wanted, prereleases=True)
        except InvalidSpecifier:
            return False
    if row_version.endswith((".x", ".*")):
        prefix = row_version[:-2]
        return version == prefix or version.startswith(prefix + ".")
    try:
        row = Version(row_version).release
    except InvalidVersion:
        return row_version.lower() == version.lower()
    # A plain version names a series: "12.1" covers 12.1, 12.1.0 and 12.1.5.
    return wanted.release[: len(row)] == row
