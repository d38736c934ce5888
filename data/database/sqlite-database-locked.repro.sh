# requires: python sqlite3
# Two Python sqlite3 connections: the first keeps a write transaction open, the second (timeout=0.2 s) tries to write, then the sqlite3 CLI tries too.
python - <<'PY'
import sqlite3
a = sqlite3.connect("app.db")
a.execute("CREATE TABLE jobs (id INTEGER PRIMARY KEY, state TEXT)")
a.commit()
a.execute("INSERT INTO jobs (state) VALUES ('new')")      # implicit BEGIN, write lock held
b = sqlite3.connect("app.db", timeout=0.2)
try:
    b.execute("INSERT INTO jobs (state) VALUES ('other')")
except sqlite3.OperationalError as e:
    print(f"sqlite3.OperationalError: {e}")
import subprocess
subprocess.run(["sqlite3", "app.db", "INSERT INTO jobs (state) VALUES ('cli');"])
b.execute("INSERT INTO jobs (state) VALUES ('again')")
PY
