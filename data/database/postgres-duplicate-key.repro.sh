# requires: initdb pg_ctl psql runuser
# Inserts a row twice into a table with a primary key, and inserts after a manual id so the serial sequence collides (English, then zh_CN).
. "$REPRO_LIB/postgres.sh"
pgstart
psql -q -c 'CREATE TABLE users (id serial PRIMARY KEY, email text UNIQUE)'
psql -q -c "INSERT INTO users (email) VALUES ('a@example.com')"
psql -q -c "INSERT INTO users (email) VALUES ('a@example.com')"
psql -q -c "INSERT INTO users (id, email) VALUES (3, 'b@example.com')"
psql -q -c "INSERT INTO users (email) VALUES ('c@example.com')"
LC_ALL=zh_CN.UTF-8 LANG=zh_CN.UTF-8 psql -q -c "SET lc_messages TO 'zh_CN.UTF-8'" -c "INSERT INTO users (email) VALUES ('a@example.com')"
pgstop
