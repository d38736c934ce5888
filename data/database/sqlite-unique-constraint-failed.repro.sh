# requires: python sqlite3
# Inserts a duplicate value into a UNIQUE column and a duplicate primary key (Python sqlite3, then the sqlite3 CLI).
python - <<'PY'
import sqlite3
c = sqlite3.connect("app.db")
c.execute("CREATE TABLE users (id INTEGER PRIMARY KEY, email TEXT UNIQUE)")
c.execute("INSERT INTO users (email) VALUES ('a@example.com')")
c.commit()
try:
    c.execute("INSERT INTO users (email) VALUES ('a@example.com')")
except sqlite3.IntegrityError as e:
    print(f"sqlite3.IntegrityError: {e}")
c.execute("INSERT INTO users (id, email) VALUES (1, 'b@example.com')")
PY
sqlite3 app.db "INSERT INTO users (email) VALUES ('a@example.com');"
