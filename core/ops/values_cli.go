package ops

import (
	"github.com/palace-dev/palace/core/embed"
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
