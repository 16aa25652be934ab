// Package sample is a fixture for the code chunker.
package sample

import (
	"fmt"
	"strings"
)

// Limit caps a name.
const Limit = 40

var (
	count int
	names []string
)

// Greeter says hello.
type Greeter interface {
	Greet(name string) string
}

// Plain is a Greeter.
type Plain struct{ prefix string }

// Greet greets name with the prefix.
func (p Plain) Greet(name string) string {
	return p.prefix + name
}

// Long is cut at its statements: each one below is about a line, and the
// whole is well over the fixture's size, so the function's first lines
// and doc comment stay in the first piece.
func Long(in []string) string {
	var b strings.Builder
	for i, s := range in {
		if len(s) > Limit {
			s = s[:Limit]
		}
		fmt.Fprintf(&b, "%d: %s\n", i, s)
	}
	count++
	names = append(names, in...)
	if count > 10 {
		names = names[len(names)-10:]
	}
	joined := strings.Join(names, ", ")
	if joined == "" {
		return "nothing yet, and this line is long enough to matter here"
	}
	b.WriteString("recent: " + joined + "\n")
	b.WriteString("total: " + fmt.Sprint(count) + "\n")
	return b.String()
}

func small() int { return 1 }

func smaller() int { return 2 }
