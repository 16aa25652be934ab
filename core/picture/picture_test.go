package picture

import (
	"strings"
	"testing"
)

// A name in the data cannot close the script it is written into, and a
// nonce that could leave its attribute or the policy is refused.
func TestPageHoldsItsData(t *testing.T) {
	page, err := Map(map[string]string{"name": `</script><script>alert(1)</script>`}, Options{Title: `<b>"x"</b>`})
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(page, "</script>"); n != 1 {
		t.Errorf("%d </script> in the page, want only its own", n)
	}
	if !strings.Contains(page, "<title>&lt;b&gt;&#34;x&#34;&lt;/b&gt;</title>") {
		t.Errorf("title not escaped:\n%s", page[:400])
	}
	if !strings.Contains(page, "script-src 'sha256-") || strings.Contains(page, "nonce") {
		t.Error("without a nonce the policy should allow the script by its hash")
	}
	for _, bad := range []string{`a" onload="x`, "a;script-src *", strings.Repeat("a", 129)} {
		if _, err := Graph(nil, Options{Nonce: bad}); err == nil || !strings.Contains(err.Error(), "nonce") {
			t.Errorf("nonce %q: %v", bad, err)
		}
	}
}
