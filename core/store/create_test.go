package store

import (
	"fmt"
	"os"
	"os/exec"
	"sync"
	"testing"
)

// TestOpenNewPalaceFromManyProcesses: processes that open one new palace
// at the same moment (an editor starting the LSP server as an agent starts
// the MCP server) all open it. The first sets the new file up (its page
// size, then WAL) through SQLite's rollback journal, which a second
// process reading the file meanwhile found and then lost: "disk I/O error:
// no such file or directory".
func TestOpenNewPalaceFromManyProcesses(t *testing.T) {
	if home := os.Getenv("PALACE_TEST_OPEN_HOME"); home != "" {
		s, err := Open(home)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(3)
		}
		s.Close()
		return
	}
	const rounds, procs = 20, 6
	for r := 0; r < rounds; r++ {
		home := t.TempDir()
		var wg sync.WaitGroup
		errs := make([]error, procs)
		outs := make([][]byte, procs)
		for i := range procs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				cmd := exec.Command(os.Args[0], "-test.run=^TestOpenNewPalaceFromManyProcesses$")
				cmd.Env = append(os.Environ(), "PALACE_TEST_OPEN_HOME="+home)
				outs[i], errs[i] = cmd.CombinedOutput()
			}()
		}
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Fatalf("round %d, process %d: %v\n%s", r, i, err, outs[i])
			}
		}
		s, err := Open(home)
		if err != nil {
			t.Fatal(err)
		}
		var size int
		if err := s.w.QueryRow(`PRAGMA page_size`).Scan(&size); err != nil || size != pageSize {
			t.Errorf("round %d: page size %d (%v), want %d", r, size, err, pageSize)
		}
		s.Close()
	}
}
