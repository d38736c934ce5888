# requires: python
# timeout: 60
# With HF_HUB_OFFLINE=1 and an empty cache, asks transformers and huggingface_hub for a model that was never downloaded.
export HF_HUB_OFFLINE=1 HF_HOME="$PWD/hf-home"
python - <<'PY'
from huggingface_hub import HfApi, hf_hub_download, snapshot_download
from transformers import AutoConfig
calls = [
    ("AutoConfig.from_pretrained", lambda: AutoConfig.from_pretrained("openai-community/gpt2")),
    ("hf_hub_download", lambda: hf_hub_download("openai-community/gpt2", "config.json")),
    ("snapshot_download", lambda: snapshot_download("openai-community/gpt2")),
    ("HfApi().model_info", lambda: HfApi().model_info("openai-community/gpt2")),
]
for name, call in calls:
    try:
        call()
    except Exception as e:
        mod = type(e).__module__
        cls = type(e).__name__ if mod == "builtins" else f"{mod}.{type(e).__name__}"
        print(f"[{name}] {cls}: {e}")
PY
