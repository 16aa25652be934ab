package embed

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeHub serves one repository laid out like Hugging Face: the listing at
// /api/models/{repo}/revision/{rev} and files at
// /{repo}/resolve/{commit}/{path}, LFS files (the .onnx) redirected to
// /lfs/{sha256} as Hugging Face redirects them to its CDN.
type fakeHub struct {
	t      *testing.T
	repo   string
	commit string
	files  map[string][]byte // served files by repository path
	extra  []string          // listed but never to be fetched
	token  string            // required as a bearer token when set
	// brokenLFS is how many more LFS transfers are cut after half the
	// file, the connection closed.
	brokenLFS int
	// noMeta lists files without size, LFS hash or commit, like a minimal
	// mirror.
	noMeta bool
	// badSHA lists a wrong SHA-256 for the LFS files.
	badSHA bool

	mu   sync.Mutex
	reqs []string // "path range", in order
}

func tinyHub(t *testing.T, repo string) *fakeHub {
	t.Helper()
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join(tinyDir, name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	return &fakeHub{
		t:      t,
		repo:   repo,
		commit: "0123456789abcdef0123456789abcdef01234567",
		files: map[string][]byte{
			"onnx/model.onnx": read("model.onnx"),
			"tokenizer.json":  read("tokenizer.json"),
			"config.json":     read("config.json"),
			// Same length as the tokenizer's own, so vectors match the
			// original folder; proves the optional file is fetched.
			"sentence_bert_config.json": fmt.Appendf(nil, `{"max_seq_length": %d, "do_lower_case": false}`, loadGolden(t).MaxLength),
		},
		// What sentence-transformers repositories also hold.
		extra: []string{"README.md", "pytorch_model.bin", "onnx/model_O1.onnx", "onnx/model_qint8_avx512.onnx", "1_Pooling/config.json"},
	}
}

func (h *fakeHub) start() *httptest.Server {
	srv := httptest.NewServer(h)
	h.t.Cleanup(srv.Close)
	return srv
}

func (h *fakeHub) requests() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.reqs...)
}

func sha256Hex(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

func (h *fakeHub) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.mu.Lock()
	h.reqs = append(h.reqs, strings.TrimSpace(r.URL.Path+" "+r.Header.Get("Range")))
	h.mu.Unlock()
	p := r.URL.Path

	if blob, ok := strings.CutPrefix(p, "/lfs/"); ok {
		for name, b := range h.files {
			if sha256Hex(b) == blob {
				h.serve(w, r, name, b, true)
				return
			}
		}
		http.NotFound(w, r)
		return
	}

	// The token is asserted where Hugging Face needs it; the CDN (/lfs/)
	// gets none, as Go drops it on a redirect to another host.
	if h.token != "" && r.Header.Get("Authorization") != "Bearer "+h.token {
		w.Header().Set("X-Error-Message", "Invalid credentials in Authorization header")
		http.Error(w, "unauthorized", http.StatusUnauthorized)
		return
	}

	if rest, ok := strings.CutPrefix(p, "/api/models/"+h.repo+"/revision/"); ok {
		if rest != "main" {
			http.NotFound(w, r)
			return
		}
		type lfs struct {
			SHA256 string `json:"sha256"`
			Size   int    `json:"size"`
		}
		type sib struct {
			Name string `json:"rfilename"`
			Size int    `json:"size,omitempty"`
			LFS  *lfs   `json:"lfs,omitempty"`
		}
		info := struct {
			ID       string `json:"id"`
			SHA      string `json:"sha,omitempty"`
			Siblings []sib  `json:"siblings"`
		}{ID: h.repo}
		if !h.noMeta {
			info.SHA = h.commit
		}
		for name, b := range h.files {
			s := sib{Name: name}
			if !h.noMeta {
				s.Size = len(b)
				if strings.HasSuffix(name, ".onnx") {
					sum := sha256Hex(b)
					if h.badSHA {
						sum = sha256Hex([]byte("something else"))
					}
					s.LFS = &lfs{SHA256: sum, Size: len(b)}
				}
			}
			info.Siblings = append(info.Siblings, s)
		}
		for _, name := range h.extra {
			info.Siblings = append(info.Siblings, sib{Name: name})
		}
		json.NewEncoder(w).Encode(info)
		return
	}

	if rest, ok := strings.CutPrefix(p, "/"+h.repo+"/resolve/"); ok {
		rev, name, _ := strings.Cut(rest, "/")
		want := h.commit
		if h.noMeta {
			want = "main"
		}
		if rev != want {
			h.t.Errorf("%s: fetched from revision %q, want %q", p, rev, want)
		}
		b, ok := h.files[name]
		if !ok {
			h.t.Errorf("%s: Pull fetched a file it does not need", p)
			http.NotFound(w, r)
			return
		}
		if strings.HasSuffix(name, ".onnx") {
			http.Redirect(w, r, "/lfs/"+sha256Hex(b), http.StatusFound)
			return
		}
		h.serve(w, r, name, b, false)
		return
	}
	w.Header().Set("X-Error-Message", "Repository not found")
	http.NotFound(w, r)
}

// serve sends b, honouring Range, or cuts it after half when a broken
// transfer is due.
func (h *fakeHub) serve(w http.ResponseWriter, r *http.Request, name string, b []byte, lfs bool) {
	h.mu.Lock()
	broken := lfs && h.brokenLFS > 0 && r.Header.Get("Range") == ""
	if broken {
		h.brokenLFS--
	}
	h.mu.Unlock()
	if broken {
		w.Header().Set("Content-Length", fmt.Sprint(len(b)))
		w.WriteHeader(http.StatusOK)
		w.Write(b[:len(b)/2])
		w.(http.Flusher).Flush()
		conn, _, err := w.(http.Hijacker).Hijack()
		if err != nil {
			h.t.Error(err)
			return
		}
		conn.Close()
		return
	}
	http.ServeContent(w, r, filepath.Base(name), time.Time{}, bytes.NewReader(b))
}

// checkPulled checks that dir holds the tiny model and embeds exactly like
// the original folder.
func checkPulled(t *testing.T, dir string) {
	t.Helper()
	for _, f := range []string{"onnx/model.onnx", "tokenizer.json", "config.json", "sentence_bert_config.json"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("pulled folder lacks %s: %v", f, err)
		}
	}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".") || strings.HasSuffix(e.Name(), ".part") {
			t.Errorf("pulled folder holds leftover %s", e.Name())
		}
	}
	got, want := openDir(t, dir, BackendGo), openTiny(t, BackendGo)
	if got.Dim() != want.Dim() {
		t.Fatalf("Dim %d, want %d", got.Dim(), want.Dim())
	}
	hash := func(id string) string { return id[strings.LastIndex(id, "-")+1:] }
	if hash(got.ModelID()) != hash(want.ModelID()) {
		t.Errorf("ModelID %s, want the weights of %s", got.ModelID(), want.ModelID())
	}
	var texts []string
	for _, s := range loadGolden(t).Sentences {
		texts = append(texts, s.Text)
	}
	a, b := embedOK(t, got, texts...), embedOK(t, want, texts...)
	for i := range texts {
		if d := maxDiff(a[i], b[i]); d > tol {
			t.Errorf("%q: pulled model differs from the original by %g", texts[i], d)
		}
	}
}

func noPath(t *testing.T, p string) {
	t.Helper()
	if _, err := os.Stat(p); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("%s exists (err %v), want nothing there", p, err)
	}
}

func oneLineErr(t *testing.T, err error) string {
	t.Helper()
	if err == nil {
		t.Fatal("Pull succeeded, want an error")
	}
	msg := err.Error()
	if strings.Contains(msg, "\n") {
		t.Errorf("error spans lines: %q", msg)
	}
	return msg
}

func TestPullFromFakeHub(t *testing.T) {
	hub := tinyHub(t, "acme/tiny-embed")
	hub.token = "hf_secret"
	srv := hub.start()
	t.Setenv(EnvHFEndpoint, srv.URL+"/")
	t.Setenv(EnvHFToken, hub.token)
	root := filepath.Join(t.TempDir(), "models")

	opts := PullOptionsFromEnv()
	var calls int
	var last [2]int64
	opts.Progress = func(done, total int64) { calls++; last = [2]int64{done, total} }
	dir, err := Pull(context.Background(), "acme/tiny-embed", root, opts)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(root, "acme__tiny-embed"); dir != want {
		t.Fatalf("dir %s, want %s", dir, want)
	}
	checkPulled(t, dir)
	noPath(t, filepath.Join(root, partialDir))

	var size int64
	for _, b := range hub.files {
		size += int64(len(b))
	}
	if calls < 2 || last != [2]int64{size, size} {
		t.Errorf("progress: %d calls, last %v, want done = total = %d", calls, last, size)
	}

	// Pulled already: no request at all, so it works offline.
	n := len(hub.requests())
	again, err := Pull(context.Background(), "acme/tiny-embed", root, PullOptions{Endpoint: "http://127.0.0.1:1"})
	if err != nil || again != dir {
		t.Fatalf("second Pull: %q, %v", again, err)
	}
	if len(hub.requests()) != n {
		t.Errorf("second Pull made requests: %v", hub.requests()[n:])
	}
}

// A transfer cut in the middle leaves no model folder; the next Pull asks
// for the rest with a Range request and finishes the same model.
func TestPullResumesBrokenTransfer(t *testing.T) {
	hub := tinyHub(t, "acme/tiny-embed")
	hub.brokenLFS = 1
	srv := hub.start()
	root := t.TempDir()
	opts := PullOptions{Endpoint: srv.URL}

	_, err := Pull(context.Background(), "acme/tiny-embed", root, opts)
	msg := oneLineErr(t, err)
	if !strings.Contains(msg, "onnx/model.onnx") || !strings.Contains(msg, "closed after") || !strings.Contains(msg, "resume") {
		t.Errorf("error %q should name the file and say how to resume", msg)
	}
	noPath(t, filepath.Join(root, "acme__tiny-embed"))

	dir, err := Pull(context.Background(), "acme/tiny-embed", root, opts)
	if err != nil {
		t.Fatal(err)
	}
	half := len(hub.files["onnx/model.onnx"]) / 2
	wantRange := fmt.Sprintf("bytes=%d-", half)
	resumed := false
	for _, r := range hub.requests() {
		resumed = resumed || strings.HasSuffix(r, wantRange)
	}
	if !resumed {
		t.Errorf("second Pull did not resume with %q: %v", wantRange, hub.requests())
	}
	checkPulled(t, dir)
	noPath(t, filepath.Join(root, partialDir))
}

func TestPullRetriesWithinOneCall(t *testing.T) {
	hub := tinyHub(t, "acme/tiny-embed")
	hub.brokenLFS = 1
	srv := hub.start()
	dir, err := Pull(context.Background(), "acme/tiny-embed", t.TempDir(), PullOptions{Endpoint: srv.URL, Retries: 1})
	if err != nil {
		t.Fatal(err)
	}
	checkPulled(t, dir)
}

// A new commit upstream between two attempts: the partial download of the
// old one is thrown away, never spliced with the new one.
func TestPullRestartsOnNewCommit(t *testing.T) {
	hub := tinyHub(t, "acme/tiny-embed")
	hub.brokenLFS = 1
	srv := hub.start()
	root := t.TempDir()
	if _, err := Pull(context.Background(), "acme/tiny-embed", root, PullOptions{Endpoint: srv.URL}); err == nil {
		t.Fatal("first Pull should fail")
	}
	hub.commit = "fedcba9876543210fedcba9876543210fedcba98"
	n := len(hub.requests())
	dir, err := Pull(context.Background(), "acme/tiny-embed", root, PullOptions{Endpoint: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range hub.requests()[n:] {
		if strings.Contains(r, "bytes=") {
			t.Errorf("resumed across commits: %s", r)
		}
	}
	checkPulled(t, dir)
}

// A mirror that lists names only (no sizes, hashes or commit) still works,
// pinned to the revision asked for; the total is reported as unknown.
func TestPullMinimalMirror(t *testing.T) {
	hub := tinyHub(t, "acme/tiny-embed")
	hub.noMeta = true
	srv := hub.start()
	var totals []int64
	dir, err := Pull(context.Background(), "acme/tiny-embed", t.TempDir(), PullOptions{
		Endpoint: srv.URL,
		Progress: func(_, total int64) { totals = append(totals, total) },
	})
	if err != nil {
		t.Fatal(err)
	}
	checkPulled(t, dir)
	if len(totals) == 0 || totals[len(totals)-1] != -1 {
		t.Errorf("totals %v, want -1 (unknown)", totals)
	}
}

func TestPullUnreachable(t *testing.T) {
	root := filepath.Join(t.TempDir(), "home", "models")
	_, err := Pull(context.Background(), DefaultModel, root, PullOptions{Endpoint: "http://127.0.0.1:1"})
	msg := oneLineErr(t, err)
	if !strings.HasPrefix(msg, "cannot reach http://127.0.0.1:1: ") {
		t.Errorf("error %q, want \"cannot reach http://127.0.0.1:1: ...\"", msg)
	}
	noPath(t, filepath.Dir(root))
}

func TestPullRefused(t *testing.T) {
	cases := []struct {
		name, repo string
		setup      func(h *fakeHub)
		want       []string
	}{
		{"no such model", "acme/nothing", nil, []string{"404", "acme/nothing", "no such model"}},
		{"no ONNX export", "acme/tiny-embed", func(h *fakeHub) { delete(h.files, "onnx/model.onnx"); h.extra = nil }, []string{"no ONNX export"}},
		{"only quantised ONNX", "acme/tiny-embed", func(h *fakeHub) {
			delete(h.files, "onnx/model.onnx")
			h.files["onnx/model_qint8_arm64.onnx"] = []byte("x")
			h.extra = nil
		}, []string{"no onnx/model.onnx or model.onnx", "model_qint8_arm64.onnx"}},
		{"no tokenizer", "acme/tiny-embed", func(h *fakeHub) { delete(h.files, "tokenizer.json") }, []string{"no tokenizer.json"}},
		{"token needed", "acme/tiny-embed", func(h *fakeHub) { h.token = "hf_secret" }, []string{"401", "Invalid credentials", "needs HF_TOKEN"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			hub := tinyHub(t, "acme/tiny-embed")
			if c.setup != nil {
				c.setup(hub)
			}
			srv := hub.start()
			root := filepath.Join(t.TempDir(), "models")
			_, err := Pull(context.Background(), c.repo, root, PullOptions{Endpoint: srv.URL})
			msg := oneLineErr(t, err)
			for _, w := range c.want {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q lacks %q", msg, w)
				}
			}
			noPath(t, root)
		})
	}
}

// Bytes that do not match the listing's SHA-256 are discarded, and no
// model folder appears.
func TestPullChecksumMismatch(t *testing.T) {
	hub := tinyHub(t, "acme/tiny-embed")
	hub.badSHA = true
	srv := hub.start()
	root := t.TempDir()
	_, err := Pull(context.Background(), "acme/tiny-embed", root, PullOptions{Endpoint: srv.URL})
	if msg := oneLineErr(t, err); !strings.Contains(msg, "SHA-256") {
		t.Errorf("error %q should name the SHA-256 mismatch", msg)
	}
	noPath(t, filepath.Join(root, "acme__tiny-embed"))
	noPath(t, filepath.Join(PartialDir(root, "acme__tiny-embed"), "onnx", "model.onnx.part"))
}

// A download that completes but does not load is removed entirely, so the
// next Pull starts clean and succeeds once the repository is fixed.
func TestPullUnloadableStartsClean(t *testing.T) {
	hub := tinyHub(t, "acme/tiny-embed")
	good := hub.files["tokenizer.json"]
	hub.files["tokenizer.json"] = []byte(`{"model": {"type": "WordPiece"}}`)
	srv := hub.start()
	root := t.TempDir()
	_, err := Pull(context.Background(), "acme/tiny-embed", root, PullOptions{Endpoint: srv.URL})
	if msg := oneLineErr(t, err); !strings.Contains(msg, "does not load") || !strings.Contains(msg, "tokenizer.json") {
		t.Errorf("error %q should say the model does not load and why", msg)
	}
	noPath(t, filepath.Join(root, "acme__tiny-embed"))
	noPath(t, PartialDir(root, "acme__tiny-embed"))

	hub.files["tokenizer.json"] = good
	dir, err := Pull(context.Background(), "acme/tiny-embed", root, PullOptions{Endpoint: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	checkPulled(t, dir)
}

func TestPullCancelled(t *testing.T) {
	hub := tinyHub(t, "acme/tiny-embed")
	srv := hub.start()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	root := t.TempDir()
	_, err := Pull(ctx, "acme/tiny-embed", root, PullOptions{Endpoint: srv.URL})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v, want context.Canceled", err)
	}
	noPath(t, filepath.Join(root, "acme__tiny-embed"))
}

func TestModelDirName(t *testing.T) {
	for name, want := range map[string]string{
		DefaultModel: "sentence-transformers__all-MiniLM-L6-v2",
		"sentence-transformers/paraphrase-multilingual-MiniLM-L12-v2": "sentence-transformers__paraphrase-multilingual-MiniLM-L12-v2",
		"bert-base-uncased": "bert-base-uncased",
		"a.b/c_d":           "a.b__c_d",
	} {
		got, err := ModelDirName(name)
		if err != nil || got != want {
			t.Errorf("ModelDirName(%q) = %q, %v; want %q", name, got, err, want)
		}
		if back := ModelNameFromDir(got); back != name {
			t.Errorf("ModelNameFromDir(%q) = %q, want %q", got, back, name)
		}
	}
	for _, bad := range []string{"", "/", "a/", "/a", "a//b", "a/b/c", "../x", "a/..", "a/..b", ".hidden/x", "a b/c", `a\b`, "a/b:main"} {
		if got, err := ModelDirName(bad); err == nil {
			t.Errorf("ModelDirName(%q) = %q, want an error", bad, got)
		}
	}
}
