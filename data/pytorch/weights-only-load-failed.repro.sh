# requires: python
# timeout: 60
# Saves a checkpoint that pickles an argparse.Namespace and loads it with the default torch.load (weights_only=True since 2.6).
python - <<'PY'
import argparse, torch
args = argparse.Namespace(lr=0.1, epochs=3)
torch.save({"args": args, "weight": torch.zeros(2)}, "ckpt.pt")
torch.load("ckpt.pt")
PY
