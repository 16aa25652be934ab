package ops

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/palace-dev/palace/core/dates"
	"github.com/palace-dev/palace/core/input"
	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/query"
	"github.com/palace-dev/palace/core/search"
	"github.com/palace-dev/palace/core/store"
)

// SearchModes are the modes a search may ask for; "" (auto) is hybrid when
// the palace has vectors of its model, else lexical.
var SearchModes = []string{search.ModeLexical, search.ModeVector, search.ModeHybrid}

// Search routes: auto routes a query without a room by the taxonomy's
// keywords (see core/route), off searches exactly the filter. "" is auto.
const (
	RouteAuto = "auto"
	RouteOff  = "off"
)

// SearchRoutes are the values of SearchRequest.Route.
var SearchRoutes = []string{RouteAuto, RouteOff}

// What a search's hits stand for: a drawer each (the default), or a file
// each, its matched drawers collapsed into one row (see search.CollapseFiles).
const (
	ByDrawer = search.ByDrawer
	ByFile   = search.ByFile
)

// SearchBy are the values of SearchRequest.By; "" is ByDrawer.
var SearchBy = []string{ByDrawer, ByFile}

// A search by file collapses a search by drawer: it reads limit times
// fileDepth drawers first, and deeper, twice as deep each time, while
// that gives fewer than limit rows and the index has more, up to limit
// times maxFileDepth drawers (2,000 at MaxSearchLimit). A file rarely
// has more than a few matched drawers among the best, so the first read
// usually suffices; the bound keeps a query matching many drawers of few
// files from reading the whole index.
const (
	fileDepth    = 5
	maxFileDepth = 20
)

// Search limits. A full hit carries its drawer's whole verbatim content,
// so a hundred hits is already a lot of context.
const (
	DefaultSearchLimit = search.DefaultLimit
	MaxSearchLimit     = 100
	MaxQueryRunes      = 4096
	MaxQueryWords      = query.MaxTerms // distinct words, repeats counted once
)

// SnippetMark surrounds matched words in every snippet an operation
// returns, on every front: agents read markdown, and a terminal shows it
// plainly.
const SnippetMark = "**"

// SearchRequest is a search as every front receives it.
type SearchRequest struct {
	Query string
	Wing  string
	Room  string
	Kind  string
	// Source keeps drawers whose source starts with it. Mined files are
	// stored by absolute path: a relative Source naming a file or folder
	// that exists below Dir is taken from Dir (its trailing separator kept:
	// "src/" is a folder, "src/a" any path starting so); any other is
	// compared as written (a note's source such as "ADR").
	Source string
	Since  string // YYYY-MM-DD or RFC 3339, inclusive
	Until  string // YYYY-MM-DD (that whole day) or RFC 3339, exclusive
	Limit  int    // 0: DefaultSearchLimit
	Mode   string // one of SearchModes, or "" for auto
	Route  string // one of SearchRoutes, or "" for auto
	By     string // one of SearchBy, or "" for drawer; Limit then counts files
	Detail string // one of SearchDetails, or "" for Default's
	// Across searches the room (Room, or the one the query routes to)
	// in every wing, Wing only choosing among its rooms (see across).
	Across bool
	// Budget is the most tokens the hits may take (see sized): nil for
	// Default's, 0 for none, at most MaxSearchBudget.
	Budget *int
	// Default is the front's answer size, for a caller who names no
	// detail or budget: AgentSearch or PersonSearch (the zero value is
	// PersonSearch).
	Default SearchSize
	// DefaultWing is the caller's project wing (an MCP session's roots,
	// the LSP's only folder), used when Wing is "": a search whose hits
	// there hold every query word answers with them first, then with the
	// rest of the palace's ranking (see preferWing). It is not checked: a
	// project not mined yet searches the whole palace.
	DefaultWing string
	// Dir is the folder the caller works in: the CLI's working directory,
	// an MCP session's only root, an LSP server's only folder; "" when
	// there is none, or several.
	Dir string
}

// Validate names the first bad field.
func (r SearchRequest) Validate() error {
	if _, err := r.filter(); err != nil {
		return err
	}
	_, err := r.size()
	return err
}

// checkQuery bounds what a search reads: at most MaxQueryRunes characters
// and query.MaxTerms distinct words, whatever the front.
func checkQuery(q string) error {
	if err := checkText("query", q); err != nil {
		return err
	}
	if n := utf8.RuneCountInString(q); n > MaxQueryRunes {
		return input.Invalid("query", "is %d characters long: at most %d", n, MaxQueryRunes)
	}
	return query.Check(q)
}

// filter checks r and turns it into the store's filter.
func (r SearchRequest) filter() (store.Filter, error) {
	f := store.Filter{Wing: r.Wing, Room: r.Room, Kind: r.Kind}
	if err := checkQuery(r.Query); err != nil {
		return f, err
	}
	var err error
	if f.SourcePrefix, err = sourcePrefix(r.Source, r.Dir); err != nil {
		return f, err
	}
	if err := checkEnum("kind", r.Kind, Kinds); err != nil {
		return f, err
	}
	if err := checkEnum("mode", r.Mode, SearchModes); err != nil {
		return f, err
	}
	if err := checkEnum("route", r.Route, SearchRoutes); err != nil {
		return f, err
	}
	if err := checkEnum("by", r.By, SearchBy); err != nil {
		return f, err
	}
	if err := checkLimit("limit", r.Limit, MaxSearchLimit); err != nil {
		return f, err
	}
	if err := r.checkAcross(); err != nil {
		return f, err
	}
	if f.Since, err = parseDate("since", r.Since, false); err != nil {
		return f, err
	}
	if f.Until, err = parseDate("until", r.Until, true); err != nil {
		return f, err
	}
	return f, nil
}

// sourcePrefix is the prefix a search's source filter compares sources
// with: a relative source naming a file or folder below dir is that path
// (its trailing separator kept), the same on every front given the same
// folder; anything else is compared as written.
func sourcePrefix(source, dir string) (string, error) {
	if source == "" || filepath.IsAbs(source) || !filepath.IsAbs(dir) {
		return source, nil
	}
	abs := filepath.Join(dir, source)
	if _, err := os.Stat(abs); err != nil {
		return source, nil // not a path of the folder: a source as written
	}
	if strings.HasSuffix(source, "/") || strings.HasSuffix(source, string(filepath.Separator)) {
		abs += string(filepath.Separator)
	}
	return abs, nil
}

// parseDate reads a date field; endOfDay makes a bare date cover its day.
func parseDate(field, v string, endOfDay bool) (time.Time, error) {
	t, err := dates.Parse(v, endOfDay)
	if err != nil {
		return t, input.Invalid(field, "%s is not a date: %v", input.Quote(v), err)
	}
	return t, nil
}

// Search answers r: validated, routed by the taxonomy unless r.Route is
// off, by drawer or by file, with snippets marked by SnippetMark, sized
// as r asks (see sized).
func Search(ctx context.Context, p *palace.Palace, r SearchRequest) (SearchResult, error) {
	none := SearchResult{Result: search.Result{Query: r.Query, Hits: []search.Hit{}}}
	f, err := r.filter()
	if err != nil {
		return none, err
	}
	size, err := r.size()
	if err != nil {
		return none, err
	}
	if err := checkWing(ctx, p, "wing", r.Wing); err != nil {
		return none, err
	}
	limit := r.Limit
	if limit == 0 {
		limit = DefaultSearchLimit
	}
	req := search.Request{Query: strings.TrimSpace(r.Query), Filter: f, Limit: limit, Mode: r.Mode,
		NoRoute: r.Route == RouteOff}
	across, err := r.across(ctx, p, &req)
	if err != nil {
		return none, err
	}
	var res search.Result
	if r.By == ByFile {
		res, err = searchFiles(ctx, p, req)
	} else {
		res, err = search.Run(ctx, p, req)
		if err == nil && r.Wing == "" && r.DefaultWing != "" && across == nil {
			res, err = preferWing(ctx, p, req, res, r.DefaultWing)
		}
		res.By = ByDrawer
	}
	if across != nil {
		res.Route = *across
	}
	if err != nil {
		return SearchResult{Result: res}, err
	}
	return sized(res, size)
}

// searchFiles answers req by file: req.Limit rows collapsed from a deeper
// search by drawer (see fileDepth).
func searchFiles(ctx context.Context, p *palace.Palace, req search.Request) (search.Result, error) {
	limit := req.Limit
	req.Limit = limit * fileDepth
	for {
		res, err := search.Run(ctx, p, req)
		if err != nil {
			return res, err
		}
		res.By = ByFile
		drawers := len(res.Hits)
		res.Hits = search.CollapseFiles(res.Hits, limit)
		// Fewer drawers than asked for means the index has no more.
		if len(res.Hits) >= limit || drawers < req.Limit || req.Limit >= limit*maxFileDepth {
			return res, nil
		}
		req.Limit = min(req.Limit*2, limit*maxFileDepth)
	}
}

// preferWing answers a search of the whole palace made in a project's
// session: when the project's wing holds a hit with every query word, its
// hits come first (each saying so), then the whole palace's ranking
// without them, up to the limit. A project asks about itself first, yet
// another project's answer is still there, and a query the project cannot
// answer whole keeps the palace's order, as a route that finds only
// partial matches does (see search.Run).
func preferWing(ctx context.Context, p *palace.Palace, req search.Request, all search.Result, wing string) (search.Result, error) {
	elsewhere := func(h search.Hit) bool { return h.Wing != wing && !slices.Contains(h.AlsoIn, wing) }
	if !slices.ContainsFunc(all.Hits, elsewhere) {
		return all, nil // the palace's ranking is the project's already
	}
	if ok, err := p.Store.HasWing(ctx, wing); err != nil || !ok {
		return all, err
	}
	scoped := req
	scoped.Filter.Wing = wing
	own, err := search.Run(ctx, p, scoped)
	if err != nil {
		return all, err
	}
	if !slices.ContainsFunc(own.Hits, func(h search.Hit) bool { return h.Match == "all" }) {
		return all, nil
	}
	hits := make([]search.Hit, 0, req.Limit)
	for _, h := range own.Hits {
		h.Why = strings.TrimPrefix(h.Why+"; in this session's project wing, whose hits come first", "; ")
		hits = append(hits, h)
	}
	for _, h := range all.Hits {
		if len(hits) >= req.Limit {
			break
		}
		if elsewhere(h) {
			hits = append(hits, h)
		}
	}
	all.Hits = hits[:min(len(hits), req.Limit)]
	return all, nil
}
