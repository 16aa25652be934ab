package cjk

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// A Jieba instance with the whole dictionary holds about 130 MB, paid by
// any palace that meets one Chinese sentence (Go's source tree has a few
// tests with Chinese in them). A Segmenter therefore loads only the part
// of the dictionary that can matter to the text it has met: the words made
// only of characters it has been given. A dictionary word that is not in
// that part cannot occur in any text given so far, so the cut, the tags
// and the sub-words of that text are the same as with the whole
// dictionary, provided the numbers jieba derives from the whole dictionary
// stay as they were. They are three: the sum of all frequencies (a word's
// weight is log(freq/sum)), the smallest weight (an unknown character's)
// and the median weight (a user word's without a frequency). Filler
// entries of a word no text can hold keep all three: one with the
// smallest frequency, some with the median's, and one with the rest of
// the sum (partDict). Text with characters not yet met makes the
// Segmenter load a larger part; after maxPartLoads loads, or once the part
// would be most of the dictionary, it loads the whole, as it always did.

// maxPartLoads bounds the reloads a Segmenter makes as it meets new
// characters: each costs a Jieba instance's construction, and text with
// many Chinese documents needs the whole dictionary soon anyway.
const maxPartLoads = 48

// filler is the word of the filler entries: private-use characters, which
// are not Han, so never in a run given to jieba, and in no dictionary.
const filler = "\ue000\ue001\ue002\ue003"

// dictIndex is the whole dictionary, read once per Segmenter from the
// embedded file: its lines in order, which lines' words hold each
// character, and the three numbers fillers keeps. It is compact (about 11
// MB for the 349k words) because it lives as long as the Segmenter uses a
// part.
type dictIndex struct {
	text   string   // the file
	starts []uint32 // where each line starts in text; one more for the end
	// byRune lists, for each character, the lines whose word holds it:
	// lines[at[r].start : at[r].start+at[r].n].
	at     map[rune]span
	lines  []int32
	sum    int64 // of all frequencies (integers in the file)
	min    int64 // the smallest frequency
	median int64 // the frequency at index n/2, in ascending order
}

type span struct{ start, n int32 }

// line returns line i without its newline, and its word and frequency.
func (x *dictIndex) line(i int) (line, word string, freq int64) {
	line = strings.TrimSuffix(x.text[x.starts[i]:x.starts[i+1]], "\n")
	word, rest, _ := strings.Cut(line, " ")
	f, _, _ := strings.Cut(rest, " ")
	freq, _ = strconv.ParseInt(f, 10, 64)
	return line, word, freq
}

func readDictIndex() (*dictIndex, error) {
	name := path.Join("dict", jiebaFiles[0])
	f, err := dictFS.Open(name)
	if err != nil {
		return nil, fmt.Errorf("embedded dictionary %s: %w", name, err)
	}
	defer f.Close()
	size, err := embeddedSize(jiebaFiles[0])
	if err != nil {
		return nil, err
	}
	// One copy of the file, not the two of ReadFile and a conversion.
	var b strings.Builder
	b.Grow(int(size))
	if _, err := io.Copy(&b, f); err != nil {
		return nil, fmt.Errorf("embedded dictionary %s: %w", name, err)
	}
	x := &dictIndex{text: b.String(), at: map[rune]span{}}
	var freqs []int64
	for off := 0; off < len(x.text); {
		end := strings.IndexByte(x.text[off:], '\n') + 1
		if end == 0 {
			end = len(x.text) - off
		}
		x.starts = append(x.starts, uint32(off))
		off += end
	}
	x.starts = append(x.starts, uint32(len(x.text)))
	n := len(x.starts) - 1
	if n == 0 {
		return nil, fmt.Errorf("embedded dictionary %s is empty", name)
	}
	// Two passes over the words: count the lines of each character, then
	// place them, so the lists are one array.
	for pass := range 2 {
		for i := range n {
			line, word, freq := x.line(i)
			if pass == 0 {
				if strings.Count(line, " ") != 2 || freq <= 0 {
					return nil, fmt.Errorf("%s:%d: want \"word freq tag\" with a positive integer frequency", name, i+1)
				}
				freqs = append(freqs, freq)
				x.sum += freq
			}
			for k, r := range word {
				if strings.ContainsRune(word[:k], r) {
					continue // counted once per line
				}
				sp := x.at[r]
				if pass == 0 {
					sp.n++
				} else {
					x.lines[sp.start+sp.n] = int32(i)
					sp.n++
				}
				x.at[r] = sp
			}
		}
		if pass == 0 {
			total := int32(0)
			for r, sp := range x.at {
				x.at[r] = span{start: total}
				total += sp.n
			}
			x.lines = make([]int32, total)
		}
	}
	slices.Sort(freqs)
	x.min, x.median = freqs[0], freqs[len(freqs)/2]
	return x, nil
}

// linesOf returns the lines whose word holds r.
func (x *dictIndex) linesOf(r rune) []int32 {
	sp := x.at[r]
	return x.lines[sp.start : sp.start+sp.n]
}

// part is the part of the dictionary a Segmenter has loaded: the
// characters met and the lines whose words are made of them only.
type part struct {
	met  map[rune]bool
	in   []bool // by line
	n    int    // lines in
	sum  int64  // their frequencies
	lo   int    // of them, below the median frequency
	hi   int    // above it
	eq   int    // equal to it
	full bool   // the whole dictionary is loaded
}

// covers reports whether every character of text that jieba will see has
// been met: with hanOnly, only its Han characters (the callers that give
// jieba Han runs alone), else all of them.
func (p *part) covers(text string, hanOnly bool) bool {
	if p.full {
		return true
	}
	for _, r := range text {
		if !p.met[r] && (!hanOnly || isHan(r)) {
			return false
		}
	}
	return true
}

// meet adds the characters of text that jieba will see (see covers), and
// the lines they complete. ASCII is met from the start: text given whole
// to jieba (Tag) nearly always holds some, and words such as B超 need it.
func (p *part) meet(x *dictIndex, text string, hanOnly bool) {
	if p.met == nil {
		p.met, p.in = map[rune]bool{}, make([]bool, len(x.starts)-1)
		for r := range rune(utf8.RuneSelf) {
			p.add(x, r)
		}
	}
	for _, r := range text {
		if !hanOnly || isHan(r) {
			p.add(x, r)
		}
	}
}

// add meets r: the lines whose characters are now all met come in.
func (p *part) add(x *dictIndex, r rune) {
	if p.met[r] {
		return
	}
	p.met[r] = true
	for _, i := range x.linesOf(r) {
		_, word, freq := x.line(int(i))
		if p.in[i] || !p.allMet(word) {
			continue
		}
		p.in[i] = true
		p.n++
		p.sum += freq
		switch {
		case freq < x.median:
			p.lo++
		case freq > x.median:
			p.hi++
		default:
			p.eq++
		}
	}
}

func (p *part) allMet(word string) bool {
	for _, r := range word {
		if !p.met[r] {
			return false
		}
	}
	return true
}

// fillers returns the filler entries that give the part the whole
// dictionary's frequency sum, smallest frequency and median frequency, or
// ok false when no such entries exist (the part is most of the
// dictionary: load the whole).
func (p *part) fillers(x *dictIndex) (lines []string, ok bool) {
	// One entry of the smallest frequency, k of the median's and one of
	// the rest of the sum. Sorted ascending, the n/2-th entry is a median
	// one when the entries of the median frequency reach past the middle
	// from both sides: lo <= n/2 < lo+eq.
	lo, hi, eq := p.lo, p.hi, p.eq
	if x.min < x.median {
		lo++
	} else {
		eq++
	}
	for k := 0; k <= p.n+2; k++ {
		rest := x.sum - p.sum - x.min - int64(k)*x.median
		if rest <= 0 {
			return nil, false
		}
		l, h, e := lo, hi, eq+k
		switch {
		case rest < x.median:
			l++
		case rest > x.median:
			h++
		default:
			e++
		}
		n := l + h + e
		if l <= n/2 && n/2 < l+e {
			lines = append(lines, fmt.Sprintf("%s %d x", filler, x.min))
			for range k {
				lines = append(lines, fmt.Sprintf("%s %d x", filler, x.median))
			}
			return append(lines, fmt.Sprintf("%s %d x", filler, rest)), true
		}
	}
	return nil, false
}

// write writes the part's dictionary file, with its fillers, as a
// temporary file in dir, and returns its path.
func (p *part) write(x *dictIndex, dir string, fill []string) (string, error) {
	f, err := os.CreateTemp(dir, ".part-*.utf8")
	if err != nil {
		return "", fmt.Errorf("write the part of the jieba dictionary: %w", err)
	}
	w := bufio.NewWriter(f)
	for i, in := range p.in {
		if in {
			line, _, _ := x.line(i)
			w.WriteString(line)
			w.WriteByte('\n')
		}
	}
	for _, line := range fill {
		w.WriteString(line)
		w.WriteByte('\n')
	}
	err = w.Flush()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
		return "", fmt.Errorf("write the part of the jieba dictionary %s: %w", f.Name(), err)
	}
	return f.Name(), nil
}

// partDir is the directory a part's temporary file is written to: the
// cache directory of the dictionaries (paths[0] is the whole dictionary).
func partDir(paths [5]string) string { return filepath.Dir(paths[0]) }
