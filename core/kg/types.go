package kg

import (
	"cmp"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/palace-dev/palace/core/store"
)

// Entity types. An entity's type is set by hand (EntityRequest.Type) or,
// when none was, inferred from the facts it is in (typeRules, kindTypes),
// with those facts as evidence. A type set by hand always wins.
const (
	TypePerson       = "person"
	TypeProject      = "project"
	TypeOrganisation = "organisation"
	TypePlace        = "place"
	TypeTool         = "tool"
	TypeConcept      = "concept"
	// TypeUnknown is an entity with no type set and none inferred; setting
	// it clears a type set by hand.
	TypeUnknown = store.UnknownType
)

// BuiltinTypes are the types Palace knows, in the order a tie between two
// inferred types is broken.
var BuiltinTypes = []string{TypePerson, TypeProject, TypeOrganisation, TypePlace, TypeTool, TypeConcept}

// typeRe is a user's own type: a short lowercase slug.
var typeRe = regexp.MustCompile(`^[a-z][a-z0-9-]{0,31}$`)

// ParseType reads a type as typed: a built-in one ("organization" is
// organisation), a user's own (a lowercase slug of up to 32 letters,
// digits and '-', starting with a letter), or unknown.
func ParseType(s string) (string, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	if t == "organization" {
		t = TypeOrganisation
	}
	if !typeRe.MatchString(t) {
		return "", invalid("type", "%s is not a type: want %s, unknown (to clear), or your own lowercase word (a letter, then up to 31 letters, digits or '-')",
			quote(s), strings.Join(BuiltinTypes, ", "))
	}
	return t, nil
}

// typeRule is what a fact with predicate says about the types of its
// subject and object ("" nothing).
type typeRule struct{ predicate, subject, object string }

// typeRules are the predicates that imply types. They read the
// predicate's ordinary meaning: people work at organisations, work on
// projects, live in places; what is used, run on or built with is a tool.
var typeRules = []typeRule{
	{"works_at", TypePerson, TypeOrganisation},
	{"works_for", TypePerson, TypeOrganisation},
	{"employed_by", TypePerson, TypeOrganisation},
	{"founded", TypePerson, TypeOrganisation},
	{"works_on", TypePerson, TypeProject},
	{"contributes_to", TypePerson, TypeProject},
	{"maintains", TypePerson, TypeProject},
	{"owns", TypePerson, ""},
	{"decided", TypePerson, ""},
	{"prefers", TypePerson, ""},
	{"knows", TypePerson, ""},
	{"manages", TypePerson, ""},
	{"role", TypePerson, ""},
	{"reports_to", TypePerson, TypePerson},
	{"married_to", TypePerson, TypePerson},
	{"lives_in", TypePerson, TypePlace},
	{"born_in", TypePerson, TypePlace},
	{"located_in", "", TypePlace},
	{"based_in", "", TypePlace},
	{"uses", "", TypeTool},
	{"runs_on", "", TypeTool},
	{"depends_on", "", TypeTool},
	{"deployed_on", "", TypeTool},
	{"built_with", TypeProject, TypeTool},
	{"written_in", TypeProject, TypeTool},
}

// IsA is the predicate that states a kind: "Postgres 14 is_a database"
// makes Postgres 14 a tool (kindTypes). It outweighs every other rule.
const IsA = "is_a"

// kindTypes are the objects of is_a that name a type.
var kindTypes = map[string]string{
	"person": TypePerson, "people": TypePerson, "human": TypePerson, "developer": TypePerson,
	"engineer": TypePerson, "user": TypePerson, "author": TypePerson, "maintainer": TypePerson,
	"organisation": TypeOrganisation, "organization": TypeOrganisation, "company": TypeOrganisation,
	"team": TypeOrganisation, "business": TypeOrganisation, "startup": TypeOrganisation,
	"vendor": TypeOrganisation, "university": TypeOrganisation,
	"place": TypePlace, "city": TypePlace, "country": TypePlace, "region": TypePlace,
	"location": TypePlace, "office": TypePlace,
	"tool": TypeTool, "database": TypeTool, "library": TypeTool, "framework": TypeTool,
	"language": TypeTool, "programming_language": TypeTool, "service": TypeTool, "editor": TypeTool,
	"platform": TypeTool, "runtime": TypeTool, "cli": TypeTool,
	"project": TypeProject, "app": TypeProject, "application": TypeProject, "product": TypeProject,
	"repository": TypeProject, "repo": TypeProject, "codebase": TypeProject,
	"concept": TypeConcept, "idea": TypeConcept, "pattern": TypeConcept, "principle": TypeConcept,
	"practice": TypeConcept, "methodology": TypeConcept, "paradigm": TypeConcept,
}

// typePredicates are the predicates inference reads, sorted.
func typePredicates() []string {
	out := []string{IsA}
	for _, r := range typeRules {
		out = append(out, r.predicate)
	}
	slices.Sort(out)
	return out
}

// MaxEvidence bounds the facts shown as an inferred type's evidence.
const MaxEvidence = 10

// Evidence is a fact that implies an entity's type.
type Evidence struct {
	FactID    string `json:"fact_id"`
	Predicate string `json:"predicate"`
	// Role is where the entity stands in the fact: subject or object.
	Role string `json:"role"`
	// Fact is the fact in words, "Orion uses Postgres 14".
	Fact string `json:"fact"`
}

// inference is an inferred type and its evidence.
type inference struct {
	typ      string
	evidence []Evidence
}

// inferTypes infers the type of every entity facts mention that some fact
// implies one for. Facts stating a kind (is_a) outweigh the rest; then the
// type with the most facts wins, ties in BuiltinTypes' order.
func inferTypes(facts []Triple) map[string]inference {
	type votes struct {
		isA      map[string]int
		evidence map[string][]Evidence
	}
	byEntity := map[string]*votes{}
	vote := func(id, typ string, t Triple, role string, isA bool) {
		v := byEntity[id]
		if v == nil {
			v = &votes{isA: map[string]int{}, evidence: map[string][]Evidence{}}
			byEntity[id] = v
		}
		if isA {
			v.isA[typ]++
		}
		v.evidence[typ] = append(v.evidence[typ], Evidence{FactID: t.ID, Predicate: t.Predicate, Role: role,
			Fact: t.Subject + " " + t.Predicate + " " + t.Object})
	}
	for _, t := range facts {
		if t.Predicate == IsA {
			if typ, ok := kindTypes[t.ObjectID]; ok {
				vote(t.SubjectID, typ, t, "subject", true)
			}
			continue
		}
		for _, r := range typeRules {
			if r.predicate != t.Predicate {
				continue
			}
			if r.subject != "" {
				vote(t.SubjectID, r.subject, t, "subject", false)
			}
			if r.object != "" {
				vote(t.ObjectID, r.object, t, "object", false)
			}
		}
	}
	out := make(map[string]inference, len(byEntity))
	for id, v := range byEntity {
		best := slices.MinFunc(slices.Collect(maps.Keys(v.evidence)), func(a, b string) int {
			return cmp.Or(cmp.Compare(v.isA[b], v.isA[a]), cmp.Compare(len(v.evidence[b]), len(v.evidence[a])),
				cmp.Compare(typeRank(a), typeRank(b)))
		})
		ev := v.evidence[best]
		out[id] = inference{typ: best, evidence: ev[:min(len(ev), MaxEvidence)]}
	}
	return out
}

// typeRank orders the built-in types for ties; there are no others among
// inferred types.
func typeRank(t string) int { return slices.Index(BuiltinTypes, t) }
