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
		"In which month did Gina launch her store?": true,
		"What year did we move to Postgres":         true,
		"what day":                                  true,
		"Which city was John in?":                   false,
		"the day we deployed, what broke":           false,
	} {
		if got := asksWhen(q); got != want {
			t.Errorf("asksWhen(%q) = %v, want %v", q, got, want)
		}
	}
}
