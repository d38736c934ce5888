# requires: python
# timeout: 60
# Runs a package module that uses "from .utils import ..." directly as a script, then the right way with -m.
mkdir -p myapp && touch myapp/__init__.py
printf 'def helper():\n    return 42\n' > myapp/utils.py
printf 'from .utils import helper\nprint(helper())\n' > myapp/main.py
python myapp/main.py 2>&1 | tail -n 1
mkdir -p proj/pkg && touch proj/pkg/__init__.py
printf 'from ..shared import config\n' > proj/pkg/mod.py
cd proj && python -c 'import pkg.mod' 2>&1 | tail -n 1; cd ..
python -m myapp.main
