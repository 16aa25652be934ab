package ops

import (
	"github.com/palace-dev/palace/core/embed"
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
