# requires: python
# timeout: 60
# Pickles a nested function and a lambda, then sends a nested function to a spawn-based multiprocessing pool.
cat > nested.py <<'PY'
import pickle
def make_adder(n):
    def add(x):
        return x + n
    return add
pickle.dumps(make_adder(1))
PY
python nested.py 2>&1 | tail -n 1
python -c 'import pickle; pickle.dumps(lambda x: x)' 2>&1 | tail -n 1
cat > pool.py <<'PY'
import multiprocessing as mp
def main():
    def square(x):
        return x * x
    with mp.get_context("spawn").Pool(1) as pool:
        print(pool.map(square, [1, 2, 3]))
if __name__ == "__main__":
    main()
PY
python pool.py 2>&1 | tail -n 1
