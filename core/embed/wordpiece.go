package embed

import (
	"fmt"
	"slices"
	"strings"
)

// fastWordPiece is a fast path for the common BERT tokenizer (a top-level
// BertNormalizer, which Palace runs in Go anyway, a BertPreTokenizer, a
// WordPiece model and a [CLS] A [SEP] post-processor) on texts that are
// printable ASCII once normalised: nearly every chunk of English prose and
// code. sugarme's pipeline costs about 10 µs per token, mostly allocations
// for offset bookkeeping Palace never reads; this costs well under 1 µs and
// gives the same ids. Anything else (other tokenizer set-ups, non-ASCII
// text, text containing an added token such as "[MASK]") goes to sugarme.
//
// It is built only when loadTokenizer's probe texts encode identically both
// ways, and it is read-only after that, so safe for concurrent use.
type fastWordPiece struct {
	vocab     map[string]int64
	unk       int64
	prefix    string // continuing_subword_prefix, "##"
	maxChars  int    // max_input_chars_per_word: longer words are [UNK]
	maxKeyLen int    // longest vocab entry in bytes: no longer piece can match
	added     []string

	head, headTypes []int64 // special tokens before the text ([CLS])
	tail, tailTypes []int64 // and after it ([SEP])
	seqType         int64
}

// newFastWordPiece returns the fast path for the patched tokenizer document
// doc, or nil when the set-up is not the one it reproduces. bert is the
// BertNormalizer taken out of doc (nil if there was none).
func newFastWordPiece(doc map[string]any, bert *bertNormalizer) *fastWordPiece {
	if bert == nil || doc["normalizer"] != nil {
		return nil
	}
	if pre, ok := doc["pre_tokenizer"].(map[string]any); !ok || pre["type"] != "BertPreTokenizer" || len(pre) != 1 {
		return nil
	}
	mdl, ok := doc["model"].(map[string]any)
	if !ok || mdl["type"] != "WordPiece" {
		return nil
	}
	vocab, _ := mdl["vocab"].(map[string]any)
	unk, _ := mdl["unk_token"].(string)
	prefix, ok1 := mdl["continuing_subword_prefix"].(string)
	maxChars, ok2 := mdl["max_input_chars_per_word"].(float64)
	if len(vocab) == 0 || !ok1 || !ok2 || maxChars < 1 {
		return nil
	}
	f := &fastWordPiece{vocab: make(map[string]int64, len(vocab)), prefix: prefix, maxChars: int(maxChars)}
	for k, v := range vocab {
		id, ok := v.(float64)
		if !ok || id < 0 || id != float64(int64(id)) {
			return nil
		}
		f.vocab[k] = int64(id)
		f.maxKeyLen = max(f.maxKeyLen, len(k))
	}
	unkID, ok := f.vocab[unk]
	if !ok {
		return nil
	}
	f.unk = unkID
	if list, ok := doc["added_tokens"].([]any); ok {
		for _, a := range list {
			at, _ := a.(map[string]any)
			c, _ := at["content"].(string)
			if c == "" {
				return nil
			}
			f.added = append(f.added, c)
		}
	}
	if !f.parsePostProcessor(doc["post_processor"]) {
		return nil
	}
	return f
}

// parsePostProcessor reads the special tokens around a single text from a
// TemplateProcessing or BertProcessing post-processor.
func (f *fastWordPiece) parsePostProcessor(pp any) bool {
	p, ok := pp.(map[string]any)
	if !ok {
		return false
	}
	num := func(v any) (int64, bool) {
		x, ok := v.(float64)
		return int64(x), ok && x >= 0 && x == float64(int64(x))
	}
	switch p["type"] {
	case "BertProcessing":
		cls, _ := p["cls"].([]any)
		sep, _ := p["sep"].([]any)
		if len(cls) != 2 || len(sep) != 2 {
			return false
		}
		c, ok1 := num(cls[1])
		s, ok2 := num(sep[1])
		if !ok1 || !ok2 {
			return false
		}
		f.head, f.headTypes = []int64{c}, []int64{0}
		f.tail, f.tailTypes = []int64{s}, []int64{0}
		return true
	case "TemplateProcessing":
		single, _ := p["single"].([]any)
		specials, _ := p["special_tokens"].(map[string]any)
		seen := false
		for _, item := range single {
			it, _ := item.(map[string]any)
			if len(it) != 1 {
				return false
			}
			if sq, ok := it["Sequence"].(map[string]any); ok {
				typ, ok := num(sq["type_id"])
				if seen || !ok || sq["id"] != "A" {
					return false
				}
				seen, f.seqType = true, typ
				continue
			}
			sp, ok := it["SpecialToken"].(map[string]any)
			if !ok {
				return false
			}
			name, _ := sp["id"].(string)
			typ, ok := num(sp["type_id"])
			if !ok {
				return false
			}
			st, _ := specials[name].(map[string]any)
			ids, _ := st["ids"].([]any)
			if len(ids) == 0 {
				return false
			}
			for _, v := range ids {
				id, ok := num(v)
				if !ok {
					return false
				}
				if seen {
					f.tail, f.tailTypes = append(f.tail, id), append(f.tailTypes, typ)
				} else {
					f.head, f.headTypes = append(f.head, id), append(f.headTypes, typ)
				}
			}
		}
		return seen
	}
	return false
}

// normalizeASCII is bertNormalizer's normalize for a text that is all
// ASCII (ok false otherwise): NFD and accent stripping change nothing
// there, and no character is CJK.
func (b *bertNormalizer) normalizeASCII(text string) (string, bool) {
	for i := 0; i < len(text); i++ {
		if text[i] >= 0x80 {
			return "", false
		}
	}
	buf := make([]byte, 0, len(text))
	for i := 0; i < len(text); i++ {
		c := text[i]
		isCtrl := (c < 0x20 || c == 0x7f) && c != '\t' && c != '\n' && c != '\r'
		isSpace := c == ' ' || (c >= '\t' && c <= '\r')
		switch {
		case b.clean && (c == 0 || isCtrl):
		case b.clean && isSpace:
			buf = append(buf, ' ')
		default:
			if b.lower && c >= 'A' && c <= 'Z' {
				c += 'a' - 'A'
			}
			buf = append(buf, c)
		}
	}
	return string(buf), true
}

// isASCIIPunct is sugarme's (and Hugging Face's) BERT punctuation on
// printable ASCII: every non-alphanumeric character but the space.
func isASCIIPunct(c byte) bool {
	return (c >= 0x21 && c <= 0x2f) || (c >= 0x3a && c <= 0x40) || (c >= 0x5b && c <= 0x60) || (c >= 0x7b && c <= 0x7e)
}

// encode tokenises a normalised text, truncated to maxLen ids with the
// special tokens. ok is false when the text is not printable ASCII or
// contains an added token: then sugarme must do it.
func (f *fastWordPiece) encode(s string, maxLen int) (encoding, bool) {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return encoding{}, false
		}
	}
	for _, a := range f.added {
		if strings.Contains(s, a) {
			return encoding{}, false
		}
	}
	limit := maxLen - len(f.head) - len(f.tail) // content ids kept
	ids := make([]int64, len(f.head), len(f.head)+min(limit, len(s)/2+4)+len(f.tail))
	copy(ids, f.head)
	var buf []byte
	for i := 0; i < len(s) && len(ids)-len(f.head) < limit; {
		c := s[i]
		switch {
		case c == ' ':
			i++
			continue
		case isASCIIPunct(c):
			ids = f.word(ids, s[i:i+1], &buf)
			i++
			continue
		}
		j := i + 1
		for j < len(s) && s[j] != ' ' && !isASCIIPunct(s[j]) {
			j++
		}
		ids = f.word(ids, s[i:j], &buf)
		i = j
	}
	if n := len(f.head) + limit; len(ids) > n {
		ids = ids[:n]
	}
	ids = append(ids, f.tail...)
	types := make([]int64, len(ids))
	copy(types, f.headTypes)
	for i := len(f.head); i < len(ids)-len(f.tail); i++ {
		types[i] = f.seqType
	}
	copy(types[len(ids)-len(f.tail):], f.tailTypes)
	return encoding{ids: ids, types: types}, true
}

// word appends the WordPiece ids of one word: greedy longest match from
// the left, continuations prefixed, the whole word [UNK] if any part has
// no match or the word is longer than maxChars.
func (f *fastWordPiece) word(ids []int64, w string, buf *[]byte) []int64 {
	if len(w) > f.maxChars {
		return append(ids, f.unk)
	}
	n0 := len(ids)
	for start := 0; start < len(w); {
		end := len(w)
		if start == 0 {
			end = min(end, f.maxKeyLen)
		} else {
			end = min(end, start+f.maxKeyLen-len(f.prefix))
		}
		found := false
		for ; end > start; end-- {
			var id int64
			var ok bool
			if start == 0 {
				id, ok = f.vocab[w[:end]]
			} else {
				*buf = append(append((*buf)[:0], f.prefix...), w[start:end]...)
				id, ok = f.vocab[string(*buf)]
			}
			if ok {
				ids = append(ids, id)
				found = true
				break
			}
		}
		if !found {
			return append(ids[:n0], f.unk)
		}
		start = end
	}
	return ids
}

// fastProbes are texts whose ids the fast path must reproduce exactly
// before it is used, besides one longer than the maximum length.
var fastProbes = []string{
	"Palace probe: Hello, world", "", " ", "a", "The quick brown fox jumps over the lazy dog.",
	"don't stop-believing... k8s v1.2.3 foo_bar (x+y)*z = {a: [1, 2]}; #tag @user $5 ~/path",
	"  leading and trailing  ", "tabs\tand\nnewlines\r\n CAPS MiXeD",
	"supercalifragilisticexpialidocioussupercalifragilisticexpialidocioussupercalifragilisticexpialidociousxyz",
	"unaffable unbelievable tokenization refactoring goroutine",
}

// checkFast compares the fast path with sugarme on the probes.
func (t *tokenizer) checkFast() error {
	long := strings.Repeat("hello, world ", t.maxLen/2+1) // at least 3 ids a repeat: past maxLen
	for _, p := range append(slices.Clone(fastProbes), long) {
		want, err := t.encodeSugar(p)
		if err != nil {
			return err
		}
		got, ok := t.encodeFast(p)
		if !ok {
			return fmt.Errorf("probe %.40q not handled", p)
		}
		if !slices.Equal(got.ids, want.ids) || !slices.Equal(got.types, want.types) {
			return fmt.Errorf("probe %.40q: ids %v, sugarme %v", p, got.ids, want.ids)
		}
	}
	return nil
}

// encodeFast is the fast path of encode (ok false if it does not apply).
func (t *tokenizer) encodeFast(text string) (encoding, bool) {
	if t.fast == nil {
		return encoding{}, false
	}
	s, ok := t.bert.normalizeASCII(text)
	if !ok {
		return encoding{}, false
	}
	return t.fast.encode(s, t.maxLen)
}
