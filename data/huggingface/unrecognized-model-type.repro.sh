# requires: python
# timeout: 60
# Loads two local config.json files with AutoConfig: one whose model_type is unknown to this transformers, one with no model_type key.
mkdir -p qwen4-tiny my-model
printf '{"model_type": "qwen4", "hidden_size": 64}\n' > qwen4-tiny/config.json
printf '{"hidden_size": 64}\n' > my-model/config.json
python - <<'PY'
from transformers import AutoConfig
for path in ["qwen4-tiny", "my-model"]:
    try:
        AutoConfig.from_pretrained(path)
    except ValueError as e:
        print(f"ValueError: {e}")
PY
