# Shared helpers for the python/ and pip/ reproduction scripts; source with: . "$REPRO_LIB/python.sh"

# pip_isolate: keep pip away from any host or user configuration (config files, indexes, constraints, certificates).
pip_isolate() {
  export PIP_CONFIG_FILE=/dev/null PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1
  unset PIP_FIND_LINKS PIP_CERT PIP_CONSTRAINT PIP_INDEX_URL PIP_EXTRA_INDEX_URL 2>/dev/null
}

# pylast FILE CODE: write CODE (printf format, so \n and \t work) to FILE, run it with python, print the last output line (the exception).
pylast() {
  printf "$2" > "$1"
  python "$1" 2>&1 | tail -n 1
}

# mkwheel DIR NAME VERSION [Requires-Dist ...] [--requires-python SPEC] [--tag TAG] [--script CMD]...
# Writes a minimal valid pure-Python wheel into DIR (offline); each --script adds a console_scripts entry point.
mkwheel() {
  python - "$@" <<'PY'
import base64, hashlib, sys, zipfile
args = sys.argv[1:]
opts = {"--requires-python": None, "--tag": "py3-none-any"}
scripts = []
while "--script" in args:
    i = args.index("--script"); scripts.append(args[i + 1]); del args[i:i + 2]
for k in list(opts):
    if k in args:
        i = args.index(k); opts[k] = args[i + 1]; del args[i:i + 2]
outdir, name, version, requires = args[0], args[1], args[2], args[3:]
mod = name.replace("-", "_")
dist = f"{mod}-{version}"
meta = ["Metadata-Version: 2.1", f"Name: {name}", f"Version: {version}"]
if opts["--requires-python"]:
    meta.append(f"Requires-Python: {opts['--requires-python']}")
meta += [f"Requires-Dist: {r}" for r in requires]
files = {f"{mod}/__init__.py": f"__version__ = {version!r}\n\ndef main():\n    print('hi')\n",
         f"{dist}.dist-info/METADATA": "\n".join(meta) + "\n",
         f"{dist}.dist-info/WHEEL": f"Wheel-Version: 1.0\nGenerator: mkwheel\nRoot-Is-Purelib: true\nTag: {opts['--tag']}\n"}
if scripts:
    files[f"{dist}.dist-info/entry_points.txt"] = "[console_scripts]\n" + "".join(f"{s} = {mod}:main\n" for s in scripts)
def digest(c):
    return base64.urlsafe_b64encode(hashlib.sha256(c.encode()).digest()).rstrip(b"=").decode()
record = [f"{p},sha256={digest(c)},{len(c.encode())}" for p, c in files.items()]
files[f"{dist}.dist-info/RECORD"] = "\n".join(record + [f"{dist}.dist-info/RECORD,,"]) + "\n"
with zipfile.ZipFile(f"{outdir}/{dist}-{opts['--tag']}.whl", "w") as z:
    for p, c in files.items():
        z.writestr(p, c)
PY
}
