# requires: python
# timeout: 60
# Updates a leaf tensor that requires grad in place, outside torch.no_grad().
python - <<'PY'
import torch
w = torch.randn(3, requires_grad=True)
w -= 0.1 * torch.ones(3)
PY
