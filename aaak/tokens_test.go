package aaak

import "testing"

func TestCountTokens(t *testing.T) {
	tests := []struct {
		in   string
		want int
		why  string
	}{
		{"", 0, "nothing"},
		{"   \t ", 0, "spaces are free"},
		{"Hello, world!", 4, "Hello | , | world | !"},
		{"don't", 2, "don | 't"},
		{"It's 2026.", 5, "It | 's | 202 | 6 | ."},
		{"sqlite_fts5_server", 4, "sqlite | _fts | 5 | _server"},
		{"(x)", 2, "(x | )"},
		{"a\n\nb", 3, "a | newline run | b"},
		{"★★★★", 4, "one per non-ASCII symbol"},
		{`"|★★|`, 4, `"| | ★ | ★ | |`},
		{"中文分词", 4, "one per Han character"},
		{"，中文", 2, "，中 (punctuation rides on the CJK character) | 文"},
		{"한국어", 3, "one per Hangul syllable"},
		{"Ünïcödé naïve", 2, "letter runs of any script"},
		{"0:ALI+SQL|topic", 4, "0 | :ALI | +SQL | |topic"},
		{`."|★★|joy`, 5, `."| | ★ | ★ | | (the symbol run keeps the last |, as cl100k's greedy run does) | joy`},
	}
	for _, tc := range tests {
		if got := CountTokens(tc.in); got != tc.want {
			t.Errorf("CountTokens(%q) = %d, want %d (%s)", tc.in, got, tc.want, tc.why)
		}
	}
}
