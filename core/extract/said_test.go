package extract

import (
	"strings"
	"testing"
)

// TestSaidDeniedAndTakenBack: a quoted claim the sentence (or the next
// one) calls false proposes nothing; a claim attributed to someone else is
// proposed below the same words said plainly, under the 0.8 a careful bulk
// accept asks for; a retraction proposes ending the fact, on every
// predicate the extractor knows; a "now" statement replaces what the
// drawer said before of the same subject.
func TestSaidDeniedAndTakenBack(t *testing.T) {
	e := New(nil)
	read := func(text string) []Proposal {
		t.Helper()
		ps, err := e.Extract(Drawer{ID: "d", Text: text, We: "orion"}, 0)
		if err != nil {
			t.Fatal(err)
		}
		return ps
	}
	show := func(ps []Proposal) string {
		var out []string
		for _, p := range ps {
			s := p.Subject + " " + p.Predicate + " " + p.Object
			if p.Ends {
				s = "end " + s
			}
			if p.Replaces != "" {
				s += " replacing " + p.Replaces
			}
			out = append(out, s)
		}
		return strings.Join(out, "; ")
	}
	for _, tc := range []struct{ text, want string }{
		{"Kai: Bob said: 'Carol owns the billing service' but that is false.", ""},
		{"Kai: Dana said Kai works on Atlas, which isn't true.", ""},
		{"Kai: Bob says Carol owns Billing. That's not true.", ""},
		{"Kai: Alice does not work on Orion anymore.", "end Alice works_on Orion"},
		{"Kai: Alice no longer works on Orion.", "end Alice works_on Orion"},
		{"Kai: Alice left Orion.", "end Alice works_on Orion"},
		{"Kai: Priya is no longer responsible for Billing.", "end Billing owner Priya"},
		{"Kai: We stopped using MongoDB.", "end orion uses MongoDB"},
		{"Kai: Lena quit relying on Jenkins.", "end Lena uses Jenkins"},
		{"Kai: Rafael doesn't prefer Vim any more.", "end Rafael prefers Vim"},
		{"Kai: We don't need any more servers.", ""},
		{"Kai: Nobody works on Orion anymore.", ""},
		{"Kai: Carol owns Billing. Dana owns Billing now.", "Billing owner Dana replacing Carol"},
		{"Kai: We use MySQL. We use Postgres now.", "orion uses Postgres replacing MySQL"},
	} {
		if got := show(read(tc.text)); got != tc.want {
			t.Errorf("%q: %q, want %q", tc.text, got, tc.want)
		}
	}
	plain := read("Kai: Carol owns Billing.")
	for _, text := range []string{"Kai: Bob said Carol owns Billing.", "Kai: Bob claims that Carol owns Billing.",
		"Kai: According to Bob, Carol owns Billing.", `Kai: Bob wrote "Carol owns Billing" in the doc.`} {
		ps := read(text)
		if len(ps) != 1 || ps[0].Object != "Carol" || ps[0].Confidence >= plain[0].Confidence || ps[0].Confidence >= 0.8 {
			t.Errorf("%q: %+v, want Carol proposed below the plain %.2f and below 0.8", text, ps, plain[0].Confidence)
		}
	}
}
