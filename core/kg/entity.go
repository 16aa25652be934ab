package kg

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/palace-dev/palace/core/store"
)

// EntityInfo is an entity as the graph shows it: its type, set by hand
// or inferred (then with the facts that imply it), and its aliases.
type EntityInfo struct {
	store.Entity
	// Inferred says Type was inferred from Evidence rather than set by
	// hand.
	Inferred bool       `json:"inferred"`
	Evidence []Evidence `json:"evidence,omitempty"`
	// Aliases are the entity's other names: facts written under one are
	// the entity's.
	Aliases []store.Alias `json:"aliases"`
}

// describeEntity adds e's aliases and, when no type was set by hand, the
// type its facts imply.
func describeEntity(ctx context.Context, st *store.Store, e store.Entity) (EntityInfo, error) {
	aliases, err := st.KGAliases(ctx, e.ID)
	if err != nil {
		return EntityInfo{}, err
	}
	info := EntityInfo{Entity: e, Aliases: aliases}
	if e.Type != TypeUnknown {
		return info, nil
	}
	facts, err := st.KGTypeFacts(ctx, typePredicates(), e.ID)
	if err != nil {
		return EntityInfo{}, err
	}
	if inf, ok := inferTypes(facts)[e.ID]; ok {
		info.Type, info.Inferred, info.Evidence = inf.typ, true, inf.evidence
	}
	return info, nil
}

// EntityRequest shows an entity or, when it asks for a change, sets its
// type and aliases.
type EntityRequest struct {
	// Name is the entity, or one of its aliases.
	Name string `json:"name"`
	// Type sets the type by hand (see ParseType); TypeUnknown clears it;
	// "" leaves it.
	Type string `json:"type,omitempty"`
	// Alias adds other names of the entity.
	Alias []string `json:"alias,omitempty"`
	// Unalias removes aliases.
	Unalias []string `json:"unalias,omitempty"`
	// Now is the current time, for the current-fact count; zero means
	// time.Now().
	Now time.Time `json:"-"`
}

// EntityResult is the entity after the request, with its fact counts.
type EntityResult struct {
	EntityInfo
	Facts store.EntityFacts `json:"facts"`
	// Changed says the request set something (it may have been so
	// already).
	Changed bool `json:"changed"`
}

// Changes says whether the request sets anything.
func (r EntityRequest) Changes() bool {
	return r.Type != "" || len(r.Alias) > 0 || len(r.Unalias) > 0
}

// Validate checks the request without touching the palace.
func (r EntityRequest) Validate() error {
	if err := checkText("entity", r.Name, false); err != nil {
		return err
	}
	if r.Type != "" {
		if _, err := ParseType(r.Type); err != nil {
			return err
		}
	}
	for _, a := range r.Alias {
		if err := checkText("alias", a, false); err != nil {
			return err
		}
	}
	for _, a := range r.Unalias {
		if err := checkText("unalias", a, false); err != nil {
			return err
		}
	}
	return nil
}

// Entity shows an entity, or sets its type and aliases and shows the
// result. Showing an entity no fact mentions is an error matching
// store.ErrNotFound; setting creates it. An alias that is another
// entity's alias or an entity of its own is refused (ErrInvalid, naming
// alias): aliases never merge two entities' facts.
func Entity(ctx context.Context, st *store.Store, r EntityRequest) (EntityResult, error) {
	if err := r.Validate(); err != nil {
		return EntityResult{}, err
	}
	id := NormalizeName(r.Name)
	var (
		e   store.Entity
		err error
	)
	if r.Changes() {
		e, err = setEntity(ctx, st, r, id)
	} else {
		e, err = entity(ctx, st, r.Name, id)
	}
	if err != nil {
		return EntityResult{}, err
	}
	info, err := describeEntity(ctx, st, e)
	if err != nil {
		return EntityResult{}, err
	}
	facts, err := st.KGEntityFacts(ctx, e.ID, AddOptions{Now: r.Now}.now())
	if err != nil {
		return EntityResult{}, err
	}
	return EntityResult{EntityInfo: info, Facts: facts, Changed: r.Changes()}, nil
}

func setEntity(ctx context.Context, st *store.Store, r EntityRequest, id string) (store.Entity, error) {
	c := store.EntityChange{ID: id, Name: strings.TrimSpace(r.Name)}
	if r.Type != "" {
		t, _ := ParseType(r.Type) // validated
		c.Type = &t
	}
	written := map[string]string{} // alias id -> as asked, for messages
	for _, a := range r.Alias {
		n := NormalizeName(a)
		written[n] = a
		c.Add = append(c.Add, store.Alias{ID: n, Name: strings.TrimSpace(a)})
	}
	for _, a := range r.Unalias {
		n := NormalizeName(a)
		written[n] = a
		c.Remove = append(c.Remove, n)
	}
	e, err := st.KGSetEntity(ctx, c)
	var ae *store.AliasError
	if !errors.As(err, &ae) {
		if err != nil {
			return e, fmt.Errorf("entity %s: %w", quote(c.Name), err)
		}
		return e, nil
	}
	a := quote(strings.TrimSpace(written[ae.Alias]))
	switch {
	case ae.Removing:
		return e, invalid("unalias", "%s is not an alias of %s", a, quote(c.Name))
	case ae.Owner == "":
		return e, invalid("alias", "%s is the entity's own name", a)
	case ae.OwnEntity:
		return e, invalid("alias", "%s is an entity of its own (with facts, a type or aliases); an alias never merges two entities: remove its facts (rm) and add them again under %s first",
			a, quote(c.Name))
	}
	return e, invalid("alias", "%s is already an alias of %s; unalias it there first", a, quote(ae.Owner))
}
