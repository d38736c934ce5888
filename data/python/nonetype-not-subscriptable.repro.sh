# requires: python
# timeout: 60
# Indexes the None returned by re.match() on a non-matching string and by a function that forgot to return.
. "$REPRO_LIB/python.sh"
pylast match.py 'import re\nm = re.match(r"(\\d+)", "abc")\nprint(m[1])\n'
pylast noreturn.py 'def load():\n    cfg = {"port": 80}\n    cfg.update(debug=True)   # no return statement\n\nconfig = load()\nprint(config["port"])\n'
pylast sort.py 'items = [3, 1, 2].sort()   # list.sort() returns None\nfor i in items:\n    print(i)\n'
pylast group.py 'import re\nprint(re.match(r"(\\d+)", "abc").group(1))\n'
