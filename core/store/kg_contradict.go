package store

import (
	"context"
	"fmt"
	"strings"
)

// KGContradicting returns the triples of predicates that overlap in time a
// triple with the same subject and predicate but another object, ordered
// by subject, predicate, then start (since always first). Add refuses such
// a pair, so they come from elsewhere: a team sync applies every member's
// facts as they come. Which predicates count is core/kg's policy.
func (s *Store) KGContradicting(ctx context.Context, predicates []string) ([]Triple, error) {
	if len(predicates) == 0 {
		return []Triple{}, nil
	}
	args := make([]any, len(predicates))
	for i, p := range predicates {
		args[i] = p
	}
	ph := strings.TrimSuffix(strings.Repeat("?, ", len(predicates)), ", ")
	rows, err := s.r.QueryContext(ctx, tripleSelect+`WHERE t.predicate IN (`+ph+`) AND EXISTS (
		SELECT 1 FROM triples o WHERE o.subject = t.subject AND o.predicate = t.predicate AND o.object <> t.object
			AND (o.valid_from IS NULL OR t.valid_to IS NULL OR o.valid_from < t.valid_to)
			AND (o.valid_to IS NULL OR t.valid_from IS NULL OR o.valid_to > t.valid_from))
		ORDER BY t.subject, t.predicate, t.valid_from IS NOT NULL, t.valid_from, t.created_at, t.id`, args...)
	if err != nil {
		return nil, fmt.Errorf("contradicting facts: %w", err)
	}
	ts, err := scanTriples(rows)
	if err != nil {
		return nil, fmt.Errorf("contradicting facts: %w", err)
	}
	return ts, nil
}
