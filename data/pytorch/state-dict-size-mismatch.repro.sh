# requires: python
# timeout: 60
# Loads a checkpoint with a 10-class head into a model with a 5-class head.
python - <<'PY'
import torch, torch.nn as nn
class Net(nn.Module):
    def __init__(self, classes):
        super().__init__()
        self.fc = nn.Linear(512, classes)
torch.save(Net(10).state_dict(), "ckpt.pt")
Net(5).load_state_dict(torch.load("ckpt.pt"))
PY
