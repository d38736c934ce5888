"""Figures of the shipped content: size, languages, how its wordings were proven.

    python bench/content_quality.py [--no-run] [--jobs N]

Runs every reproduction (as `errata verify` does) unless --no-run, and prints:
entries, domains, the bilingual share, the shares of entries with a reproduced and with a
sourced wording, how many entries' patterns were tested against real output, and how
many reproductions matched.
"""

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.config import PROJECT_ROOT  # noqa: E402
from app.services.interchange.importer import discover, parse_file  # noqa: E402
from app.services.verification.checks import untranslated  # noqa: E402
from app.services.verification.shipped import verify  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-run", action="store_true", help="skip the reproductions")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    data = PROJECT_ROOT / "data"
    docs = [parse_file(p) for p in discover([data])]
    started = time.monotonic()
    results = verify(data, run_scripts=not args.no_run, jobs=args.jobs)
    seconds = time.monotonic() - started
    n = len(docs)
    domains = Counter(d.domain for d in docs)
    bilingual = sum(not untranslated(d) for d in docs)
    methods = [{v.method for v in d.verification} for d in docs]
    every_wording = sum({v.text for v in d.verification} >= set(d.wordings()) for d in docs)
    scripts = [r for r in results if r.has_script]

    def share(count: int, total: int = n) -> str:
        return f"{count} / {total} ({count / total:.0%})" if total else "0"

    print(f"entries                          {n}")
    print(
        f"domains                          {len(domains)}: "
        + ", ".join(f"{k} {v}" for k, v in sorted(domains.items()))
    )
    print(f"bilingual (every text has zh)    {share(bilingual)}")
    print(f"every wording verified           {share(every_wording)}")
    print(f"with a reproduced wording        {share(sum('reproduced' in m for m in methods))}")
    print(f"with a sourced wording           {share(sum('sourced' in m for m in methods))}")
    print(f"variants (other wordings)        {sum(len(d.variants) for d in docs)}")
    print(f"entries passing every check      {share(sum(r.ok for r in results))}")
    if args.no_run:
        print("reproductions                    not run (--no-run)")
        return
    print(f"patterns tested on real output   {share(sum(r.patterns_on_output for r in results))}")
    print(f"reproductions matched            {share(sum(r.reproduced for r in scripts), len(scripts))}")
    print(f"time                             {seconds:.0f} s with {args.jobs} jobs")


if __name__ == "__main__":
    main()
