//go:build !linux

package mine

// lowerThreadPriority does nothing where threads have no nice value of
// their own: the workers run at the process's priority.
func lowerThreadPriority() error { return nil }
