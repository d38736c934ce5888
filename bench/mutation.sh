#!/usr/bin/env bash
# Mutation testing with cosmic-ray: each mutant (a small change to the code: an operator, a
# constant, a comparison) is applied to a copy of the checkout and the tests are run; a
# mutant the tests do not notice "survives" and points at behaviour no test pins down.
#
#   bash bench/mutation.sh                       # bounded: app/web/inputs.py and head.py, their unit tests
#   bash bench/mutation.sh MODULE TEST...        # one module or folder against chosen tests
#   bash bench/mutation.sh --full                # app/services app/render app/web app/routers
#                                                # against the suite (days on 2 cores)
#
# Prints the score (killed / all) and every surviving mutant as a diff. cosmic-ray lives
# in its own venv under /tmp; the tests run with the project's .venv.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
TOOL_VENV="${ERRATA_MUTATION_VENV:-/tmp/errata-mutation}"
PROJECT_PYTHON="$ROOT/.venv/bin/python"
PYTEST_FLAGS="-x -q -p no:cacheprovider"

if [[ "${1:-}" == "--full" ]]; then
  modules=(app/services app/render app/web app/routers)
  tests=(tests --ignore=tests/content --ignore=tests/browser)
elif (($# >= 2)); then
  modules=("$1")
  shift
  tests=("$@")
else
  modules=(app/web/inputs.py app/web/head.py)
  tests=(tests/unit/test_inputs.py tests/unit/test_input_guard.py)
fi

if [[ ! -x "$TOOL_VENV/bin/cosmic-ray" ]]; then
  python3 -m venv "$TOOL_VENV"
  "$TOOL_VENV/bin/pip" install -q 'cosmic-ray>=8.4,<9'
fi

# A copy of the working tree (committed or not), so mutating it never touches the checkout.
work="$(mktemp -d /tmp/errata-mutants-XXXXXX)"
# The session is kept (an interrupted run can be read, and resumed with `cosmic-ray exec`).
KEPT=/tmp/errata-mutation-last.sqlite
trap 'cp -f "$work/session.sqlite" "$KEPT" 2>/dev/null || true; rm -rf "$work"' EXIT
(cd "$ROOT" && git ls-files -z --cached --others --exclude-standard | xargs -0 tar -cf - 2>/dev/null) \
  | tar -xf - -C "$work"

module_list=$(printf '"%s", ' "${modules[@]}")
cat >"$work/mutation.toml" <<EOF
[cosmic-ray]
module-path = [${module_list%, }]
timeout = 300.0
excluded-modules = []
test-command = "env PYTHONPATH=$work $PROJECT_PYTHON -m pytest $PYTEST_FLAGS ${tests[*]}"

[cosmic-ray.distributor]
name = "local"
EOF

cd "$work"
echo "modules: ${modules[*]}"
echo "tests:   ${tests[*]}"
# The tests must pass on the unmutated code, or every mutant would look killed.
env PYTHONPATH="$work" "$PROJECT_PYTHON" -m pytest $PYTEST_FLAGS "${tests[@]}" >/dev/null
"$TOOL_VENV/bin/cosmic-ray" init mutation.toml session.sqlite
start=$(date +%s)
"$TOOL_VENV/bin/cosmic-ray" exec mutation.toml session.sqlite
seconds=$(($(date +%s) - start))

"$TOOL_VENV/bin/python" - session.sqlite "$seconds" <<'EOF'
import sys

from cosmic_ray.work_db import WorkDB, use_db
from cosmic_ray.work_item import TestOutcome

with use_db(sys.argv[1], WorkDB.Mode.open) as db:
    done = [(item, result) for item, result in db.completed_work_items]
    survivors = [(item, result) for item, result in done if result.test_outcome == TestOutcome.SURVIVED]
    total = len(done)
    killed = total - len(survivors)
    score = 100.0 * killed / total if total else 0.0
    print(f"\nmutants: {total}, killed: {killed}, survived: {len(survivors)}; score {score:.1f} %")
    print(f"time: {sys.argv[2]} s")
    for item, result in survivors:
        for mutation in item.mutations:
            print(f"\n--- survived: {mutation.module_path}:{mutation.start_pos[0]} {mutation.operator_name}")
        print(result.diff)
EOF
