package route

import "strings"

// Generic reports whether name, compared in lower case, is a generic
// programming word that makes no keyword: 'palace init' gives such a
// folder's room no keyword, and routing ignores such a room name unless
// the user lists it as a keyword.
//
// Generic names say where code sits or what kind of code it is, not what
// it is about. They are words programmers write in every query and every
// file ("the http client", "pass a context", "the test fails"), so as
// keywords they would route, and route wrongly, nearly any search, and
// count in nearly any file the miner places by keywords.
//
// The rule: a name is generic when it is a layout convention of common
// languages and build tools (src, pkg, cmd, internal, vendor, dist), a kind
// of file every project has (test, docs, examples, scripts, config), a
// catch-all (util, common, core, misc, app, main), or a standard-library
// or protocol word (http, context, proxy, net, io, errors, types, server,
// client). Names that name a part of the product (auth, billing, frontend,
// api, web) stay keywords: a query saying them is usually about that part.
func Generic(name string) bool {
	switch strings.ToLower(name) {
	case "src", "source", "sources", "lib", "libs", "pkg", "pkgs", "cmd", "cmds", "bin", "internal", "vendor",
		"third_party", "third-party", "external", "deps", "build", "dist", "out", "target", "gen", "generated",
		"test", "tests", "testing", "testdata", "testutil", "spec", "specs", "fixtures", "e2e", "bench", "benchmarks",
		"doc", "docs", "documentation", "example", "examples", "sample", "samples", "demo", "demos",
		"script", "scripts", "tool", "tools", "hack", "ci", "assets", "static", "resources", "res",
		"config", "configs", "conf", "etc", "include", "includes",
		"util", "utils", "utility", "utilities", "helper", "helpers", "common", "shared", "core", "base", "misc",
		"app", "apps", "main", "module", "modules", "packages",
		"http", "https", "context", "proxy", "net", "io", "os", "errors", "types", "model", "models", "data",
		"server", "client":
		return true
	}
	return false
}
