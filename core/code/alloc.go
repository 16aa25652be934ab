package code

/*
#include <stddef.h>
// From tree-sitter's api.h, which go-tree-sitter compiles into the binary.
extern void ts_set_allocator(void *(*)(size_t), void *(*)(size_t, size_t), void *(*)(void *, size_t), void (*)(void *));
static void use_libc_allocator(void) { ts_set_allocator(NULL, NULL, NULL, NULL); }
*/
import "C"

// go-tree-sitter routes every allocation of the parser through a Go
// callback that calls C's malloc: a cgo round trip per node, which made
// parsing cost more than half again. NULLs restore tree-sitter's own
// default, the same malloc and free called directly, so memory allocated
// before this runs is freed correctly after it.
func init() { C.use_libc_allocator() }
