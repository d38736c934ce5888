# requires: python /usr/bin/python3.11
# timeout: 90
# Copies Debian's python3.11 (and the venv's upstream CPython) next to a symlinked stdlib that lacks ensurepip, i.e. a system without python3-venv, then runs "python3 -m venv".
set -u
farm() {  # farm DIR INTERPRETER STDLIB: interpreter copy + stdlib without ensurepip
  mkdir -p "$1/bin" "$1/lib/python3.11"
  cp "$2" "$1/bin/python3.11"
  for f in "$3"/*; do
    case "$(basename "$f")" in ensurepip|site-packages) ;; *) ln -s "$f" "$1/lib/python3.11/" ;; esac
  done
}
farm debian /usr/bin/python3.11 /usr/lib/python3.11
debian/bin/python3.11 -m venv .venv
base=$(python -c 'import sys; print(sys.base_prefix)')
farm upstream "$base/bin/python3.11" "$base/lib/python3.11"
upstream/bin/python3.11 -m venv .venv2
echo
