# requires: python
# timeout: 60
# Imports a package that is not installed in a fresh venv, then shows the submodule variant.
python -m venv --without-pip venv
venv/bin/python -c 'import requests'
mkdir -p pkg && touch pkg/__init__.py
venv/bin/python -c 'import pkg.missing'
# distutils, removed from the standard library in Python 3.12: use a 3.12+ interpreter if there is one,
# else the venv's interpreter next to a copy of its stdlib without distutils (what 3.12 looks like)
py312=$(ls /root/.pyenv/versions/3.1[2-9]*/bin/python3.1[2-9] /usr/bin/python3.1[2-9] 2>/dev/null | head -n 1)
if [ -n "$py312" ]; then
  "$py312" -m venv --without-pip venv312
  venv312/bin/python -c 'import distutils' 2>&1 | tail -n 1
else
  base=$(python -c 'import sys; print(sys.base_prefix)'); ver=$(python -c 'import sys; print("python%d.%d" % sys.version_info[:2])')
  mkdir -p nodist/bin nodist/lib/$ver && cp "$base/bin/$ver" nodist/bin/
  for f in "$base"/lib/$ver/*; do case "$(basename "$f")" in distutils|site-packages) ;; *) ln -s "$f" nodist/lib/$ver/ ;; esac; done
  nodist/bin/$ver -c 'import distutils' 2>&1 | tail -n 1
fi
