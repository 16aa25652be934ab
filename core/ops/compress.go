package ops

import (
	"context"

	"github.com/palace-dev/palace/core/compress"
	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/store"
)

// Compress limits: a document per wing and room of at most this many
// drawers in all.
const (
	DefaultCompressLimit = compress.DefaultLimit
	MaxCompressLimit     = 2000
)

// CompressRequest selects the drawers to print as AAAK.
type CompressRequest struct {
	Wing  string
	Room  string
	Since string // YYYY-MM-DD or RFC 3339, inclusive
	Limit int    // 0: DefaultCompressLimit
}

// Validate names the first bad field.
func (r CompressRequest) Validate() error {
	_, err := r.filter()
	return err
}

func (r CompressRequest) filter() (store.Filter, error) {
	f := store.Filter{Wing: r.Wing, Room: r.Room}
	if err := checkLimit("limit", r.Limit, MaxCompressLimit); err != nil {
		return f, err
	}
	var err error
	f.Since, err = parseDate("since", r.Since, false)
	return f, err
}

// Compress encodes the selected drawers as AAAK, one document per wing and
// room (compress.Stream joins them into the stream `palace aaak check` and
// `decode` read), and saves the names it coded in the palace's entity map.
func Compress(ctx context.Context, p *palace.Palace, r CompressRequest) ([]compress.Document, error) {
	f, err := r.filter()
	if err != nil {
		return nil, err
	}
	if err := checkWing(ctx, p, "wing", r.Wing); err != nil {
		return nil, err
	}
	limit := r.Limit
	if limit == 0 {
		limit = DefaultCompressLimit
	}
	docs, err := retryBusy(ctx, "compress", func() ([]compress.Document, error) {
		return compress.Run(ctx, p, compress.Request{Filter: f, Limit: limit})
	})
	if docs == nil && err == nil {
		docs = []compress.Document{}
	}
	return docs, err
}
