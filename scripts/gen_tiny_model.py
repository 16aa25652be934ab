#!/usr/bin/env python3
"""Generate a random-weight, BERT-shaped embedding model for Palace's tests.

Usage (Debian's interpreter, which sees the python3-onnx and python3-numpy
packages; `apt-get install -y python3-onnx python3-numpy`):

    /usr/bin/python3 scripts/gen_tiny_model.py                  # -> core/embed/testdata/tiny
    /usr/bin/python3 scripts/gen_tiny_model.py --out DIR        # the same model elsewhere
    /usr/bin/python3 scripts/gen_tiny_model.py --minilm --out DIR   # MiniLM-shaped, for benchmarks

The tiny model (hidden 32, 2 layers, 4 heads, max_position_embeddings 256)
is committed under core/embed/testdata/tiny together with:

  model.onnx      the graph (opset 14, LayerNorm decomposed so every ONNX
                  consumer, including hugot's pure-Go backend, can run it)
  tokenizer.json  Hugging Face BERT-uncased WordPiece format, truncation set
  config.json     max_position_embeddings, pad_token_id, hidden_size, ...
  expected.json   golden sentence embeddings for four fixed sentences,
                  computed here by an independent numpy forward pass with
                  this script's own BERT tokenizer, mean pooling over the
                  attention mask and L2 normalisation (sentence-transformers)

Python is needed only to (re)generate these files; Go tests never run it.
Everything comes from np.random.RandomState(seed) and a word list embedded
below (no /usr/share/dict), so rerunning gives byte-identical files.

--minilm writes a model shaped like all-MiniLM-L6-v2 (hidden 384, 6 layers,
12 heads, intermediate 1536, vocab 30522, max_position_embeddings 512) with
random weights, about 90 MB: use it for throughput benchmarks only
(PALACE_BENCH_MODEL_DIR=DIR go test -bench . ./core/embed).
"""

import argparse
import json
import math
import os
import sys
import unicodedata

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

SPECIALS = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
PUNCT = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"
LETTERS = "abcdefghijklmnopqrstuvwxyz"
DIGITS = "0123456789"

# A fixed English + programming word list, so the vocabulary does not depend on
# what happens to be installed (/usr/share/dict/words is absent on CI).
WORDS = """
the of and to in is it you that he was for on are with as his they be at one have
this from or had by not but what some we can out other were all there when up use
your how said an each she which do their time if will way about many then them
write would like so these her long make thing see him two has look more day could go
come did number sound no most people my over know water than call first who may down
side been now find any new work part take get place made live where after back little
only round man year came show every good me give our under name very through just form
sentence great think say help low line differ turn cause much mean before move right boy
old too same tell does set three want air well also play small end put home read hand
port large spell add even land here must big high such follow act why ask men change
went light kind off need house picture try us again animal point mother world near build
self earth father head stand own page should country found answer school grow study still
learn plant cover food sun four between state keep eye never last let thought city tree
cross farm hard start might story saw far sea draw left late run while press close night
real life few north open seem together next white children begin got walk example ease
paper group always music those both mark often letter until mile river car feet care
second book carry took science eat room friend began idea fish mountain stop once base
hear horse cut sure watch color face wood main enough plain girl usual young ready above
ever red list though feel talk bird soon body dog family direct pose leave song measure
door product black short numeral class wind question happen complete ship area half rock
order fire south problem piece told knew pass since top whole king space heard best hour
better true during hundred five remember step early hold west ground interest reach fast
verb sing listen six table travel less morning ten simple several vowel toward war lay
against pattern slow center love person money serve appear road map rain rule govern pull
cold notice voice unit power town fine certain fly fall lead cry dark machine note wait
plan figure star box noun field rest correct able pound done beauty drive stood contain
front teach week final gave green oh quick develop ocean warm free minute strong special
mind behind clear tail produce fact street inch multiply nothing course stay wheel full
force blue object decide surface deep moon island foot system busy test record boat
common gold possible plane stead dry wonder laugh thousand ago ran check game shape
memory palace drawer drawers wing wings search query index store sqlite vector embed
embedding model token tokens text code file files function method struct interface error
errors test tests build commit branch merge review agent agents session sessions editor
server client request response json yaml config option options flag value values key keys
map slice string strings byte bytes int float bool nil null true false return import
package module go rust python java script shell bash linux cache disk memory thread
goroutine channel lock mutex race deadlock leak panic log trace debug release version
update delete insert select table column row schema migration database query rank score
chunk chunks document documents decision decisions bug bugs fix fixes feature features
refactor design plan note notes history project projects repository source path folder
directory local remote network offline fast slow quick brown fox jumps lazy dog hello
cafe naive resume
"""

SUFFIXES = ["s", "es", "ed", "ing", "er", "ers", "est", "ly", "tion", "ness", "ment",
            "able", "al", "ful", "less", "ize", "ous", "ive", "y", "d", "n", "ion"]

# Golden sentences: upper case, punctuation, sub-word splits, an accent that
# must be stripped, an out-of-vocabulary character and digits.
SENTENCES = [
    "The quick brown fox jumps over the lazy dog.",
    "Palace keeps every decision in a drawer; search finds it again!",
    "Refactoring the SQLite schema fixed a goroutine leak in 2024.",
    "Café naïve résumé: Ωmega tokens ≠ words",
]


# Edge cases for the tokenizer alone (ids only, in expected.json): Unicode
# spaces, control and format characters, accents, CJK, case mappings that
# change UTF-8 length, over-long words. Each caught a difference between the
# Go tokenizer and Hugging Face's at some point.
TOKENIZER_CASES = [
    "Hello, World!",
    "na\u00efve caf\u00e9 r\u00e9sum\u00e9 \u00c5ngstr\u00f6m",
    "\u2260 \u2264 \u2265 \u00bd \ufb01",
    "\u5199\u4ee3\u7801 \u65e5\u672c\u8a9e",
    "tabs\tand\nnewlines\r\n",
    "emoji \U0001f642 here",
    "x\u00a0y\u2003z",
    "CAPS LOCK \u00c9COLE",
    "don't stop-believing...",
    "\u00fcber stra\u00dfe",
    "\u0130stanbul",
    "\u200bzero\u200dwidth",
    "a\u0301b",
    "k8s v1.2.3 foo_bar",
    "\uff21\uff22\uff23 full width",
    "caf\u00e9\u5199\ufb03\u0000x\u0007y",
    "supercalifragilisticexpialidocioussupercalifragilisticexpialidocioussupercalifragilisticexpialidocious1234 ok",
    "\u300c\u5f15\u7528\u300d \u2014 dash \u2026 ellipsis",
    "\u01c5 \u01c8 \u00df \u1e9e",
    "\u0085next\u2028line\u2029para",
    "  leading and trailing  ",
    "",
    "\u03a9mega",
    "x\u00adsoft hyphen",
    "\u3000ideographic space",
    "ma\u00f1ana\u0303",
]


def build_vocab(size=None):
    words = []
    seen = set()

    def add(w):
        if w not in seen:
            seen.add(w)
            words.append(w)

    for w in SPECIALS:
        add(w)
    for c in PUNCT + DIGITS + LETTERS:
        add(c)
    for c in DIGITS + LETTERS:
        add("##" + c)
    for w in WORDS.split():
        add(w)
    for s in SUFFIXES:
        add("##" + s)
    if size is not None:
        # Deterministic filler for a large vocabulary: continuation pieces of
        # the word list, then two- and three-letter pieces.
        for w in WORDS.split():
            if len(words) >= size:
                break
            add("##" + w)
        for a in LETTERS:
            for b in LETTERS:
                for piece in (a + b, "##" + a + b):
                    if len(words) < size:
                        add(piece)
        for a in LETTERS:
            for b in LETTERS:
                for c in LETTERS:
                    for piece in (a + b + c, "##" + a + b + c):
                        if len(words) < size:
                            add(piece)
        i = 0
        while len(words) < size:
            add("[unused%d]" % i)
            i += 1
        words = words[:size]
    return words


# --- Tokenizer: an independent implementation of HF's BERT-uncased pipeline ---

# Character classes as in the Rust BertNormalizer of HF tokenizers (the fast
# tokenizer sentence-transformers uses): control = category C* except
# \t \n \r, whitespace = Unicode White_Space.
def _is_control(c):
    if c in "\t\n\r":
        return False
    return unicodedata.category(c) in ("Cc", "Cf", "Co", "Cs", "Cn")


def _is_whitespace(c):
    return c in " \t\n\r" or c.isspace()


def _is_punct(c):
    o = ord(c)
    if 33 <= o <= 47 or 58 <= o <= 64 or 91 <= o <= 96 or 123 <= o <= 126:
        return True
    return unicodedata.category(c).startswith("P")


def _is_cjk(c):
    o = ord(c)
    return (0x4E00 <= o <= 0x9FFF or 0x3400 <= o <= 0x4DBF or 0x20000 <= o <= 0x2A6DF
            or 0x2A700 <= o <= 0x2B73F or 0x2B740 <= o <= 0x2B81F or 0x2B820 <= o <= 0x2CEAF
            or 0xF900 <= o <= 0xFAFF or 0x2F800 <= o <= 0x2FA1F)


def tokenize(text, vocab, max_length):
    # BertNormalizer, in HF's order: clean_text, handle_chinese_chars, strip_accents, lowercase.
    out = []
    for c in text:
        if c == "\0" or c == "\ufffd" or _is_control(c):
            continue
        if _is_whitespace(c):
            out.append(" ")
        elif _is_cjk(c):
            out.append(" " + c + " ")
        else:
            out.append(c)
    text = "".join(out)
    text = "".join(c for c in unicodedata.normalize("NFD", text) if unicodedata.category(c) != "Mn")
    text = text.lower()
    # BertPreTokenizer: split on whitespace, every punctuation char on its own.
    pieces = []
    for word in text.split():
        cur = ""
        for c in word:
            if _is_punct(c):
                if cur:
                    pieces.append(cur)
                    cur = ""
                pieces.append(c)
            else:
                cur += c
        if cur:
            pieces.append(cur)
    # WordPiece: greedy longest match first, [UNK] for a word that cannot be covered.
    tokens = []
    for w in pieces:
        if len(w) > 100:
            tokens.append("[UNK]")
            continue
        sub = []
        start = 0
        ok = True
        while start < len(w):
            end = len(w)
            found = None
            while start < end:
                piece = w[start:end]
                if start > 0:
                    piece = "##" + piece
                if piece in vocab:
                    found = piece
                    break
                end -= 1
            if found is None:
                ok = False
                break
            sub.append(found)
            start = end
        tokens.extend(sub if ok else ["[UNK]"])
    tokens = ["[CLS]"] + tokens[: max_length - 2] + ["[SEP]"]
    return tokens, [vocab[t] for t in tokens]


def tokenizer_json(words, max_length):
    vocab = {w: i for i, w in enumerate(words)}
    special = [{"id": vocab[w], "content": w, "single_word": False, "lstrip": False,
                "rstrip": False, "normalized": False, "special": True} for w in SPECIALS]
    return {
        "version": "1.0",
        # The tokenizer truncates; Palace also checks this block, because a
        # missing max_length/stride/strategy makes the Go tokenizer panic.
        "truncation": {"direction": "Right", "max_length": max_length,
                       "strategy": "LongestFirst", "stride": 0},
        "padding": None,
        "added_tokens": special,
        "normalizer": {"type": "BertNormalizer", "clean_text": True,
                       "handle_chinese_chars": True, "strip_accents": True,
                       "lowercase": True},
        "pre_tokenizer": {"type": "BertPreTokenizer"},
        "post_processor": {
            "type": "TemplateProcessing",
            "single": [{"SpecialToken": {"id": "[CLS]", "type_id": 0}},
                       {"Sequence": {"id": "A", "type_id": 0}},
                       {"SpecialToken": {"id": "[SEP]", "type_id": 0}}],
            "pair": [{"SpecialToken": {"id": "[CLS]", "type_id": 0}},
                     {"Sequence": {"id": "A", "type_id": 0}},
                     {"SpecialToken": {"id": "[SEP]", "type_id": 0}},
                     {"Sequence": {"id": "B", "type_id": 1}},
                     {"SpecialToken": {"id": "[SEP]", "type_id": 1}}],
            "special_tokens": {w: {"id": w, "ids": [vocab[w]], "tokens": [w]}
                               for w in ["[CLS]", "[SEP]"]},
        },
        "decoder": {"type": "WordPiece", "prefix": "##", "cleanup": True},
        "model": {"type": "WordPiece", "unk_token": "[UNK]",
                  "continuing_subword_prefix": "##", "max_input_chars_per_word": 100,
                  "vocab": vocab},
    }


# --- Weights ---

def make_weights(rng, vocab_size, hidden, layers, inter, max_pos, type_vocab=2):
    f = np.float32

    def normal(shape, std):
        return (rng.standard_normal(shape) * std).astype(f)

    w = {
        "word_emb": normal((vocab_size, hidden), 0.5),
        "pos_emb": normal((max_pos, hidden), 0.5),
        "type_emb": normal((type_vocab, hidden), 0.5),
        "emb_ln_g": (1.0 + normal((hidden,), 0.1)).astype(f),
        "emb_ln_b": normal((hidden,), 0.1),
    }
    s = 1.0 / math.sqrt(hidden)
    for i in range(layers):
        p = "l%d_" % i
        for n in ("q", "k", "v", "o"):
            w[p + n + "_w"] = normal((hidden, hidden), s)
            w[p + n + "_b"] = normal((hidden,), 0.02)
        w[p + "ln1_g"] = (1.0 + normal((hidden,), 0.1)).astype(f)
        w[p + "ln1_b"] = normal((hidden,), 0.1)
        w[p + "ff1_w"] = normal((hidden, inter), s)
        w[p + "ff1_b"] = normal((inter,), 0.02)
        w[p + "ff2_w"] = normal((inter, hidden), 1.0 / math.sqrt(inter))
        w[p + "ff2_b"] = normal((hidden,), 0.02)
        w[p + "ln2_g"] = (1.0 + normal((hidden,), 0.1)).astype(f)
        w[p + "ln2_b"] = normal((hidden,), 0.1)
    return w


# --- ONNX graph ---

EPS = 1e-12


def build_graph(w, hidden, layers, heads):
    hd = hidden // heads
    nodes = []
    inits = [numpy_helper.from_array(v, k) for k, v in sorted(w.items())]
    counter = [0]

    def name(prefix):
        counter[0] += 1
        return "%s_%d" % (prefix, counter[0])

    def const(value, dtype=np.float32):
        n = name("c")
        inits.append(numpy_helper.from_array(np.array(value, dtype=dtype), n))
        return n

    def op(kind, inputs, **attrs):
        out = name(kind.lower())
        nodes.append(helper.make_node(kind, inputs, [out], name=out, **attrs))
        return out

    def layer_norm(x, g, b):
        mean = op("ReduceMean", [x], axes=[-1], keepdims=1)
        d = op("Sub", [x, mean])
        var = op("ReduceMean", [op("Pow", [d, const(2.0)])], axes=[-1], keepdims=1)
        std = op("Sqrt", [op("Add", [var, const(EPS)])])
        return op("Add", [op("Mul", [op("Div", [d, std]), g]), b])

    def linear(x, wname, bname):
        return op("Add", [op("MatMul", [x, wname]), bname])

    # Embeddings: word + token type + position (0..seq_len-1).
    shape = op("Shape", ["input_ids"])
    seq_len = op("Gather", [shape, const(1, np.int64)], axis=0)
    pos_ids = op("Range", [const(0, np.int64), seq_len, const(1, np.int64)])
    x = op("Add", [op("Add", [op("Gather", ["word_emb", "input_ids"], axis=0),
                              op("Gather", ["type_emb", "token_type_ids"], axis=0)]),
                   op("Gather", ["pos_emb", pos_ids], axis=0)])
    x = layer_norm(x, "emb_ln_g", "emb_ln_b")

    # Extended attention mask: (1 - mask) * -10000, shape [B, 1, 1, S].
    m = op("Cast", ["attention_mask"], to=TensorProto.FLOAT)
    m = op("Unsqueeze", [m, const([1, 2], np.int64)])
    mask_bias = op("Mul", [op("Sub", [const(1.0), m]), const(-10000.0)])

    split_shape = const([0, 0, heads, hd], np.int64)
    merge_shape = const([0, 0, hidden], np.int64)
    scale = const(1.0 / math.sqrt(hd))
    for i in range(layers):
        p = "l%d_" % i
        q = op("Transpose", [op("Reshape", [linear(x, p + "q_w", p + "q_b"), split_shape])], perm=[0, 2, 1, 3])
        k = op("Transpose", [op("Reshape", [linear(x, p + "k_w", p + "k_b"), split_shape])], perm=[0, 2, 3, 1])
        v = op("Transpose", [op("Reshape", [linear(x, p + "v_w", p + "v_b"), split_shape])], perm=[0, 2, 1, 3])
        scores = op("Add", [op("Mul", [op("MatMul", [q, k]), scale]), mask_bias])
        probs = op("Softmax", [scores], axis=-1)
        ctx = op("Reshape", [op("Transpose", [op("MatMul", [probs, v])], perm=[0, 2, 1, 3]), merge_shape])
        x = layer_norm(op("Add", [x, linear(ctx, p + "o_w", p + "o_b")]), p + "ln1_g", p + "ln1_b")
        h = linear(x, p + "ff1_w", p + "ff1_b")
        # Exact GELU: 0.5 * h * (1 + erf(h / sqrt(2))).
        gelu = op("Mul", [op("Mul", [h, const(0.5)]),
                          op("Add", [const(1.0), op("Erf", [op("Div", [h, const(math.sqrt(2.0))])])])])
        x = layer_norm(op("Add", [x, linear(gelu, p + "ff2_w", p + "ff2_b")]), p + "ln2_g", p + "ln2_b")
    nodes.append(helper.make_node("Identity", [x], ["last_hidden_state"], name="output"))

    ids = lambda n: helper.make_tensor_value_info(n, TensorProto.INT64, ["batch_size", "sequence_length"])
    graph = helper.make_graph(
        nodes, "palace_tiny_bert",
        [ids("input_ids"), ids("attention_mask"), ids("token_type_ids")],
        [helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT,
                                       ["batch_size", "sequence_length", hidden])],
        inits)
    model = helper.make_model(graph, producer_name="palace-gen-tiny-model",
                              opset_imports=[helper.make_opsetid("", 14)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    return model


# --- numpy reference forward pass (float64, independent of the ONNX graph) ---

_erf = np.vectorize(math.erf)


def forward(w, ids, layers, heads):
    W = {k: v.astype(np.float64) for k, v in w.items()}
    n = len(ids)
    hidden = W["word_emb"].shape[1]
    hd = hidden // heads

    def ln(x, g, b):
        mean = x.mean(-1, keepdims=True)
        d = x - mean
        return d / np.sqrt((d * d).mean(-1, keepdims=True) + EPS) * g + b

    x = W["word_emb"][ids] + W["type_emb"][np.zeros(n, dtype=np.int64)] + W["pos_emb"][np.arange(n)]
    x = ln(x, W["emb_ln_g"], W["emb_ln_b"])
    for i in range(layers):
        p = "l%d_" % i
        q = (x @ W[p + "q_w"] + W[p + "q_b"]).reshape(n, heads, hd).transpose(1, 0, 2)
        k = (x @ W[p + "k_w"] + W[p + "k_b"]).reshape(n, heads, hd).transpose(1, 0, 2)
        v = (x @ W[p + "v_w"] + W[p + "v_b"]).reshape(n, heads, hd).transpose(1, 0, 2)
        s = q @ k.transpose(0, 2, 1) / math.sqrt(hd)  # all-ones mask: bias is 0
        s = np.exp(s - s.max(-1, keepdims=True))
        s = s / s.sum(-1, keepdims=True)
        ctx = (s @ v).transpose(1, 0, 2).reshape(n, hidden)
        x = ln(x + ctx @ W[p + "o_w"] + W[p + "o_b"], W[p + "ln1_g"], W[p + "ln1_b"])
        h = x @ W[p + "ff1_w"] + W[p + "ff1_b"]
        h = 0.5 * h * (1.0 + _erf(h / math.sqrt(2.0)))
        x = ln(x + h @ W[p + "ff2_w"] + W[p + "ff2_b"], W[p + "ln2_g"], W[p + "ln2_b"])
    pooled = x.mean(0)  # mean over the attention mask (all ones here)
    return pooled / max(np.linalg.norm(pooled), 1e-12)


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", help="output folder (default core/embed/testdata/tiny)")
    ap.add_argument("--minilm", action="store_true", help="MiniLM-shaped random model for benchmarks")
    ap.add_argument("--seed", type=int, default=20261129)
    ap.add_argument("--expected", action="store_true", help="also write expected.json (always on without --minilm)")
    args = ap.parse_args()

    if args.minilm:
        if not args.out:
            sys.exit("gen_tiny_model.py: --minilm needs --out DIR (the model is ~90 MB; do not commit it)")
        hidden, layers, heads, inter, max_pos, words = 384, 6, 12, 1536, 512, build_vocab(30522)
        kind = "minilm"
    else:
        hidden, layers, heads, inter, max_pos, words = 32, 2, 4, 64, 256, build_vocab()
        kind = "tiny"
        args.expected = True
    out = os.path.normpath(args.out or os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "core", "embed", "testdata", "tiny"))
    os.makedirs(out, exist_ok=True)

    rng = np.random.RandomState(args.seed)
    w = make_weights(rng, len(words), hidden, layers, inter, max_pos)
    model = build_graph(w, hidden, layers, heads)
    write(os.path.join(out, "model.onnx"), model.SerializeToString())
    tok = tokenizer_json(words, max_pos)
    write(os.path.join(out, "tokenizer.json"), (json.dumps(tok, ensure_ascii=False, indent=1) + "\n").encode("utf-8"))
    config = {
        "model_type": "bert", "architectures": ["BertModel"], "hidden_size": hidden,
        "num_hidden_layers": layers, "num_attention_heads": heads, "intermediate_size": inter,
        "hidden_act": "gelu", "max_position_embeddings": max_pos, "type_vocab_size": 2,
        "vocab_size": len(words), "pad_token_id": 0, "layer_norm_eps": EPS,
        "palace_generator": "scripts/gen_tiny_model.py --seed %d%s" % (args.seed, " --minilm" if args.minilm else ""),
    }
    write(os.path.join(out, "config.json"), (json.dumps(config, indent=1) + "\n").encode("utf-8"))

    if args.expected:
        vocab = {t: i for i, t in enumerate(words)}
        rows = []
        for s in SENTENCES:
            tokens, ids = tokenize(s, vocab, max_pos)
            emb = forward(w, np.array(ids), layers, heads)
            rows.append({"text": s, "tokens": tokens, "ids": ids,
                         "embedding": [round(float(v), 9) for v in emb]})
        cases = [{"text": c, "ids": tokenize(c, vocab, max_pos)[1]} for c in TOKENIZER_CASES]
        exp = {"model": kind, "dim": hidden, "max_length": max_pos,
               "pooling": "mean over attention mask, then L2 normalisation", "sentences": rows,
               "tokenizer_cases": cases}
        write(os.path.join(out, "expected.json"), (json.dumps(exp, ensure_ascii=False, indent=1) + "\n").encode("utf-8"))

    total = sum(os.path.getsize(os.path.join(out, f)) for f in os.listdir(out))
    print("wrote %s model to %s: vocab %d, hidden %d, layers %d, heads %d, max_pos %d, %d bytes"
          % (kind, out, len(words), hidden, layers, heads, max_pos, total))


if __name__ == "__main__":
    main()
