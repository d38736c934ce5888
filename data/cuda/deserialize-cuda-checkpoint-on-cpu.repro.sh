# requires: python
# timeout: 60
# Writes a checkpoint whose storages are tagged cuda:0 (as one saved on a GPU machine) and loads it on a machine without CUDA.
python - <<'PY'
import torch, torch.serialization as ser
real_tag = ser.location_tag
ser.location_tag = lambda storage: "cuda:0"   # what torch.save records for a tensor on the GPU
torch.save({"weight": torch.zeros(2)}, "gpu_ckpt.pt")
ser.location_tag = real_tag
torch.load("gpu_ckpt.pt")
PY
