"""Build a benchmark database of N entries: the shipped entries, the corpus, then generated ones.

    python bench/build_data.py 10000 /tmp/errata-bench/10000.db

Generated entries are mutations of corpus entries (see lookup_speed.grow), so the corpus
(ERRATA_CORPUS, by default beside the checkout) is needed to reach N; without it the base
holds the shipped entries only.
"""

import argparse
import json
import random
import shutil
from pathlib import Path

from common import CORPUS, SHIPPED, loaded_database
from lookup_speed import grow


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("size", type=int)
    parser.add_argument("out", type=Path)
    args = parser.parse_args()
    settings, engine = loaded_database(CORPUS, SHIPPED)
    sources = [json.loads(p.read_text()) for p in sorted(CORPUS.rglob("*.json"))] if CORPUS.is_dir() else []
    if sources:
        grow(engine, args.size, sources, random.Random(7))
    engine.dispose()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(settings.database_url.removeprefix("sqlite:///"), args.out)


if __name__ == "__main__":
    main()
