# requires: python python3 sqlite3 runuser
# A database file owned by root is opened for writing by the OS user nobody: first the file is read-only, then only its directory is (journal cannot be created).
chmod 755 "$PWD"; mkdir -p ro dirro
python -c 'import sqlite3; c = sqlite3.connect("ro/app.db"); c.execute("CREATE TABLE t (x)"); c.commit()'
chmod 755 ro; chmod 644 ro/app.db
runuser -u nobody -- /usr/bin/python3 -c 'import sqlite3; c = sqlite3.connect("ro/app.db"); c.execute("INSERT INTO t VALUES (1)")'
python -c 'import sqlite3; c = sqlite3.connect("dirro/app.db"); c.execute("CREATE TABLE t (x)"); c.commit()'
chown nobody dirro/app.db; chmod 755 dirro
runuser -u nobody -- /usr/bin/python3 -c 'import sqlite3; c = sqlite3.connect("dirro/app.db"); c.execute("INSERT INTO t VALUES (1)"); c.commit()'
runuser -u nobody -- sqlite3 ro/app.db 'INSERT INTO t VALUES (2);'
