package bench

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"

	"github.com/palace-dev/palace/core/ops"
)

// Limits behind the bounds below, each with room to spare on a machine of
// 24 GiB of memory: a search palace of a million drawers is about 4 GB on
// disk, its 384-d vectors 1.5 GB.
const (
	// MaxDrawers bounds a generated palace: the suite's --sizes, bench
	// vectors' --n and bench team's --drawers.
	MaxDrawers = 1_000_000
	// MaxVectorBytes bounds the largest palace's vectors (drawers x dim x
	// 4 bytes) in bench vectors, whatever --n and --dim are each.
	MaxVectorBytes = 4 << 30
	// MaxQueries bounds queries, calls and samples a run times one by one.
	MaxQueries = 100_000
)

// Bound is the range of one numeric flag of a bench command. Every such
// number counts something (drawers, queries, rounds, tokens), so no range
// goes below 0.
type Bound struct {
	Cmd  string // the command under palace: "bench", "bench vectors"
	Flag string // without the dashes
	// Lo and Hi are the least and the most accepted, both included.
	Lo, Hi uint64
	// One and Many name the unit, singular and plural.
	One, Many string
	// Why says what the range protects or what its end means; "" when
	// it is plain.
	Why string
}

// Bounds is the one table of the bench commands' numeric flags. The CLI
// checks every numeric flag of a bench command against it before the
// command runs, and a test fails on a numeric flag it lacks; the
// library's options (SuiteOptions.Check and the rest) look their ranges
// up here too. A function, not a variable, so nothing can change it.
func Bounds() []Bound {
	const drawersWhy = "a palace of a million drawers is about 4 GB on disk"
	return []Bound{
		{"bench", "sizes", 1, MaxDrawers, "drawer", "drawers", drawersWhy},
		{"bench mine", "rounds", 1, 100, "cold mine per binary", "cold mines per binary", "each mines the whole tree"},
		{"bench locomo", "budget", 0, ops.MaxSearchBudget, "token", "tokens", "0 for no budget; a search's own bound"},
		{"bench code", "max", 1, MaxQueries, "query", "queries", ""},
		{"bench relevant", "max", 1, MaxQueries, "call", "calls", ""},
		{"bench embed", "iters", 1, 10_000, "timed call per cell", "timed calls per cell", ""},
		{"bench vectors", "n", 1, MaxDrawers, "drawer", "drawers", drawersWhy},
		// The widest embedding of a common model is 3,072.
		{"bench vectors", "dim", 1, 4096, "dimension", "dimensions", "wider than any common embedding model"},
		{"bench vectors", "wings", 1, 1000, "wing", "wings", ""},
		{"bench vectors", "queries", 1, MaxQueries, "query", "queries", ""},
		{"bench vectors", "seed", 0, math.MaxUint64, "", "", "any seed, 0 for the default"},
		{"bench team", "drawers", 1, MaxDrawers, "drawer", "drawers", ""},
		{"bench team", "members", 2, 200, "member", "members", "each is a palace, a login role and a connection"},
		{"bench team", "writes", 1, 100_000, "note per member", "notes per member", ""},
		{"bench team", "samples", 1, MaxQueries, "sample", "samples", ""},
	}
}

// BoundOf is the bound of cmd's flag, false when the table has none.
func BoundOf(cmd, flag string) (Bound, bool) {
	for _, b := range Bounds() {
		if b.Cmd == cmd && b.Flag == flag {
			return b, true
		}
	}
	return Bound{}, false
}

// Check refuses v outside the bound, naming the flag, v, the end it
// passed and the range.
func (b Bound) Check(v int64) error {
	if v < 0 {
		return b.refuse(fmt.Sprint(v), true)
	}
	return b.CheckUint(uint64(v))
}

// CheckUint is Check for an unsigned flag.
func (b Bound) CheckUint(v uint64) error {
	if v < b.Lo || v > b.Hi {
		return b.refuse(fmt.Sprint(v), v < b.Lo)
	}
	return nil
}

// String is the range as the errors state it: "range 1 to 100: why".
func (b Bound) String() string {
	s := fmt.Sprintf("range %d to %d", b.Lo, b.Hi)
	if b.Why != "" {
		s += ": " + b.Why
	}
	return s
}

// refuse is the error for v below the range (low) or above it:
// "--max 0: want at least 1 query (range 1 to 100000)".
func (b Bound) refuse(v string, low bool) error {
	end, n := "most", b.Hi
	if low {
		end, n = "least", b.Lo
	}
	unit := b.Many
	if n == 1 {
		unit = b.One
	}
	if unit != "" {
		unit = " " + unit
	}
	return fmt.Errorf("--%s %s: want at %s %d%s (%s)", b.Flag, v, end, n, unit, b)
}

// checkFlag checks v against the table's bound of cmd's flag.
func checkFlag(cmd, flag string, v int) error {
	b, ok := BoundOf(cmd, flag)
	if !ok {
		return fmt.Errorf("%s --%s: no bound in bench.Bounds", cmd, flag)
	}
	return b.Check(int64(v))
}

// flagValue is one flag's value, for checkFlags.
type flagValue struct {
	flag string
	v    int
}

// checkFlags checks each of cmd's flags in turn, refusing the first out
// of bounds.
func checkFlags(cmd string, fvs ...flagValue) error {
	for _, fv := range fvs {
		if err := checkFlag(cmd, fv.flag, fv.v); err != nil {
			return err
		}
	}
	return nil
}

// checkEach checks every value of a list flag.
func checkEach(cmd, flag string, vs []int) error {
	for _, v := range vs {
		if err := checkFlag(cmd, flag, v); err != nil {
			return err
		}
	}
	return nil
}

// Check refuses options out of bounds before the suite starts; nil and
// empty fields take their defaults.
func (o SuiteOptions) Check() error {
	if err := CheckGroups(o.Only); err != nil {
		return fmt.Errorf("--only: %w", err)
	}
	return checkEach("bench", "sizes", o.Sizes)
}

// Check refuses options out of bounds before anything is built, each
// flag alone and the vectors they make together. Zero fields take their
// defaults, as Vectors fills them.
func (o VectorsOptions) Check() error {
	if err := checkEach("bench vectors", "n", o.Sizes); err != nil {
		return err
	}
	o = o.withDefaults()
	if err := checkFlags("bench vectors", flagValue{"dim", o.Dim}, flagValue{"wings", o.Wings}, flagValue{"queries", o.Queries}); err != nil {
		return err
	}
	for _, n := range o.Sizes {
		if b := int64(n) * int64(o.Dim) * 4; b > MaxVectorBytes {
			return fmt.Errorf("--n %d with --dim %d: %.1f GiB of vectors; want at most %d GiB (drawers x dim x 4 bytes)",
				n, o.Dim, float64(b)/(1<<30), MaxVectorBytes>>30)
		}
	}
	return nil
}

// Check refuses options out of bounds before any database is made.
func (o TeamOptions) Check() error {
	return checkFlags("bench team",
		flagValue{"drawers", o.Drawers}, flagValue{"members", o.Members}, flagValue{"writes", o.Writes}, flagValue{"samples", o.Samples})
}

// Check refuses a number of queries out of bounds.
func (o CodeOptions) Check() error { return checkFlag("bench code", "max", o.Max) }

// Check refuses a number of calls out of bounds.
func (o RelevantOptions) Check() error { return checkFlag("bench relevant", "max", o.Max) }

// CheckMineDir refuses a tree to mine that does not exist, before any
// palace is made for it.
func CheckMineDir(dir string) error {
	_, err := os.Stat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%s: no such file or folder", dir)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", dir, err)
	}
	return nil
}
