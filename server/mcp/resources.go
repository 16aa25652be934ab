package mcp

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/palace-dev/palace/core/ops"
)

// Resource URIs.
const (
	statusURI      = "palace://status"
	drawerTemplate = "palace://drawer/{id}"
)

// addResources registers palace://status (the palace_status answer as
// JSON) and palace://drawer/{id} (one drawer's verbatim content), so a
// client can attach memory to a conversation without a tool call.
func (s *Server) addResources() {
	s.mcp.AddResource(mcp.NewResource(statusURI, "Palace status",
		mcp.WithResourceDescription("Drawers per wing and room, the embedding backend, pending vectors, this session's wing and the AAAK legend, as JSON (the palace_status answer)."),
		mcp.WithMIMEType("application/json"),
	), func(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
		v, err := runStatus(ctx, s, args{})
		if err != nil {
			return nil, fmt.Errorf("palace status: %w", err)
		}
		b, err := json.Marshal(v)
		if err != nil {
			return nil, fmt.Errorf("palace status: %w", err)
		}
		return []mcp.ResourceContents{mcp.TextResourceContents{URI: statusURI, MIMEType: "application/json", Text: string(b)}}, nil
	})
	s.mcp.AddResourceTemplate(mcp.NewResourceTemplate(drawerTemplate, "Palace drawer",
		mcp.WithTemplateDescription("One drawer's content, verbatim, by id (the id of a palace_search hit). palace_get gives its metadata and neighbours."),
		mcp.WithTemplateMIMEType("text/plain"),
	), func(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
		id := ""
		switch v := req.Params.Arguments["id"].(type) {
		case string:
			id = v
		case []string:
			if len(v) == 1 {
				id = v[0]
			}
		}
		if id == "" {
			return nil, fmt.Errorf("drawer resource %q: no id", req.Params.URI)
		}
		d, err := ops.Get(ctx, s.p, ops.GetRequest{ID: id})
		if err != nil {
			return nil, err
		}
		return []mcp.ResourceContents{mcp.TextResourceContents{URI: req.Params.URI, MIMEType: "text/plain", Text: d.Content}}, nil
	})
}
