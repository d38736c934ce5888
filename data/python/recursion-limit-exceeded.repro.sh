# requires: python
# timeout: 60
# Runs an unbounded recursive function and a __repr__ that recurses into itself.
cat > rec.py <<'PY'
def fact(n):
    return n * fact(n - 1)   # no base case
fact(5)
PY
python rec.py 2>&1 | tail -n 3
cat > rep.py <<'PY'
class Node:
    def __repr__(self):
        return f"Node({self!r})"
repr(Node())
PY
python rep.py 2>&1 | tail -n 2
cat > cmp.py <<'PY'
def nest(depth):
    a = []
    for _ in range(depth):
        a = [a]
    return a
print(nest(100000) == nest(100000))   # list comparison recurses once per level
PY
python cmp.py 2>&1 | tail -n 1
