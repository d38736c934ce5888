# requires: python
# timeout: 90
# Saves a tiny BERT encoder (no classification head) and loads it as BertForSequenceClassification, which reports the new head as missing.
python - <<'PY'
from transformers import BertConfig, BertModel, BertForSequenceClassification
BertModel(BertConfig(vocab_size=64, hidden_size=16, num_hidden_layers=1, num_attention_heads=2, intermediate_size=32)).save_pretrained("tiny-bert")
BertForSequenceClassification.from_pretrained("tiny-bert", num_labels=3)
PY
