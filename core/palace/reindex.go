package palace

import (
	"context"
	"strings"

	"github.com/palace-dev/palace/core/store"
)

// MetaIndexWords records the IndexWordsVersion the drawers' index texts
// were derived with. Palaces mined before identifier splitting lack it.
const MetaIndexWords = "index.words_version"

// IndexWordsVersion names the current query.IndexWords derivation; a
// change to what it adds bumps it, so that `palace repair` derives every
// index text again.
const IndexWordsVersion = "1"

// Reindex brings every drawer's index text up to IndexWordsVersion: the
// words an earlier version appended (after indexWordsSep) are taken off and
// derived again from the rest and the drawer's path, a page of drawers per
// write; `palace repair` runs it after Resegment. What comes before the
// words (segmented Chinese, a conversation without noise, with the
// exchange before it) is kept as it is, since only mining knows the
// previous exchange. It returns how many drawers changed; a palace already
// recorded as current costs one read.
func (p *Palace) Reindex(ctx context.Context) (int, error) {
	v, _, err := p.Store.Meta(ctx, MetaIndexWords)
	if err != nil || v == IndexWordsVersion {
		return 0, err
	}
	changed := 0
	for after := int64(0); ; {
		page, err := p.Store.DrawerTexts(ctx, after, resegmentPage)
		if err != nil {
			return changed, err
		}
		if len(page) == 0 {
			break
		}
		var cs []store.IndexTextChange
		for _, d := range page {
			after = d.Seq
			if n := derivedIndexText(d); n != d.Index {
				cs = append(cs, store.IndexTextChange{Seq: d.Seq, Old: d.Index, New: n})
			}
		}
		if len(cs) > 0 {
			n, err := p.Store.ReplaceIndexTexts(ctx, "words", cs)
			changed += n
			if err != nil {
				return changed, err
			}
		}
	}
	return changed, p.Store.SetMeta(ctx, MetaIndexWords, IndexWordsVersion)
}

// derivedIndexText is d's index text with its appended words derived again.
func derivedIndexText(d store.DrawerText) string {
	base := d.Content
	if d.Index != "" {
		base, _, _ = strings.Cut(d.Index, indexWordsSep)
	}
	path := ""
	if d.Kind == store.KindFile {
		path = d.Source
	}
	return withIndexWords(base, d.Content, path)
}
