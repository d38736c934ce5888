# requires: python
# timeout: 60
# Calls backward() twice on the same graph.
python - <<'PY'
import torch
a = torch.randn(3, requires_grad=True)
loss = a.exp().sum()
loss.backward()
loss.backward()
PY
