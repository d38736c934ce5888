# requires: python
# timeout: 60
# Loads a checkpoint saved from an nn.DataParallel-wrapped model into the bare model.
python - <<'PY'
import torch, torch.nn as nn
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 2)
torch.save(nn.DataParallel(Net()).state_dict(), "ckpt.pt")
Net().load_state_dict(torch.load("ckpt.pt"))
PY
