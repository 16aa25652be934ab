package embed

// Pull downloads a sentence-transformers ONNX export from Hugging Face (or a
// mirror laid out like it) into a model folder that Open loads.
//
// It speaks the same protocol as hugot's DownloadModel (which delegates to
// github.com/gomlx/go-huggingface/hub): the repository listing at
// {endpoint}/api/models/{repo}/revision/{revision}, then every file from
// {endpoint}/{repo}/resolve/{commit}/{path}, HF_ENDPOINT for the endpoint
// and "Authorization: Bearer" for the token. It does not call hugot's
// downloader because, in hugot v0.6.1 / go-huggingface v0.3.1, that
// downloader
//
//   - accepts a body cut short as a complete file (a read error is wrapped
//     with errors.Wrapf(nil, ...), which is nil) and caches it under its ETag
//     in the shared ~/.cache/huggingface, so every later attempt, Python's
//     included, reuses the half file and never recovers;
//   - offers no progress callback (only \r lines on stdout) and no context;
//   - copies file by file into the destination, so an interruption leaves
//     a half model where a complete one is expected, and cannot resume;
//   - rejects sentence-transformers repositories, which ship several .onnx
//     variants, unless told which one, and never fetches
//     sentence_bert_config.json (the truncation length);
//   - sleeps RetryInterval seconds between attempts even when the host is
//     simply unreachable.
//
// So Pull does the transfer itself: into a staging folder next to the
// destination, with Range requests to resume, sizes and (for LFS files)
// SHA-256 checked against the listing, the folder loaded once with Open,
// then renamed into place, which is the atomic step.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// DefaultModel is what `palace model pull` fetches without a name: 384-d,
// English, about 90 MB. For Chinese or mixed-language palaces,
// sentence-transformers/paraphrase-multilingual-MiniLM-L12-v2 (also 384-d,
// about 470 MB) covers 50+ languages.
const DefaultModel = "sentence-transformers/all-MiniLM-L6-v2"

// DefaultEndpoint is Hugging Face itself.
const DefaultEndpoint = "https://huggingface.co"

// Environment variables read by PullOptionsFromEnv, named as Hugging Face's
// own tools name them so that a mirror or token set up for them works here.
const (
	EnvHFEndpoint = "HF_ENDPOINT"
	EnvHFToken    = "HF_TOKEN"
)

// partialDir is the folder under the destination root where unfinished
// downloads wait to be resumed. Its leading dot keeps it out of listings of
// pulled models.
const partialDir = ".partial"

// stallTimeout aborts a transfer that receives nothing for this long, so a
// dead connection fails (and can be resumed) instead of hanging.
const stallTimeout = time.Minute

// PullOptions configure Pull. The zero value pulls revision "main" from
// Hugging Face anonymously, without progress reports or retries.
type PullOptions struct {
	// Endpoint is the hub's base URL; empty means DefaultEndpoint.
	Endpoint string
	// Token is sent as "Authorization: Bearer <Token>" (gated or private
	// models); empty sends none.
	Token string
	// Revision is a branch, tag or commit; empty means "main". Every file
	// comes from the one commit the listing names, so a push to the branch
	// during the download cannot mix two versions.
	Revision string
	// Progress, if set, is called as bytes arrive with the bytes held so
	// far (resumed bytes included) and the total, or -1 while the total is
	// unknown. It is called from Pull's goroutine only.
	Progress func(done, total int64)
	// Retries is how many more times a broken transfer is tried, resuming
	// where it stopped, before Pull gives up (the next Pull resumes too).
	Retries int
	// Client makes the requests; nil means one with connection and header
	// timeouts that honours HTTPS_PROXY.
	Client *http.Client
}

// PullOptionsFromEnv reads HF_ENDPOINT and HF_TOKEN. Pull itself reads no
// environment, like Open, so tests and flags can override anything.
func PullOptionsFromEnv() PullOptions {
	return PullOptions{
		Endpoint: os.Getenv(EnvHFEndpoint),
		Token:    os.Getenv(EnvHFToken),
	}
}

// repoPart is one component of a Hugging Face repository id.
var repoPart = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

// ModelDirName is the folder name Pull stores the model called name under:
// "owner/model" becomes "owner__model". It rejects anything that is not a
// Hugging Face repository id ("model" or "owner/model"), so that a name can
// never escape the destination root.
func ModelDirName(name string) (string, error) {
	parts := strings.Split(name, "/")
	if len(parts) > 2 {
		return "", fmt.Errorf("model name %q: want OWNER/MODEL, e.g. %s", name, DefaultModel)
	}
	for _, p := range parts {
		if !repoPart.MatchString(p) || strings.Contains(p, "..") || len(p) > 96 {
			return "", fmt.Errorf("model name %q: want OWNER/MODEL, e.g. %s", name, DefaultModel)
		}
	}
	return strings.Join(parts, "__"), nil
}

// ModelNameFromDir reverses ModelDirName for display.
func ModelNameFromDir(dirName string) string {
	return strings.Replace(dirName, "__", "/", 1)
}

// PartialDir is where Pull keeps the unfinished download of the folder
// dirName (from ModelDirName) under destRoot, to be resumed by the next Pull.
func PartialDir(destRoot, dirName string) string {
	return filepath.Join(destRoot, partialDir, dirName)
}

// Pull downloads the model name (a Hugging Face repository id) into
// destRoot/<ModelDirName(name)> and returns that folder. If the folder
// already exists Pull returns it without any network access; delete it to
// pull again.
//
// The repository must hold onnx/model.onnx or model.onnx, tokenizer.json and
// config.json; sentence_bert_config.json is fetched when present. Files go to
// PartialDir first and the folder is renamed into place only once complete,
// checked and loaded by Open, so the destination never holds half a model.
// A failed transfer keeps what arrived and the next Pull resumes it; a
// folder that downloaded but does not load is removed, so the next Pull
// starts clean.
//
// An unreachable endpoint fails before anything is written, with a one-line
// error "cannot reach ENDPOINT: ...".
func Pull(ctx context.Context, name, destRoot string, opts PullOptions) (string, error) {
	dirName, err := ModelDirName(name)
	if err != nil {
		return "", err
	}
	dest := filepath.Join(destRoot, dirName)
	if _, err := os.Stat(dest); err == nil {
		return dest, nil
	}
	p := newPuller(name, opts)

	info, err := p.listing(ctx)
	if err != nil {
		return "", err
	}
	want, err := pickFiles(name, info)
	if err != nil {
		return "", err
	}
	commit := info.SHA
	if commit == "" {
		// A mirror that names no commit: pin to the revision as given.
		commit = p.revision
	}

	staging := PartialDir(destRoot, dirName)
	if err := p.prepareStaging(staging, commit); err != nil {
		return "", err
	}
	if err := p.fetchAll(ctx, staging, commit, want); err != nil {
		var fatal fatalError
		if errors.As(err, &fatal) {
			return "", fmt.Errorf("pull %s: %w", name, err)
		}
		return "", fmt.Errorf("pull %s: %w; run the same command again to resume", name, err)
	}

	// Load once before finalising: a folder that Open rejects must never
	// appear under its final name, and it is removed so that the next pull
	// starts clean instead of resuming into the same failure.
	if err := verifyModel(staging); err != nil {
		os.RemoveAll(staging)
		return "", fmt.Errorf("pull %s: the downloaded model does not load: %w", name, err)
	}
	if err := os.Remove(filepath.Join(staging, markerFile)); err != nil {
		return "", fmt.Errorf("pull %s: %w", name, err)
	}
	if err := os.Rename(staging, dest); err != nil {
		return "", fmt.Errorf("pull %s: move into place: %w", name, err)
	}
	os.Remove(filepath.Join(destRoot, partialDir)) // only if now empty
	return dest, nil
}

// verifyModel loads dir with the pure-Go backend, which needs no shared
// library and so checks the model the same way on every machine.
func verifyModel(dir string) error {
	e, _, err := Open(Config{ModelDir: dir, Backend: BackendGo})
	if err != nil {
		return err
	}
	if e == nil {
		return fmt.Errorf("%s: no model", dir)
	}
	return e.Close()
}

// ---- the hub protocol ----

// hubInfo is the part of the repository listing Pull reads. With
// ?blobs=true Hugging Face adds each file's size and, for LFS files, its
// SHA-256; a mirror that leaves them out still works, checked by
// Content-Length only.
type hubInfo struct {
	SHA      string    `json:"sha"`
	Siblings []hubFile `json:"siblings"`
}

type hubFile struct {
	Name string `json:"rfilename"`
	Size *int64 `json:"size"`
	LFS  *struct {
		SHA256 string `json:"sha256"`
		Size   int64  `json:"size"`
	} `json:"lfs"`
}

// wantFile is one file to fetch: its path in the repository, which is also
// its path in the model folder.
type wantFile struct {
	path   string
	size   int64 // -1 if the listing did not say
	sha256 string
}

func (f hubFile) want() wantFile {
	w := wantFile{path: f.Name, size: -1}
	if f.Size != nil {
		w.size = *f.Size
	}
	if f.LFS != nil {
		w.sha256 = strings.ToLower(f.LFS.SHA256)
		if f.LFS.Size > 0 {
			w.size = f.LFS.Size
		}
	}
	return w
}

// pickFiles chooses what a model folder needs from the listing: the
// unquantised export (onnx/model.onnx, as sentence-transformers publishes
// it, else model.onnx), the tokenizer, the config and, if present, the
// sentence-transformers config that sets the truncation length.
func pickFiles(name string, info *hubInfo) ([]wantFile, error) {
	byName := map[string]hubFile{}
	var onnx []string
	for _, f := range info.Siblings {
		byName[f.Name] = f
		if strings.HasSuffix(f.Name, ".onnx") {
			onnx = append(onnx, f.Name)
		}
	}
	var out []wantFile
	switch {
	case hasKey(byName, "onnx/model.onnx"):
		out = append(out, byName["onnx/model.onnx"].want())
	case hasKey(byName, "model.onnx"):
		out = append(out, byName["model.onnx"].want())
	case len(onnx) > 0:
		return nil, fmt.Errorf("pull %s: no onnx/model.onnx or model.onnx (it has %s); Palace needs the unquantised export", name, strings.Join(onnx, ", "))
	default:
		return nil, fmt.Errorf("pull %s: the repository has no ONNX export (onnx/model.onnx); pick a model that has one, or export it with optimum and use 'palace model use DIR'", name)
	}
	for _, req := range []string{"tokenizer.json", "config.json"} {
		f, ok := byName[req]
		if !ok {
			return nil, fmt.Errorf("pull %s: the repository has no %s", name, req)
		}
		out = append(out, f.want())
	}
	if f, ok := byName["sentence_bert_config.json"]; ok {
		out = append(out, f.want())
	}
	// Only these fixed names are ever written, so a listing cannot make
	// Pull write outside the staging folder.
	return out, nil
}

func hasKey(m map[string]hubFile, k string) bool {
	_, ok := m[k]
	return ok
}

type puller struct {
	name     string
	endpoint string
	revision string
	token    string
	client   *http.Client
	retries  int
	progress func(done, total int64)

	done  int64
	total int64 // -1 while unknown
}

func newPuller(name string, opts PullOptions) *puller {
	p := &puller{
		name:     name,
		endpoint: strings.TrimRight(opts.Endpoint, "/"),
		revision: opts.Revision,
		token:    opts.Token,
		client:   opts.Client,
		retries:  max(opts.Retries, 0),
		progress: opts.Progress,
		total:    -1,
	}
	if p.endpoint == "" {
		p.endpoint = DefaultEndpoint
	}
	if p.revision == "" {
		p.revision = "main"
	}
	if p.client == nil {
		t := http.DefaultTransport.(*http.Transport).Clone()
		t.ResponseHeaderTimeout = time.Minute
		// Go drops Authorization when a redirect leaves the host (Hugging
		// Face sends LFS files to a CDN), so the token stays with the hub.
		p.client = &http.Client{Transport: t}
	}
	return p
}

func (p *puller) request(ctx context.Context, rawURL string) (*http.Request, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, rawURL, nil)
	if err != nil {
		return nil, fmt.Errorf("pull %s: %w", p.name, err)
	}
	if p.token != "" {
		req.Header.Set("Authorization", "Bearer "+p.token)
	}
	req.Header.Set("User-Agent", "palace (model pull)")
	return req, nil
}

// unreachable turns a transport error (DNS, refused, TLS, timeout) into the
// one-line "cannot reach" error, keeping the cause for errors.Is.
func (p *puller) unreachable(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	return fmt.Errorf("cannot reach %s: %w", p.endpoint, err)
}

// statusError describes a refused request in one line, with what to do.
func (p *puller) statusError(resp *http.Response) error {
	msg := resp.Status
	if m := resp.Header.Get("X-Error-Message"); m != "" {
		msg += ": " + m
	}
	msg = oneLine(msg)
	switch resp.StatusCode {
	case http.StatusUnauthorized, http.StatusForbidden:
		// Hugging Face answers 401, not 404, for a model that does not
		// exist when asked anonymously.
		hint := "check the name; a private or gated model needs HF_TOKEN"
		if p.token != "" {
			hint = "check that HF_TOKEN may read it (gated models need their licence accepted on the website)"
		}
		return fmt.Errorf("%s; %s", msg, hint)
	case http.StatusNotFound:
		return fmt.Errorf("%s (no such model or revision %q at %s)", msg, p.revision, p.endpoint)
	}
	return errors.New(msg)
}

// listing fetches the repository's file list and commit: the first request,
// so that an unreachable endpoint fails before anything is written.
func (p *puller) listing(ctx context.Context) (*hubInfo, error) {
	u := fmt.Sprintf("%s/api/models/%s/revision/%s?blobs=true", p.endpoint, p.name, url.PathEscape(p.revision))
	req, err := p.request(ctx, u)
	if err != nil {
		return nil, err
	}
	resp, err := p.client.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("pull %s: %w", p.name, ctx.Err())
		}
		return nil, p.unreachable(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("pull %s: list files: %w", p.name, p.statusError(resp))
	}
	var info hubInfo
	if err := json.NewDecoder(io.LimitReader(resp.Body, 16<<20)).Decode(&info); err != nil {
		return nil, fmt.Errorf("pull %s: list files: %s does not answer like Hugging Face: %w", p.name, p.endpoint, err)
	}
	return &info, nil
}

// ---- staging ----

// markerFile records which commit a staging folder holds, so that a resume
// never splices bytes of two versions together.
const markerFile = ".palace-pull.json"

type marker struct {
	Name   string `json:"name"`
	Commit string `json:"commit"`
}

// prepareStaging keeps a staging folder left by an earlier pull of the same
// commit (to resume it) and clears any other.
func (p *puller) prepareStaging(staging, commit string) error {
	want := marker{Name: p.name, Commit: commit}
	if raw, err := os.ReadFile(filepath.Join(staging, markerFile)); err == nil {
		var got marker
		if json.Unmarshal(raw, &got) == nil && got == want {
			return nil
		}
	}
	if err := os.RemoveAll(staging); err != nil {
		return fmt.Errorf("pull %s: clear %s: %w", p.name, staging, err)
	}
	// 0700 like the palace home, which this may be creating.
	if err := os.MkdirAll(staging, 0o700); err != nil {
		return fmt.Errorf("pull %s: %w", p.name, err)
	}
	raw, _ := json.Marshal(want)
	if err := os.WriteFile(filepath.Join(staging, markerFile), raw, 0o644); err != nil {
		return fmt.Errorf("pull %s: %w", p.name, err)
	}
	return nil
}

// fetchAll downloads every file not already complete in staging.
func (p *puller) fetchAll(ctx context.Context, staging, commit string, files []wantFile) error {
	known := int64(0)
	for _, f := range files {
		if f.size < 0 {
			known = -1
			break
		}
		known += f.size
	}
	p.total = known
	var todo []wantFile
	for _, f := range files {
		target := filepath.Join(staging, filepath.FromSlash(f.path))
		if st, err := os.Stat(target); err == nil && (f.size < 0 || st.Size() == f.size) {
			p.done += st.Size() // finished by an earlier pull
			continue
		}
		if st, err := os.Stat(target + ".part"); err == nil {
			p.done += st.Size()
		}
		todo = append(todo, f)
	}
	p.report()
	for _, f := range todo {
		if err := p.fetch(ctx, staging, commit, f); err != nil {
			return err
		}
	}
	return nil
}

func (p *puller) report() {
	if p.progress != nil {
		p.progress(p.done, p.total)
	}
}

// fetch downloads one file into target.part, resuming it, retrying a
// broken transfer up to p.retries times, then checks it and renames it to
// target.
func (p *puller) fetch(ctx context.Context, staging, commit string, f wantFile) error {
	target := filepath.Join(staging, filepath.FromSlash(f.path))
	part := target + ".part"
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		return err
	}
	u := fmt.Sprintf("%s/%s/resolve/%s/%s", p.endpoint, p.name, url.PathEscape(commit), escapePath(f.path))
	for attempt := 0; ; attempt++ {
		err := p.fetchOnce(ctx, u, part, f)
		if err == nil {
			break
		}
		var fatal fatalError
		if ctx.Err() != nil || errors.As(err, &fatal) || attempt >= p.retries {
			return fmt.Errorf("download %s: %w", f.path, err)
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("download %s: %w", f.path, ctx.Err())
		case <-time.After(time.Duration(attempt+1) * time.Second):
		}
	}
	if err := checkFile(part, f); err != nil {
		// Wrong bytes cannot be resumed into right ones: start this file
		// over next time.
		os.Remove(part)
		return fmt.Errorf("download %s: %w", f.path, err)
	}
	if err := os.Rename(part, target); err != nil {
		return fmt.Errorf("download %s: %w", f.path, err)
	}
	return nil
}

// fatalError marks a failure that retrying the transfer cannot fix (the
// server refused the file).
type fatalError struct{ err error }

func (e fatalError) Error() string { return e.err.Error() }
func (e fatalError) Unwrap() error { return e.err }

// fetchOnce makes one request for the rest of part.
func (p *puller) fetchOnce(ctx context.Context, u, part string, f wantFile) error {
	var offset int64
	if st, err := os.Stat(part); err == nil {
		offset = st.Size()
	}
	if f.size >= 0 && offset == f.size {
		if offset == 0 {
			return os.WriteFile(part, nil, 0o644)
		}
		return nil // complete; checkFile decides whether it is right
	}
	if f.size >= 0 && offset > f.size {
		p.restart(part, offset)
		offset = 0
	}

	// Abort a transfer that stalls: the request's context is cancelled
	// when no byte arrives for stallTimeout.
	rctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	stalled := errors.New("no data for " + stallTimeout.String())
	watchdog := time.AfterFunc(stallTimeout, func() { cancel(stalled) })
	defer watchdog.Stop()

	req, err := p.request(rctx, u)
	if err != nil {
		return fatalError{err}
	}
	if offset > 0 {
		req.Header.Set("Range", fmt.Sprintf("bytes=%d-", offset))
	}
	resp, err := p.client.Do(req)
	if err != nil {
		if cause := context.Cause(rctx); cause != nil && ctx.Err() == nil {
			return cause
		}
		var ue *url.Error
		if errors.As(err, &ue) {
			return ue.Err
		}
		return err
	}
	defer resp.Body.Close()

	flags := os.O_WRONLY | os.O_CREATE | os.O_APPEND
	switch {
	case resp.StatusCode == http.StatusPartialContent && offset > 0:
		if start, ok := contentRangeStart(resp.Header.Get("Content-Range")); !ok || start != offset {
			p.restart(part, offset)
			return fmt.Errorf("server resumed at the wrong place (%q for byte %d)", resp.Header.Get("Content-Range"), offset)
		}
	case resp.StatusCode == http.StatusOK:
		// The whole file, whether or not a range was asked for.
		if offset > 0 {
			p.restart(part, offset)
			offset = 0
		}
		flags |= os.O_TRUNC
	case resp.StatusCode == http.StatusRequestedRangeNotSatisfiable:
		// The part is as long as the file or longer: start over.
		p.restart(part, offset)
		return errors.New("416 Requested Range Not Satisfiable; the partial file was discarded")
	default:
		return fatalError{p.statusError(resp)}
	}
	out, err := os.OpenFile(part, flags, 0o644)
	if err != nil {
		return fatalError{err}
	}
	buf := make([]byte, 256<<10)
	var n int64
	for {
		k, rerr := resp.Body.Read(buf)
		if k > 0 {
			watchdog.Reset(stallTimeout)
			if _, werr := out.Write(buf[:k]); werr != nil {
				out.Close()
				return fatalError{werr}
			}
			n += int64(k)
			p.done += int64(k)
			p.report()
		}
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			out.Close()
			if cause := context.Cause(rctx); cause != nil && ctx.Err() == nil {
				return cause
			}
			if errors.Is(rerr, io.ErrUnexpectedEOF) && resp.ContentLength >= 0 {
				return fmt.Errorf("connection closed after %d of %d bytes: %w", offset+n, offset+resp.ContentLength, rerr)
			}
			return rerr
		}
	}
	if err := out.Close(); err != nil {
		return fatalError{err}
	}
	// net/http already reports a body shorter than its Content-Length as
	// io.ErrUnexpectedEOF; this catches a server that sent none.
	if resp.ContentLength >= 0 && n != resp.ContentLength {
		return fmt.Errorf("got %d of %d bytes", n, resp.ContentLength)
	}
	return nil
}

// restart forgets a partial file's bytes.
func (p *puller) restart(part string, had int64) {
	os.Remove(part)
	p.done -= had
	p.report()
}

// checkFile compares a finished download with the listing: its size and,
// for LFS files, its SHA-256.
func checkFile(path string, f wantFile) error {
	st, err := os.Stat(path)
	if err != nil {
		return err
	}
	if f.size >= 0 && st.Size() != f.size {
		return fmt.Errorf("got %d bytes, the listing says %d", st.Size(), f.size)
	}
	if f.sha256 == "" {
		return nil
	}
	sum, err := fileSHA256(path)
	if err != nil {
		return err
	}
	if sum != f.sha256 {
		return fmt.Errorf("SHA-256 %s, the listing says %s", sum[:12], f.sha256[:min(12, len(f.sha256))])
	}
	return nil
}

// contentRangeStart parses "bytes START-END/TOTAL".
func contentRangeStart(h string) (int64, bool) {
	rest, ok := strings.CutPrefix(h, "bytes ")
	if !ok {
		return 0, false
	}
	start, _, ok := strings.Cut(rest, "-")
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseInt(start, 10, 64)
	return n, err == nil
}

// escapePath escapes each segment of a repository path, keeping the slashes.
func escapePath(p string) string {
	segs := strings.Split(path.Clean(p), "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return strings.Join(segs, "/")
}
