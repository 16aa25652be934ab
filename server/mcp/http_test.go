package mcp

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/palace-dev/palace/core/palace"
	"github.com/palace-dev/palace/core/palace/palacetest"
)

func TestCheckAddr(t *testing.T) {
	for _, c := range []struct {
		addr           string
		remote, ok, lb bool
	}{
		{"127.0.0.1:0", false, true, true},
		{"[::1]:8765", false, true, true},
		{"localhost:8765", false, true, true},
		{"127.9.9.9:1", false, true, true},
		{":8765", false, false, false},
		{"0.0.0.0:8765", false, false, false},
		{"192.168.1.5:8765", false, false, false},
		{"0.0.0.0:8765", true, true, false},
		{"nonsense", true, false, false},
	} {
		lb, err := CheckAddr(c.addr, c.remote)
		if (err == nil) != c.ok || (err == nil && lb != c.lb) {
			t.Errorf("CheckAddr(%q, remote=%v) = %v, %v", c.addr, c.remote, lb, err)
		}
	}
}

func TestTokenFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", TokenFileName)
	tok, err := LoadOrCreateToken(path)
	if err != nil || len(tok) != 64 {
		t.Fatalf("token %q: %v", tok, err)
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("token file mode %v: %v", fi.Mode(), err)
	}
	again, err := LoadOrCreateToken(path)
	if err != nil || again != tok {
		t.Errorf("token not kept across restarts: %q %v", again, err)
	}
	os.Chmod(path, 0o644)
	if _, err := LoadOrCreateToken(path); err == nil || !strings.Contains(err.Error(), "readable by other users") {
		t.Errorf("world-readable token accepted: %v", err)
	}
}

// startHTTP serves s over HTTP on a free loopback port and returns the
// endpoint and the token.
func startHTTP(t *testing.T, s *Server) (string, string) {
	t.Helper()
	ready := make(chan string, 1)
	s.opts.HTTP = "127.0.0.1:0"
	s.opts.TokenFile = filepath.Join(t.TempDir(), TokenFileName)
	s.opts.Ready = func(u string) { ready <- u }
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.ServeHTTP(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("ServeHTTP: %v", err)
		}
	})
	select {
	case u := <-ready:
		tok, err := os.ReadFile(s.opts.TokenFile)
		if err != nil {
			t.Fatal(err)
		}
		return u, strings.TrimSpace(string(tok))
	case err := <-done:
		t.Fatalf("ServeHTTP: %v", err)
	case <-time.After(10 * time.Second):
		t.Fatal("HTTP server did not start")
	}
	return "", ""
}

func post(t *testing.T, url string, hdr map[string]string, body string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range hdr {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

func TestHTTPGuard(t *testing.T) {
	s := newTestServer(t, palacetest.OpenPalace(t, palace.Options{Actor: "mcp"}), Options{})
	url, tok := startHTTP(t, s)
	auth := map[string]string{"Authorization": "Bearer " + tok}
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"http-test","version":"1"}}}`

	if resp, _ := post(t, url, nil, init); resp.StatusCode != http.StatusUnauthorized || resp.Header.Get("WWW-Authenticate") == "" {
		t.Errorf("no token: %d", resp.StatusCode)
	}
	if resp, _ := post(t, url, map[string]string{"Authorization": "Bearer " + strings.Repeat("0", len(tok))}, init); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("wrong token: %d", resp.StatusCode)
	}
	if resp, _ := post(t, url, map[string]string{"Authorization": "Bearer " + tok, "Host": "evil.example:80"}, init); resp.StatusCode != http.StatusForbidden {
		t.Errorf("rebinding Host: %d", resp.StatusCode)
	}
	if resp, _ := post(t, url, map[string]string{"Authorization": "Bearer " + tok, "Origin": "https://evil.example"}, init); resp.StatusCode != http.StatusForbidden {
		t.Errorf("foreign Origin: %d", resp.StatusCode)
	}
	resp, body := post(t, url, map[string]string{"Authorization": "Bearer " + tok, "Origin": "http://localhost:3000"}, init)
	if resp.StatusCode != http.StatusOK || !strings.Contains(body, "Palace is your long-term memory") {
		t.Fatalf("initialize: %d %s", resp.StatusCode, body)
	}
	session := resp.Header.Get("Mcp-Session-Id")
	hdr := map[string]string{"Authorization": auth["Authorization"], "Mcp-Session-Id": session, "Mcp-Protocol-Version": "2025-11-25"}
	post(t, url, hdr, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)

	resp, body = post(t, url, hdr, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"palace_search","arguments":{"query":"x","verbose":true}}}`)
	var m rpcMsg
	if err := json.Unmarshal([]byte(body), &m); err != nil || m.Error == nil || m.Error.Code != -32602 || !strings.Contains(m.Error.Message, `unknown parameter "verbose"`) {
		t.Errorf("bad arguments over HTTP: %d %s", resp.StatusCode, body)
	}
	resp, body = post(t, url, hdr, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"palace_remember","arguments":{"content":"HTTP works for notes too.","wing":"web"}}}`)
	if resp.StatusCode != http.StatusOK || !strings.Contains(body, `\"added\":true`) {
		t.Errorf("remember over HTTP: %d %s", resp.StatusCode, body)
	}
}

func TestHTTPRefusesRemoteWithoutFlag(t *testing.T) {
	s := newTestServer(t, palacetest.OpenPalace(t, palace.Options{Actor: "mcp"}), Options{HTTP: "0.0.0.0:0"})
	err := s.ServeHTTP(context.Background())
	if err == nil || !strings.Contains(err.Error(), "--allow-remote") {
		t.Errorf("non-loopback address served: %v", err)
	}
}
