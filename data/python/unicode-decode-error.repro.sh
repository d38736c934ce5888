# requires: python
# timeout: 60
# Reads non-UTF-8 files (a UTF-16 BOM, cp1252 text, a truncated character) as UTF-8, UTF-8 text as GBK, and an undefined cp1252 byte.
python -c 'open("utf16.txt", "wb").write("name\n".encode("utf-16"))'              # starts with FF FE
python -c 'open("cp1252.txt", "wb").write("caf\u00e9 ok\n".encode("cp1252"))'      # lone 0xe9
python -c 'open("cut.txt", "wb").write("\u4e2d\u6587".encode("utf-8")[:-1])'     # last character cut off
python -c 'open("utf8.txt", "wb").write("\u4e2d\u6587".encode("utf-8"))'
python -c 'open("undef.txt", "wb").write(b"\x81")'
python -c 'open("utf16.txt", encoding="utf-8").read()' 2>&1 | tail -n 1
python -c 'open("cp1252.txt", encoding="utf-8").read()' 2>&1 | tail -n 1
python -c 'open("cut.txt", encoding="utf-8").read()' 2>&1 | tail -n 1
python -c 'open("utf8.txt", encoding="gbk").read()' 2>&1 | tail -n 1
python -c 'open("undef.txt", encoding="cp1252").read()' 2>&1 | tail -n 1
