# requires: python
# timeout: 60
# Parses an empty body, an HTML error page, a Python dict repr and two concatenated JSON documents with json.loads().
python -c 'import json; json.loads("")' 2>&1 | tail -n 1
python -c 'import json; json.loads("<html><body>502 Bad Gateway</body></html>")' 2>&1 | tail -n 1
python -c "import json; json.loads(str({'a': 1}))" 2>&1 | tail -n 1
printf '{"id": 1}\n{"id": 2}\n' > events.jsonl
python -c 'import json; json.load(open("events.jsonl"))' 2>&1 | tail -n 1
