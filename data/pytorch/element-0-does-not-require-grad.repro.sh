# requires: python
# timeout: 60
# Calls backward() on a loss computed only from tensors that do not require grad.
python - <<'PY'
import torch
x = torch.randn(3)
loss = (x * 2).sum()
loss.backward()
PY
