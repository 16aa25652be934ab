package ops

import (
	"io"
	"time"

	"github.com/palace-dev/palace/core/compress"
	"github.com/palace-dev/palace/core/dates"
	"github.com/palace-dev/palace/core/embed"
	"github.com/palace-dev/palace/core/kg"
	"github.com/palace-dev/palace/core/memory"
	"github.com/palace-dev/palace/core/mine"
	"github.com/palace-dev/palace/core/route"
	"github.com/palace-dev/palace/core/search"
	"github.com/palace-dev/palace/core/vectors"
)

// What the CLI shows and needs of the engine, named by the contract so
// cmd/palace imports core/ops alone (core/deps_test.go holds it to that).
// Each name here is the contract's name for the engine's value.

// DefaultModel is the model ModelPull pulls when none is named.
const DefaultModel = embed.DefaultModel

// NoModelHint is the advice that ends every "no model" notice.
const NoModelHint = embed.NoModelHint

// SetupScript is the bash script that installs the pinned ONNX Runtime
// library (`palace setup ort` runs it; the CLI keeps the spawning).
var SetupScript = embed.SetupScript

// VectorSummary is what an embedding pass did (Embed's result, and a
// mine's when it embeds): how many drawers it embedded, with which model
// and backend, in how long, and how many still wait.
type VectorSummary = vectors.Summary

// DefaultEmbedBatch is how many drawers Embed embeds and commits together
// when the request names no batch.
const DefaultEmbedBatch = vectors.DefaultBatch

// The tunnel rule (Tunnels): a tunnel by keywords needs at least
// MinSharedKeywords shared, making at least MinKeywordOverlap of the two
// rooms' keywords (Jaccard). TunnelByName is the Kind of a tunnel that
// joins the rooms of one name.
const (
	MinSharedKeywords = route.MinSharedKeywords
	MinKeywordOverlap = route.MinKeywordOverlap
	TunnelByName      = route.TunnelName
)

// Wake-up renderings (WakeUpRequest.Format; WakeFormats lists them).
const (
	WakeText = memory.FormatText
	WakeAAAK = memory.FormatAAAK
	WakeJSON = memory.FormatJSON
)

// WakeResult is what WakeUp returns: the text to hand an agent and the same
// selection as data.
type WakeResult = memory.WakeResult

// NoteMatch is a stored drawer a new note duplicates (RememberResult's
// and DiaryResult's matches).
type NoteMatch = memory.Match

// ReadText reads a note or diary entry given on standard input, refusing
// one over the operations' text limit without reading it whole.
func ReadText(r io.Reader) (string, error) { return memory.ReadText(r) }

// DateLayout is the day form every date field reads ("2006-01-02"), RFC
// 3339 being the other.
const DateLayout = dates.DateLayout

// MineAuto is the default mine mode: project files, and conversations by
// their format.
const MineAuto = mine.ModeAuto

// Why a mine skipped a file (MineSummary's skipped reasons) that a person
// should hear about: it could not be read, was not UTF-8, or was too large.
const (
	SkipUnreadable  = mine.ReasonUnreadable
	SkipInvalidUTF8 = mine.ReasonInvalidUTF8
	SkipTooLarge    = mine.ReasonTooLarge
)

// FileRange is one matched drawer of a file in a search by file.
type FileRange = search.Range

// Fact is a stored knowledge-graph fact, valid over [ValidFrom, ValidTo).
type Fact = kg.Triple

// EntityInfo is an entity as the graph shows it: its type (set or
// inferred) and its aliases.
type EntityInfo = kg.EntityInfo

// Proposal is a fact the extractor read in a drawer, pending review or
// decided.
type Proposal = kg.Proposal

// DescribeFact is a fact in one line: "Alice works_at Acme (since
// 2020-01-01)".
func DescribeFact(t Fact) string { return kg.Describe(t) }

// FormatTime shows a fact's bound: a date when it falls on midnight UTC,
// else the full time; nil is "".
func FormatTime(t *time.Time) string { return kg.FormatTime(t) }

// FormatInterval shows a fact's validity as a person reads it ("since
// 2020-01-01", "until 2024-03-31").
func FormatInterval(from, to *time.Time) string { return kg.FormatInterval(from, to) }

// CompressStream is Compress's documents as one AAAK stream, which `palace
// aaak check` and `palace aaak decode` read whole.
func CompressStream(docs []CompressDoc) string { return compress.Stream(docs) }

// CompressDoc is one AAAK document of Compress, with its measures.
type CompressDoc = compress.Document

// EntityCodes reads the palace's entity map, which Compress codes names
// with and AAAK decoding expands (aaak.Decode). A variable, so core/ops
// need not import aaak, which core/deps_test.go keeps to its few users.
var EntityCodes = compress.Entities
