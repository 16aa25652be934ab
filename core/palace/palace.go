// Package palace is the handle every front opens: the store plus the shared,
// lazily loaded helpers that mining and search need (the Chinese segmenter,
// the embedding model). Feature packages (mine, search, ...) take a *Palace,
// so the CLI, MCP and LSP fronts wire nothing themselves.
package palace

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/palace-dev/palace/core/cjk"
	"github.com/palace-dev/palace/core/embed"
	"github.com/palace-dev/palace/core/store"
)

// MetaModelDir is where `palace model use` records the model folder.
const MetaModelDir = "embed.model_dir"

// Palace is an open palace home.
type Palace struct {
	Store *store.Store
	// Seg segments Chinese text for the index and for queries. It loads its
	// dictionaries only when Han text first appears, and then only the
	// part of them the text met needs (see core/cjk).
	Seg *cjk.Segmenter

	cfg       embed.Config
	embedOnce sync.Once
	emb       embed.Embedder
	choice    embed.Choice
	embedErr  error

	qmu    sync.Mutex
	qcache map[string][]float32
}

// Options configure Open. The zero value reads the embedding settings from
// the environment and the palace.
type Options struct {
	// ModelDir overrides PALACE_MODEL_DIR and the model `palace model use`
	// recorded.
	ModelDir string
	// Embed replaces the whole embedding configuration when set (tests).
	Embed *embed.Config
	// Actor names the front for the audit log: cli (the default), mcp,
	// lsp or hook. Client is the client's name when it gave one; a server
	// may set it later with SetClient.
	Actor, Client string
	// NoCreate refuses a home without a palace instead of creating one:
	// read commands set it, so a mistyped --home is an error naming it,
	// not a new empty palace that answers "nothing found".
	NoCreate bool
}

// Open opens the palace at home, creating it if needed (unless NoCreate).
// The embedding model is not loaded until something needs it.
func Open(home string, opts ...Options) (*Palace, error) {
	var o Options
	if len(opts) > 0 {
		o = opts[0]
	}
	if o.NoCreate {
		if err := store.CheckExists(home); err != nil {
			return nil, err
		}
	}
	st, err := store.Open(home)
	if err != nil {
		return nil, err
	}
	p, err := wrap(st, o)
	if err != nil {
		st.Close()
		return nil, err
	}
	return p, nil
}

// OpenForCheck opens an existing palace read-only without touching its
// schema, for the doctor of a palace Open refuses (a damaged file). The
// model recorded in the palace is used only if it can still be read.
func OpenForCheck(home string, o Options) (*Palace, error) {
	st, err := store.OpenForCheck(home)
	if err != nil {
		return nil, err
	}
	p, err := wrap(st, o)
	if err != nil {
		// The model folder the palace records is unreadable: check
		// with the environment's embedding settings alone.
		p = &Palace{Store: st, Seg: cjk.New(filepath.Join(st.Home(), "cache")), cfg: embed.ConfigFromEnv(st.Home())}
	}
	return p, nil
}

// wrap builds the Palace around an open store.
func wrap(st *store.Store, o Options) (*Palace, error) {
	cfg := embed.ConfigFromEnv(st.Home())
	if o.Embed != nil {
		cfg = *o.Embed
	}
	switch {
	case o.ModelDir != "":
		cfg.ModelDir = o.ModelDir
	case cfg.ModelDir == "":
		dir, _, err := st.Meta(context.Background(), MetaModelDir)
		if err != nil {
			return nil, err
		}
		cfg.ModelDir = dir
	}
	if o.Actor != "" {
		st.SetActor(o.Actor, o.Client)
	}
	return &Palace{Store: st, Seg: cjk.New(filepath.Join(st.Home(), "cache")), cfg: cfg}, nil
}

// Close releases the model, the segmenter and the database.
func (p *Palace) Close() error {
	var errs []error
	if p.emb != nil {
		errs = append(errs, p.emb.Close())
	}
	errs = append(errs, p.Seg.Close(), p.Store.Close())
	return errors.Join(errs...)
}

// CloseDatabase closes the database alone, leaving the model (an
// embedding batch may still run inside it) to the process's end.
func (p *Palace) CloseDatabase() error { return p.Store.Close() }

// Home is the palace's folder (where palace.db, the audit log and the
// models live).
func (p *Palace) Home() string { return p.Store.Home() }

// SetActor names the front (cli, mcp, lsp, hook) and its client in the
// audit lines of the writes that follow.
func (p *Palace) SetActor(front, client string) { p.Store.SetActor(front, client) }

// Embedder loads the embedding model on first use. A nil Embedder means
// lexical search only; Choice says why. An error means a model is configured
// but unusable (its message names the file); callers may carry on lexically.
func (p *Palace) Embedder() (embed.Embedder, embed.Choice, error) {
	p.embedOnce.Do(func() {
		p.emb, p.choice, p.embedErr = embed.Open(p.cfg)
	})
	return p.emb, p.choice, p.embedErr
}

// EmbedConfig is the embedding configuration this palace uses.
func (p *Palace) EmbedConfig() embed.Config { return p.cfg }

// UseModel records dir as the palace's model folder, after checking that it
// loads.
func (p *Palace) UseModel(ctx context.Context, dir string) (embed.Choice, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return embed.Choice{}, err
	}
	if _, err := os.Stat(abs); err != nil {
		return embed.Choice{}, fmt.Errorf("model folder: %w", err)
	}
	cfg := p.cfg
	cfg.ModelDir = abs
	e, choice, err := embed.Open(cfg)
	if err != nil {
		return choice, err
	}
	if e == nil {
		return choice, fmt.Errorf("model folder %s: %s", abs, choice.Reason)
	}
	e.Close()
	return choice, p.Store.SetMeta(ctx, MetaModelDir, abs)
}

// IndexText is what the full-text index should hold for content: segmented
// when it contains Han text, else "" (index the content itself). An
// English-only palace never loads the segmenter.
func (p *Palace) IndexText(content string) (string, error) {
	if !cjk.HasCJK(content) {
		return "", nil
	}
	t, err := p.Seg.SegmentForIndex(content)
	if err != nil {
		return "", fmt.Errorf("segment Chinese text: %w", err)
	}
	return t, nil
}

// SegmentQuery splits a query term written in Han into words; other terms
// come back whole. In a palace whose index holds no Han text
// (store.HoldsHan) no Han word can match, so the term is only split where
// its scripts change and the segmenter (seconds and 180 MB to load) stays
// unloaded.
func (p *Palace) SegmentQuery(term string) ([]string, error) {
	if !cjk.HasCJK(term) {
		return []string{term}, nil
	}
	han, err := p.Store.HoldsHan(context.Background())
	if err != nil {
		return nil, fmt.Errorf("segment query %q: %w", term, err)
	}
	if !han {
		return cjk.SplitQuery(term), nil
	}
	ws, err := p.Seg.SegmentQuery(term)
	if err != nil {
		return nil, fmt.Errorf("segment query %q: %w", term, err)
	}
	return ws, nil
}

// queryCacheSize bounds the query-vector cache: agents repeat queries, and
// embedding one costs milliseconds to a second.
const queryCacheSize = 256

// QueryVector embeds a query with emb, remembering recent ones.
func (p *Palace) QueryVector(ctx context.Context, emb embed.Embedder, text string) ([]float32, error) {
	key := emb.ModelID() + "\x00" + text
	p.qmu.Lock()
	v, ok := p.qcache[key]
	p.qmu.Unlock()
	if ok {
		return v, nil
	}
	vs, err := emb.Embed(ctx, []string{text})
	if err != nil {
		return nil, fmt.Errorf("embed query: %w", err)
	}
	p.qmu.Lock()
	defer p.qmu.Unlock()
	if p.qcache == nil || len(p.qcache) >= queryCacheSize {
		p.qcache = map[string][]float32{} // a full cache starts over: simple, bounded
	}
	p.qcache[key] = vs[0]
	return vs[0], nil
}
