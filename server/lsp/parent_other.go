//go:build !unix

package lsp

// watchParent does nothing where processes cannot be probed without
// opening them; the client's exit or closed pipe still ends the session.
func (s *server) watchParent() {}
