# One set of build flags for every go command: building with and without the
# FTS5 tag recompiles SQLite (about 46 s) each time it flips.
export GOFLAGS := -buildvcs=false -tags=sqlite_fts5

PALACE_HOME ?= $(CURDIR)/.demo-palace
export PALACE_HOME
# The ONNX Runtime library scripts/setup.sh installs.
PALACE_ORT_LIB ?= $(CURDIR)/.cache/ort-lib/libonnxruntime.so
export PALACE_ORT_LIB
BIN := bin/palace
BENCHBIN := bin/palace-bench

.PHONY: setup build demo test vet check fuzz bench clean

setup:
	@bash scripts/setup.sh

# palace and, beside it, palace-bench: the benchmarks' own binary, which
# `palace bench` runs.
build: setup
	@echo "==> go build -o $(BIN) ./cmd/palace"
	@go build -o $(BIN) ./cmd/palace
	@echo "==> go build -o $(BENCHBIN) ./cmd/palace-bench"
	@go build -o $(BENCHBIN) ./cmd/palace-bench

# The main job: mine this repository into $(PALACE_HOME), then search it.
demo: build
	@echo "==> palace mine . (palace home: $(PALACE_HOME))"
	@$(BIN) mine . --no-progress
	@echo "==> palace search \"drawer id content hash\" --limit 3"
	@$(BIN) search "drawer id content hash" --limit 3
	@echo "==> palace status"
	@$(BIN) status

# gofmt, go vet and staticcheck (pinned; scripts/setup.sh installs it).
# staticcheck leaves out the VS Code test's fixture workspace, Go files
# that are mined, never called (their unused functions are the point).
STATICCHECK = $(or $(shell go env GOBIN),$(shell go env GOPATH)/bin)/staticcheck
vet:
	@echo "==> gofmt -l ., go vet ./... and staticcheck"
	@test -z "$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))" || { gofmt -l .; echo "gofmt: files above need formatting"; exit 1; }
	@go vet ./...
	@bash scripts/setup.sh --staticcheck
	@$(STATICCHECK) $$(go list ./... | grep -v /vscode-extension/test/fixture/)

# The fast tier, for every change: vet (gofmt, go vet, staticcheck), then
# the short tests of aaak, the engine and the servers (testing.Short skips
# the few slow ones; make test runs them). At most 3 minutes on 2 cores
# with a warm build cache.
check: vet
	@echo "==> go test -short ./aaak/... ./core/... ./server/..."
	@go test -short ./aaak/... ./core/... ./server/...

# Every test: Go unit and integration tests (they build and run the real
# binary), the editor-protocol suite driven by a real Node LSP client, then
# short fuzz runs of each fuzz target.
test: build vet
	@bash scripts/setup.sh --test
	@echo "==> go test ./... (team tests against the local PostgreSQL cluster scripts/postgres.sh started)"
	@PALACE_TEST_PG="$$(bash scripts/postgres.sh)" go test -count=1 -timeout 30m ./...
	@echo "==> LSP integration suite (node --test, vscode-languageserver-protocol)"
	@PALACE_BIN=$(CURDIR)/$(BIN) bash server/lsp/test/run.sh
	@echo "==> MCP integration suite (MCP SDK client, inspector CLI, conformance)"
	@PALACE_BIN=$(CURDIR)/$(BIN) bash server/mcp/test/run.sh
	@echo "==> Concurrency suite (CLI mine + MCP SDK client + LSP client on one palace)"
	@PALACE_BIN=$(CURDIR)/$(BIN) bash server/concurrency/run.sh
	@echo "==> Neovim plugin suite (headless Neovim from Debian)"
	@PALACE_BIN=$(CURDIR)/$(BIN) bash editors/nvim/test/run.sh
	@echo "==> Emacs eglot suite (emacs --batch, Debian's Emacs 28 and elpa-eglot)"
	@PALACE_BIN=$(CURDIR)/$(BIN) bash editors/emacs/test/run.sh
	@echo "==> VS Code extension suite (unit tests, then a real VS Code: code-server + Debian chromium)"
	@cd vscode-extension && PALACE_BIN=$(CURDIR)/$(BIN) bash test/run.sh
	@$(MAKE) --no-print-directory fuzz FUZZTIME=$(if $(PALACE_LONG),2m,20000x)

FUZZTIME ?= 20000x
fuzz:
	@bash scripts/fuzz.sh $(FUZZTIME)

bench: build
	@$(BENCHBIN) mine "$$(go env GOROOT)/src"

clean:
	rm -rf bin .demo-palace
