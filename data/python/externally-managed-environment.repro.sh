# requires: python
# timeout: 60
# Builds a non-venv Python prefix (symlinks to the real stdlib) with an EXTERNALLY-MANAGED marker, then runs pip install in it.
set -u
base=$(python -c 'import sys; print(sys.base_prefix)')
site=$(python -c 'import sysconfig; print(sysconfig.get_path("purelib"))')
ver=$(python -c 'import sys; print("python%d.%d" % sys.version_info[:2])')
mkdir -p prefix/lib/$ver
for f in "$base"/lib/$ver/*; do
  case "$(basename "$f")" in site-packages|EXTERNALLY-MANAGED) ;; *) ln -s "$f" prefix/lib/$ver/ ;; esac
done
mkdir -p prefix/lib/$ver/site-packages
ln -s "$site"/pip prefix/lib/$ver/site-packages/pip
printf '[externally-managed]\nError=To install Python packages system-wide, try apt install\n python3-xyz, where xyz is the package you are trying to install.\n' > prefix/lib/$ver/EXTERNALLY-MANAGED
export PYTHONHOME=$PWD/prefix PYTHONNOUSERSITE=1
"$base/bin/$ver" -c 'import sys, sysconfig; print("prefix:", sys.prefix, "stdlib:", sysconfig.get_path("stdlib"))'
"$base/bin/$ver" -m pip install --no-index requests
"$base/bin/$ver" -m pip install --user --no-index requests
