package embed

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"

	sugar "github.com/sugarme/tokenizer"
	"github.com/sugarme/tokenizer/pretrained"
)

// tokenizer wraps the pure-Go Hugging Face tokenizer hugot uses, so that both
// backends see exactly the same token ids. One instance serves both: the go
// backend's hugot pipeline is pointed at it after loading.
//
// sugarme/tokenizer panics on malformed tokenizer.json fields (unchecked type
// assertions) and calls log.Fatal (which exits the process and cannot be
// recovered) when encoding fails inside hugot. So tokenizer.json is checked
// field by field before it is parsed, parsing and encoding run under
// recover, and every text is encoded here before hugot sees it.
type tokenizer struct {
	tk     *sugar.Tokenizer
	maxLen int             // ids per text, special tokens included
	bert   *bertNormalizer // done in Go instead of by sugarme; nil if none
	fast   *fastWordPiece  // sugarme's result, faster, for most texts; nil if none
	path   string
}

// encoding is one tokenised text.
type encoding struct {
	ids   []int64
	types []int64
}

var truncationStrategies = map[string]bool{"LongestFirst": true, "OnlyFirst": true, "OnlySecond": true}

// loadTokenizer reads tokenizer.json. The maximum length is maxPos
// (max_position_embeddings), lowered to stLen (sentence-transformers'
// max_seq_length) when that is set, else to the tokenizer's own truncation
// max_length.
func loadTokenizer(path string, maxPos, stLen int) (*tokenizer, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("load tokenizer %s: %w", path, err)
	}
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, fmt.Errorf("load tokenizer %s: %w", path, err)
	}
	truncLen, err := checkTokenizerJSON(doc)
	if err != nil {
		return nil, fmt.Errorf("load tokenizer %s: %w", path, err)
	}

	maxLen := maxPos
	switch {
	case stLen > 0:
		maxLen = min(maxLen, stLen)
	case truncLen > 0:
		maxLen = min(maxLen, truncLen)
	}
	if maxLen < 3 {
		return nil, fmt.Errorf("load tokenizer %s: maximum length %d leaves no room for text", path, maxLen)
	}

	// Truncate to maxLen, keeping the head like sentence-transformers (for
	// a single text every strategy is LongestFirst); padding is done per
	// sub-batch by the backends, never by the tokenizer.
	doc["truncation"] = map[string]any{"direction": "Right", "max_length": float64(maxLen), "stride": float64(0), "strategy": "LongestFirst"}
	doc["padding"] = nil
	// A top-level BertNormalizer (every BERT/MiniLM tokenizer) is applied
	// in Go by normalize; sugarme's copy has bugs, see bertNormalizer.
	bert := takeBertNormalizer(doc)
	doc["normalizer"] = fixStripAccents(doc["normalizer"])
	patched, err := json.Marshal(doc)
	if err != nil {
		return nil, fmt.Errorf("load tokenizer %s: %w", path, err)
	}

	t := &tokenizer{maxLen: maxLen, bert: bert, path: path}
	if err := guard(func() error {
		tk, err := pretrained.FromReader(bytes.NewReader(patched))
		t.tk = tk
		return err
	}); err != nil {
		return nil, fmt.Errorf("load tokenizer %s: %w", path, err)
	}
	// A tokenizer that parses but cannot encode would make hugot log.Fatal.
	if e, err := t.encode("Palace probe: Hello, world"); err != nil {
		return nil, fmt.Errorf("load tokenizer %s: %w", path, err)
	} else if len(e.ids) < 2 {
		return nil, fmt.Errorf("load tokenizer %s: encodes a probe sentence to %d ids", path, len(e.ids))
	}
	// The fast path is used only if it agrees with sugarme on the probes.
	if f := newFastWordPiece(doc, bert); f != nil && len(f.head)+len(f.tail) < maxLen {
		t.fast = f
		if err := t.checkFast(); err != nil {
			t.fast = nil
		}
	}
	return t, nil
}

// checkTokenizerJSON validates the fields sugarme type-asserts without
// checking (hugot's go backend also parses the file as it is), and returns
// truncation's max_length, 0 if there is none.
func checkTokenizerJSON(doc map[string]any) (int, error) {
	mdl, ok := doc["model"].(map[string]any)
	if !ok {
		return 0, fmt.Errorf("no \"model\" object")
	}
	if typ, _ := mdl["type"].(string); typ == "WordPiece" {
		vocab, ok := mdl["vocab"].(map[string]any)
		if !ok || len(vocab) == 0 {
			return 0, fmt.Errorf("WordPiece model without a vocab")
		}
		unk, _ := mdl["unk_token"].(string)
		if _, ok := vocab[unk]; !ok {
			return 0, fmt.Errorf("WordPiece unk_token %q is not in the vocab", unk)
		}
	}
	if added, ok := doc["added_tokens"]; ok && added != nil {
		list, ok := added.([]any)
		if !ok {
			return 0, fmt.Errorf("added_tokens is not a list")
		}
		for i, a := range list {
			at, ok := a.(map[string]any)
			if !ok {
				return 0, fmt.Errorf("added_tokens[%d] is not an object", i)
			}
			if _, ok := at["content"].(string); !ok {
				return 0, fmt.Errorf("added_tokens[%d] has no string content", i)
			}
			if _, ok := at["id"].(float64); !ok {
				return 0, fmt.Errorf("added_tokens[%d] has no numeric id", i)
			}
		}
	}
	tr, present := doc["truncation"]
	if !present || tr == nil {
		return 0, nil
	}
	trunc, ok := tr.(map[string]any)
	if !ok {
		return 0, fmt.Errorf("truncation is not an object")
	}
	maxLen, ok1 := trunc["max_length"].(float64)
	stride, ok2 := trunc["stride"].(float64)
	strat, ok3 := trunc["strategy"].(string)
	switch {
	case !ok1 || !ok2 || !ok3:
		return 0, fmt.Errorf("truncation needs numeric max_length and stride and a string strategy")
	case maxLen < 1 || stride < 0 || stride >= maxLen:
		return 0, fmt.Errorf("truncation max_length %v and stride %v are inconsistent", maxLen, stride)
	case !truncationStrategies[strat]:
		return 0, fmt.Errorf("truncation strategy %q unknown", strat)
	}
	return int(maxLen), nil
}

// fixStripAccents makes a BertNormalizer nested in a Sequence (rare; the
// top-level one is done in Go) strip accents the way Hugging Face does:
// strip_accents: null means "same as lowercase", and stripping means NFD,
// then dropping combining marks, so an NFD normaliser goes in front.
func fixStripAccents(n any) any {
	norm, ok := n.(map[string]any)
	if !ok {
		return n
	}
	switch norm["type"] {
	case "BertNormalizer":
		if norm["strip_accents"] == nil {
			lower, _ := norm["lowercase"].(bool)
			norm["strip_accents"] = lower
		}
		if strip, _ := norm["strip_accents"].(bool); strip {
			return map[string]any{"type": "Sequence", "normalizers": []any{map[string]any{"type": "NFD"}, norm}}
		}
	case "Sequence":
		if list, ok := norm["normalizers"].([]any); ok {
			for i, sub := range list {
				list[i] = fixStripAccents(sub)
			}
		}
	}
	return norm
}

// bertNormalizer is Hugging Face's BertNormalizer, done in Go because
// sugarme's has bugs that change tokens or crash: clean_text misses
// Unicode spaces (Zs) and, when it removes a character, can duplicate the
// text around it ("\u200bzero" came out three times); strip_accents drops
// combining marks without NFD-decomposing first ("café" stays "café");
// and lowercasing a character whose UTF-8 length changes ("ẞ" -> "ß")
// breaks its offset bookkeeping and panics.
type bertNormalizer struct {
	clean, chinese, strip, lower bool
}

// takeBertNormalizer removes a top-level BertNormalizer from the tokenizer
// document and returns its settings, resolving strip_accents: null to the
// lowercase setting as Hugging Face does.
func takeBertNormalizer(doc map[string]any) *bertNormalizer {
	norm, ok := doc["normalizer"].(map[string]any)
	if !ok || norm["type"] != "BertNormalizer" {
		return nil
	}
	flag := func(k string) bool { b, _ := norm[k].(bool); return b }
	b := &bertNormalizer{clean: flag("clean_text"), chinese: flag("handle_chinese_chars"), lower: flag("lowercase")}
	if v, ok := norm["strip_accents"].(bool); ok {
		b.strip = v
	} else {
		b.strip = b.lower
	}
	doc["normalizer"] = nil
	return b
}

// normalize prepares one text for sugarme: invalid UTF-8 becomes U+FFFD,
// then the BertNormalizer steps in Hugging Face's order.
func (t *tokenizer) normalize(text string) string {
	text = strings.ToValidUTF8(text, "\uFFFD")
	b := t.bert
	if b == nil {
		return text
	}
	if b.clean || b.chinese {
		var sb strings.Builder
		sb.Grow(len(text))
		for _, r := range text {
			switch {
			case b.clean && (r == 0 || r == unicode.ReplacementChar || isBertControl(r)):
			case b.clean && isBertSpace(r):
				sb.WriteByte(' ')
			case b.chinese && isCJK(r):
				sb.WriteByte(' ')
				sb.WriteRune(r)
				sb.WriteByte(' ')
			default:
				sb.WriteRune(r)
			}
		}
		text = sb.String()
	}
	if b.strip {
		text = strings.Map(func(r rune) rune {
			if unicode.Is(unicode.Mn, r) {
				return -1
			}
			return r
		}, norm.NFD.String(text))
	}
	if b.lower {
		text = strings.ToLower(text)
	}
	return text
}

// isBertSpace, isBertControl and isCJK follow the Rust BertNormalizer of
// Hugging Face tokenizers (what sentence-transformers runs): whitespace is
// Unicode White_Space, control is category "Other" except \t \n \r.
func isBertSpace(r rune) bool {
	return unicode.IsSpace(r)
}

func isBertControl(r rune) bool {
	if r == '\t' || r == '\n' || r == '\r' {
		return false
	}
	return unicode.In(r, unicode.Cc, unicode.Cf, unicode.Co, unicode.Cs)
}

func isCJK(r rune) bool {
	return (r >= 0x4E00 && r <= 0x9FFF) || (r >= 0x3400 && r <= 0x4DBF) ||
		(r >= 0x20000 && r <= 0x2A6DF) || (r >= 0x2A700 && r <= 0x2B73F) ||
		(r >= 0x2B740 && r <= 0x2B81F) || (r >= 0x2B820 && r <= 0x2CEAF) ||
		(r >= 0xF900 && r <= 0xFAFF) || (r >= 0x2F800 && r <= 0x2FA1F)
}

// encode tokenises one text with special tokens, truncated to maxLen.
func (t *tokenizer) encode(text string) (encoding, error) {
	if e, ok := t.encodeFast(text); ok {
		return e, nil
	}
	return t.encodeSugar(text)
}

// encodeSugar is encode by sugarme, after Palace's normaliser.
func (t *tokenizer) encodeSugar(text string) (encoding, error) {
	var e encoding
	err := guard(func() error {
		enc, err := t.tk.EncodeSingle(t.normalize(text), true)
		if err != nil {
			return err
		}
		ids := enc.Ids
		if len(ids) > t.maxLen {
			// Truncation is configured, so this never happens; if it did,
			// keep the head and the final [SEP] rather than feed the model
			// positions it has no embedding for.
			ids = append(ids[:t.maxLen-1:t.maxLen-1], ids[len(ids)-1])
		}
		e.ids = make([]int64, len(ids))
		e.types = make([]int64, len(ids))
		for i, id := range ids {
			e.ids[i] = int64(id)
			if i < len(enc.TypeIds) {
				e.types[i] = int64(enc.TypeIds[i])
			}
		}
		return nil
	})
	if err != nil {
		return e, fmt.Errorf("tokenize: %w", err)
	}
	return e, nil
}

// encodeAll tokenises every text, stopping at the first failure. (Splitting
// a batch across goroutines was tried and measured no faster on 2 cores: the
// tokenizer is allocation-bound.)
func (t *tokenizer) encodeAll(texts []string) ([]encoding, error) {
	out := make([]encoding, len(texts))
	for i, s := range texts {
		e, err := t.encode(s)
		if err != nil {
			return nil, fmt.Errorf("text %d: %w", i, err)
		}
		out[i] = e
	}
	return out, nil
}

// guard runs f, turning a panic into an error: the third-party code on
// these paths (tokenizer, ONNX parsers) panics on malformed input.
func guard(f func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return f()
}
