# requires: python
# timeout: 60
# Feeds float64 tensors (the NumPy default) into float32 layers and ops; prints each error PyTorch raises.
python - <<'PY'
import numpy as np, torch
x = torch.from_numpy(np.random.rand(2, 3))          # float64
cases = [
    lambda: torch.nn.Linear(3, 5)(x),
    lambda: x @ torch.randn(3, 2),
    lambda: torch.nn.Conv2d(3, 4, 3).double()(torch.randn(1, 3, 8, 8)),
]
for case in cases:
    try:
        case()
    except RuntimeError as e:
        print(f"RuntimeError: {e}")
conv = torch.nn.Conv2d(3, 4, 3, bias=False).double()
conv(torch.randn(1, 3, 8, 8))                       # float32 input, float64 weight
PY
