package audit

// Uncorrected returns the lines of all kept files that still read as
// applied although their Seq is above committed (the last sequence number
// the database committed): writes whose process stopped between the line and
// its commit, which no later line has corrected yet. Unlike Tail it reads
// every kept file, so `palace doctor` can vouch for the whole log. The
// answer is only final while the caller holds the database's write lock: a
// writer that has appended its line but not yet committed looks the same.
func (l *Log) Uncorrected(committed int64) ([]Entry, error) {
	all, err := l.readAll()
	if err != nil {
		return nil, err
	}
	corrected := map[int64]bool{}
	for _, e := range all {
		if e.Corrects != 0 {
			corrected[e.Corrects] = true
		}
	}
	var out []Entry
	for _, e := range all {
		if e.Corrects == 0 && e.Status == Applied && e.Seq > committed && !corrected[e.Seq] {
			out = append(out, e)
		}
	}
	return out, nil
}

// Committed returns how many lines of all kept files record a write as
// committed (applied, with a sequence number, and not corrected since),
// and the last of them: the evidence that a palace existed, which an
// empty database file beside the log must not be taken for a new palace
// against.
func (l *Log) Committed() (n int, last Entry, err error) {
	all, err := l.readAll()
	if err != nil {
		return 0, Entry{}, err
	}
	corrected := map[int64]bool{}
	for _, e := range all {
		if e.Corrects != 0 {
			corrected[e.Corrects] = true
		}
	}
	for _, e := range all {
		if e.Corrects == 0 && e.Status == Applied && e.Seq > 0 && !corrected[e.Seq] {
			n, last = n+1, e
		}
	}
	return n, last, nil
}
