//go:build unix

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/palace-dev/palace/cmd/internal/clitest"
	"github.com/palace-dev/palace/core/ops"
)

// hubStub serves the tiny test model as the Hugging Face repository repo,
// at the URLs `palace model pull` uses: the listing
// /api/models/{repo}/revision/main and the files
// /{repo}/resolve/{commit}/{path}, onnx/model.onnx among them. Every test
// here points HF_ENDPOINT at one, so no test can reach huggingface.co.
type hubStub struct {
	repo   string
	files  map[string][]byte
	token  string // required bearer token, if set
	broken int    // model.onnx transfers still to cut after half

	mu     sync.Mutex
	reqs   []string
	denied []string // requests without the right token
}

const stubCommit = "89abcdef0123456789abcdef0123456789abcdef"

func startHub(t *testing.T, repo string) (*hubStub, string) {
	t.Helper()
	h := &hubStub{repo: repo, files: map[string][]byte{}}
	for repoPath, local := range map[string]string{
		"onnx/model.onnx": "model.onnx",
		"tokenizer.json":  "tokenizer.json",
		"config.json":     "config.json",
	} {
		b, err := os.ReadFile(filepath.Join(tinyModel(t), local))
		if err != nil {
			t.Fatal(err)
		}
		h.files[repoPath] = b
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return h, srv.URL
}

func (h *hubStub) requests() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.reqs...)
}

func (h *hubStub) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.mu.Lock()
	h.reqs = append(h.reqs, strings.TrimSpace(r.URL.Path+" "+r.Header.Get("Range")))
	if h.token != "" && r.Header.Get("Authorization") != "Bearer "+h.token {
		h.denied = append(h.denied, r.URL.Path)
		h.mu.Unlock()
		http.Error(w, "unauthorized", http.StatusUnauthorized)
		return
	}
	h.mu.Unlock()

	if r.URL.Path == "/api/models/"+h.repo+"/revision/main" {
		var sibs []map[string]any
		for name, b := range h.files {
			sibs = append(sibs, map[string]any{"rfilename": name, "size": len(b)})
		}
		sibs = append(sibs, map[string]any{"rfilename": "onnx/model_qint8_avx512.onnx"})
		json.NewEncoder(w).Encode(map[string]any{"id": h.repo, "sha": stubCommit, "siblings": sibs})
		return
	}
	name, ok := strings.CutPrefix(r.URL.Path, "/"+h.repo+"/resolve/"+stubCommit+"/")
	b, found := h.files[name]
	if !ok || !found {
		http.NotFound(w, r)
		return
	}
	h.mu.Lock()
	cut := name == "onnx/model.onnx" && h.broken > 0 && r.Header.Get("Range") == ""
	if cut {
		h.broken--
	}
	h.mu.Unlock()
	if cut {
		w.Header().Set("Content-Length", fmt.Sprint(len(b)))
		w.Write(b[:len(b)/2])
		w.(http.Flusher).Flush()
		if conn, _, err := w.(http.Hijacker).Hijack(); err == nil {
			conn.Close()
		}
		return
	}
	http.ServeContent(w, r, filepath.Base(name), time.Time{}, bytes.NewReader(b))
}

const defaultModel = "sentence-transformers/all-MiniLM-L6-v2"

// The whole path: pull the default model (token sent), list it, use it by
// name, and pull again without downloading.
func TestModelPullUseList(t *testing.T) {
	hub, url := startHub(t, defaultModel)
	hub.token = "hf_test_token"
	t.Setenv("HF_ENDPOINT", url)
	t.Setenv("HF_TOKEN", hub.token)
	home := t.TempDir()

	out, errOut, code := runPalace(t, home, "model", "pull")
	if code != 0 {
		t.Fatalf("model pull: exit %d, %q", code, errOut)
	}
	dir := filepath.Join(home, "models", "sentence-transformers__all-MiniLM-L6-v2")
	if !strings.Contains(out, "pulled "+defaultModel+" into "+dir) || !strings.Contains(out, "model use "+defaultModel) {
		t.Errorf("model pull printed %q; want where it went and how to use it", out)
	}
	if errOut != "" {
		t.Errorf("stderr without a terminal should be empty: %q", errOut)
	}
	for _, f := range []string{"onnx/model.onnx", "tokenizer.json", "config.json"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("pulled folder: %v", err)
		}
	}
	if hub.denied != nil {
		t.Errorf("requests without the bearer token: %v", hub.denied)
	}
	if _, err := os.Stat(filepath.Join(home, "palace.db")); err == nil {
		t.Error("pull without --use created palace.db")
	}

	out, _, code = runPalace(t, home, "model", "list")
	if code != 0 || !strings.Contains(out, "in use: none") || !strings.Contains(out, "available: "+defaultModel+"  "+dir+"\n") {
		t.Errorf("model list after pull: %d %q", code, out)
	}

	out, errOut, code = runPalace(t, home, "model", "use", defaultModel)
	if code != 0 || !strings.Contains(out, "model "+dir+" recorded") {
		t.Fatalf("model use NAME: %d %q %q", code, out, errOut)
	}
	out, _, code = runPalace(t, home, "model", "list", "--json")
	var l struct {
		InUse  string `json:"in_use"`
		Models []struct {
			Name  string `json:"name"`
			Dir   string `json:"dir"`
			InUse bool   `json:"in_use"`
		} `json:"models"`
		Partial []string `json:"partial"`
	}
	if err := json.Unmarshal([]byte(out), &l); err != nil || code != 0 {
		t.Fatalf("model list --json: %d %v %q", code, err, out)
	}
	if l.InUse != dir || len(l.Models) != 1 || l.Models[0].Name != defaultModel || !l.Models[0].InUse || len(l.Partial) != 0 {
		t.Errorf("model list --json: %+v", l)
	}

	// The recorded model embeds: mine fills vectors with it.
	src := t.TempDir()
	clitest.WriteTree(t, src, map[string]string{"a.md": "workers leak when the context is cancelled\n"})
	if out, errOut, code := runPalace(t, home, "mine", src, "--json", "--no-progress"); code != 0 || !strings.Contains(out, `"vectors"`) {
		t.Errorf("mine with the pulled model: %d %q %q", code, out, errOut)
	}

	n := len(hub.requests())
	out, _, code = runPalace(t, home, "model", "pull", defaultModel)
	if code != 0 || !strings.Contains(out, "already in "+dir) {
		t.Errorf("second pull: %d %q", code, out)
	}
	if len(hub.requests()) != n {
		t.Errorf("second pull made requests: %v", hub.requests()[n:])
	}
}

// --use records the model right away; a broken transfer is resumed within
// the same command.
func TestModelPullUseFlag(t *testing.T) {
	hub, url := startHub(t, "acme/tiny")
	hub.broken = 1
	t.Setenv("HF_ENDPOINT", url)
	home := t.TempDir()
	out, errOut, code := runPalace(t, home, "model", "pull", "acme/tiny", "--use", "--json")
	if code != 0 {
		t.Fatalf("model pull --use: %d %q", code, errOut)
	}
	var res ops.ModelPullResult
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v: %q", err, out)
	}
	dir := filepath.Join(home, "models", "acme__tiny")
	if res.Name != "acme/tiny" || res.Dir != dir || !res.Used || res.Already || !strings.HasPrefix(res.Embeddings, "embeddings: ") {
		t.Errorf("result %+v", res)
	}
	resumed := false
	for _, r := range hub.requests() {
		resumed = resumed || strings.HasSuffix(r, fmt.Sprintf("bytes=%d-", len(hub.files["onnx/model.onnx"])/2))
	}
	if !resumed {
		t.Errorf("the cut transfer was not resumed: %v", hub.requests())
	}
	out, _, _ = runPalace(t, home, "model", "list")
	if !strings.Contains(out, "in use: "+dir+"\n") || !strings.Contains(out, "(in use)") {
		t.Errorf("model list after pull --use: %q", out)
	}
}

// Without network: one line, exit 1, nothing written, and the palace and a
// plain model folder keep working.
func TestModelPullOffline(t *testing.T) {
	t.Setenv("HF_ENDPOINT", "http://127.0.0.1:1")
	home := filepath.Join(t.TempDir(), "home")

	_, errOut, code := runPalace(t, home, "model", "pull")
	if code != 1 || strings.Count(errOut, "\n") != 1 || !strings.HasPrefix(errOut, "palace: cannot reach http://127.0.0.1:1: ") {
		t.Errorf("offline pull: exit %d, stderr %q; want exit 1 and one line \"palace: cannot reach http://127.0.0.1:1: ...\"", code, errOut)
	}
	if _, err := os.Stat(home); err == nil {
		t.Errorf("offline pull created %s", home)
	}

	if _, errOut, code := runPalace(t, home, "model", "use", tinyModel(t)); code != 0 {
		t.Fatalf("model use DIR: %d %q", code, errOut)
	}
	if _, errOut, code = runPalace(t, home, "model", "pull", "acme/other"); code != 1 || !strings.Contains(errOut, "cannot reach") {
		t.Errorf("offline pull with a palace: %d %q", code, errOut)
	}
	out, _, code := runPalace(t, home, "model", "list")
	if code != 0 || !strings.Contains(out, "in use: "+tinyModel(t)) || !strings.Contains(out, "none pulled") {
		t.Errorf("model list after an offline pull: %d %q", code, out)
	}
	if _, err := os.Stat(filepath.Join(home, "models")); err == nil {
		t.Error("offline pull created the models folder")
	}
	if _, errOut, code := runPalace(t, home, "status"); code != 0 {
		t.Errorf("status after an offline pull: %d %q", code, errOut)
	}
}

func TestModelPullAndUseErrors(t *testing.T) {
	_, url := startHub(t, "acme/tiny")
	t.Setenv("HF_ENDPOINT", url)
	home := t.TempDir()
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"model", "pull", "a/b/c"}, 2, "want OWNER/MODEL"},
		{[]string{"model", "pull", "../etc"}, 2, "want OWNER/MODEL"},
		{[]string{"model", "pull", "a/b", "c/d"}, 2, "accepts at most 1 arg"},
		{[]string{"model", "pull", "acme/missing"}, 1, "404"},
		{[]string{"model", "use", "acme/never-pulled"}, 1, "run 'palace model pull acme/never-pulled'"},
		{[]string{"model", "use", filepath.Join(home, "nothing-here")}, 1, "no such file"},
		{[]string{"model"}, 2, "needs a subcommand"},
	} {
		_, errOut, code := runPalace(t, home, c.args...)
		if code != c.code || !strings.Contains(errOut, c.want) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%v: exit %d, %q; want %d and one line with %q", c.args, code, errOut, c.code, c.want)
		}
	}
	if _, err := os.Stat(filepath.Join(home, "models")); err == nil {
		t.Error("failed pulls created the models folder")
	}
}
