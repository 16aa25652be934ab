// Command cjkprobe segments its arguments with core/cjk. Tests build it with
// -trimpath and run it from an unrelated directory to prove that the
// embedded dictionaries work without gojieba's build-time dictionary path;
// with -stats it also reports what the first load costs.
//
// Usage: cjkprobe -cache DIR [-stats] TEXT...
//
// For each TEXT it prints three lines: "index: ...", "query: ..." (words
// joined by " | ") and "tag: word/POS ...".
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/palace-dev/palace/core/cjk"
)

func main() {
	cache := flag.String("cache", "", "cache directory for the jieba dictionaries")
	stats := flag.Bool("stats", false, "report time and RSS of the first load on stderr")
	flag.Parse()
	if err := run(*cache, *stats, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "cjkprobe:", err)
		os.Exit(1)
	}
}

func run(cache string, stats bool, texts []string) error {
	seg := cjk.New(cache)
	defer seg.Close()
	if stats {
		before := rssKB()
		start := time.Now()
		if _, err := seg.SegmentForIndex("中文"); err != nil {
			return err
		}
		fmt.Fprintf(os.Stderr, "first load: %v, RSS %d -> %d MB\n",
			time.Since(start).Round(time.Millisecond), before/1024, rssKB()/1024)
	}
	for _, text := range texts {
		idx, err := seg.SegmentForIndex(text)
		if err != nil {
			return err
		}
		q, err := seg.SegmentQuery(text)
		if err != nil {
			return err
		}
		tags, err := seg.Tag(text)
		if err != nil {
			return err
		}
		var tb strings.Builder
		for i, t := range tags {
			if i > 0 {
				tb.WriteByte(' ')
			}
			tb.WriteString(t.Word + "/" + t.POS)
		}
		fmt.Printf("index: %s\nquery: %s\ntag: %s\n", idx, strings.Join(q, " | "), tb.String())
	}
	return nil
}

// rssKB reads VmRSS from /proc (Linux only; 0 elsewhere). The C++ memory
// of the Jieba instance is invisible to runtime.MemStats, so RSS is the
// number that matters.
func rssKB() int64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var kb int64
		if _, err := fmt.Sscanf(sc.Text(), "VmRSS: %d kB", &kb); err == nil {
			return kb
		}
	}
	return 0
}
