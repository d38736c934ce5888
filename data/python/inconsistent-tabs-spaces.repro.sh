# requires: python
# timeout: 60
# Runs files whose indentation mixes a tab with spaces, dedents to a level that never existed, and indents where no block starts.
. "$REPRO_LIB/python.sh"
pylast tabs.py 'def total(items):\n    s = 0\n\tfor i in items:\n        s += i\n    return s\n'
pylast dedent.py 'def f():\n        x = 1\n    return x\n'
pylast unexpected.py 'x = 1\n    y = 2\n'
python -m tabnanny -v tabs.py
