// Package compress formats drawers as AAAK for token-limited agents. It is
// the one place the core meets package aaak, so mining and search never
// depend on the dialect: AAAK only ever formats output.
package compress

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/palace-dev/palace/aaak"
	"github.com/palace-dev/palace/core/cjk"
	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/search"
	"github.com/palace-dev/palace/core/store"
)

// entitiesKey is where the palace keeps its AAAK entity map, so a name gets
// the same 3-letter code in every document Palace writes.
const entitiesKey = store.SettingAAAKEntities

// DefaultLimit bounds how many drawers one compress call reads.
const DefaultLimit = 200

// Request selects drawers to compress.
type Request struct {
	Filter store.Filter
	Limit  int
}

// Document is one wing and room's drawers in AAAK.
type Document struct {
	Wing     string  `json:"wing"`
	Room     string  `json:"room"`
	Drawers  int     `json:"drawers"`
	AAAK     string  `json:"aaak"`
	Tokens   int     `json:"aaak_tokens"`
	Raw      int     `json:"raw_tokens"`
	Coverage float64 `json:"coverage"`
	// Lost lists the source sentences the document does not preserve.
	Lost []string `json:"lost"`
}

// saveAttempts bounds how often Run encodes again because another process
// changed the entity map while it encoded; maxPasses how often it encodes
// again because it learnt names (each pass can only add names, and names
// found by the map rather than by their shape are rarely new).
const (
	saveAttempts = 3
	maxPasses    = 3
)

// Run encodes the selected drawers, one document per wing and room, and
// measures each document's round trip so its loss is visible. All the
// documents are coded with one entity map: the palace's, which gains the
// names they code and is saved with them, so a name has one code in every
// room and run, and `palace aaak decode` expands it. A map another process
// saved meanwhile is read again and the documents re-encoded with it; Run
// writes nothing when no name is new.
func Run(ctx context.Context, p *palace.Palace, req Request) ([]Document, error) {
	limit := req.Limit
	if limit <= 0 {
		limit = DefaultLimit
	}
	ds, err := p.Store.ListDrawers(ctx, req.Filter, limit)
	if err != nil {
		return nil, fmt.Errorf("compress: %w", err)
	}
	groups := map[[2]string][]aaak.Item{}
	var keys [][2]string
	for _, d := range ds {
		k := [2]string{d.Wing, d.Room}
		if _, ok := groups[k]; !ok {
			keys = append(keys, k)
		}
		when := d.OccurredAt
		if when.IsZero() {
			when = d.CreatedAt
		}
		groups[k] = append(groups[k], aaak.Item{Text: d.Content, Wing: d.Wing, Room: d.Room,
			Date: when.UTC().Format("2006-01-02"), Source: search.Citation(d), Importance: d.Importance})
	}
	sort.Slice(keys, func(i, j int) bool {
		return keys[i][0] < keys[j][0] || keys[i][0] == keys[j][0] && keys[i][1] < keys[j][1]
	})
	tunnels, err := loadLinks(ctx, p.Store)
	if err != nil {
		return nil, err
	}
	for attempt := 1; ; attempt++ {
		stored, em, err := loadEntities(ctx, p.Store)
		if err != nil {
			return nil, err
		}
		known := em.Len()
		// Names the map learns are found wherever they occur (aaak's rule
		// for known names), also in rooms encoded before they were learnt:
		// encode again until no name is new, so the next run, starting
		// from the saved map, writes the same documents.
		var out []Document
		for pass := 0; pass < maxPasses; pass++ {
			before := em.Len()
			if out, err = encodeRooms(keys, groups, tunnels, aaak.EncodeOptions{Entities: em, Tagger: Tagger(p.Seg)}); err != nil {
				return nil, err
			}
			if em.Len() == before {
				break
			}
		}
		if em.Len() == known {
			return out, nil
		}
		b, err := json.Marshal(em)
		if err != nil {
			return nil, fmt.Errorf("save AAAK entity map: %w", err)
		}
		saved, err := p.Store.SwapMeta(ctx, entitiesKey, stored, string(b))
		if err != nil {
			return nil, fmt.Errorf("save AAAK entity map: %w", err)
		}
		if saved {
			return out, nil
		}
		if attempt == saveAttempts {
			return nil, fmt.Errorf("save AAAK entity map: other processes changed it %d times while this one encoded; try again", attempt)
		}
	}
}

// encodeRooms encodes each wing and room's items as one document, with
// the room's tunnels as T: lines.
func encodeRooms(keys [][2]string, groups map[[2]string][]aaak.Item, tunnels links, opts aaak.EncodeOptions) ([]Document, error) {
	var out []Document
	for _, k := range keys {
		rep, err := aaak.VerifyItems(groups[k], opts)
		if err != nil {
			return nil, fmt.Errorf("compress %s/%s: %w", k[0], k[1], err)
		}
		text, err := tunnels.withTunnels(rep.AAAK, k[0], k[1])
		if err != nil {
			return nil, err
		}
		doc := Document{Wing: k[0], Room: k[1], Drawers: len(groups[k]), AAAK: text,
			Tokens: aaak.CountTokens(text), Raw: rep.RawTokens, Coverage: rep.Coverage, Lost: []string{}}
		for _, a := range rep.Lost {
			doc.Lost = append(doc.Lost, a.Text)
		}
		out = append(out, doc)
	}
	return out, nil
}

// Stream is the documents as one AAAK stream, which `palace aaak check`
// and `palace aaak decode` read whole.
func Stream(docs []Document) string {
	parts := make([]string, len(docs))
	for i, d := range docs {
		parts[i] = d.AAAK
	}
	return strings.Join(parts, aaak.StreamSeparator)
}

// Entities returns the palace's entity map, for decoding.
func Entities(ctx context.Context, p *palace.Palace) (*aaak.EntityMap, error) {
	_, em, err := loadEntities(ctx, p.Store)
	return em, err
}

// loadEntities returns the stored map as stored ("" when there is none)
// and read.
func loadEntities(ctx context.Context, st *store.Store) (string, *aaak.EntityMap, error) {
	em := aaak.NewEntityMap()
	v, ok, err := st.Meta(ctx, entitiesKey)
	if err != nil || !ok {
		return "", em, err
	}
	if err := json.Unmarshal([]byte(v), em); err != nil {
		return "", nil, fmt.Errorf("read AAAK entity map (meta %s): %w", entitiesKey, err)
	}
	return v, em, nil
}

// Tagger lends the palace's Chinese segmenter to the AAAK encoder.
func Tagger(seg *cjk.Segmenter) aaak.Tagger { return tagger{seg} }

type tagger struct{ seg *cjk.Segmenter }

// Tag returns nil when the segmenter cannot load; the encoder then uses its
// fallback for Chinese, which still writes a valid document.
func (t tagger) Tag(text string) []aaak.TaggedWord {
	ws, err := t.seg.Tag(text)
	if err != nil {
		return nil
	}
	out := make([]aaak.TaggedWord, len(ws))
	for i, w := range ws {
		out[i] = aaak.TaggedWord{Word: w.Word, POS: w.POS}
	}
	return out
}
