package query

import (
	"strings"
	"sync"
)

// stopSet is the stop-word set, built once: it never changes after.
var stopSet = sync.OnceValue(stopwords)

// IsStopWord reports whether w (any case) is one of the stop words Parse
// drops, for callers that weigh words the way search does.
func IsStopWord(w string) bool { return stopSet()[strings.ToLower(w)] }
