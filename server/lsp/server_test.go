package lsp

import (
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"

	"github.com/palace-dev/palace/core/code"
)

// started returns a client initialized on a fresh copy of the fixture, with
// the first mine finished.
func started(t *testing.T, initOpts map[string]any) (*testClient, string) {
	t.Helper()
	root := writeTree(t, t.TempDir(), fixture)
	c := startServer(t, Options{})
	if initOpts == nil {
		initOpts = map[string]any{}
	}
	if _, ok := initOpts["wing"]; !ok {
		initOpts["wing"] = "proj"
	}
	c.initialize(initOpts, root)
	c.waitNote(0, "$/progress", func(m map[string]any) bool {
		return m["value"].(map[string]any)["kind"] == "end"
	}, 30*time.Second)
	c.waitIdle()
	return c, root
}

func TestInitializeAdvertisesCapabilities(t *testing.T) {
	c := startServer(t, Options{Version: "test"})
	res := c.initialize(nil, t.TempDir())
	caps := res["capabilities"].(map[string]any)
	sync := caps["textDocumentSync"].(map[string]any)
	if sync["openClose"] != true || sync["change"] != float64(1) {
		t.Errorf("textDocumentSync = %v, want openClose and full change sync", sync)
	}
	if save, ok := sync["save"].(map[string]any); !ok || save["includeText"] == true {
		t.Errorf("save = %v, want save without text", sync["save"])
	}
	ws := caps["workspace"].(map[string]any)
	if wf := ws["workspaceFolders"].(map[string]any); wf["supported"] != true || wf["changeNotifications"] != true {
		t.Errorf("workspaceFolders = %v", wf)
	}
	ops := ws["fileOperations"].(map[string]any)
	if ops["didDelete"] == nil || ops["didRename"] == nil {
		t.Errorf("fileOperations = %v, want didDelete and didRename", ops)
	}
	exp := caps["experimental"].(map[string]any)["palace"].(map[string]any)
	got := strings.Join(toStrings(exp["requests"]), " ")
	for _, m := range customRequests {
		if !strings.Contains(got, m) {
			t.Errorf("experimental.palace.requests lacks %s: %v", m, got)
		}
	}
	if caps["hoverProvider"] != nil {
		t.Errorf("hover advertised without initializationOptions.hover")
	}
	if info := res["serverInfo"].(map[string]any); info["name"] != "palace" || info["version"] != "test" {
		t.Errorf("serverInfo = %v", info)
	}
	if err := c.shutdown(); err != nil {
		t.Fatalf("Serve after shutdown/exit = %v, want nil", err)
	}
}

func toStrings(v any) []string {
	var out []string
	for _, x := range v.([]any) {
		out = append(out, x.(string))
	}
	return out
}

func TestInitialMineReportsProgress(t *testing.T) {
	c, root := started(t, nil)
	var kinds []string
	c.mu.Lock()
	for _, n := range c.notes {
		if n.Method == "$/progress" {
			var m struct {
				Value struct{ Kind, Title, Message string }
			}
			_ = jsonUnmarshal(n.Params, &m)
			kinds = append(kinds, m.Value.Kind)
			if m.Value.Kind == "begin" && !strings.Contains(m.Value.Title, filepath.Base(root)) {
				t.Errorf("begin title %q does not name the folder", m.Value.Title)
			}
		}
	}
	reqs := strings.Join(c.requests, " ")
	c.mu.Unlock()
	if len(kinds) < 2 || kinds[0] != "begin" || kinds[len(kinds)-1] != "end" {
		t.Errorf("progress kinds = %v, want begin ... end", kinds)
	}
	if !strings.Contains(reqs, "window/workDoneProgress/create") || !strings.Contains(reqs, "client/registerCapability") {
		t.Errorf("server requests = %s, want a progress token and a file watcher registration", reqs)
	}
	st := c.mustCall("palace/status", nil)
	if n := st["drawers"].(float64); n < 4 {
		t.Errorf("drawers after the first mine = %v, want the fixture's", n)
	}
	f := st["server"].(map[string]any)["folders"].([]any)[0].(map[string]any)
	if f["wing"] != "proj" || f["mines"].(float64) != 1 {
		t.Errorf("folder status = %v", f)
	}
	// Ignored files are not mined.
	res := c.mustCall("palace/search", map[string]any{"query": "generated"})
	if len(hitsOf(t, res)) != 0 {
		t.Errorf("an ignored file was mined: %v", res["hits"])
	}
}

func TestSaveThenSearchFindsNewText(t *testing.T) {
	c, root := started(t, nil)
	path := filepath.Join(root, "src", "checksum.go")
	m := c.save(path, fixture["src/checksum.go"]+"\n// zanzibarquux marks the saved text.\n")
	n := c.waitIndexed(m, path)
	if n["drawers"].(float64) < 1 || n["wing"] != "proj" || n["skipped"] != nil {
		t.Errorf("didIndex = %v", n)
	}
	if ms, ok := n["ms"].(float64); !ok || ms <= 0 {
		t.Errorf("didIndex ms = %v", n["ms"])
	}
	hits := hitsOf(t, c.mustCall("palace/search", map[string]any{"query": "zanzibarquux"}))
	if len(hits) != 1 || hits[0]["source"] != path {
		t.Fatalf("search after save = %v", hits)
	}
	h := hits[0]
	if h["uri"] != fileURI(path) || h["range"] == nil || h["citation"] == nil || h["why"] == nil || h["time"] == nil {
		t.Errorf("hit lacks uri, range, citation, time or why: %v", h)
	}
	if !strings.Contains(h["snippet"].(string), "**zanzibarquux**") {
		t.Errorf("snippet %q does not mark the match", h["snippet"])
	}
	// The old text is gone: drawers are replaced, not added.
	m = c.save(path, "package upload\n")
	c.waitIndexed(m, path)
	if hits := hitsOf(t, c.mustCall("palace/search", map[string]any{"query": "zanzibarquux"})); len(hits) != 0 {
		t.Errorf("old text still found after the file changed: %v", hits)
	}
}

func TestSaveIgnoredAndOutsideFiles(t *testing.T) {
	c, root := started(t, nil)
	ignored := filepath.Join(root, "notes.tmp")
	m := c.save(ignored, "transient thoughts\n")
	if n := c.waitIndexed(m, ignored); n["skipped"] != "ignored" || n["drawers"].(float64) != 0 {
		t.Errorf("didIndex of an ignored file = %v", n)
	}
	outside := filepath.Join(t.TempDir(), "elsewhere.txt")
	m = c.save(outside, "elsewhere\n")
	if n := c.waitIndexed(m, outside); n["skipped"] != "outside workspace" {
		t.Errorf("didIndex of a file outside the folders = %v", n)
	}
}

func TestSaveBurstIsCoalesced(t *testing.T) {
	c, root := started(t, nil)
	before := c.waitIdle()["server"].(map[string]any)["mines"].(float64)
	path := filepath.Join(root, "src", "download.go")
	m := c.mark()
	for i := 0; i < 20; i++ {
		c.save(path, fixture["src/download.go"]+strings.Repeat("// burst\n", i)+"// finalversionmarker\n")
	}
	c.waitIndexed(m, path)
	after := c.waitIdle()["server"].(map[string]any)["mines"].(float64)
	if mines := after - before; mines < 1 || mines > 3 {
		t.Errorf("20 saves in a burst ran %v mines, want them coalesced into 1 to 3", mines)
	}
	if hits := hitsOf(t, c.mustCall("palace/search", map[string]any{"query": "finalversionmarker"})); len(hits) != 1 {
		t.Errorf("the last save is not searchable: %v", hits)
	}
}

func TestFileEventsPruneAndMine(t *testing.T) {
	c, root := started(t, nil)
	// A file deleted outside the editor (git checkout) leaves the palace.
	gone := filepath.Join(root, "src", "download.go")
	if err := os.Remove(gone); err != nil {
		t.Fatal(err)
	}
	c.notify("workspace/didChangeWatchedFiles", map[string]any{"changes": []map[string]any{{"uri": fileURI(gone), "type": 3}}})
	c.waitIdle()
	waitFor(t, func() bool {
		return len(hitsOf(t, c.mustCall("palace/search", map[string]any{"query": "fetch download", "source": gone}))) == 0
	})
	// A file created outside the editor is mined.
	added := filepath.Join(root, "src", "retry.go")
	writeTree(t, root, map[string]string{"src/retry.go": "package upload\n\n// retryquota bounds retries.\n"})
	c.notify("workspace/didChangeWatchedFiles", map[string]any{"changes": []map[string]any{{"uri": fileURI(added), "type": 1}}})
	waitFor(t, func() bool {
		return len(hitsOf(t, c.mustCall("palace/search", map[string]any{"query": "retryquota"}))) == 1
	})
	// So is one in a package named venv, which is no virtual environment.
	venv := filepath.Join(root, "src", "venv", "scripts.py")
	writeTree(t, root, map[string]string{"src/venv/scripts.py": "# activatequote quotes the template strings.\n"})
	c.notify("workspace/didChangeWatchedFiles", map[string]any{"changes": []map[string]any{{"uri": fileURI(venv), "type": 1}}})
	waitFor(t, func() bool {
		return len(hitsOf(t, c.mustCall("palace/search", map[string]any{"query": "activatequote"}))) == 1
	})
	// A rename in the editor: the old path goes, the new one comes.
	renamed := filepath.Join(root, "src", "retries.go")
	if err := os.Rename(added, renamed); err != nil {
		t.Fatal(err)
	}
	c.notify("workspace/didRenameFiles", map[string]any{"files": []map[string]any{{"oldUri": fileURI(added), "newUri": fileURI(renamed)}}})
	waitFor(t, func() bool {
		hits := hitsOf(t, c.mustCall("palace/search", map[string]any{"query": "retryquota"}))
		return len(hits) == 1 && hits[0]["source"] == renamed
	})
	// A delete in the editor.
	if err := os.Remove(renamed); err != nil {
		t.Fatal(err)
	}
	c.notify("workspace/didDeleteFiles", map[string]any{"files": []map[string]any{{"uri": fileURI(renamed)}}})
	waitFor(t, func() bool {
		return len(hitsOf(t, c.mustCall("palace/search", map[string]any{"query": "retryquota"}))) == 0
	})
}

func waitFor(t *testing.T, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatal("condition not met within 20s")
		}
		time.Sleep(30 * time.Millisecond)
	}
}

// The definition of the name under the cursor comes first, from another
// file; then the design note that names it and the enclosing function.
func TestRelevantPutsTheDefinitionThenTheDesignNoteFirst(t *testing.T) {
	c, root := started(t, nil)
	chat := addConversation(t, c.home, "user: why is computeChecksum not SHA-256?\nassistant: speed; see the decisions doc.")
	path := filepath.Join(root, "src", "upload.go")
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": fileURI(path), "languageId": "go", "version": 1, "text": fixture["src/upload.go"]}})
	res := c.mustCall("palace/relevant", map[string]any{
		"textDocument": map[string]string{"uri": fileURI(path)},
		"position":     map[string]int{"line": cursorLine, "character": cursorChar},
	})
	clues := res["clues"].(map[string]any)
	if clues["identifier"] != "computeChecksum" || toStrings(clues["enclosing"])[0] != "verifyUpload" {
		t.Errorf("clues = %v, want computeChecksum inside verifyUpload", clues)
	}
	if !strings.Contains(res["query"].(string), "computeChecksum") {
		t.Errorf("query = %q", res["query"])
	}
	hits := hitsOf(t, res)
	if len(hits) < 3 {
		t.Fatalf("relevant hits = %v", hits)
	}
	if !strings.HasSuffix(hits[0]["source"].(string), filepath.Join("src", "checksum.go")) || hits[0]["why"] != "definition of computeChecksum" {
		t.Errorf("first hit = %v (%v), want the definition in src/checksum.go", hits[0]["citation"], hits[0]["why"])
	}
	if !strings.HasSuffix(hits[1]["source"].(string), filepath.Join("docs", "decisions.md")) {
		t.Errorf("second hit = %v (%v), want docs/decisions.md", hits[1]["citation"], hits[1]["why"])
	}
	if why := hits[1]["why"].(string); !strings.HasPrefix(why, "mentions computeChecksum, verifyUpload (enclosing)") {
		t.Errorf("why = %q", why)
	}
	foundChat := false
	for _, h := range hits {
		if h["source"] == path {
			t.Errorf("the drawer of the lines on screen came back: %v", h["citation"])
		}
		if h["id"] == chat {
			foundChat = true
		}
	}
	if !foundChat {
		t.Errorf("the conversation mentioning computeChecksum is missing: %v", hits)
	}
	if len(toStrings(res["excluded"])) == 0 {
		t.Errorf("no drawer reported as excluded")
	}
	// A selection works too, and a closed file is read from disk.
	c.notify("textDocument/didClose", map[string]any{"textDocument": map[string]string{"uri": fileURI(path)}})
	res = c.mustCall("palace/relevant", map[string]any{
		"textDocument": map[string]string{"uri": fileURI(path)},
		"range":        map[string]any{"start": map[string]int{"line": 5, "character": 0}, "end": map[string]int{"line": 7, "character": 0}},
		"limit":        2,
	})
	if hits := hitsOf(t, res); len(hits) != 2 {
		t.Errorf("limit 2 gave %d hits", len(hits))
	}
}

func TestErrors(t *testing.T) {
	c, _ := started(t, nil)
	manyWords := strings.Repeat("dial ", 500) // a repeated word counts once
	for i := range 64 {
		manyWords += fmt.Sprintf("w%d ", i)
	}
	cases := []struct {
		method string
		params any
		code   jsonrpc2.Code
		msg    string
	}{
		{"palace/nope", nil, jsonrpc2.MethodNotFound, "palace/nope"},
		{"palace/search", map[string]any{}, jsonrpc2.InvalidParams, "query is empty"},
		{"palace/search", map[string]any{"query": "x", "kind": "poem"}, jsonrpc2.InvalidParams, "kind"},
		{"palace/search", map[string]any{"query": "x", "limit": "ten"}, jsonrpc2.InvalidParams, "limit: want an integer"},
		{"palace/search", map[string]any{"query": "x", "limit": 1000}, jsonrpc2.InvalidParams, "limit"},
		{"palace/search", map[string]any{"query": "x", "limit": 0}, jsonrpc2.InvalidParams, "limit 0: want 1 to 100"},
		{"palace/search", map[string]any{"query": " "}, jsonrpc2.InvalidParams, "query is empty"},
		{"palace/search", map[string]any{"query": "x", "mode": "fuzzy"}, jsonrpc2.InvalidParams, "mode"},
		{"palace/search", map[string]any{"query": "x", "since": "last week"}, jsonrpc2.InvalidParams, "since"},
		{"palace/search", map[string]any{"query": strings.Repeat("dial ", 8000)}, jsonrpc2.InvalidParams, "query is 40000 characters long: at most 4096"},
		{"palace/search", map[string]any{"query": manyWords}, jsonrpc2.InvalidParams, "query has 65 distinct words: at most 64"},
		{"palace/search", map[string]any{"query": "x", "wing": "porj"}, jsonrpc2.InvalidParams, `wing "porj": no such wing (wings: proj)`},
		{"palace/drawer", map[string]any{"id": "d_missing", "neighbours": 6}, jsonrpc2.InvalidParams, "neighbours 6: want 0 to 5"},
		{"palace/wakeUp", map[string]any{"wing": "porj"}, jsonrpc2.InvalidParams, `wing "porj": no such wing (wings: proj)`},
		{"palace/wakeUp", map[string]any{"budget": 0}, jsonrpc2.InvalidParams, "budget 0"},
		{"palace/search", []int{1}, jsonrpc2.InvalidParams, "want an object"},
		{"palace/relevant", map[string]any{"textDocument": map[string]string{"uri": "file:///x.go"}}, jsonrpc2.InvalidParams, "position or range"},
		{"palace/relevant", map[string]any{"position": map[string]int{"line": 0, "character": 0}}, jsonrpc2.InvalidParams, "textDocument.uri"},
		{"palace/relevant", map[string]any{"textDocument": map[string]string{"uri": "file:///x.go"}, "position": map[string]int{"line": -1}}, jsonrpc2.InvalidParams, "position.line"},
		{"palace/relevant", map[string]any{"textDocument": map[string]string{"uri": "file:///nonexistent/x.go"}, "position": map[string]int{"line": 0}}, jsonrpc2.InvalidParams, "outside every workspace folder"},
		{"palace/drawer", map[string]any{"id": "d_missing"}, jsonrpc2.InvalidParams, "not found"},
		{"palace/drawer", map[string]any{}, jsonrpc2.InvalidParams, "id is empty"},
		{"palace/forget", map[string]any{"id": "d_missing"}, jsonrpc2.InvalidParams, "not found"},
		{"palace/forget", map[string]any{"id": "d_missing", "purge": true}, jsonrpc2.InvalidParams, "not found"},
		{"palace/forget", map[string]any{"id": " "}, jsonrpc2.InvalidParams, "id is empty"},
		{"palace/forget", map[string]any{"id": "x", "purge": "yes"}, jsonrpc2.InvalidParams, "purge: want a boolean"},
		{"palace/remember", map[string]any{"text": "  "}, jsonrpc2.InvalidParams, "text is empty"},
		{"palace/remember", map[string]any{"text": "x", "importance": 9}, jsonrpc2.InvalidParams, "importance"},
		{"palace/wakeUp", map[string]any{"format": "poem"}, jsonrpc2.InvalidParams, "format"},
		{"initialize", map[string]any{}, jsonrpc2.InvalidParams, "already initialized"},
		// palace/* methods refuse what they do not take, as the MCP tools do.
		{"palace/mine", map[string]any{"mode": "convos"}, jsonrpc2.InvalidParams, "mode: unknown parameter"},
		{"palace/search", map[string]any{"query": "x", "wnig": "proj"}, jsonrpc2.InvalidParams, "wnig: unknown parameter"},
		{"palace/relevant", map[string]any{"textDocument": map[string]string{"uri": "file:///x.go", "lang": "go"}, "position": map[string]int{"line": 0}}, jsonrpc2.InvalidParams, "lang: unknown parameter"},
	}
	for _, tc := range cases {
		we := c.callErr(tc.method, tc.params)
		if we.Code != tc.code || !strings.Contains(we.Message, tc.msg) {
			t.Errorf("%s %v: error %d %q, want %d containing %q", tc.method, tc.params, we.Code, we.Message, tc.code, tc.msg)
		}
	}
	// Cancelling a request that is not running, and unknown notifications,
	// are ignored; the session survives all of the above.
	c.notify("$/cancelRequest", map[string]any{"id": 99999})
	c.notify("$/somethingNew", map[string]any{})
	c.notify("workspace/unknownNotification", nil)
	c.mustCall("palace/status", nil)
}

func TestBeforeInitializeAndAfterShutdown(t *testing.T) {
	c := startServer(t, Options{})
	if we := c.callErr("palace/status", nil); we.Code != jsonrpc2.ServerNotInitialized {
		t.Errorf("before initialize: %d %q", we.Code, we.Message)
	}
	c.initialize(map[string]any{"mineOnStartup": false})
	var res any
	if err := c.call("shutdown", nil, &res); err != nil {
		t.Fatal(err)
	}
	if we := c.callErr("palace/status", nil); we.Code != jsonrpc2.InvalidRequest {
		t.Errorf("after shutdown: %d %q", we.Code, we.Message)
	}
	c.notify("exit", nil)
	if err := <-c.done; err != nil {
		t.Errorf("Serve = %v, want nil", err)
	}
	c.done <- nil
}

func TestExitWithoutShutdown(t *testing.T) {
	c := startServer(t, Options{})
	c.initialize(nil)
	c.notify("exit", nil)
	err := <-c.done
	c.done <- err
	if !errors.Is(err, ErrNoShutdown) {
		t.Errorf("Serve = %v, want ErrNoShutdown", err)
	}
}

func TestRememberDrawerForget(t *testing.T) {
	c, root := started(t, nil)
	path := filepath.Join(root, "src", "checksum.go")
	res := c.mustCall("palace/remember", map[string]any{
		"uri":   fileURI(path),
		"range": map[string]any{"start": map[string]int{"line": 6, "character": 0}, "end": map[string]int{"line": 8, "character": 0}},
		"room":  "decisions",
	})
	if res["added"] != true || res["wing"] != "proj" || res["room"] != "decisions" {
		t.Fatalf("remember = %v", res)
	}
	if want := path + ":7-8"; res["source"] != want {
		t.Errorf("source = %v, want %s", res["source"], want)
	}
	id := res["id"].(string)
	d := c.mustCall("palace/drawer", map[string]any{"id": id})
	if d["kind"] != "note" || !strings.HasPrefix(d["content"].(string), "// computeChecksum returns") {
		t.Errorf("drawer = %v", d)
	}
	// The same selection again is a duplicate, an answer rather than an error.
	if again := c.mustCall("palace/remember", map[string]any{"text": d["content"], "wing": "proj"}); again["added"] != false {
		t.Errorf("duplicate remember = %v", again)
	}
	if f := c.mustCall("palace/forget", map[string]any{"id": id}); f["deleted"] != true {
		t.Errorf("forget = %v", f)
	}
	// The same answer as MCP's and the CLI's: already_deleted.
	if f := c.mustCall("palace/forget", map[string]any{"id": id}); f["deleted"] != false || f["already_deleted"] != true || f["deleted_at"] == nil {
		t.Errorf("forget again = %v", f)
	}
	if d := c.mustCall("palace/drawer", map[string]any{"id": id}); d["deleted_at"] == nil || d["content"] == "" {
		t.Errorf("a forgotten drawer should stay readable with deleted_at: %v", d)
	}
	// Purge erases what forget kept.
	if f := c.mustCall("palace/forget", map[string]any{"id": id, "purge": true}); f["purged"] != true || f["purged_at"] == nil {
		t.Errorf("purge = %v", f)
	}
	if d := c.mustCall("palace/drawer", map[string]any{"id": id}); d["content"] != "" || d["purged_at"] == nil {
		t.Errorf("a purged drawer keeps its content: %v", d)
	}
	if f := c.mustCall("palace/forget", map[string]any{"id": id, "purge": true}); f["purged"] != false || f["already_purged"] != true {
		t.Errorf("purge again = %v", f)
	}
}

func TestWakeUpAndStatus(t *testing.T) {
	c, root := started(t, nil)
	c.mustCall("palace/remember", map[string]any{"text": "Uploads are verified with CRC-32C.", "importance": 5})
	w := c.mustCall("palace/wakeUp", map[string]any{})
	if w["wing"] != "proj" || !strings.Contains(w["text"].(string), "CRC-32C") {
		t.Errorf("wakeUp = %v", w)
	}
	st := c.mustCall("palace/status", nil)
	srv := st["server"].(map[string]any)
	f := srv["folders"].([]any)[0].(map[string]any)
	if f["path"] != root || f["state"] != "idle" || f["last"] == nil {
		t.Errorf("status folder = %v", f)
	}
	if srv["client"] != "go-test" || st["schema_version"] == nil {
		t.Errorf("status = %v", st)
	}
}

func TestHoverWhenEnabled(t *testing.T) {
	c, root := started(t, map[string]any{"hover": true})
	path := filepath.Join(root, "src", "upload.go")
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": fileURI(path), "languageId": "go", "version": 1, "text": fixture["src/upload.go"]}})
	res := c.mustCall("textDocument/hover", map[string]any{
		"textDocument": map[string]string{"uri": fileURI(path)},
		"position":     map[string]int{"line": cursorLine, "character": cursorChar},
	})
	v := res["contents"].(map[string]any)["value"].(string)
	// The drawer's lines in a fenced block of the file's language, not a
	// '>' quote, where Markdown garbles code.
	if !strings.Contains(v, "2 memories mention `computeChecksum`") || !strings.Contains(v, "```go\n") ||
		!strings.Contains(v, "\nfunc computeChecksum(b []byte) uint32 {\n\treturn crc32.Checksum(b, table)\n") ||
		strings.Contains(v, "\n> ") || strings.Contains(v, "**computeChecksum**") {
		t.Errorf("hover = %q", v)
	}
	var none any
	if err := c.call("textDocument/hover", map[string]any{
		"textDocument": map[string]string{"uri": fileURI(path)}, "position": map[string]int{"line": 1, "character": 0},
	}, &none); err != nil || none != nil {
		t.Errorf("hover on an empty line = %v, %v; want null", none, err)
	}
}

func TestFolderWingsAndWorkspaceChanges(t *testing.T) {
	a := writeTree(t, t.TempDir(), map[string]string{"a.md": "alphaonly words\n"})
	b := writeTree(t, t.TempDir(), map[string]string{"b.md": "betaonly words\n", "palace.yaml": "wing: from-yaml\n"})
	c := startServer(t, Options{})
	c.initialize(map[string]any{"wings": map[string]string{fileURI(a): "wing-a"}}, a)
	c.waitIdle()
	c.notify("workspace/didChangeWorkspaceFolders", map[string]any{"event": map[string]any{
		"added": []map[string]string{{"uri": fileURI(b), "name": "b"}}, "removed": []any{}}})
	// The wing exists once the new folder is mined (until then a search in
	// it is refused as an unknown wing).
	waitFor(t, func() bool {
		hits := hitsOf(t, c.mustCall("palace/search", map[string]any{"query": "betaonly"}))
		return len(hits) == 1 && hits[0]["wing"] == "from-yaml"
	})
	if hits := hitsOf(t, c.mustCall("palace/search", map[string]any{"query": "betaonly", "wing": "from-yaml"})); len(hits) != 1 {
		t.Errorf("folder wing from palace.yaml: %v", hits)
	}
	if hits := hitsOf(t, c.mustCall("palace/search", map[string]any{"query": "alphaonly", "wing": "wing-a"})); len(hits) != 1 {
		t.Errorf("folder wing from initializationOptions: %v", hits)
	}
}

// TestBusyPalaceWaits holds the palace's write lock from another connection
// (another process, as far as SQLite knows) while a file is saved: the save
// waits and is indexed once the lock goes, and no error reaches the client.
func TestBusyPalaceWaits(t *testing.T) {
	c, root := started(t, nil)
	db, err := sql.Open("sqlite3", "file:"+filepath.Join(c.home, "palace.db")+"?_txlock=immediate&_busy_timeout=5000")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(`INSERT INTO meta (key, value) VALUES ('lsp-test-lock', '1')`); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(root, "src", "checksum.go")
	m := c.save(path, fixture["src/checksum.go"]+"// heldlockmarker\n")
	time.Sleep(700 * time.Millisecond)
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	n := c.waitIndexed(m, path)
	if n["error"] != nil || n["drawers"].(float64) < 1 || n["ms"].(float64) < 600 {
		t.Errorf("didIndex while the palace was held = %v", n)
	}
	if hits := hitsOf(t, c.mustCall("palace/search", map[string]any{"query": "heldlockmarker"})); len(hits) != 1 {
		t.Errorf("not searchable after the lock went: %v", hits)
	}
}

// Relevant reads the editor's current text: an unsaved edit is what the
// cursor is on.
func TestRelevantSeesUnsavedEdits(t *testing.T) {
	c, root := started(t, nil)
	uri := fileURI(filepath.Join(root, "unsaved.go"))
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": uri, "languageId": "go", "version": 1, "text": "package x\n"}})
	c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": uri, "version": 2},
		"contentChanges": []any{map[string]any{"text": "package x\n\nfunc computeChecksum() {}\n"}}})
	res := c.mustCall("palace/relevant", map[string]any{"textDocument": map[string]any{"uri": uri},
		"position": map[string]any{"line": 2, "character": 8}})
	if q, _ := res["query"].(string); !strings.Contains(q, "computeChecksum") {
		t.Errorf("relevant query %q does not use the unsaved identifier: %v", q, res["clues"])
	}
}

// A file cut while it was typed (didChange) and then saved is mined as
// what the save wrote: the text typed when it is the file's, its cut taken
// as the preparer made it (not parsed again), the file's own when the
// editor's text differs (parsed, the typed cut left unused).
func TestSaveAfterChangeMinesTheFile(t *testing.T) {
	var (
		mu    sync.Mutex
		trees *code.Trees
	)
	made := newTrees
	newTrees = func(n int) *code.Trees {
		mu.Lock()
		defer mu.Unlock()
		trees = made(n)
		return trees
	}
	t.Cleanup(func() { newTrees = made })
	reused := func() int {
		mu.Lock()
		defer mu.Unlock()
		if trees == nil {
			t.Fatal("the session made no code.Trees")
		}
		return trees.Reused()
	}
	c, root := started(t, nil)
	path := filepath.Join(root, "src", "typed.go")
	uri := fileURI(path)
	typed := "package src\n\n// typedAlpha is what the user typed.\nfunc typedAlpha() int { return 1 }\n"
	ondisk := "package src\n\n// typedBeta is what the file holds.\nfunc typedBeta() int { return 2 }\n"
	for _, step := range []struct {
		change, save, found, gone string
		reused                    int // kept cuts taken so far
	}{
		{typed, typed, "typedAlpha", "", 1},
		{typed + "\nfunc typedGamma( {\n", ondisk, "typedBeta", "typedAlpha", 1},
	} {
		c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": uri, "version": 2},
			"contentChanges": []any{map[string]any{"text": step.change}}})
		time.Sleep(3 * code.PrepareDelay) // the typing pauses; the server cuts the text
		m := c.save(path, step.save)
		if n := c.waitIndexed(m, path); n["drawers"].(float64) < 1 {
			t.Fatalf("didIndex %v", n)
		}
		if n := reused(); n != step.reused {
			t.Errorf("%s: %d cuts were taken kept, want %d: the save of the text cut while it was typed must not parse it again, a save of other text must", step.found, n, step.reused)
		}
		hits := hitsOf(t, c.mustCall("palace/search", map[string]any{"query": step.found, "mode": "lexical"}))
		if len(hits) != 1 || hits[0]["source"] != path || !strings.Contains(fmt.Sprint(hits[0]["metadata"]), step.found) {
			t.Errorf("%s: hits %v, want the saved file's drawer defining it", step.found, hits)
		}
		if step.gone != "" {
			for _, h := range hitsOf(t, c.mustCall("palace/search", map[string]any{"query": step.gone, "mode": "lexical"})) {
				if strings.Contains(fmt.Sprint(h["content"], h["metadata"]), step.gone) {
					t.Errorf("%s is no longer in the file, yet a drawer holds it: %v", step.gone, h)
				}
			}
		}
	}
}

// palace/relevant and hover return words of the document (clues, query,
// symbol): a file the editor has not opened is read only inside the
// workspace, so a client cannot read /etc/passwd, or any file, through
// them.
func TestRelevantAndHoverRefuseFilesOutsideTheWorkspace(t *testing.T) {
	c, root := started(t, map[string]any{"hover": true})
	outside := writeTree(t, t.TempDir(), map[string]string{"secret.go": "package s\n\nfunc toksecretLeak() {}\n"})
	secret := filepath.Join(outside, "secret.go")
	link := filepath.Join(root, "src", "leak.go")
	if err := os.Symlink(secret, link); err != nil {
		t.Fatal(err)
	}
	pos := map[string]int{"line": 2, "character": 8}
	for _, u := range []string{fileURI(secret), fileURI(link), "file:///../../etc/passwd"} {
		for _, method := range []string{"palace/relevant", "textDocument/hover"} {
			we := c.callErr(method, map[string]any{"textDocument": map[string]string{"uri": u}, "position": pos})
			if we == nil || we.Code != jsonrpc2.InvalidParams || !strings.Contains(we.Message, "outside every workspace folder") || strings.Contains(we.Message, "toksecret") {
				t.Errorf("%s on %s: %v; want invalid params saying it is outside the workspace", method, u, we)
			}
		}
	}
	// The same file opened in the editor is the editor's to hand over.
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": fileURI(secret), "languageId": "go", "version": 1, "text": "package s\n\nfunc toksecretLeak() {}\n"}})
	res := c.mustCall("palace/relevant", map[string]any{"textDocument": map[string]string{"uri": fileURI(secret)}, "position": pos})
	if clues := res["clues"].(map[string]any); clues["identifier"] != "toksecretLeak" {
		t.Errorf("open document outside the workspace: clues %v", clues)
	}
}

// A correction of a stored note is written, and the note it may update is
// in the answer under updates, as on the other fronts (issue 16).
func TestRememberCorrectionListsUpdate(t *testing.T) {
	c, _ := started(t, nil)
	old := c.mustCall("palace/remember", map[string]any{"text": "Use port 8080 for the admin API in production", "wing": "proj"})
	fix := c.mustCall("palace/remember", map[string]any{"text": "Use port 8080 for the admin API in staging", "wing": "proj"})
	ups, _ := fix["updates"].([]any)
	if fix["added"] != true || len(ups) != 1 {
		t.Fatalf("correction = %v", fix)
	}
	u := ups[0].(map[string]any)
	if u["id"] != old["id"] || !reflect.DeepEqual(u["differs"], []any{"environment"}) {
		t.Errorf("update = %v", u)
	}
}

// An editor opened on the user's home folder (or on /) hands it over as
// the workspace: the server warns and mines nothing there, at initialize
// and when the folder is added later; a project inside it is mined.
func TestHomeFolderIsNotMined(t *testing.T) {
	home := writeTree(t, t.TempDir(), map[string]string{
		".bashrc": "export TOKHOMEFOLDER=1\n", "notes.md": "tokhomefolder\n", "proj/a.md": "tokhomeproject\n",
	})
	t.Setenv("HOME", home)
	c := startServer(t, Options{})
	c.initialize(map[string]any{}, home)
	_, m := c.waitNote(0, "window/showMessage", nil, 10*time.Second)
	if m["type"] != float64(2) || !strings.Contains(m["message"].(string), "home folder") {
		t.Errorf("showMessage: %v", m)
	}
	at := c.mark()
	c.notify("workspace/didChangeWorkspaceFolders", map[string]any{"event": map[string]any{
		"added": []map[string]string{{"uri": fileURI(home), "name": "home"}, {"uri": fileURI("/"), "name": "root"}}, "removed": []any{}}})
	c.waitNote(at, "window/showMessage", func(m map[string]any) bool {
		return strings.Contains(m["message"].(string), "file system root")
	}, 10*time.Second)
	st := c.waitIdle()
	if fs := st["server"].(map[string]any)["folders"].([]any); len(fs) != 0 {
		t.Errorf("folders after refusing home and /: %v", fs)
	}
	if hits := hitsOf(t, c.mustCall("palace/search", map[string]any{"query": "tokhomefolder"})); len(hits) != 0 {
		t.Errorf("the home folder was mined: %v", hits)
	}
	c.notify("workspace/didChangeWorkspaceFolders", map[string]any{"event": map[string]any{
		"added": []map[string]string{{"uri": fileURI(filepath.Join(home, "proj")), "name": "proj"}}, "removed": []any{}}})
	waitFor(t, func() bool {
		return len(hitsOf(t, c.mustCall("palace/search", map[string]any{"query": "tokhomeproject"}))) == 1
	})
}
