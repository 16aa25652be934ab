//go:build !unix

package fsx

// openNonblock is nothing where opening a file does not block on a FIFO.
const openNonblock = 0
