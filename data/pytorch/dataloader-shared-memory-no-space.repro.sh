# requires: python unshare mount
# timeout: 90
# Runs a DataLoader with workers while /dev/shm is a 512 KiB tmpfs (as in a default Docker container, only smaller).
cat > shm.py <<'PY'
import torch
from torch.utils.data import DataLoader, Dataset
class DS(Dataset):
    def __len__(self): return 4
    def __getitem__(self, i): return torch.zeros(256, 1024)   # 1 MiB per sample
for batch in DataLoader(DS(), batch_size=2, num_workers=1):
    pass
PY
unshare -m sh -c 'mount -t tmpfs -o size=512k tmpfs /dev/shm && python shm.py'
