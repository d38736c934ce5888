# requires: python
# timeout: 60
# Uses a module that was never imported, and a misspelled local variable (which gets a "Did you mean" hint).
. "$REPRO_LIB/python.sh"
pylast noimport.py 'import os\nprint(sys.argv)\n'
pylast typo.py 'def area(width):\n    length = 2\n    return width * lenght\n\narea(3)\n'
