package memory

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/palace-dev/palace/aaak"
	"github.com/palace-dev/palace/core/compress"
	"github.com/palace-dev/palace/core/fsx"
	"github.com/palace-dev/palace/core/kg"
	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/search"
	"github.com/palace-dev/palace/core/store"
)

// Wake-up formats.
const (
	FormatText = "text" // sections for a person or an agent's context
	FormatAAAK = "aaak" // one AAAK V1 document
	FormatJSON = "json" // the selection as data, with the text rendering
)

// Wake-up defaults and bounds.
const (
	// DefaultBudget is the token budget when the request gives none: about
	// what an agent can spend at every session start without noticing, and
	// what a project's handoff takes whole. A typical one (an identity,
	// six notes in force, three facts, two diary entries and two open
	// threads) takes about 240 tokens, of which 200 left two notes out;
	// 600 also fits what was said in the last session, or twice the notes.
	DefaultBudget = 600
	MaxBudget     = 100000
	// IdentityFile is who the agent is, in the palace home; IdentityDir
	// holds the per-wing identities, <wing>.md.
	IdentityFile     = "identity.md"
	IdentityDir      = "identity"
	maxIdentityBytes = 64 << 10
	// Candidates per section. The budget decides how many are shown;
	// these only bound the work (the notes' bounds are in
	// wakeup_notes.go). Mined drawers are read per kind, newest first.
	wakeDrawers = 40
	wakeFacts   = 15
	wakeDiary   = 5
	// lineRunes caps the text of a line in the text format; aaakRunes
	// caps the text the AAAK encoder summarises for one item.
	lineRunes = 200
	aaakRunes = 1000
	// maxWas caps the words a note's "(was: ...)" quotes of the note it
	// replaced.
	maxWas = 4
)

// WakeRequest asks for a wake-up.
type WakeRequest struct {
	// Wing narrows the wake-up to one wing (a project) and adds its
	// identity file; "" is the whole palace.
	Wing string `json:"wing,omitempty"`
	// Format is text (the default, also ""), aaak or json.
	Format string `json:"format,omitempty"`
	// Budget is the most tokens Text may count; 0 means DefaultBudget.
	Budget int `json:"budget,omitempty"`
	// Now decides which facts are current; zero means time.Now(). It is
	// never printed.
	Now time.Time `json:"-"`
}

// WakeResult is the opening context of a session. Text is what to hand an
// agent; the other fields are the same selection as data.
type WakeResult struct {
	Wing   string `json:"wing"`
	Format string `json:"format"`
	Budget int    `json:"budget"`
	// Tokens is aaak.CountTokens(Text), never more than Budget. It is an
	// estimate: the pieces of a cl100k-style pre-tokenizer (SPEC.md,
	// "Token counting"); real BPE tokenizers count rare words as more.
	Tokens   int          `json:"tokens"`
	Identity WakeIdentity `json:"identity"`
	// Decided are the notes in force, Facts the facts valid now, Diary
	// the latest sessions' entries and Threads what the newest entry
	// holding any left open; Drawers are mined drawers (what was said in
	// sessions, documents; source code only when nothing else is shown).
	Decided []WakeNote   `json:"decided"`
	Facts   []WakeFact   `json:"facts"`
	Diary   []WakeDiary  `json:"diary"`
	Threads []WakeThread `json:"threads"`
	Drawers []WakeDrawer `json:"drawers"`
	Agents  []WakeAgent  `json:"agents"`
	// Omitted counts the candidates the budget left out.
	Omitted int `json:"omitted"`
	// Text is the rendering in Format (for json, the text rendering). It is
	// empty when the palace holds nothing to show or nothing fits.
	Text string `json:"text"`
}

// WakeIdentity is who the agent is, from the identity files.
type WakeIdentity struct {
	Files     []string `json:"files"` // the files read, global first
	Text      string   `json:"text"`  // as shown, maybe cut
	Truncated bool     `json:"truncated"`
}

// WakeNote is a note in force: the newest of the notes that say the same
// thing, none newer changing it.
type WakeNote struct {
	ID         string `json:"id"`
	Wing       string `json:"wing"`
	Room       string `json:"room"`
	Importance int    `json:"importance"` // the note's own
	// Rank is what ordered it: the highest importance among it and the
	// notes it stands for.
	Rank     int       `json:"rank"`
	Time     time.Time `json:"time"`
	Citation string    `json:"citation"`
	// Replaces are the older notes it changes (a correction, a reversed
	// decision), Duplicates those saying the same thing; the text shows
	// neither.
	Replaces   []string `json:"replaces"`
	Duplicates []string `json:"duplicates"`
	Line       string   `json:"line"`
}

// WakeDrawer is a mined drawer shown in a wake-up.
type WakeDrawer struct {
	ID         string     `json:"id"`
	Wing       string     `json:"wing"`
	Room       string     `json:"room"`
	Kind       string     `json:"kind"`
	Importance float64    `json:"importance"`
	Time       *time.Time `json:"time,omitempty"`
	Citation   string     `json:"citation"`
	// Code is true for source, data or configuration, shown only when
	// nothing else is.
	Code bool   `json:"code"`
	Line string `json:"line"` // what the text format shows
}

// WakeFact is a current knowledge-graph fact.
type WakeFact struct {
	kg.Triple
	Line string `json:"line"`
}

// WakeAgent is a specialist agent of the registry, so that agents sharing
// the palace know of each other and where each one's diary is.
type WakeAgent struct {
	Agent
	Line string `json:"line"`
}

// WakeDiary is a recent diary entry.
type WakeDiary struct {
	ID    string    `json:"id"`
	Agent string    `json:"agent"`
	Topic string    `json:"topic"`
	At    time.Time `json:"at"`
	Line  string    `json:"line"`
}

// WakeThread is an open thread of the newest diary entry holding any
// (see openThreads for how an entry says them).
type WakeThread struct {
	DiaryID string    `json:"diary_id"`
	Agent   string    `json:"agent"`
	At      time.Time `json:"at"`
	Text    string    `json:"text"`
	Line    string    `json:"line"`
}

type wakeRequest struct {
	wing, format string
	budget       int
	now          time.Time
}

// Validate checks the request without touching the palace.
func (r WakeRequest) Validate() error {
	_, err := r.parse()
	return err
}

func (r WakeRequest) parse() (wakeRequest, error) {
	var n wakeRequest
	var err error
	if n.wing, err = checkName("wing", r.Wing, true); err != nil {
		return n, err
	}
	switch n.format = strings.ToLower(strings.TrimSpace(r.Format)); n.format {
	case "":
		n.format = FormatText
	case FormatText, FormatAAAK, FormatJSON:
	default:
		return n, invalid("format", "%s: want text, aaak or json", quote(r.Format))
	}
	switch {
	case r.Budget == 0:
		n.budget = DefaultBudget
	case r.Budget < 0 || r.Budget > MaxBudget:
		return n, invalid("budget", "%d: want 1 to %d tokens", r.Budget, MaxBudget)
	default:
		n.budget = r.Budget
	}
	n.now = r.Now
	if n.now.IsZero() {
		n.now = time.Now()
	}
	n.now = n.now.UTC().Truncate(time.Second)
	return n, nil
}

// WakeUp builds the opening context of a session, a handoff from the
// sessions before it:
//
//   - Identity: $PALACE_HOME/identity.md, then $PALACE_HOME/identity/<wing>.md
//     when a wing is given;
//   - Decided: the wing's notes in force (see decide: a note changed or
//     repeated by a newer one is left out, the newer one marked), the
//     most important first, then the newest;
//   - Facts now: its knowledge-graph facts valid now (read from its
//     drawers or naming the wing), the most recently started first;
//   - Recent sessions: its latest diary entries, newest first, and the
//     open threads of the newest entry that lists any;
//   - Drawers: its mined drawers, most important then newest: what was
//     said in sessions without tool calls, tool output, injected context
//     or fenced code, and documents; source, data and configuration only
//     when none of the above has anything;
//   - Agents: the specialist agents (those working in the wing, in the
//     whole palace or filing their diary there).
//
// Everything is fitted into the token budget, counted with
// aaak.CountTokens on the rendered text: the identity first (cut at a word
// if it alone is too long), then the items of Decided, Facts now, Recent
// sessions, Open threads and Agents taken in turn, then the drawers; an
// item that does not fit is skipped for the next. The same palace gives
// the same output: every order has a tie-break, and no clock time is
// shown.
//
// WakeUp only reads: names the palace's AAAK entity map lacks get codes for
// this document only ('palace compress' is what extends the map).
func WakeUp(ctx context.Context, p *palace.Palace, r WakeRequest) (WakeResult, error) {
	req, err := r.parse()
	if err != nil {
		return WakeResult{}, err
	}
	w := &waker{req: req}
	if err := w.gather(ctx, p); err != nil {
		return WakeResult{}, err
	}
	if req.format == FormatAAAK {
		em, err := compress.Entities(ctx, p)
		if err != nil {
			return WakeResult{}, fmt.Errorf("wake-up: %w", err)
		}
		w.render = func(s selection) (string, error) { return w.renderAAAK(s, em, compress.Tagger(p.Seg)) }
	} else {
		w.render = w.renderText
	}
	return w.result(w.fit())
}

// item is one candidate line.
type item struct {
	line string    // text format
	enc  aaak.Item // AAAK format (Text only; the header is shared)
	date string    // YYYY-MM-DD, for the AAAK header
}

// Sections, in the order they are rendered.
const (
	secDecided = iota
	secFacts
	secSessions
	secThreads
	secDrawers
	secAgents
	nSections
)

var sectionTitles = [nSections]string{"## Decided", "## Facts now", "## Recent sessions", "## Open threads", "## Drawers", "## Agents"}

// firstRound are the sections whose items are taken in turn before any
// drawer: what a session must know comes before what it may look up.
var firstRound = []int{secDecided, secFacts, secSessions, secThreads, secAgents}

type waker struct {
	req      wakeRequest
	identity string
	files    []string
	items    [nSections][]item
	decided  []decided
	facts    []kg.Triple
	diary    []DiaryLine
	threads  []WakeThread
	drawers  []store.Drawer
	code     []bool
	agents   []Agent
	render   func(selection) (string, error)
	omitted  int
}

// selection is what the budget let in: the identity's first idLen bytes
// (cut, when shorter than the identity) and the chosen items per section,
// in candidate order.
type selection struct {
	idLen int
	cut   bool
	picks [nSections][]int
}

// label is where an item lives, when the reader cannot tell: the wing in
// a whole-palace wake-up, the room when it is not the usual one.
func (w *waker) label(wing, room, usual string) string {
	where := ""
	switch {
	case w.req.wing == "" && room != usual:
		where = wing + "/" + room
	case w.req.wing == "":
		where = wing
	case room != usual:
		where = room
	}
	if where == "" {
		return ""
	}
	return "[" + where + "] "
}

func (w *waker) gather(ctx context.Context, p *palace.Palace) error {
	if err := w.readIdentity(p.Store.Home()); err != nil {
		return err
	}
	if err := w.gatherDecided(ctx, p); err != nil {
		return err
	}
	entity := ""
	if w.req.wing != "" {
		entity = kg.NormalizeName(w.req.wing)
	}
	ts, err := p.Store.KGCurrent(ctx, w.req.wing, entity, w.req.now, wakeFacts)
	if err != nil {
		return fmt.Errorf("wake-up: %w", err)
	}
	w.facts = ts
	for _, t := range ts {
		s := t.Subject + " " + t.Predicate + " " + t.Object
		if t.ValidFrom != nil || t.ValidTo != nil {
			s += " (" + kg.FormatInterval(t.ValidFrom, t.ValidTo) + ")"
		}
		d := ""
		if t.ValidFrom != nil {
			d = day(*t.ValidFrom)
		}
		w.items[secFacts] = append(w.items[secFacts], item{line: "- " + s, enc: aaak.Item{Text: s + "."}, date: d})
	}
	if err := w.gatherDiary(ctx, p); err != nil {
		return err
	}
	if err := w.gatherAgents(ctx, p); err != nil {
		return err
	}
	return w.gatherDrawers(ctx, p)
}

// gatherDecided reads the notes in force (see decide).
func (w *waker) gatherDecided(ctx context.Context, p *palace.Palace) error {
	ds, err := decide(ctx, p, w.req.wing)
	if err != nil {
		return err
	}
	w.decided = ds
	for _, n := range ds {
		line := "- " + w.label(n.d.Wing, n.d.Room, DefaultRoom) + preview(n.d.Content, lineRunes)
		switch {
		case len(n.was) > 0:
			line += " (was: " + strings.Join(n.was[:min(len(n.was), maxWas)], ", ") + ")"
		case len(n.replaces) > 0:
			line += " (replaces an earlier note)"
		}
		w.items[secDecided] = append(w.items[secDecided], item{
			line: line,
			enc:  aaak.Item{Text: preview(n.d.Content, aaakRunes), Importance: n.importance},
			date: day(when(n.d)),
		})
	}
	return nil
}

// gatherDiary reads the latest diary entries filed in the wing, and the
// open threads of the newest one listing any: a later session's entry
// says what is still open, so older lists are not repeated.
func (w *waker) gatherDiary(ctx context.Context, p *palace.Palace) error {
	es, err := p.Store.ListDiary(ctx, store.DiaryFilter{Wing: w.req.wing}, wakeDiary)
	if err != nil {
		return fmt.Errorf("wake-up: %w", err)
	}
	for _, d := range es {
		l := diaryLine(d)
		rest, threads := openThreads(l.Text)
		if len(threads) > 0 && w.threads == nil {
			for _, t := range threads {
				w.threads = append(w.threads, WakeThread{DiaryID: l.ID, Agent: l.Agent, At: l.At, Text: t, Line: "- " + preview(t, lineRunes)})
				w.items[secThreads] = append(w.items[secThreads], item{
					line: "- " + preview(t, lineRunes), enc: aaak.Item{Text: "Open: " + preview(t, aaakRunes)}, date: day(l.At),
				})
			}
		}
		if rest == "" {
			rest = l.Text // an entry of threads alone still says a session happened
		}
		w.diary = append(w.diary, l)
		where := ""
		if w.req.wing == "" {
			where = l.Wing + " "
		}
		w.items[secSessions] = append(w.items[secSessions], item{
			line: "- " + day(l.At) + " " + where + l.Agent + "/" + l.Topic + ": " + preview(rest, lineRunes),
			enc:  aaak.Item{Text: preview(rest, aaakRunes)},
			date: day(l.At),
		})
	}
	return nil
}

// gatherDrawers reads the wing's newest mined drawers of each kind and
// keeps those worth a line (see mined): those close to a note shown or to
// a drawer before them (Similarity at the near-duplicate threshold) are
// left out, and source only stays when no other section has anything.
func (w *waker) gatherDrawers(ctx context.Context, p *palace.Palace) error {
	var all []store.Drawer
	for _, kind := range []string{store.KindConversation, store.KindFile} {
		ds, err := p.Store.ListDrawers(ctx, store.Filter{Wing: w.req.wing, Kind: kind}, wakeDrawers)
		if err != nil {
			return fmt.Errorf("wake-up: %w", err)
		}
		all = append(all, ds...)
	}
	slices.SortFunc(all, func(a, b store.Drawer) int {
		if c := cmp.Compare(b.Importance, a.Importance); c != 0 {
			return c
		}
		if c := when(b).Compare(when(a)); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
	var seen [][]string
	for _, n := range w.decided {
		ws, err := contentWords(p, n.d.Content)
		if err != nil {
			return fmt.Errorf("wake-up: %w", err)
		}
		seen = append(seen, ws)
	}
	type cand struct {
		d    store.Drawer
		text string
		code bool
	}
	var prose, code []cand
	for _, d := range all {
		use, text := mined(d)
		if use == useNever {
			continue
		}
		ws, err := contentWords(p, text)
		if err != nil {
			return fmt.Errorf("wake-up: drawer %s: %w", d.ID, err)
		}
		if slices.ContainsFunc(seen, func(o []string) bool { return Similarity(ws, o) >= DefaultLexicalThreshold }) {
			continue
		}
		seen = append(seen, ws)
		if use == useCode {
			code = append(code, cand{d, text, true})
		} else {
			prose = append(prose, cand{d, text, false})
		}
	}
	shown := prose
	if len(prose) == 0 && len(w.items[secDecided])+len(w.items[secFacts])+len(w.items[secSessions])+len(w.items[secThreads]) == 0 {
		shown = code
	}
	for _, c := range shown {
		w.drawers = append(w.drawers, c.d)
		w.code = append(w.code, c.code)
		w.items[secDrawers] = append(w.items[secDrawers], item{
			line: "- " + w.label(c.d.Wing, c.d.Room, "") + preview(c.text, lineRunes),
			enc:  aaak.Item{Text: preview(c.text, aaakRunes), Importance: c.d.Importance},
			date: day(when(c.d)),
		})
	}
	return nil
}

// gatherAgents lists the registry: every agent for the whole palace; for a
// wing, those working in it or in the whole palace, and those whose diary
// is filed there.
func (w *waker) gatherAgents(ctx context.Context, p *palace.Palace) error {
	as, err := ListAgents(ctx, p)
	if err != nil {
		return fmt.Errorf("wake-up: %w", err)
	}
	for _, a := range as {
		if wing := w.req.wing; wing != "" && a.Wing != "" && a.Wing != wing && a.Diary != wing {
			continue
		}
		where := "diary " + a.Diary
		if a.Wing != "" {
			where = "wing " + a.Wing + ", " + where
		}
		w.agents = append(w.agents, a)
		w.items[secAgents] = append(w.items[secAgents], item{
			line: "- " + a.Name + ": " + preview(a.Focus, lineRunes) + " (" + where + ")",
			enc:  aaak.Item{Text: a.Name + ": " + preview(a.Focus, aaakRunes) + "."},
		})
	}
	return nil
}

// readIdentity reads the identity files. A missing file is no identity; an
// unreadable, oversized or non-UTF-8 one is an error naming the file, since
// wake-up would otherwise silently start a session without it.
func (w *waker) readIdentity(home string) error {
	paths := []string{filepath.Join(home, IdentityFile)}
	if w.req.wing != "" {
		paths = append(paths, filepath.Join(home, IdentityDir, w.req.wing+".md"))
	}
	var parts []string
	for _, path := range paths {
		b, err := fsx.ReadRegular(path, maxIdentityBytes)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if errors.Is(err, fsx.ErrTooLarge) {
			return fmt.Errorf("wake-up: identity: %s is over %d KiB; keep the identity short, it is read at every session start", path, maxIdentityBytes>>10)
		}
		if err != nil {
			return fmt.Errorf("wake-up: identity: %w", err)
		}
		if !utf8.Valid(b) {
			return fmt.Errorf("wake-up: identity %s is not valid UTF-8", path)
		}
		w.files = append(w.files, path)
		if s := strings.TrimSpace(strings.ReplaceAll(string(b), "\r\n", "\n")); s != "" {
			parts = append(parts, s)
		}
	}
	w.identity = strings.Join(parts, "\n\n")
	return nil
}

// fits reports whether s renders within the budget. A selection that
// cannot be rendered does not fit.
func (w *waker) fits(s selection) bool {
	t, err := w.render(s)
	return err == nil && aaak.CountTokens(t) <= w.req.budget
}

// fit chooses what goes in (see WakeUp).
func (w *waker) fit() selection {
	var s selection
	if w.identity != "" {
		s.idLen = len(w.identity)
		if !w.fits(s) {
			s = w.cutIdentity()
		}
	}
	try := func(sec, i int) {
		t := s
		t.picks[sec] = append(append([]int(nil), s.picks[sec]...), i)
		if w.fits(t) {
			s = t
		} else {
			w.omitted++
		}
	}
	for round := 0; ; round++ {
		more := false
		for _, sec := range firstRound {
			if round < len(w.items[sec]) {
				more = true
				try(sec, round)
			}
		}
		if !more {
			break
		}
	}
	for i := range w.items[secDrawers] {
		try(secDrawers, i)
	}
	return s
}

// cutIdentity finds the longest identity prefix, ended at a word, that fits
// the budget alone. Token counts grow with the prefix, so a binary search
// over the word ends finds it; the last check guards the rare step where
// cutting adds a token.
func (w *waker) cutIdentity() selection {
	var ends []int
	inWord := false
	for i, r := range w.identity {
		sp := unicode.IsSpace(r)
		if inWord && sp {
			ends = append(ends, i)
		}
		inWord = !sp
	}
	lo, hi := 0, len(ends) // ends[:lo] fit; ends[hi:] do not
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if w.fits(selection{idLen: ends[mid-1], cut: true}) {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	for ; lo > 0; lo-- {
		s := selection{idLen: ends[lo-1], cut: true}
		if w.fits(s) {
			return s
		}
	}
	return selection{}
}

func (s selection) identity(full string) string {
	id := full[:s.idLen]
	if s.cut {
		id = strings.TrimRightFunc(id, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsPunct(r) }) + " …"
	}
	return id
}

// renderText renders the text format: titled sections, one line per item.
func (w *waker) renderText(s selection) (string, error) {
	var b strings.Builder
	if s.idLen > 0 {
		b.WriteString("## Identity\n")
		b.WriteString(s.identity(w.identity))
		b.WriteString("\n")
	}
	for sec := range nSections {
		if len(s.picks[sec]) == 0 {
			continue
		}
		b.WriteString(sectionTitles[sec] + "\n")
		for _, i := range s.picks[sec] {
			b.WriteString(w.items[sec][i].line + "\n")
		}
	}
	return strings.TrimSuffix(b.String(), "\n"), nil
}

// renderAAAK renders one AAAK document: the identity (a zettel per
// paragraph), then the items of each section in the text format's order, under a header naming the wing, the room "wake-up", the
// newest date shown and the source "palace".
func (w *waker) renderAAAK(s selection, em *aaak.EntityMap, tg aaak.Tagger) (string, error) {
	var items []aaak.Item
	newest := ""
	if s.idLen > 0 {
		// A zettel quotes one sentence: a paragraph each keeps more of the
		// identity than one zettel for all of it.
		for _, para := range strings.Split(s.identity(w.identity), "\n\n") {
			if para = strings.TrimSpace(para); para != "" {
				items = append(items, aaak.Item{Text: para, Importance: 5})
			}
		}
	}
	for sec := range nSections {
		for _, i := range s.picks[sec] {
			it := w.items[sec][i]
			items = append(items, it.enc)
			newest = max(newest, it.date)
		}
	}
	if len(items) == 0 {
		return "", nil
	}
	for i := range items {
		items[i].Wing, items[i].Room, items[i].Date, items[i].Source = w.req.wing, "wake-up", newest, "palace"
	}
	// A clone per attempt: the encoder adds the names it meets, and names of
	// items the budget then refuses must not shift later codes.
	doc, err := aaak.Encode(items, aaak.EncodeOptions{Entities: em.Clone(), Tagger: tg})
	if err != nil {
		return "", fmt.Errorf("wake-up: %w", err)
	}
	return aaak.Print(doc), nil
}

func (w *waker) result(s selection) (WakeResult, error) {
	out := WakeResult{
		Wing: w.req.wing, Format: w.req.format, Budget: w.req.budget,
		Identity: WakeIdentity{Files: w.files, Truncated: s.cut},
		Decided:  []WakeNote{}, Facts: []WakeFact{}, Diary: []WakeDiary{}, Threads: []WakeThread{},
		Drawers: []WakeDrawer{}, Agents: []WakeAgent{},
		Omitted: w.omitted,
	}
	if out.Identity.Files == nil {
		out.Identity.Files = []string{}
	}
	if s.idLen > 0 {
		out.Identity.Text = s.identity(w.identity)
	}
	// Picks are in candidate order: a section's items are tried in order.
	for _, i := range s.picks[secDecided] {
		n := w.decided[i]
		out.Decided = append(out.Decided, WakeNote{ID: n.d.ID, Wing: n.d.Wing, Room: n.d.Room,
			Importance: int(n.d.Importance), Rank: int(n.importance), Time: when(n.d), Citation: search.Citation(n.d),
			Replaces: orEmpty(n.replaces), Duplicates: orEmpty(n.duplicates), Line: w.items[secDecided][i].line})
	}
	for _, i := range s.picks[secFacts] {
		out.Facts = append(out.Facts, WakeFact{Triple: w.facts[i], Line: w.items[secFacts][i].line})
	}
	for _, i := range s.picks[secSessions] {
		l := w.diary[i]
		out.Diary = append(out.Diary, WakeDiary{ID: l.ID, Agent: l.Agent, Topic: l.Topic, At: l.At, Line: w.items[secSessions][i].line})
	}
	for _, i := range s.picks[secThreads] {
		out.Threads = append(out.Threads, w.threads[i])
	}
	for _, i := range s.picks[secDrawers] {
		d := w.drawers[i]
		wd := WakeDrawer{ID: d.ID, Wing: d.Wing, Room: d.Room, Kind: d.Kind, Importance: d.Importance,
			Citation: search.Citation(d), Code: w.code[i], Line: w.items[secDrawers][i].line}
		if t := when(d); !t.IsZero() {
			wd.Time = &t
		}
		out.Drawers = append(out.Drawers, wd)
	}
	for _, i := range s.picks[secAgents] {
		out.Agents = append(out.Agents, WakeAgent{Agent: w.agents[i], Line: w.items[secAgents][i].line})
	}
	var err error
	if out.Text, err = w.render(s); err != nil {
		return WakeResult{}, err
	}
	out.Tokens = aaak.CountTokens(out.Text)
	return out, nil
}

// when is when a drawer's content happened, else when it was stored.
func when(d store.Drawer) time.Time {
	if !d.OccurredAt.IsZero() {
		return d.OccurredAt.UTC()
	}
	return d.CreatedAt.UTC()
}

func day(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format("2006-01-02")
}
