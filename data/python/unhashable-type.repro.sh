# requires: python
# timeout: 60
# Uses a list as a dict key, puts a dict into a set, and groups pandas-style records by a list-valued field.
python -c 'cache = {}; cache[[1, 2]] = "a"' 2>&1 | tail -n 1
python -c 'seen = set(); seen.add({"id": 1})' 2>&1 | tail -n 1
python -c 'rows = [{"tags": ["a", "b"]}]; counts = {}; [counts.setdefault(r["tags"], 0) for r in rows]' 2>&1 | tail -n 1
