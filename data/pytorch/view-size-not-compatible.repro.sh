# requires: python
# timeout: 60
# Calls .view() on a transposed (non-contiguous) tensor.
python - <<'PY'
import torch
x = torch.randn(4, 6).t()
x.view(24)
PY
