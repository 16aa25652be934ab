// Package aaak implements AAAK, the compact dialect Palace uses to hand
// memories to token-limited agents.
//
// AAAK is an output format only: Palace stores drawers verbatim and renders
// AAAK on the way out. The package is a leaf (standard library only) so that
// any front end — CLI, MCP server, language server — can format, lint or
// measure AAAK without pulling in storage.
//
// The dialect is specified in SPEC.md next to this file. In brief, a document
// is a header line followed by body lines:
//
//	V1|wing|room|date|source
//	0:ALI+SQL|fts5_index|"We chose SQLite because it needs no server."|★★★★|determ|DECISION+TECHNICAL
//	T:0<->1|same index
//	ARC:anx->relief
//
// Several documents form a stream, one after another, each starting at its
// header ([ParseStream], [PrintStream]).
//
// The package offers a strict V1 reader ([Parse]), a lenient reader for
// MemPalace-era lines ([ParseLegacy]), a canonical printer ([Print]), a
// validator ([Validate]), an encoder from drawer text ([Encode]), a decoder
// back to readable text ([Decode]), a round-trip measure that makes the
// encoder's loss visible ([VerifyRoundtrip]) and a stated token counter
// ([CountTokens]).
package aaak
