# requires: mariadb-install-db mariadbd mariadb mariadb-admin
# Inserts an order that references a customer id that does not exist, with an InnoDB foreign key (English, then zh_CN).
. "$REPRO_LIB/mariadb.sh"
mystart
my -e 'CREATE DATABASE app'
my app -e 'CREATE TABLE customers (id INT PRIMARY KEY) ENGINE=InnoDB; CREATE TABLE orders (id INT PRIMARY KEY, customer_id INT, CONSTRAINT orders_ibfk_1 FOREIGN KEY (customer_id) REFERENCES customers (id)) ENGINE=InnoDB'
my app -e 'INSERT INTO orders (id, customer_id) VALUES (1, 42)'
my app -e "SET lc_messages = 'zh_CN'; INSERT INTO orders (id, customer_id) VALUES (1, 42)"
mystop
