# requires: python
# timeout: 60
# Calls .numpy() on a tensor that requires grad.
python - <<'PY'
import torch
w = torch.randn(3, requires_grad=True)
w.numpy()
PY
