//go:build !linux

package mine

// lowerThreadPriority does nothing where threads have no nice value of
// their own: the workers run at the process's priority.
func lowerThreadPriority() error { return nil }

// writerProc does nothing where the workers run at the writer's priority:
// an extra P would only let them take more of its cores.
func writerProc() (release func()) { return func() {} }
