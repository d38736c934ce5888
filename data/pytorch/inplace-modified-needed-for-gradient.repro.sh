# requires: python
# timeout: 60
# Modifies the output of sigmoid in place although backward needs it.
python - <<'PY'
import torch
a = torch.randn(3, requires_grad=True)
b = a.sigmoid()
b.mul_(2)
b.sum().backward()
PY
