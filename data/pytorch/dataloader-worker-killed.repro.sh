# requires: python
# timeout: 90
# DataLoader workers die from SIGBUS (as a full /dev/shm causes) and from SIGKILL (as the kernel OOM killer sends); each run lets the real traceback print.
ulimit -c 0
cat > killed.py <<'PY'
import os, signal, sys, torch
from torch.utils.data import DataLoader, Dataset
sig = getattr(signal, sys.argv[1])
class DS(Dataset):
    def __len__(self): return 8
    def __getitem__(self, i):
        if i == 3:
            os.kill(os.getpid(), sig)
        return torch.zeros(4)
for batch in DataLoader(DS(), batch_size=2, num_workers=1):
    pass
PY
python killed.py SIGBUS
python killed.py SIGKILL
