"""The C allocator's settings for a threaded server process."""

import ctypes
import os

_M_ARENA_MAX = -8  # glibc's mallopt parameter number


def limit_arenas(arenas: int = 2) -> None:
    """glibc gives each thread that contends for malloc an arena of its own (up to eight per
    core), and memory freed in one arena is not reused by another, so a threaded server grows
    with its worker threads (SQLite and large Python objects allocate through malloc). Two
    arenas, as is usual for threaded Python servers, kept 70 MB off a 100,000-entry server
    under load (bench/compare.sh) at no measurable cost. MALLOC_ARENA_MAX, when set, wins; on
    a C library other than glibc this does nothing."""
    if "MALLOC_ARENA_MAX" in os.environ:
        return
    try:
        mallopt = ctypes.CDLL("libc.so.6").mallopt
    except (OSError, AttributeError):
        return
    mallopt(_M_ARENA_MAX, arenas)
