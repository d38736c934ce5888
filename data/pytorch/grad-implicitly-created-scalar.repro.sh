# requires: python
# timeout: 60
# Calls backward() on a non-scalar output without passing a gradient.
python - <<'PY'
import torch
x = torch.randn(3, requires_grad=True)
y = x * 2
y.backward()
PY
