package search

import "testing"

func TestAsksWhen(t *testing.T) {
	for q, want := range map[string]bool{
		"When did Nate win his third tourney?": true,
		"  when was the deploy":                true,
		"When?":                                true,
		"Whenever we deploy, what breaks?":     false,
		"Where did Melanie camp?":              false,
		"what happened when we deployed":       false,
		"":                                     false,
	} {
		if got := asksWhen(q); got != want {
			t.Errorf("asksWhen(%q) = %v, want %v", q, got, want)
		}
	}
}
