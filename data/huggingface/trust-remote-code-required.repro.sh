# requires: python
# timeout: 60
# Loads a local model folder whose config.json maps AutoConfig to custom code (auto_map) without trust_remote_code=True, with stdin closed.
mkdir -p custom-model
cat > custom-model/config.json <<'JSON'
{"model_type": "tinycustom", "auto_map": {"AutoConfig": "configuration_tinycustom.TinyCustomConfig", "AutoModel": "modeling_tinycustom.TinyCustomModel"}}
JSON
printf 'from transformers import PretrainedConfig\nclass TinyCustomConfig(PretrainedConfig):\n    model_type = "tinycustom"\n' > custom-model/configuration_tinycustom.py
cat > load.py <<'PY'
from transformers import AutoConfig
try:
    AutoConfig.from_pretrained("custom-model")
except ValueError as e:
    print(f"\nValueError: {e}")
cfg = AutoConfig.from_pretrained("custom-model", trust_remote_code=True)
print("with trust_remote_code=True:", type(cfg).__name__)
PY
python load.py < /dev/null
