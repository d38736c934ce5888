# requires: bash python cp
# Marks a copy of an x86-64 program as aarch64 (as if an ARM build was copied to an x86 host) and runs it.
set -u
. "$REPRO_LIB/shell.sh"
cp "$(type -P true)" app-arm64
python - <<'PY'
data = bytearray(open("app-arm64", "rb").read())
data[18:20] = (183).to_bytes(2, "little")   # e_machine = EM_AARCH64
open("app-arm64", "wb").write(data)
PY
uname -m
ibash ./app-arm64
LC_ALL=zh_CN.UTF-8 ibash ./app-arm64
