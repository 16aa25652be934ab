package memory

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/palace-dev/palace/core/kg"
	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/search"
	"github.com/palace-dev/palace/core/secrets"
	"github.com/palace-dev/palace/core/store"
)

// Note defaults and bounds.
const (
	DefaultRoom       = "notes"
	DefaultSource     = "note"
	DefaultImportance = 3 // what fronts pass when the caller gives none
	MinImportance     = 1
	MaxImportance     = 5
	// maxReported caps the duplicates a result lists: enough to decide,
	// short enough for an agent's context.
	maxReported = 5
)

// Note is a memory as a front receives it.
type Note struct {
	Text string `json:"text"`
	Wing string `json:"wing"`
	// Room defaults to DefaultRoom, Source to DefaultSource.
	Room   string `json:"room,omitempty"`
	Source string `json:"source,omitempty"`
	// Importance ranks the note in wake-up, from 1 to 5. It is required
	// (fronts default it to DefaultImportance) so that 0 is never read as
	// "unimportant" by mistake.
	Importance int `json:"importance"`
	// Provenance is the session the note was taken in, kept in its
	// metadata.
	Provenance store.Provenance `json:"provenance,omitzero"`
	// At is when the note was taken; zero means now. Tests set it.
	At time.Time `json:"-"`
}

// noteMeta is a note drawer's metadata: the older drawers it may update
// (RememberResult.Updates, written with it so search and wake-up can put
// the newer first without comparing the notes again) and the session it
// was taken in. A note with neither has none.
type noteMeta struct {
	Updates []string `json:"updates,omitempty"` // store.MetaUpdates
	store.Provenance
}

// Validate checks the note without touching the palace, so a front can
// refuse bad input before opening anything.
func (n Note) Validate() error {
	_, err := n.normalize()
	return err
}

// normalize validates n and fills in the defaults.
func (n Note) normalize() (Note, error) {
	var err error
	if n.Text, err = checkText("text", n.Text); err != nil {
		return n, err
	}
	if n.Wing, err = checkName("wing", n.Wing, false); err != nil {
		return n, err
	}
	if n.Room, err = checkName("room", n.Room, true); err != nil {
		return n, err
	}
	if n.Room == "" {
		n.Room = DefaultRoom
	}
	if len(n.Source) > MaxSourceBytes {
		return n, invalid("source", "is %d bytes; the limit is %d", len(n.Source), MaxSourceBytes)
	}
	if err := checkLabel("source", n.Source); err != nil {
		return n, err
	}
	if n.Source = strings.TrimSpace(n.Source); n.Source == "" {
		n.Source = DefaultSource
	}
	if n.Importance < MinImportance || n.Importance > MaxImportance {
		return n, invalid("importance", "%d: want %d to %d", n.Importance, MinImportance, MaxImportance)
	}
	if field, err := n.Provenance.Check(); err != nil {
		return n, invalid(field, "%v", err)
	}
	return n, nil
}

// Match is a stored drawer that a new note duplicates.
type Match struct {
	ID string `json:"id"`
	// Kind is "exact" (the same content, byte for byte) or "near".
	Kind string `json:"kind"`
	// Similarity is 1 for an exact match, else the finder's score in [0, 1].
	Similarity float64 `json:"similarity"`
	// Method says how the match was found: "hash", the near finder's
	// name ("lexical", or "vector" once a finder provides it), or, for an
	// update, "correction" (see correctedNotes).
	Method   string `json:"method"`
	Wing     string `json:"wing"`
	Room     string `json:"room"`
	Citation string `json:"citation"`
	Preview  string `json:"preview"` // the start of the content, on one line
}

// Update is a stored drawer close to a new note that differs from it in
// meaning (see Differences): the note was written, and may correct or
// replace this older drawer.
type Update struct {
	Match
	// Differs names how: "negation", "number", "date", "version",
	// "environment", "name", "word", "order" (at least one, in that
	// order).
	Differs []string `json:"differs"`
	// Was are the words only the older drawer says, Now those only the
	// note says ("not use" for a negation, "over tabs" for a role), each
	// in the order its text says them; either may be empty.
	Was []string `json:"was"`
	Now []string `json:"now"`
}

// Change says in a few words what the note changes: "increase → decrease",
// "adds not", "drops slow".
func (u Update) Change() string {
	was, now := strings.Join(u.Was, ", "), strings.Join(u.Now, ", ")
	switch {
	case was != "" && now != "":
		return was + " → " + now
	case now != "":
		return "adds " + now
	case was != "":
		return "drops " + was
	}
	// Only the count of negations differs ("not use" twice against once).
	return strings.Join(u.Differs, ", ")
}

// Neighbour is a drawer close to a text, as a NearFinder reports it.
type Neighbour struct {
	ID, Wing, Room, Citation, Content string
	Similarity                        float64
}

// asExact marks a neighbour as the same content.
func asExact(nb Neighbour) Neighbour {
	nb.Similarity = 1
	return nb
}

func neighbour(d store.Drawer, sim float64) Neighbour {
	return Neighbour{ID: d.ID, Wing: d.Wing, Room: d.Room, Citation: search.Citation(d), Content: d.Content, Similarity: sim}
}

// NearFinder finds near-duplicates of a text among a wing's live drawers:
// those at or above the finder's own threshold, in any order.
type NearFinder interface {
	// Name is reported as Match.Method.
	Name() string
	FindNear(ctx context.Context, wing, text string) ([]Neighbour, error)
}

// RememberOptions tune Remember.
type RememberOptions struct {
	// Force writes the note even when duplicates were found (they are
	// still reported).
	Force bool
	// Near are the near-duplicate finders, run in order, their matches
	// merged; none checks exact duplicates only. Which finders a palace
	// has (DefaultFinders) is the caller's choice: ops.Remember makes it
	// for every front.
	Near []NearFinder
}

// RememberResult says what Remember did.
type RememberResult struct {
	// Added is false when duplicates stopped the write (no error: a skipped
	// duplicate is an answer, not a failure).
	Added      bool   `json:"added"`
	ID         string `json:"id,omitempty"` // the new drawer, when Added
	Wing       string `json:"wing"`
	Room       string `json:"room"`
	Source     string `json:"source"`
	Importance int    `json:"importance"`
	// Duplicates are the drawers the note repeats: exact matches first,
	// then near ones that differ from it only in wording, most similar
	// first. With Force they are reported but did not stop the write.
	Duplicates []Match `json:"duplicates"`
	// Updates are the near drawers that differ from the note in meaning
	// (a negation, a number, a date, a version, an environment, a name),
	// most similar first. They do not stop the write: the note is
	// written, and each may be an older note it corrects.
	Updates []Update `json:"updates"`
	// Reason says in one line why nothing was written ("not written: ..."),
	// or, when the note was written beside close drawers that differ from
	// it in meaning, why it was kept ("kept: differs from ...").
	Reason string `json:"reason,omitempty"`
	// NearChecks names the near-duplicate finders that ran.
	NearChecks []string `json:"near_checks"`
	// Embedded says the new note got its vector at once; otherwise it is
	// found lexically until 'palace reindex' (or the next mine) embeds it.
	Embedded bool `json:"embedded"`
	// Notice reports a degraded check or step (a model that failed to load),
	// which did not stop the note.
	Notice string `json:"notice,omitempty"`
	// Redacted lists the kind of each secret replaced by a marker in the
	// note before anything else (github-token, env-secret, ...), in order.
	Redacted []string `json:"redacted"`
	// Proposed are the facts read in the note, pending review (core/ops
	// reads it after the write).
	Proposed []kg.Proposal `json:"proposed,omitempty"`
}

// Remember adds a note drawer to n.Wing, unless it duplicates a drawer of
// that wing and opts.Force is not set. Secrets in the text are redacted
// first (see package secrets), so the note, its index and the duplicate
// checks only ever see the markers. The duplicate check looks for the
// same content hash, then asks the near finders; a near drawer that
// differs from the note in meaning (Differences: anything but wording)
// does not stop the write but is reported as a possible update, and a
// duplicate does not stop it either when such an update is newer than it
// (the note restates a decision that was changed since). The exact check is
// repeated inside the write transaction, so two concurrent identical notes
// never both land; the near check is advisory. When the palace has vectors
// the new note is embedded at once, so the next check and hybrid search see
// it.
func Remember(ctx context.Context, p *palace.Palace, n Note, opts RememberOptions) (RememberResult, error) {
	n, err := n.normalize()
	if err != nil {
		return RememberResult{}, err
	}
	res := RememberResult{Wing: n.Wing, Room: n.Room, Source: n.Source, Importance: n.Importance,
		Duplicates: []Match{}, Updates: []Update{}, NearChecks: []string{}}
	var found []secrets.Finding
	n.Text, found = secrets.Redact(n.Text)
	res.Redacted = secrets.Kinds(found)
	hash := store.ContentHash(n.Text)
	exact, err := p.Store.DrawersByHash(ctx, n.Wing, hash, maxReported)
	if err != nil {
		return res, fmt.Errorf("remember: %w", err)
	}
	seen := map[string]bool{}
	for _, d := range exact {
		seen[d.ID] = true
		res.Duplicates = append(res.Duplicates, match(neighbour(d, 1), "exact", "hash"))
	}
	var near []Match
	// The note's meaning is read once, and compared with each neighbour's,
	// whichever finder found it. Han text is segmented as search segments
	// it, so it is compared word by word.
	mine, err := meaningOf(n.Text, p.SegmentQuery)
	if err != nil {
		return res, fmt.Errorf("remember: %w", err)
	}
	for _, f := range opts.Near {
		ns, err := f.FindNear(ctx, n.Wing, n.Text)
		if err != nil {
			return res, fmt.Errorf("remember: %s near-duplicate check: %w", f.Name(), err)
		}
		res.NearChecks = append(res.NearChecks, f.Name())
		for _, nb := range ns {
			if seen[nb.ID] {
				continue
			}
			seen[nb.ID] = true
			// The same text can land between the exact check and this one
			// (another writer): it is still an exact duplicate.
			if store.ContentHash(nb.Content) == hash {
				res.Duplicates = append(res.Duplicates, match(asExact(nb), "exact", "hash"))
				continue
			}
			// Close in words or embedding but not in meaning: a correction
			// ("Do not use port 8080" after "Use port 8080", "decrease" after
			// "increase") or another fact, which refusing would lose.
			theirs, err := meaningOf(nb.Content, p.SegmentQuery)
			if err != nil {
				return res, fmt.Errorf("remember: %s: %w", nb.ID, err)
			}
			if d := theirs.against(mine); len(d.Kinds) > 0 {
				res.Updates = append(res.Updates, Update{Match: match(nb, "near", f.Name()), Differs: d.Kinds,
					Was: orEmpty(d.Was), Now: orEmpty(d.Now)})
				continue
			}
			near = append(near, match(nb, "near", f.Name()))
		}
	}
	if correctionCue.MatchString(n.Text) {
		ups, err := correctedNotes(ctx, p, n, hash, mine, seen)
		if err != nil {
			return res, fmt.Errorf("remember: %w", err)
		}
		res.Updates = append(res.Updates, ups...)
	}
	// Most similar first across finders; ties by id, so reports repeat.
	slices.SortStableFunc(near, bySimilarity)
	slices.SortStableFunc(res.Updates, func(a, b Update) int { return bySimilarity(a.Match, b.Match) })
	res.Updates = res.Updates[:min(len(res.Updates), maxReported)]
	// Exact duplicates first; they alone can fill the report (a note
	// forced in many times).
	res.Duplicates = append(res.Duplicates, near...)
	res.Duplicates = res.Duplicates[:min(len(res.Duplicates), maxReported)]
	// A duplicate of a note that a newer close note changed says the older
	// decision again ("increase", "decrease", then "increase"): dropping it
	// would leave the newer one answering, so it is written.
	restored, err := changedSince(ctx, p, res.Duplicates, res.Updates)
	if err != nil {
		return res, fmt.Errorf("remember: %w", err)
	}
	if len(res.Duplicates) > 0 && !opts.Force && restored == nil {
		res.Reason = skipReason(res.Duplicates[0])
		return res, nil
	}

	full, at := stamp(n.At)
	idx, err := p.IndexText(n.Text)
	if err != nil {
		return res, fmt.Errorf("remember: %w", err)
	}
	meta, err := noteMetadata(n.Provenance, res.Updates)
	if err != nil {
		return res, fmt.Errorf("remember: %w", err)
	}
	d := store.Drawer{
		// The time is the position, so the same text remembered again later
		// (with Force) is a new drawer rather than a collision.
		ID:   store.DrawerID(n.Wing, n.Source, int(full.UnixNano()), hash),
		Wing: n.Wing, Room: n.Room, Kind: store.KindNote, Source: n.Source,
		Content: n.Text, IndexText: idx, ContentHash: hash,
		CreatedAt: at, OccurredAt: at, Importance: float64(n.Importance), Metadata: meta,
	}
	// A restated decision is meant to be a second copy of its text, so
	// the write does not refuse an equal one.
	existing, err := p.Store.InsertNote(ctx, d, !opts.Force && restored == nil)
	if err != nil {
		return res, fmt.Errorf("remember: %w", err)
	}
	if existing != "" {
		// Written by someone else between the check and the write.
		if !seen[existing] {
			dup, err := p.Store.GetDrawer(ctx, existing)
			if err != nil {
				return res, fmt.Errorf("remember: %w", err)
			}
			res.Duplicates = append([]Match{match(neighbour(dup, 1), "exact", "hash")}, res.Duplicates...)
		}
		res.Reason = skipReason(res.Duplicates[0])
		return res, nil
	}
	res.Added, res.ID = true, d.ID
	switch {
	case restored != nil && !opts.Force:
		res.Reason = fmt.Sprintf("kept: %s repeats %s, which the newer %s changed (%s); it may update %s",
			res.ID, res.Duplicates[0].ID, restored.ID, restored.Change(), restored.ID)
	case len(res.Updates) > 0 && len(res.Duplicates) == 0:
		u := res.Updates[0]
		res.Reason = fmt.Sprintf("kept: differs from %s in %s (%s); it may update it", u.ID, u.Change(), strings.Join(u.Differs, ", "))
	}
	// The note is written; a vector that cannot be made now is made by the
	// next reindex, so a failure here is a notice, not an error.
	if res.Embedded, err = embedNow(ctx, p, d.ID); err != nil {
		res.Notice = strings.TrimSpace(res.Notice + " not embedded yet (" + err.Error() + "); run 'palace reindex'")
	}
	return res, nil
}

// correctedNotes are the notes of n's wing that n, which says it corrects
// something ("Correction: ...", "instead", "no longer"), may correct: a
// correction restates its subject with words of its own ("... 5 attempts,
// not 3, since the gateway drops ..."), so the near finders' threshold
// misses the note it corrects. The rule is the wake-up's (relate): close
// at correctionSimilarity by the word-set cosine or by the share of the
// older note's words n holds, and different in meaning. Their Similarity
// is that closeness, their Method "correction". seen are the drawers
// already reported, and gains those returned.
func correctedNotes(ctx context.Context, p *palace.Palace, n Note, hash string, mine meaning, seen map[string]bool) ([]Update, error) {
	words, hits, err := Lexical(p).candidates(ctx, n.Wing, n.Text, store.Filter{Wing: n.Wing, Kind: store.KindNote})
	if err != nil {
		return nil, err
	}
	var out []Update
	for _, h := range hits {
		if seen[h.ID] || h.ContentHash == hash {
			continue
		}
		theirs, err := contentWords(p, h.Content)
		if err != nil {
			return nil, err
		}
		close := max(Similarity(theirs, words), containment(theirs, words))
		if close < correctionSimilarity {
			continue
		}
		m, err := meaningOf(h.Content, p.SegmentQuery)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", h.ID, err)
		}
		d := m.against(mine)
		if len(d.Kinds) == 0 {
			continue
		}
		seen[h.ID] = true
		out = append(out, Update{Match: match(neighbour(h.Drawer, close), "near", "correction"), Differs: d.Kinds,
			Was: orEmpty(d.Was), Now: orEmpty(d.Now)})
	}
	return out, nil
}

// noteMetadata is a note's metadata as stored: the ids of the drawers it
// may update, in Updates' order, and its provenance; "" when it has
// neither, as notes had before.
func noteMetadata(prov store.Provenance, updates []Update) (string, error) {
	m := noteMeta{Provenance: prov}
	for _, u := range updates {
		m.Updates = append(m.Updates, u.ID)
	}
	if len(m.Updates) == 0 && prov.IsZero() {
		return "", nil
	}
	b, err := json.Marshal(m)
	if err != nil {
		return "", fmt.Errorf("note metadata: %w", err)
	}
	return string(b), nil
}

// changedSince returns the update written last, when it was written after
// every duplicate (store.WrittenOrder: by creation time, then by when the
// palace stored it): the duplicates then say what that update changed.
func changedSince(ctx context.Context, p *palace.Palace, dups []Match, updates []Update) (*Update, error) {
	if len(dups) == 0 || len(updates) == 0 {
		return nil, nil
	}
	ids := make([]string, 0, len(dups)+len(updates))
	for _, m := range dups {
		ids = append(ids, m.ID)
	}
	for _, u := range updates {
		ids = append(ids, u.ID)
	}
	order, err := p.Store.WrittenOrder(ctx, ids)
	if err != nil || len(order) == 0 {
		return nil, err
	}
	last := order[len(order)-1]
	for i := range updates {
		if updates[i].ID == last {
			return &updates[i], nil
		}
	}
	return nil, nil
}

// orEmpty is ws, or an empty list for JSON's sake.
func orEmpty(ws []string) []string {
	if ws == nil {
		return []string{}
	}
	return ws
}

func bySimilarity(a, b Match) int {
	if c := cmp.Compare(b.Similarity, a.Similarity); c != 0 {
		return c
	}
	return cmp.Compare(a.ID, b.ID)
}

func skipReason(m Match) string {
	if m.Kind == "exact" {
		return fmt.Sprintf("not written: the wing already holds this text (%s); use force to add it anyway", m.ID)
	}
	return fmt.Sprintf("not written: %s is a near duplicate (%s similarity %.2f); use force to add it anyway", m.ID, m.Method, m.Similarity)
}

func match(n Neighbour, kind, method string) Match {
	return Match{ID: n.ID, Kind: kind, Similarity: n.Similarity, Method: method, Wing: n.Wing, Room: n.Room,
		Citation: n.Citation, Preview: preview(n.Content, 120)}
}

// preview is the start of text on one line, cut at a word boundary within
// max runes, with '…' when cut.
func preview(text string, max int) string {
	text = strings.Join(strings.Fields(text), " ")
	r := []rune(text)
	if len(r) <= max {
		return text
	}
	cut := r[:max]
	for i := max - 1; i > max/2; i-- {
		if unicode.IsSpace(cut[i]) {
			cut = cut[:i]
			break
		}
	}
	return strings.TrimRightFunc(string(cut), func(r rune) bool { return unicode.IsSpace(r) || unicode.IsPunct(r) }) + "…"
}
