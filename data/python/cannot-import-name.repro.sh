# requires: python
# timeout: 60
# Imports names that were removed from their modules: collections.Mapping (Python 3.10) and numpy.float_ (NumPy 2.0).
python -c 'from collections import Mapping' 2>&1 | tail -n 1
python -c 'from numpy import float_' 2>&1 | tail -n 1
