# requires: python
# timeout: 60
# Two modules that import names from each other, and a script named random.py that shadows the stdlib module.
mkdir -p app
cat > app/models.py <<'PY'
from services import create_user

class User:
    def __init__(self, name):
        self.name = name
PY
cat > app/services.py <<'PY'
from models import User

def create_user(name):
    return User(name)
PY
python -c 'import sys; sys.path.insert(0, "app"); import models' 2>&1 | tail -n 1
mkdir -p shadow
cat > shadow/random.py <<'PY'
import random
print(random.randint(1, 6))
PY
cd shadow && python random.py 2>&1 | tail -n 1
