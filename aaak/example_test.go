package aaak_test

import (
	"errors"
	"fmt"

	"github.com/palace-dev/palace/aaak"
)

func ExampleEncode() {
	entities := aaak.NewEntityMap() // persist it as JSON to keep codes stable
	doc, err := aaak.Encode([]aaak.Item{{
		Text: "We decided to keep drawers verbatim in SQLite. Maria worried about write " +
			"contention, so we enabled WAL mode.",
		Wing: "palace", Room: "decisions", Date: "2026-04-09", Source: "adr-3.md",
	}}, aaak.EncodeOptions{Entities: entities})
	if err != nil {
		panic(err)
	}
	fmt.Println(aaak.Print(doc))
	fmt.Println(aaak.Decode(doc, entities))
	// Output:
	// V1|palace|decisions|2026-04-09|adr-3.md
	// 0:SQL+WAL|maria_worried_write_contention_enabled|"We decided to keep drawers verbatim in SQLite."|★★★★|anx|DECISION+TECHNICAL
	// palace · decisions · 2026-04-09 · adr-3.md
	// #0 ★★★★ DECISION TECHNICAL · anxiety
	//    who: SQLite, WAL
	//    topics: maria, worried, write, contention, enabled
	//    "We decided to keep drawers verbatim in SQLite."
}

func ExampleParse() {
	_, err := aaak.Parse("V1|palace|decisions|2026-04-09|adr-3.md\n" +
		"0:SQL+wal|sqlite|\"We chose SQLite.\"|★★★★★★|determ|DECISION")
	var errs aaak.Errors
	if errors.As(err, &errs) {
		for _, e := range errs {
			fmt.Printf("line %d, column %d (%s): %s\n", e.Line, e.Col, e.Rule, e.Reason)
		}
	}
	// Output:
	// line 2, column 7 (entity): entity code "wal" must be exactly 3 uppercase letters A-Z
	// line 2, column 42 (stars): more than 5 stars
}

func ExampleVerifyRoundtrip() {
	// A tight topic budget: the second sentence keeps only two of its
	// seven content words, and the report says so.
	r, err := aaak.VerifyRoundtrip("Latency dropped to five milliseconds after we rebuilt the index "+
		"with smaller pages and a warmer cache. Maria benchmarked hybrid retrieval against plain "+
		"keyword ranking.", aaak.EncodeOptions{TopicsPerSentence: 2})
	if err != nil {
		panic(err)
	}
	fmt.Println(r.AAAK)
	fmt.Printf("coverage %.2f\n", r.Coverage)
	for _, a := range r.Lost {
		fmt.Printf("lost %q, missing %v\n", a.Text, a.Missing)
	}
	// Output:
	// V1||||
	// 0:UNK|benchmarked_retrieval|"Latency dropped to five milliseconds after we rebuilt the index with smaller pages and a warmer cache."|★★★|determ|TECHNICAL
	// coverage 0.50
	// lost "Maria benchmarked hybrid retrieval against plain keyword ranking.", missing [maria hybrid plain keyword ranking]
}
