package code

/*
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

// As in tree-sitter's api.h (v0.25), which go-tree-sitter compiles into
// the binary; TestNodeLayout checks go-tree-sitter's Node has this size.
typedef struct { uint32_t context[4]; const void *id; const void *tree; } ccNode;
typedef struct { const void *tree; const void *id; uint32_t context[3]; } ccCursor;
extern ccCursor ts_tree_cursor_new(ccNode);
extern void ts_tree_cursor_delete(ccCursor *);
extern bool ts_tree_cursor_goto_first_child(ccCursor *);
extern bool ts_tree_cursor_goto_next_sibling(ccCursor *);
extern bool ts_tree_cursor_goto_parent(ccCursor *);
extern ccNode ts_tree_cursor_current_node(const ccCursor *);
extern uint16_t ts_node_symbol(ccNode);
extern bool ts_node_is_named(ccNode);
extern uint32_t ts_node_start_byte(ccNode);
extern uint32_t ts_node_end_byte(ccNode);
extern bool ts_node_is_error(ccNode);

// topError returns the start byte of root's first ERROR child, or -1.
static int64_t topError(ccNode root) {
	ccCursor c = ts_tree_cursor_new(root);
	int64_t at = -1;
	if (ts_tree_cursor_goto_first_child(&c)) {
		do {
			ccNode x = ts_tree_cursor_current_node(&c);
			if (ts_node_is_error(x)) {
				at = ts_node_start_byte(x);
				break;
			}
		} while (ts_tree_cursor_goto_next_sibling(&c));
	}
	ts_tree_cursor_delete(&c);
	return at;
}

// flatten writes each named node under root (root excluded) in preorder
// as four numbers: kind id, depth below root, start and end byte. It
// returns how many nodes it wrote, at most cap.
static size_t flatten(ccNode root, uint32_t *out, size_t cap) {
	ccCursor c = ts_tree_cursor_new(root);
	size_t n = 0;
	uint32_t depth = 0;
	for (;;) {
		if (ts_tree_cursor_goto_first_child(&c)) {
			depth++;
		} else {
			while (!ts_tree_cursor_goto_next_sibling(&c)) {
				if (depth == 0 || !ts_tree_cursor_goto_parent(&c)) {
					ts_tree_cursor_delete(&c);
					return n;
				}
				depth--;
				if (depth == 0) {
					ts_tree_cursor_delete(&c);
					return n;
				}
			}
		}
		ccNode x = ts_tree_cursor_current_node(&c);
		if (ts_node_is_named(x) && n < cap) {
			out[4*n] = ts_node_symbol(x);
			out[4*n+1] = depth;
			out[4*n+2] = ts_node_start_byte(x);
			out[4*n+3] = ts_node_end_byte(x);
			n++;
		}
	}
}
*/
import "C"

import (
	"unsafe"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// nodeSize is the size of go-tree-sitter's Node, a TSNode by value.
const nodeSize = unsafe.Sizeof(C.ccNode{})

// flatNodes reads all named nodes under root in one call into C: one cgo
// call per node, as walking with go-tree-sitter's cursor takes, cost as
// much as the parse.
func flatNodes(root *sitter.Node) []uint32 {
	max := root.DescendantCount()
	if max == 0 {
		return nil
	}
	out := make([]uint32, 4*max)
	n := C.flatten(*(*C.ccNode)(unsafe.Pointer(root)), (*C.uint32_t)(unsafe.Pointer(&out[0])), C.size_t(max))
	return out[:4*int(n)]
}

// topError returns where root's first ERROR child starts: a file broken
// at its top level. One call into C, before any node is copied out.
func topError(root *sitter.Node) (int, bool) {
	at := int64(C.topError(*(*C.ccNode)(unsafe.Pointer(root))))
	return int(at), at >= 0
}
