# requires: python sqlite3
# Creates a table in app.db, then queries it through a relative path from another working directory and with a misspelled name (Python and the sqlite3 CLI).
mkdir -p project/sub
python -c 'import sqlite3; c = sqlite3.connect("project/app.db"); c.execute("CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT)"); c.commit()'
cd project/sub
python -c 'import sqlite3; sqlite3.connect("app.db").execute("SELECT * FROM users")'
sqlite3 ../app.db 'SELECT * FROM user;'
