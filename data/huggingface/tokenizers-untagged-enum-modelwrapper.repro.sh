# requires: python
# timeout: 60
# Writes tokenizer.json files whose "model" section this tokenizers release cannot parse (an unknown model type, malformed BPE merges) and loads them.
python - <<'PY'
import json
from tokenizers import Tokenizer, models, trainers, pre_tokenizers
tok = Tokenizer(models.BPE(unk_token="[UNK]"))
tok.pre_tokenizer = pre_tokenizers.Whitespace()
tok.train_from_iterator(["hello world", "the cat sat on the mat"], trainers.BpeTrainer(special_tokens=["[UNK]"], vocab_size=40))
tok.save("tokenizer.json")
good = json.load(open("tokenizer.json"))
bad_type = json.loads(json.dumps(good)); bad_type["model"]["type"] = "Unigram2"
bad_merges = json.loads(json.dumps(good)); bad_merges["model"]["merges"] = [["h", "e", "l"]]
for name, data in [("unknown-model-type.json", bad_type), ("bad-merges.json", bad_merges)]:
    with open(name, "w") as f:
        json.dump(data, f)
    try:
        Tokenizer.from_file(name)
    except Exception as e:
        print(f"{name}: Exception: {e}")
from transformers import AutoTokenizer
import os, shutil
os.makedirs("tok", exist_ok=True)
shutil.copy("unknown-model-type.json", "tok/tokenizer.json")
try:
    AutoTokenizer.from_pretrained("tok")
except Exception as e:
    print(f"AutoTokenizer: {type(e).__name__}: {e}")
PY
