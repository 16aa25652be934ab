package lsp

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"go.lsp.dev/protocol"
)

// progress reports one piece of background work through LSP work-done
// progress ($/progress begin, report, end). It is created by the server
// (window/workDoneProgress/create), which only a background goroutine may
// do: the client's answer arrives on the read loop.
type progress struct {
	s     *server
	token string

	mu   sync.Mutex
	last time.Time
	pct  uint32
}

var progressSeq atomic.Int64

// reportEvery throttles reports: a mine calls back once per file.
const reportEvery = 200 * time.Millisecond

// beginProgress creates a cancellable progress token and sends begin. It
// returns nil when the client cannot show progress; onToken learns the
// token before begin is sent, so a cancel can never arrive for an unknown
// token.
func (s *server) beginProgress(ctx context.Context, title, message string, onToken func(string)) *progress {
	if !s.client.progress {
		return nil
	}
	token := fmt.Sprintf("palace-%d-%d", time.Now().UnixNano(), progressSeq.Add(1))
	// A map, not protocol.WorkDoneProgressCreateParams: its token marshals
	// only through a pointer, and would go out as {}.
	if err := s.callClient(ctx, "window/workDoneProgress/create", map[string]string{"token": token}, nil); err != nil {
		s.warnf("progress %q: %v", title, err)
		return nil
	}
	onToken(token)
	p := &progress{s: s, token: token}
	p.send(protocol.WorkDoneProgressBegin{Kind: protocol.WorkDoneProgressKindBegin, Title: title, Cancellable: true, Message: message})
	return p
}

func (p *progress) send(value any) {
	p.s.sendNotification("$/progress", map[string]any{"token": p.token, "value": value})
}

// report sends done/total, at most every reportEvery, and always the last.
func (p *progress) report(done, total int) {
	p.mu.Lock()
	now := time.Now()
	if done < total && now.Sub(p.last) < reportEvery {
		p.mu.Unlock()
		return
	}
	p.last = now
	pct := uint32(0)
	if total > 0 {
		pct = uint32(done * 100 / total)
	}
	// Percentages must not go down; a total that grows could make them.
	pct = max(pct, p.pct)
	p.pct = pct
	p.mu.Unlock()
	p.send(protocol.WorkDoneProgressReport{Kind: protocol.WorkDoneProgressKindReport, Cancellable: true,
		Message: fmt.Sprintf("%d/%d files", done, total), Percentage: pct})
}

func (p *progress) end(message string) {
	p.send(protocol.WorkDoneProgressEnd{Kind: protocol.WorkDoneProgressKindEnd, Message: message})
}
