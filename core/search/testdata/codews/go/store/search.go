package store

import "strings"

// Store holds the documents.
type Store struct{ docs []string }

// SearchFTS returns the documents that hold every word of q.
func (s *Store) SearchFTS(q string) []string {
	var out []string
	for _, d := range s.docs {
		if strings.Contains(d, q) {
			out = append(out, d)
		}
	}
	return out
}
