# requires: python
# timeout: 60
# Creates an optimizer from a model whose layers are kept in a plain Python list, so it has no registered parameters.
python - <<'PY'
import torch, torch.nn as nn
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = [nn.Linear(4, 4), nn.Linear(4, 2)]   # plain list: not registered
    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x
torch.optim.Adam(Net().parameters(), lr=1e-3)
PY
