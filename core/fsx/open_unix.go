//go:build unix

package fsx

import "syscall"

// openNonblock keeps the open of a FIFO from waiting for a writer; reads of
// a regular file ignore it.
const openNonblock = syscall.O_NONBLOCK
