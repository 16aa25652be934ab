//go:build unix

package main

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// browser is a headless Chromium driven over the DevTools protocol on a
// pipe (--remote-debugging-pipe: fd 3 in, fd 4 out, messages ended by a
// NUL byte), one page attached, every network request and console
// message recorded.
type browser struct {
	t       *testing.T
	cmd     *exec.Cmd
	in      *os.File
	session string

	mu       sync.Mutex
	next     int
	waiting  map[int]chan cdpMsg
	events   chan cdpMsg
	requests []string // URLs the page asked for
	problems []string // console errors, exceptions, failed loads, CSP reports
}

type cdpMsg struct {
	ID        int                       `json:"id,omitempty"`
	Method    string                    `json:"method,omitempty"`
	Params    json.RawMessage           `json:"params,omitempty"`
	Result    json.RawMessage           `json:"result,omitempty"`
	Error     *struct{ Message string } `json:"error,omitempty"`
	SessionID string                    `json:"sessionId,omitempty"`
}

// startChromium starts Debian's chromium as the project's tests do, with a
// fresh profile and no way to resolve a host, or skips when it is not
// installed (scripts/setup.sh --test installs it).
func startChromium(t *testing.T) *browser {
	t.Helper()
	bin, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("chromium is not installed (scripts/setup.sh --test installs it)")
	}
	cmdR, cmdW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	resR, resW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--no-first-run", "--user-data-dir="+t.TempDir(),
		"--host-resolver-rules=MAP * ~NOTFOUND", "--remote-debugging-pipe", "about:blank")
	cmd.ExtraFiles = []*os.File{cmdR, resW}
	cmd.Stderr = &bytes.Buffer{}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	cmdR.Close()
	resW.Close()
	b := &browser{t: t, cmd: cmd, in: cmdW, waiting: map[int]chan cdpMsg{}, events: make(chan cdpMsg, 1024)}
	t.Cleanup(func() {
		b.in.Close()
		cmd.Process.Kill()
		cmd.Wait()
	})
	go b.read(resR)
	var target struct{ TargetID string }
	b.call("", "Target.createTarget", map[string]any{"url": "about:blank"}, &target)
	var att struct{ SessionID string }
	b.call("", "Target.attachToTarget", map[string]any{"targetId": target.TargetID, "flatten": true}, &att)
	b.session = att.SessionID
	for _, m := range []string{"Page.enable", "Network.enable", "Runtime.enable", "Log.enable"} {
		b.call(b.session, m, nil, nil)
	}
	b.call(b.session, "Emulation.setDeviceMetricsOverride", map[string]any{"width": 1280, "height": 1000, "deviceScaleFactor": 1, "mobile": false}, nil)
	return b
}

func (b *browser) read(r *os.File) {
	br := bufio.NewReader(r)
	for {
		raw, err := br.ReadBytes(0)
		if err != nil {
			close(b.events)
			return
		}
		var m cdpMsg
		if json.Unmarshal(raw[:len(raw)-1], &m) != nil {
			continue
		}
		b.mu.Lock()
		if ch, ok := b.waiting[m.ID]; ok && m.ID != 0 {
			delete(b.waiting, m.ID)
			ch <- m
		} else if m.Method != "" {
			b.record(m)
		}
		b.mu.Unlock()
	}
}

// record notes what a test must see none of: a request for anything but
// the page itself, a failed load, an exception, a console error (Chromium
// reports a script or style its content security policy refused as one).
func (b *browser) record(m cdpMsg) {
	var p struct {
		Request          struct{ URL string }
		BlockedReason    string
		ErrorText        string
		ExceptionDetails struct {
			Text      string
			Exception struct{ Description string }
		}
		Entry struct{ Level, Text, URL string }
		Type  string
		Args  []struct{ Value any }
	}
	json.Unmarshal(m.Params, &p)
	switch m.Method {
	case "Network.requestWillBeSent":
		b.requests = append(b.requests, p.Request.URL)
	case "Network.loadingFailed":
		b.problems = append(b.problems, "load failed: "+p.ErrorText+" "+p.BlockedReason)
	case "Runtime.exceptionThrown":
		b.problems = append(b.problems, "exception: "+p.ExceptionDetails.Text+" "+p.ExceptionDetails.Exception.Description)
	case "Log.entryAdded":
		if p.Entry.Level == "error" || p.Entry.Level == "warning" {
			b.problems = append(b.problems, "log "+p.Entry.Level+": "+p.Entry.Text+" "+p.Entry.URL)
		}
	case "Runtime.consoleAPICalled":
		if p.Type == "error" || p.Type == "warning" {
			b.problems = append(b.problems, fmt.Sprintf("console %s: %v", p.Type, p.Args))
		}
	}
	select {
	case b.events <- m:
	default:
	}
}

// call sends one command and waits for its answer, decoded into res.
func (b *browser) call(session, method string, params, res any) {
	b.t.Helper()
	b.mu.Lock()
	b.next++
	id := b.next
	ch := make(chan cdpMsg, 1)
	b.waiting[id] = ch
	b.mu.Unlock()
	msg := map[string]any{"id": id, "method": method}
	if params != nil {
		msg["params"] = params
	}
	if session != "" {
		msg["sessionId"] = session
	}
	raw, _ := json.Marshal(msg)
	if _, err := b.in.Write(append(raw, 0)); err != nil {
		b.t.Fatalf("%s: %v", method, err)
	}
	select {
	case m := <-ch:
		if m.Error != nil {
			b.t.Fatalf("%s: %s", method, m.Error.Message)
		}
		if res != nil {
			if err := json.Unmarshal(m.Result, res); err != nil {
				b.t.Fatalf("%s: %v", method, err)
			}
		}
	case <-time.After(60 * time.Second):
		b.t.Fatalf("%s: no answer from chromium in 60s: %s", method, b.cmd.Stderr)
	}
}

// open loads a page and waits for its load event.
func (b *browser) open(url string) {
	b.t.Helper()
	b.mu.Lock()
	b.requests, b.problems = nil, nil
	b.mu.Unlock()
	for len(b.events) > 0 {
		<-b.events
	}
	b.call(b.session, "Page.navigate", map[string]any{"url": url}, nil)
	deadline := time.After(60 * time.Second)
	for {
		select {
		case m, ok := <-b.events:
			if !ok {
				b.t.Fatalf("chromium exited: %s", b.cmd.Stderr)
			}
			if m.Method == "Page.loadEventFired" {
				return
			}
		case <-deadline:
			b.t.Fatalf("%s did not load in 60s", url)
		}
	}
}

// eval runs a JavaScript expression in the page and returns its value.
func (b *browser) eval(expr string) any {
	b.t.Helper()
	var r struct {
		Result           struct{ Value any }
		ExceptionDetails *struct{ Text string }
	}
	b.call(b.session, "Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true}, &r)
	if r.ExceptionDetails != nil {
		b.t.Fatalf("eval %s: %s", expr, r.ExceptionDetails.Text)
	}
	return r.Result.Value
}

// screenshot saves the whole page as a PNG in the artifacts folder.
func (b *browser) screenshot(name string) string {
	b.t.Helper()
	var r struct{ Data string }
	b.call(b.session, "Page.captureScreenshot", map[string]any{"format": "png", "captureBeyondViewport": true}, &r)
	png, err := base64.StdEncoding.DecodeString(r.Data)
	if err != nil {
		b.t.Fatal(err)
	}
	dir := artifactsDir(b.t)
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, png, 0o644); err != nil {
		b.t.Fatal(err)
	}
	return path
}

// offPage lists what the page asked for besides itself and data: URLs,
// and the problems Chromium reported.
func (b *browser) offPage(self string) []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []string
	for _, u := range b.requests {
		if u != self && !strings.HasPrefix(u, "data:") {
			out = append(out, "request: "+u)
		}
	}
	return append(out, b.problems...)
}

// artifactsDir is where tests keep what a reviewer looks at: PALACE_ARTIFACTS,
// else artifacts/ at the repository's root (ignored by git).
func artifactsDir(t *testing.T) string {
	dir := os.Getenv("PALACE_ARTIFACTS")
	if dir == "" {
		dir = filepath.Join("..", "..", "artifacts")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}
