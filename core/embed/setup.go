package embed

import _ "embed"

// SetupScript installs the pinned ONNX Runtime library (see its header).
// The palace binary carries it so `palace setup ort` needs no checkout.
//
//go:embed setup_ort.sh
var SetupScript string
