package lsp

// textDocument is a TextDocumentIdentifier. The URI stays the string the
// client sent (protocol.DocumentURI would re-encode it), so notifications
// about a document carry the very URI the client knows it by.
type textDocument struct {
	URI string `json:"uri"`
}

// check names a missing URI.
func (t textDocument) check(field string) error {
	if t.URI == "" {
		return invalidParams("%s.uri is required", field)
	}
	return nil
}
