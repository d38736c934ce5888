# requires: python
# timeout: 60
# Deletes from a dict, adds to a set, and renames dict keys while iterating over them.
. "$REPRO_LIB/python.sh"
pylast dict_del.py 'd = {"a": 1, "b": 2}\nfor k in d:\n    if d[k] == 1:\n        del d[k]\n'
pylast set_add.py 's = {1, 2, 3}\nfor x in s:\n    s.add(x * 10)\n'
pylast dict_rename.py 'd = {"a": 1, "b": 2}\nfor k in d:\n    d[k + "_new"] = d.pop(k)\n'
