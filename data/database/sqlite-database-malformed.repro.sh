# requires: python sqlite3
# Builds a small database, overwrites one of its b-tree pages with garbage, then queries it with Python and the sqlite3 CLI and runs PRAGMA integrity_check.
python - <<'PY'
import sqlite3
c = sqlite3.connect("app.db")
c.execute("CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT)")
c.executemany("INSERT INTO users (name) VALUES (?)", [("user%d" % i * 20,) for i in range(2000)])
c.commit(); c.close()
with open("app.db", "r+b") as f:     # page size 4096: clobber page 3 (inside the users table)
    f.seek(4096 * 2); f.write(b"\xde\xad\xbe\xef" * 1024)
c = sqlite3.connect("app.db")
try:
    c.execute("SELECT count(*), max(length(name)) FROM users").fetchall()
except sqlite3.DatabaseError as e:
    print(f"sqlite3.DatabaseError: {e}")
PY
sqlite3 app.db 'SELECT count(*) FROM users WHERE name LIKE "%9%";'
sqlite3 app.db 'PRAGMA integrity_check;' | head -3
