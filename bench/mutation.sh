#!/usr/bin/env bash
# Mutation testing with cosmic-ray over app/services, app/render, app/web and app/routers:
# each mutant (a small change to the code: an operator, a constant, a comparison) is applied
# to a copy of the checkout and the tests that run the changed line are run; a mutant the
# tests do not notice "survives" and points at behaviour no test pins down. A failure counts
# as a kill only if the same tests in the same order pass on the unmutated copy.
#
#   bash bench/mutation.sh                   # a stratified random sample of 100 mutants (~90 min)
#   bash bench/mutation.sh --sample N        # N mutants (--seed S changes the draw; default 12)
#   bash bench/mutation.sh --only FILE       # the mutants FILE names (module:operator:occurrence)
#   bash bench/mutation.sh --all             # every mutant (about 9,100): about 30 hours on one core
#   bash bench/mutation.sh --map [TESTS...]  # only measure the coverage map again (all, or TESTS)
#
# First the coverage map (bench/mutation_map.py: which tests run each line, in the pytest
# process and in the servers and commands tests start, ~40 min) is
# measured unless one for the same code is kept in /tmp; then every mutant is enumerated
# (`cosmic-ray init`) and counted per package; bench/mutation_test.py is the test command. Prints
# the score with its 95 % interval and every surviving mutant as a diff. One pytest process
# at a time. cosmic-ray lives in its own venv under /tmp; the tests run with the project's .venv.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
TOOL_VENV="${ERRATA_MUTATION_VENV:-/tmp/errata-mutation}"
MAP="${ERRATA_MUTATION_MAP:-/tmp/errata-mutation-map.json}"
PROJECT_PYTHON="$ROOT/.venv/bin/python"
export PYTHONPATH="$ROOT"

size=100 seed=12 mode=sample names=""
while (($#)); do
  case "$1" in
    --sample) size="$2"; shift 2 ;;
    --seed) seed="$2"; shift 2 ;;
    --only) mode=only names="$(realpath "$2")"; shift 2 ;;
    --all) mode=all; shift ;;
    --map)
      shift
      if (($#)); then exec "$PROJECT_PYTHON" "$ROOT/bench/mutation_map.py" "$MAP" --update "$@"; fi
      exec "$PROJECT_PYTHON" "$ROOT/bench/mutation_map.py" "$MAP" ;;
    *) echo "unknown option $1 (see the head of $0)" >&2; exit 2 ;;
  esac
done

if [[ ! -x "$TOOL_VENV/bin/cosmic-ray" ]]; then
  python3 -m venv "$TOOL_VENV"
  "$TOOL_VENV/bin/pip" install -q 'cosmic-ray>=8.4,<9'
fi

fresh=$("$PROJECT_PYTHON" -c "import sys; sys.path.insert(0, '$ROOT/bench'); import json, mutation_map as m
from pathlib import Path
p = Path('$MAP'); print(int(p.is_file() and json.loads(p.read_text())['tree'] == m.tree_hash(m.ROOT)))")
if [[ "$fresh" != 1 ]]; then
  echo "measuring the coverage map (the suite without tests/content, once) -> $MAP"
  "$PROJECT_PYTHON" "$ROOT/bench/mutation_map.py" "$MAP"
fi

tree="$(cd "$ROOT" && git rev-parse --short HEAD)$(cd "$ROOT" && git diff --quiet HEAD -- app tests || echo ' with uncommitted changes')"
# Two copies of the working tree (committed or not): cosmic-ray mutates one, the test
# command compares it with the other; the checkout itself is never touched.
work="$(mktemp -d /tmp/errata-mutants-XXXXXX)"
# The session is kept (an interrupted run can be read, and resumed with `cosmic-ray exec`).
KEPT=/tmp/errata-mutation-last.sqlite
trap 'cp -f "$work/session.sqlite" "$KEPT" 2>/dev/null || true; rm -rf "$work"' EXIT
mkdir "$work/tree" "$work/pristine"
for copy in tree pristine; do
  (cd "$ROOT" && git ls-files -z --cached --others --exclude-standard | xargs -0 tar -cf - 2>/dev/null) \
    | tar -xf - -C "$work/$copy"
done
# Both copies run tests: the pristine one confirms each failure (bench/mutation_test.py).
if [[ -e "$ROOT/tests/browser/axe/node_modules" ]]; then
  for copy in tree pristine; do
    ln -sfn "$(realpath "$ROOT/tests/browser/axe/node_modules")" "$work/$copy/tests/browser/axe/node_modules"
  done
fi

cat >"$work/mutation.toml" <<EOF
[cosmic-ray]
module-path = ["app/services", "app/render", "app/web", "app/routers"]
# bench/mutation_test.py stops the tests itself (a hung mutant counts as killed); this is a backstop.
timeout = 3600.0
excluded-modules = []
test-command = "env PYTHONPATH=$work/tree $PROJECT_PYTHON $work/tree/bench/mutation_test.py $work/pristine $MAP"

[cosmic-ray.distributor]
name = "local"
EOF

cd "$work/tree"
"$TOOL_VENV/bin/cosmic-ray" init "$work/mutation.toml" "$work/session.sqlite"
session_tool=("$TOOL_VENV/bin/python" "$ROOT/bench/mutation_session.py")
case "$mode" in
  sample) "${session_tool[@]}" sample "$work/session.sqlite" "$size" "$seed" ;;
  only) "${session_tool[@]}" only "$work/session.sqlite" "$names" ;;
  all) "${session_tool[@]}" sample "$work/session.sqlite" 1000000000 "$seed" ;;
esac
start=$(date +%s)
"$TOOL_VENV/bin/cosmic-ray" exec "$work/mutation.toml" "$work/session.sqlite"
"${session_tool[@]}" report "$work/session.sqlite" $(($(date +%s) - start))
echo "tree: $tree"
