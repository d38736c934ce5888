#!/usr/bin/env bash
# errata beside Datasette (from PyPI) and nginx (Debian) on the same rows, driven by wrk.
#
#   bash bench/compare.sh                  # 10k and 100k entries
#   SIZES="10000" SECONDS_PER_RUN=5 bash bench/compare.sh
#
# Builds the databases once (cached in $BENCH_DIR: shipped entries, the deadends.dev canon
# corpus, generated entries up to each size; the corpus is needed to generate them), puts
# Datasette into a venv of its own under $BENCH_DIR, installs wrk and nginx with apt-get
# when missing, then runs bench/compare.py, which starts and stops every server it uses.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
BENCH_DIR=${BENCH_DIR:-/tmp/errata-bench}
SIZES=${SIZES:-"10000 100000"}
PY=${PYTHON:-$ROOT/.venv/bin/python}
export PYTHONPATH=$ROOT
mkdir -p "$BENCH_DIR"

missing=()
for tool in wrk nginx taskset; do
  if ! command -v "$tool" >/dev/null && ! [ -x "/usr/sbin/$tool" ]; then
    case $tool in nginx) missing+=(nginx-light) ;; taskset) missing+=(util-linux) ;; *) missing+=("$tool") ;; esac
  fi
done
if ((${#missing[@]})); then
  # A fresh machine has no package lists yet.
  apt-get update -q >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" >/dev/null
fi
NGINX=$(command -v nginx || echo /usr/sbin/nginx)

if ! [ -x "$BENCH_DIR/datasette-venv/bin/datasette" ]; then
  python3 -m venv "$BENCH_DIR/datasette-venv"
  # Without this checkout on its path, where pip would take errata for one of its packages.
  env -u PYTHONPATH "$BENCH_DIR/datasette-venv/bin/pip" install -q "datasette>=0.65,<1"
fi

dbs=()
for size in $SIZES; do
  db="$BENCH_DIR/$size.db"
  if ! [ -f "$db" ]; then
    echo "building $db ..."
    "$PY" bench/build_data.py "$size" "$db"
  fi
  # A database kept from an older checkout gets this checkout's migrations.
  ERRATA_DATABASE_URL="sqlite:///$db" ERRATA_DATA_DIR="" "$PY" -c "from app.cli import main; main()" db upgrade >/dev/null
  dbs+=("$db")
done

"$PY" bench/compare.py --db "${dbs[@]}" --datasette "$BENCH_DIR/datasette-venv/bin/datasette" \
  --nginx "$NGINX" --work "$BENCH_DIR/run" --seconds "${SECONDS_PER_RUN:-5}" ${COMPARE_FLAGS:---visibility --workers}

sizes=($(printf '%s\n' $SIZES | sort -n))
if ((${#sizes[@]} > 1)); then
  # Kept entry reads at the smallest base and the largest, the app alone: its CPU per read,
  # finer than /proc's ticks through HTTP can tell.
  "$PY" bench/entry_growth.py --db "$BENCH_DIR/${sizes[0]}.db" "$BENCH_DIR/${sizes[-1]}.db"
fi
