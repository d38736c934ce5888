# requires: python
# timeout: 60
# Increments a module-level counter inside a function without declaring it global.
. "$REPRO_LIB/python.sh"
pylast counter.py 'count = 0\n\ndef inc():\n    count += 1\n\ninc()\n'
