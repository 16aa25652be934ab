// Package cjk makes Chinese text searchable with SQLite FTS5's unicode61
// tokenizer, which does not segment CJK: a run of Han characters is one
// token, so a search for 清华 never finds 清华大学. Text is segmented with
// gojieba (cppjieba) before it is indexed and queried, and the words are
// joined with spaces so that unicode61 sees them as separate tokens.
//
// Two costs shape the design:
//
//   - A Jieba instance of the whole dictionary holds about 130 MB of C++
//     memory and takes about half a second to load. A Segmenter therefore
//     creates its instance lazily, the first time it meets Han text (an
//     English-only corpus never loads the dictionaries, never writes them to
//     disk and never allocates the instance), and loads only the part of the
//     dictionary the text it has met can use, cutting exactly as the whole
//     would (partial.go): a few Chinese sentences cost a few megabytes.
//   - gojieba finds its dictionaries through a path baked in at build time,
//     which breaks under -trimpath and on any other machine. The
//     dictionaries are embedded in this package (dict/) and written to a
//     caller-chosen cache directory on first use (see New).
//
// Only Han is segmented. cppjieba's dictionary is Chinese: it cuts kana and
// Hangul into single characters tagged x, which is worse than what unicode61
// already does (Korean separates words with spaces; a kana run stays one
// token). Such text therefore passes through unchanged.
package cjk

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/yanyiwu/gojieba"
)

// ErrClosed is returned after Close by the methods that need the Jieba
// instance.
var ErrClosed = errors.New("cjk: segmenter is closed")

// Tagged is a word with its part-of-speech flag from jieba's tagger, which
// uses the ICTCLAS tag set: n noun, v verb, vn verbal noun, nr person name,
// ns place name, nt organisation, nz other proper noun, eng Latin-script
// word, m numeral, and so on.
type Tagged struct {
	Word string
	POS  string
}

// Segmenter segments Chinese text. It is safe for concurrent use. Create it
// with New; it is cheap until it sees Han text.
//
// Locking: Cut, CutAll and Tag only read cppjieba's trie, so
// any number of goroutines run them at once under the read lock. AddWordEx
// mutates the trie and Free destroys it, so AddWord and Close take the write
// lock and wait for in-flight segmentation to finish; so does loading a
// larger part of the dictionary for text with characters not met before.
type Segmenter struct {
	cacheDir string

	mu     sync.RWMutex
	jieba  *gojieba.Jieba // nil until loaded, and again after Close
	err    error          // why loading failed, if it did: final
	closed bool
	added  []userWord // every AddWord call, applied to each instance loaded
	// index and part are the dictionary and the part of it loaded (see
	// partial.go); index is dropped once the whole is loaded.
	index *dictIndex
	part  part
	loads int
	// maxLoads is maxPartLoads; tests raise it to compare parts longer.
	maxLoads int
}

// New returns a Segmenter that will write the embedded jieba dictionaries
// under cacheDir (Palace passes $PALACE_HOME/cache) the first time it needs
// them. New itself does no I/O and cannot fail; problems with cacheDir are
// reported by the first call that has Han text to segment.
func New(cacheDir string) *Segmenter {
	return &Segmenter{cacheDir: cacheDir, maxLoads: maxPartLoads}
}

// Close frees the C++ memory of the Jieba instance, if it was loaded. It
// waits for segmentation calls in progress; later calls that need the
// instance (any with Han text, and AddWord) return ErrClosed.
// Close is idempotent and always returns nil; the error result lets a
// Segmenter be used as an io.Closer.
func (s *Segmenter) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	s.closed = true
	s.added, s.index, s.part = nil, nil, part{}
	if s.jieba != nil {
		// gojieba also sets a finalizer, but the Go GC cannot see the 130 MB
		// behind it and may not run it for a long time.
		s.jieba.Free()
		s.jieba = nil
	}
	return nil
}

// loaded reports whether the Jieba instance exists. For tests, which check
// that English-only text never loads it.
func (s *Segmenter) loaded() bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.jieba != nil
}

// load creates a Jieba instance that covers text as well as all the text
// before it, in place of the one there was; it runs under the write lock.
// A failure is kept and returned by every later call rather than retried:
// each attempt may cost a dictionary write and most of a second, and the
// causes (unwritable cache, full disk) rarely fix themselves within a
// process. Create a new Segmenter to retry.
func (s *Segmenter) load(text string, hanOnly bool) {
	j, err := s.build(text, hanOnly)
	if err != nil {
		s.err = fmt.Errorf("cjk: load Chinese segmenter (cache directory %q): %w", s.cacheDir, err)
		return
	}
	if s.jieba != nil {
		s.jieba.Free()
	}
	s.jieba = j
}

// build materialises the dictionaries and creates a Jieba instance of the
// part of the dictionary the text met so far needs (or of the whole), with
// Palace's supplementary vocabulary and the words added since.
func (s *Segmenter) build(text string, hanOnly bool) (*gojieba.Jieba, error) {
	words, err := palaceWords()
	if err != nil {
		return nil, err
	}
	paths, err := materialise(s.cacheDir)
	if err != nil {
		return nil, err
	}
	dict := paths
	s.loads++
	if !s.part.full && s.loads <= s.maxLoads {
		if s.index == nil {
			if s.index, err = readDictIndex(); err != nil {
				return nil, err
			}
		}
		s.part.meet(s.index, text, hanOnly)
		if fill, ok := s.part.fillers(s.index); ok {
			name, err := s.part.write(s.index, partDir(paths), fill)
			if err != nil {
				return nil, err
			}
			defer os.Remove(name)
			dict[0] = name
		} else {
			s.part.full = true
		}
	} else {
		s.part.full = true
	}
	if s.part.full {
		s.index, s.part = nil, part{full: true}
	}
	j, err := newJieba(dict)
	if err != nil {
		return nil, err
	}
	for _, w := range append(words, s.added...) {
		j.AddWordEx(w.word, w.freq, w.tag)
	}
	return j, nil
}

// acquire returns an instance that covers text, loading one if needed,
// with the read lock held; the caller must call release. hanOnly says
// the caller gives jieba only the Han runs of text.
func (s *Segmenter) acquire(text string, hanOnly bool) (j *gojieba.Jieba, release func(), err error) {
	for {
		s.mu.RLock()
		switch {
		case s.closed:
			s.mu.RUnlock()
			return nil, nil, ErrClosed
		case s.err != nil:
			err := s.err
			s.mu.RUnlock()
			return nil, nil, err
		case s.jieba != nil && s.part.covers(text, hanOnly):
			return s.jieba, s.mu.RUnlock, nil
		}
		s.mu.RUnlock()
		s.mu.Lock()
		if !s.closed && s.err == nil && (s.jieba == nil || !s.part.covers(text, hanOnly)) {
			s.load(text, hanOnly)
		}
		s.mu.Unlock()
	}
}

// AddWord adds a word (with an optional POS tag such as "nz"; "" for none)
// to the vocabulary with cppjieba's default user-word weight, so that it is
// kept whole by segmentation and tagging. It does not load the dictionaries:
// before the first Han text the word is queued and applied at load time.
//
// Index and query are only symmetric if both sides use the same vocabulary:
// add words before indexing, add the same words in every process that reads
// or writes the index, and re-index Chinese text after changing the list.
func (s *Segmenter) AddWord(word, tag string) error {
	if word == "" || !utf8.ValidString(word) || strings.ContainsFunc(word, unicode.IsSpace) {
		return fmt.Errorf("cjk: AddWord: %q is not a single valid UTF-8 word", word)
	}
	if strings.ContainsFunc(tag, unicode.IsSpace) {
		return fmt.Errorf("cjk: AddWord: tag %q contains whitespace", tag)
	}
	w := userWord{word: word, tag: tag}
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.closed:
		return ErrClosed
	case s.err != nil:
		return s.err
	}
	// Kept for the instances loaded later, which start from the files.
	s.added = append(s.added, w)
	if s.jieba != nil {
		s.jieba.AddWordEx(w.word, w.freq, w.tag)
	}
	return nil
}

// SegmentForIndex returns text prepared for an FTS5 unicode61 column: each
// run of Han characters is replaced by its words separated by spaces, and
// everything else is copied unchanged. A space is inserted where a Han run
// touches a non-space character, because unicode61 would otherwise glue
// them into one token (用SQLite → 用 SQLite).
//
// A run is cut with jieba's precise mode (Cut, HMM on), and each word of
// three or more characters is followed by the sub-words that tile it (see
// subWords), so 清华大学 is indexed as 清华 大学 清华大学 and 知识图谱 as
// 知识 图谱 知识图谱: a search for 大学 or 图谱 finds them, one for 华大 or
// 识图 does not. jieba's own search mode (CutForSearch) adds every
// dictionary 2- and 3-gram inside a word instead, fragments that straddle
// the word's parts included (华大, 识图), so a search for such a fragment
// matched text that does not contain it as a word.
//
// Text without Han characters is returned as is, without allocating and
// without loading the dictionaries.
func (s *Segmenter) SegmentForIndex(text string) (string, error) {
	if !hasHan(text) {
		return text, nil
	}
	j, release, err := s.acquire(text, true)
	if err != nil {
		return "", err
	}
	defer release()

	var b strings.Builder
	// Sub-words repeat characters; 2x covers typical prose.
	b.Grow(2 * len(text))
	prevHan := false
	for run, han := range runs(text) {
		if !han {
			if prevHan && !startsWithSpace(run) {
				b.WriteByte(' ')
			}
			b.WriteString(run)
			prevHan = false
			continue
		}
		if b.Len() > 0 && !endsWithSpace(b.String()) {
			b.WriteByte(' ')
		}
		for i, w := range j.Cut(run, true) {
			if i > 0 {
				b.WriteByte(' ')
			}
			writeGroup(&b, wordGroup(j, w).index)
		}
		prevHan = true
	}
	return b.String(), nil
}

// writeGroup writes words separated by spaces.
func writeGroup(b *strings.Builder, words []string) {
	for i, w := range words {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(w)
	}
}

// SegmentQuery splits a search query into words: Han runs are cut with
// jieba's precise mode (Cut, HMM on) and each other run is split on
// whitespace and returned as typed, for the caller to quote as FTS5 strings
// (unicode61 then tokenizes them exactly as it tokenized the indexed text).
// Pieces without a letter or digit are dropped, as on the index side. Query
// text without Han characters never loads the dictionaries.
//
// Why precise mode on the query side: the index holds a superset of the
// precise cut: every precise word plus the sub-words that tile it (see
// SegmentForIndex). So a query word matches wherever the same characters
// formed a word in the indexed text, whether that word was cut on its own
// (大学 in 大学生活) or nested inside a longer one (大学 in 清华大学). Adding
// sub-words to the query would add terms that an AND query must all match,
// which only loses results, and the precise words are the most specific
// terms to rank with.
//
// The caller should AND the words (or rank on them), not join them into one
// FTS5 phrase: on the index side nested sub-words sit between the words of
// the precise cut (认证 中间 中间件), so consecutive query words are not
// always adjacent tokens in the index.
//
// Limits: jieba's precise cut depends on context, so a query word can still
// miss text where the same characters were cut differently (和尚 in
// 和尚未, or 北京大学 in a document cut as 北京 大学生); words jieba invents
// with its HMM are found only where the same invention happened.
func (s *Segmenter) SegmentQuery(text string) ([]string, error) {
	if !hasHan(text) {
		return SplitQuery(text), nil
	}
	j, release, err := s.acquire(text, true)
	if err != nil {
		return nil, err
	}
	defer release()
	return queryWords(text, func(run string) []string { return j.Cut(run, true) }), nil
}

// SplitQuery splits a query as SegmentQuery does, without the dictionaries:
// each Han run stays one word. It is for a palace whose index holds no Han
// text, where no Han word can match however it is cut, while the words of
// the other scripts still must.
func SplitQuery(text string) []string {
	return queryWords(text, func(run string) []string { return []string{run} })
}

// queryWords splits the non-Han runs of text on whitespace and the Han runs
// with cut, keeping the pieces with a letter or digit.
func queryWords(text string, cut func(run string) []string) []string {
	var words []string
	for run, han := range runs(text) {
		pieces := strings.Fields(run)
		if han {
			pieces = cut(run)
		}
		for _, w := range pieces {
			if isWord(w) {
				words = append(words, w)
			}
		}
	}
	return words
}

// Tag returns the words of text with their part-of-speech flags (jieba's
// Tag, precise cut with HMM), for entity extraction (nr, ns, nt, nz) and
// topics. Tokens without a letter or digit (spaces, punctuation) are
// dropped. Latin-script words in mixed text come back as "eng". Text without
// Han characters returns nil without loading the dictionaries: jieba would
// only tag its words "eng".
func (s *Segmenter) Tag(text string) ([]Tagged, error) {
	if !hasHan(text) {
		return nil, nil
	}
	j, release, err := s.acquire(text, false)
	if err != nil {
		return nil, err
	}
	defer release()
	// cppjieba rejects a whole sentence with invalid UTF-8 (logging to
	// stderr), and C strings end at the first NUL, which would silently drop
	// the rest of the text; neither can occur in the Han-only runs that the
	// other methods pass to jieba, but Tag passes the full text.
	if !utf8.ValidString(text) {
		text = strings.ToValidUTF8(text, " ")
	}
	var out []Tagged
	for part := range strings.SplitSeq(text, "\x00") {
		for _, wf := range j.Tag(part) {
			// "word/flag"; the word itself may contain '/' (jieba emits
			// "//x"), the flag never does.
			i := strings.LastIndexByte(wf, '/')
			if i < 0 {
				continue
			}
			if word := wf[:i]; isWord(word) {
				out = append(out, Tagged{Word: word, POS: wf[i+1:]})
			}
		}
	}
	return out, nil
}

// HasCJK reports whether s contains a Han, Hiragana, Katakana or Hangul
// character. It is a byte scan that skips ASCII without decoding. Only Han
// runs are segmented (see the package comment); callers may use HasCJK to
// decide whether text needs the CJK path at all.
func HasCJK(s string) bool {
	for i := 0; i < len(s); {
		if s[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if isCJK(r) {
			return true
		}
		i += n
	}
	return false
}

// isCJK: Hangul Jamo at U+1100 is the lowest code point of the four scripts,
// so everything below it is rejected without a table lookup.
func isCJK(r rune) bool {
	return r >= 0x1100 && (unicode.Is(unicode.Han, r) ||
		unicode.Is(unicode.Hiragana, r) ||
		unicode.Is(unicode.Katakana, r) ||
		unicode.Is(unicode.Hangul, r))
}

// isHan: the Han script starts at U+2E80 (CJK radicals).
func isHan(r rune) bool {
	return r >= 0x2E80 && unicode.Is(unicode.Han, r)
}

// hasHan decides whether jieba is needed at all, so it must stay cheap: ASCII
// bytes are skipped without decoding.
func hasHan(s string) bool {
	for i := 0; i < len(s); {
		if s[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if isHan(r) {
			return true
		}
		i += n
	}
	return false
}

// runs yields the maximal substrings of s that are all Han (han true) or
// contain no Han (han false), in order; concatenated they give s back.
// Invalid UTF-8 belongs to the non-Han runs and is copied through unchanged.
func runs(s string) func(yield func(run string, han bool) bool) {
	return func(yield func(string, bool) bool) {
		start := 0
		inHan := false
		for i := 0; i < len(s); {
			r, n := rune(s[i]), 1
			if r >= utf8.RuneSelf {
				r, n = utf8.DecodeRuneInString(s[i:])
			}
			if h := isHan(r); h != inHan {
				if i > start && !yield(s[start:i], inHan) {
					return
				}
				start, inHan = i, h
			}
			i += n
		}
		if start < len(s) {
			yield(s[start:], inHan)
		}
	}
}

// isWord reports whether tok contains a letter or digit. Punctuation- or
// space-only tokens carry nothing to search for; unicode61 would drop them.
func isWord(tok string) bool {
	for _, r := range tok {
		if unicode.IsLetter(r) || unicode.IsNumber(r) {
			return true
		}
	}
	return false
}

func startsWithSpace(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsSpace(r)
}

func endsWithSpace(s string) bool {
	r, _ := utf8.DecodeLastRuneInString(s)
	return unicode.IsSpace(r)
}
