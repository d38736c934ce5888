# requires: python
# timeout: 60
# Passes local paths that do not exist (absolute, relative, Windows-style) to AutoConfig.from_pretrained and hf_hub_download, which treat them as Hub repo ids.
export HF_HUB_OFFLINE=1 HF_HOME="$PWD/hf-home"
python - <<'PY'
from transformers import AutoConfig
from huggingface_hub import hf_hub_download
for path in ["/data/models/llama-3-8b-finetuned", "./output/checkpoint-500/", "C:\\models\\llama-3-8b"]:
    try:
        AutoConfig.from_pretrained(path)
    except Exception as e:
        print(f"[AutoConfig] {type(e).__name__}: {e}")
try:
    hf_hub_download("/data/models/llama-3-8b-finetuned", "config.json")
except Exception as e:
    print(f"[hf_hub_download] {type(e).__module__}.{type(e).__name__}: {e}")
PY
