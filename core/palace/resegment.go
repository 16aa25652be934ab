package palace

import (
	"context"
	"fmt"

	"github.com/palace-dev/palace/core/cjk"
	"github.com/palace-dev/palace/core/store"
)

// MetaCJKIndex records the cjk.IndexVersion the drawers' Chinese index
// texts were written with. It is absent in palaces mined before version 2,
// and in palaces without Chinese text.
const MetaCJKIndex = "cjk.index_version"

// resegmentPage is how many drawers one write re-segments.
const resegmentPage = 500

// Resegment brings the Chinese index texts written by an earlier
// segmentation (cjk.IndexVersion) up to date, a page of drawers per write,
// and records the version once every text is done; `palace repair` runs
// it. It first settles whether the palace holds Han text at all
// (store.RecordHan). It returns how many drawers changed. A palace already recorded as
// current costs one read; one without Chinese index text is read once per
// call and never loads the segmenter.
func (p *Palace) Resegment(ctx context.Context) (int, error) {
	// A palace from before the Han flag learns whether it holds Chinese,
	// so its Chinese queries stop loading the segmenter if it does not.
	if err := p.Store.RecordHan(ctx); err != nil {
		return 0, err
	}
	v, _, err := p.Store.Meta(ctx, MetaCJKIndex)
	if err != nil || v == cjk.IndexVersion {
		return 0, err
	}
	changed, seen := 0, false
	for after := int64(0); ; {
		page, err := p.Store.HanIndexTexts(ctx, after, resegmentPage)
		if err != nil {
			return changed, err
		}
		if len(page) == 0 {
			break
		}
		seen = true
		var cs []store.IndexTextChange
		for _, t := range page {
			after = t.Seq
			text, ok, err := p.Seg.Resegment(t.Text)
			if err != nil {
				return changed, fmt.Errorf("re-segment Chinese index text: %w", err)
			}
			if ok {
				cs = append(cs, store.IndexTextChange{Seq: t.Seq, Old: t.Text, New: text})
			}
		}
		if len(cs) > 0 {
			n, err := p.Store.ReplaceIndexTexts(ctx, cs)
			changed += n
			if err != nil {
				return changed, err
			}
		}
	}
	if !seen {
		return 0, nil
	}
	return changed, p.Store.SetMeta(ctx, MetaCJKIndex, cjk.IndexVersion)
}
